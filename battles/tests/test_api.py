"""The battle API and pages: the permission matrix on every endpoint, ETag / 304 polling, 412 on stale writes,
Idempotency-Key retries, catching up with events?after, CSRF."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import timezone

from armies.models import Club, Membership, Roster, ShareLink
from battles.models import Battle, BattleEvent, BattleUnit
from battles.tests.conftest import PASSWORD


def client_for(user) -> Client:
    c = Client()
    if user is not None:
        assert c.login(username=user.username, password=PASSWORD)
    return c


def spectator_client(battle) -> Client:
    c = Client()
    response = c.get(f"/battles/watch/{battle.spectator_token}/")
    assert response.status_code == 302
    return c


def post(c: Client, url: str, body: dict, *, etag: str | None = None, key: str | None = None):
    headers = {}
    if etag:
        headers["HTTP_IF_MATCH"] = etag
    if key:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return c.post(url, data=json.dumps(body), content_type="application/json", **headers)


def reads(battle) -> list[str]:
    b = battle.pk
    return [
        f"/api/v1/battles/{b}/",
        f"/api/v1/battles/{b}/events?after=0",
        f"/battles/{b}/",
        f"/battles/{b}/board",
        f"/battles/{b}/log/",
    ]


def writes(battle) -> list[tuple[str, dict]]:
    b = f"/api/v1/battles/{battle.pk}"
    return [
        (f"{b}/commands/round/", {}),
        (f"{b}/commands/initiative/", {"dice": [5, 3]}),
        (f"{b}/commands/order/", {"order": [0, 1]}),
        (f"{b}/commands/done/", {"unit": "0.e1.1"}),
        (f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo": 11}}),
        (f"{b}/commands/melee/", {"unit": "0.e1.1", "soldier": 1, "target": "1.e1.1", "target_soldier": 1}),
        (f"{b}/undo", {"seq": 2}),
        (f"{b}/commands/mission/", {"side": 0}),
    ]


@pytest.mark.parametrize("role", ["player", "opponent", "spectator", "outsider", "anonymous"])
def test_permission_matrix_reads(battle, alice, bob, outsider, role):
    c = {
        "player": lambda: client_for(alice),
        "opponent": lambda: client_for(bob),
        "spectator": lambda: spectator_client(battle),
        "outsider": lambda: client_for(outsider),
        "anonymous": lambda: Client(),
    }[role]()
    for url in reads(battle):
        response = c.get(url)
        expected = 404 if role in ("outsider", "anonymous") else 200
        assert response.status_code == expected, (role, url, response.status_code)


@pytest.mark.parametrize("role", ["player", "opponent", "spectator", "outsider", "anonymous"])
def test_permission_matrix_writes(battle, alice, bob, outsider, role):
    c = {
        "player": lambda: client_for(alice),
        "opponent": lambda: client_for(bob),
        "spectator": lambda: spectator_client(battle),
        "outsider": lambda: client_for(outsider),
        "anonymous": lambda: Client(),
    }[role]()
    statuses = []
    for url, body in writes(battle):
        battle.refresh_from_db()
        before = BattleEvent.objects.filter(battle=battle).count()
        response = post(c, url, body, etag=battle.etag)
        if role == "spectator":
            assert response.status_code == 403, (url, response.content)
        elif role in ("outsider", "anonymous"):
            assert response.status_code == 404, (url, response.content)
        else:
            # Players may write; the rules may still refuse (not your unit 403 is checked below, 400/409 here).
            assert response.status_code in (201, 400, 409, 403), (url, response.status_code, response.content)
            assert "detail" in response.json() or response.status_code == 201
        if role not in ("player", "opponent"):
            assert BattleEvent.objects.filter(battle=battle).count() == before
        statuses.append(response.status_code)
    if role in ("player", "opponent"):
        assert 201 in statuses  # players do write


def test_players_act_only_with_their_own_units(battle, alice, bob):
    b = f"/api/v1/battles/{battle.pk}"
    response = post(client_for(bob), f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo": 3}}, etag='"v2"')
    assert response.status_code == 403
    assert "belongs to another player" in response.json()["detail"]
    response = post(client_for(alice), f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo": 3}}, etag='"v2"')
    assert response.status_code == 201


def test_state_etag_and_304(battle, alice):
    c = client_for(alice)
    url = f"/api/v1/battles/{battle.pk}/"
    response = c.get(url)
    assert response.status_code == 200
    assert response["ETag"] == '"v2"'
    body = response.json()
    assert body["version"] == 2
    assert body["viewer"] == {"role": "player", "sides": [0]}
    assert {u["key"] for u in body["units"]} >= {"0.e2.1", "1.e2.1"}
    salamander = next(u for u in body["units"] if u["key"] == "0.e2.1")
    assert salamander["view"]["strength"]["value"] == 7
    assert salamander["view"]["strength"]["speed"] == 4
    assert c.get(url, HTTP_IF_NONE_MATCH='"v2"').status_code == 304
    assert c.get(f"/battles/{battle.pk}/board", HTTP_IF_NONE_MATCH='"v2"').status_code == 304
    post(c, f"{url}commands/adjust/", {"unit": "0.e2.1", "changes": {"strength": 6}}, etag='"v2"')
    response = c.get(url, HTTP_IF_NONE_MATCH='"v2"')
    assert response.status_code == 200
    assert response["ETag"] == '"v3"'


def test_304_poll_does_not_load_units(battle, alice, django_assert_max_num_queries):
    c = client_for(alice)
    c.get(f"/api/v1/battles/{battle.pk}/")  # warm the session
    with django_assert_max_num_queries(4):  # session, user, and one query for access + version
        assert c.get(f"/api/v1/battles/{battle.pk}/", HTTP_IF_NONE_MATCH='"v2"').status_code == 304


def test_taps_on_different_units_at_once_both_count(battle, alice, bob):
    """Two phones tap within the same moment (both based on v2): different units commute, so both apply; a slider
    step on the same unit commutes too; an absolute set of a unit changed meanwhile does not."""
    b = f"/api/v1/battles/{battle.pk}"
    first = post(client_for(bob), f"{b}/commands/adjust/", {"unit": "1.e2.1", "changes": {"ammo": 9}}, etag='"v2"')
    assert first.status_code == 201
    second = post(client_for(alice), f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo": 5}}, etag='"v2"')
    assert second.status_code == 201
    assert second.json()["version"] == 4
    assert BattleUnit.objects.get(battle=battle, key="0.e2.1").state["ammo"] == 5
    assert BattleUnit.objects.get(battle=battle, key="1.e2.1").state["ammo"] == 9
    step = post(
        client_for(alice), f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo_step": -1}}, etag='"v3"'
    )
    assert step.status_code == 201  # based on v3, after alice's own set at v4: a step still counts
    assert BattleUnit.objects.get(battle=battle, key="0.e2.1").state["ammo"] == 4
    stale_set = post(
        client_for(alice), f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo": 8}}, etag='"v4"'
    )
    assert stale_set.status_code == 412  # an absolute set of a unit that changed since: a real conflict
    assert BattleUnit.objects.get(battle=battle, key="0.e2.1").state["ammo"] == 4


def test_stale_write_gets_412_with_current_state(battle, alice, bob):
    b = f"/api/v1/battles/{battle.pk}"
    rolled = post(client_for(bob), f"{b}/commands/initiative/", {"dice": [3, 9]}, etag='"v2"')
    assert rolled.status_code == 201
    response = post(client_for(alice), f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo": 5}}, etag='"v2"')
    assert response.status_code == 412
    body = response.json()
    assert body["version"] == 3
    assert body["state"]["version"] == 3
    assert "nothing was recorded" in body["detail"]
    assert BattleUnit.objects.get(battle=battle, key="0.e2.1").state["ammo"] == 12
    # The `version` field works as well as If-Match.
    ok = post(client_for(alice), f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo": 5}, "version": 3})
    assert ok.status_code == 201


def test_write_without_version_gets_428(battle, alice):
    response = post(
        client_for(alice), f"/api/v1/battles/{battle.pk}/commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo": 5}}
    )
    assert response.status_code == 428
    assert "If-Match" in response.json()["detail"]


def test_idempotency_key_retry_returns_the_first_answer(battle, alice):
    c = client_for(alice)
    url = f"/api/v1/battles/{battle.pk}/commands/melee/"
    body = {"unit": "0.e1.1", "soldier": 1, "target": "1.e1.1", "target_soldier": 1, "dice": [5, 2]}
    first = post(c, url, body, etag='"v2"', key="retry-1")
    assert first.status_code == 201
    again = post(c, url, body, etag='"v2"', key="retry-1")  # same key, same (now stale) version
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    a, b = first.json(), again.json()
    assert a["events"] == b["events"]
    assert a["outcome"] == b["outcome"]
    assert b["replayed"] is True
    assert BattleEvent.objects.filter(battle=battle).count() == 2 + len(a["events"])
    other = post(c, url, {**body, "dice": [1, 6]}, etag=first["ETag"], key="retry-1")
    assert other.status_code == 422


def test_bad_input_is_a_clear_400(battle, alice):
    c = client_for(alice)
    b = f"/api/v1/battles/{battle.pk}"
    response = post(c, f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"strength": 99}}, etag='"v2"')
    assert response.status_code == 400
    assert "strength must be between 0 and 7" in response.json()["detail"]
    response = post(c, f"{b}/commands/teleport/", {}, etag='"v2"')
    assert response.status_code == 400
    assert "no command" in response.json()["detail"]
    response = post(c, f"{b}/commands/done/", {"unit": "nope"}, etag='"v2"')
    assert response.status_code == 400
    assert "no unit" in response.json()["detail"]
    response = post(c, f"{b}/commands/adjust/", {"unit": "0.e2.1"}, etag='"v2"')
    assert response.status_code == 400
    assert "changes" in response.json()["errors"]
    assert BattleEvent.objects.filter(battle=battle).count() == 2


def test_events_after_seq_for_catching_up(battle, alice):
    c = client_for(alice)
    b = f"/api/v1/battles/{battle.pk}"
    post(c, f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"strength": 6}}, etag='"v2"')
    post(c, f"{b}/commands/adjust/", {"unit": "0.e2.1", "changes": {"strength": 5}}, etag='"v3"')
    response = c.get(f"{b}/events?after=2")
    body = response.json()
    assert body["version"] == 4
    assert [e["seq"] for e in body["events"]] == [3, 4]
    assert body["events"][0]["text"].startswith("By hand: SALAMANDER")
    assert c.get(f"{b}/events?after=x").status_code == 400


def test_create_battle_by_api_and_join_by_invitation(rosters, alice, bob, outsider):
    # Bob shares his roster with the club; alice, a member, starts the battle with it.
    club = Club.objects.create(name="Friday club")
    Membership.objects.create(club=club, user=alice)
    Membership.objects.create(club=club, user=bob)
    Roster.objects.filter(pk=rosters[1].pk).update(club=club, visibility=Roster.Visibility.CLUB)
    c = client_for(alice)
    response = post(
        c,
        "/api/v1/battles/",
        {"rosters": [rosters[0].pk, rosters[1].pk], "settings": {"panic": True}, "enforce_turns": True},
    )
    assert response.status_code == 201
    body = response.json()
    invite = body["invitations"][0]["url"]
    # The opponent joins by the link; an outsider may not take a side that is taken.
    joiner = client_for(bob)
    assert joiner.get(invite).status_code == 200
    assert joiner.post(invite).status_code == 302
    assert client_for(outsider).post(invite).status_code == 409
    state = client_for(bob).get(f"/api/v1/battles/{body['id']}/").json()
    assert state["settings"]["enforce_turns"] is True
    assert state["settings"]["system"]["panic"] is True
    assert state["sides"][1]["player"] == "bob"
    # Rosters the caller cannot see are refused without revealing them.
    other = post(client_for(outsider), "/api/v1/battles/", {"rosters": [rosters[0].pk, rosters[1].pk]})
    assert other.status_code == 404


def test_csrf_is_enforced_for_session_writes(battle, alice):
    c = Client(enforce_csrf_checks=True)
    c.login(username=alice.username, password=PASSWORD)
    url = f"/api/v1/battles/{battle.pk}/commands/adjust/"
    body = {"unit": "0.e2.1", "changes": {"ammo": 7}}
    assert post(c, url, body, etag='"v2"').status_code == 403
    c.get(f"/battles/{battle.pk}/")  # the page sets the csrftoken cookie
    token = c.cookies["csrftoken"].value
    response = c.post(
        url, data=json.dumps(body), content_type="application/json", HTTP_IF_MATCH='"v2"', HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 201


def test_pages_render_for_a_phone(battle, alice):
    c = client_for(alice)
    page = c.get(f"/battles/{battle.pk}/").content.decode()
    assert 'data-etag="&quot;v2&quot;"' in page or "data-etag=" in page
    assert "SALAMANDER" in page
    assert "battle.js" in page
    assert c.get("/battles/").status_code == 200
    assert c.get("/battles/new/").status_code == 200


def test_spectator_sees_the_board_without_controls(battle):
    c = spectator_client(battle)
    board = c.get(f"/battles/{battle.pk}/board").content.decode()
    assert "SALAMANDER" in board
    assert "data-act=" not in board
    assert "data-undo=" not in board
    page = c.get(f"/battles/{battle.pk}/").content.decode()
    assert "Spectator" in page
    assert "action-sheet" not in page
    assert battle.sides.get(index=1).invite_token not in page  # invitations are for players only


def test_game_over_shows_the_winner_and_a_summary(battle, alice):
    c = client_for(alice)
    response = post(
        c, f"/api/v1/battles/{battle.pk}/commands/mission/", {"side": 1, "note": "radar taken"}, etag='"v2"'
    )
    assert response.status_code == 201
    board = c.get(f"/battles/{battle.pk}/board").content.decode()
    assert "The game is over" in board
    assert "Red army wins" in board
    assert "Rounds played: 1" in board
    response = post(c, f"/api/v1/battles/{battle.pk}/commands/round/", {}, etag='"v3"')
    assert response.status_code == 409
    assert "over" in response.json()["detail"]


def test_start_from_the_new_battle_page_with_the_opponents_share_link(rosters, alice, bob):
    blue, red = rosters
    Roster.objects.filter(pk=red.pk).update(visibility=Roster.Visibility.LINK)
    link = ShareLink.objects.create(roster=red, token="share-token-for-red-army-0123456789", created_by=bob)
    c = client_for(alice)
    response = c.post(
        "/battles/new/",
        {
            "name": "Friday",
            "rosters": [str(blue.pk)],
            "my_roster": str(blue.pk),
            "roster_links": f"https://example.org/s/{link.token}/",
            "enforce_turns": "on",
            "rules": "house",  # the settings below are read only for house rules
            "setting_mode": "virtual",
            "setting_grenades": "on",
            "setting_survival_die": "6",
        },
    )
    assert response.status_code == 302
    battle = Battle.objects.get(name="Friday")
    assert response["Location"] == f"/battles/{battle.pk}/"
    assert [s.name for s in battle.sides.order_by("index")] == ["Blue army", "Red army"]
    assert battle.settings["enforce_turns"] is True
    assert battle.settings["system"]["grenades"] is True
    assert battle.settings["system"]["panic"] is False  # unticked boxes are off
    # A revoked link starts nothing and says why.
    link.revoked_at = timezone.now()
    link.save()
    again = c.post("/battles/new/", {"rosters": [str(blue.pk)], "my_roster": str(blue.pk), "roster_links": link.token})
    assert again.status_code == 400
    assert "share link was revoked" in again.content.decode()
    assert Battle.objects.count() == 1


def test_304_fast_path_with_api_tokens(battle, alice, bob, outsider, django_assert_max_num_queries):
    """Token polls take the one-query fast path; it never answers 304 to someone who could not read the battle."""
    from rest_framework.authtoken.models import Token

    url = f"/api/v1/battles/{battle.pk}/"
    etag = f'"v{Battle.objects.get(pk=battle.pk).version}"'

    keys = {user.pk: Token.objects.get_or_create(user=user)[0].key for user in (alice, bob, outsider)}

    def token_get(user, **headers):
        return Client().get(url, HTTP_AUTHORIZATION=f"Token {keys[user.pk]}", **headers)

    for player in (alice, bob):
        with django_assert_max_num_queries(1):
            response = token_get(player, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304
        assert response["ETag"] == etag
    assert token_get(alice, HTTP_IF_NONE_MATCH='"v0"').status_code == 200  # stale ETag: the full state
    assert token_get(outsider, HTTP_IF_NONE_MATCH=etag).status_code == 404  # a right guess reveals nothing
    bad = Client().get(url, HTTP_AUTHORIZATION="Token nope", HTTP_IF_NONE_MATCH=etag)
    assert bad.status_code == 401  # a bad token is refused before any battle is looked up
    assert bad["WWW-Authenticate"] == "Token"
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert token_get(alice, HTTP_IF_NONE_MATCH=etag).status_code != 304
