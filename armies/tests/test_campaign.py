"""A crew as a campaign roster: a finished battle is carried into it once (the after-scenario rolls made on the
server or typed in, the entries' options changed, the history stored and readable on the page and the API), by
the roster's owner only; outsiders get 404, read-only viewers 403, and a refused carry changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from armies import campaign, services
from armies.models import Membership, Roster, RosterEntry, ScenarioRecord
from armies.services.campaign import scenario_carry
from battles import services as battles

ENFORCERS_PACK = Path(__file__).resolve().parents[2] / "rules/systems/enforcers/data/enforcers-core.json"
STATS = dict.fromkeys(("HL", "WS", "BS", "DX", "TN", "WL", "IT", "PR", "LD"), 10)
GUN = {"name": "Autogun", "damage": 4, "ranged": True, "capacity": 6,
       "range_bands_cm": {"short": 10, "medium": 25, "long": 50}}  # fmt: skip


@pytest.fixture
def enforcers_pack(db):
    ((pack, _created),) = services.load_packs(paths=[ENFORCERS_PACK])
    return pack


def user(name):
    return get_user_model().objects.create_user(username=name, password=None)


def crew(owner, pack, name, agents: list[tuple[str, dict]]) -> Roster:
    roster = services.roster_create(owner=owner, pack=pack, name=name, faction="enforcers")
    for agent_name, extra in agents:
        options = {"name": agent_name, "stats": STATS, "stat_bump": 0, "own_gear": True, "weapons": [GUN], **extra}
        services.entry_add(roster=roster, profile="apprentice", options=options)
    roster.refresh_from_db()
    return roster


@pytest.fixture
def table(enforcers_pack):
    """Alice's crew (Kate in a Military Carapace, Bob with IT 14) against Bob's thugs, Kate badly hurt, the
    scenario ended from the battle."""
    alice, bob = user("alice"), user("bob")
    mine = crew(alice, enforcers_pack, "Alice's crew", [("Kate", {"armour": "military-carapace"}),
                                                         ("Bob", {"stats": {**STATS, "IT": 14}})])  # fmt: skip
    theirs = crew(bob, enforcers_pack, "Thugs", [("Thug", {})])
    battle = battles.battle_create(user=alice, name="Warehouse", rosters=[mine, theirs])
    battles.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    kate = next(k for k, u in battles.load_state(battle).units.items() if u.name == "Kate")
    return {"alice": alice, "bob": bob, "crew": mine, "thugs": theirs, "battle": battle, "kate": kate}


def run(battle, who, name, inputs, dice=None):
    battle.refresh_from_db()
    return battles.command_run(battle_id=battle.pk, user=who, name=name, inputs=inputs, dice=dice,
                               expected_version=battle.version)  # fmt: skip


def hurt_and_end(t):
    # 8 AP of the Carapace then all 10 of Kate's HP: 0 AP (broken) and seriously wounded (L236–258).
    run(t["battle"], t["alice"], "damage", {"unit": t["kate"], "amount": 18})
    run(t["battle"], t["alice"], "end_game", {"winner": 1})
    t["battle"].refresh_from_db()
    assert t["battle"].status == "finished"
    # The damage is stored, not only folded in memory, and the log replays to it.
    assert battles.load_state(t["battle"]).units[t["kate"]].state["flags"]["seriously_wounded"] is True
    assert battles.replay_matches(t["battle"])[0]


def api_carry(client, roster, body):
    return client.post(f"/api/v1/rosters/{roster.pk}/scenarios/", json.dumps(body), content_type="application/json")


def kate_options(roster):
    return RosterEntry.objects.get(roster=roster, options__name="Kate").options


def test_a_finished_battle_is_carried_into_the_crew_with_the_dice_typed_in(client, table):
    hurt_and_end(table)
    client.force_login(table["alice"])
    # Kate: TN 15 fails against a light injury (d6 4), TN 20 fails against a medium one (2d6 3+5; a natural 20:
    # WL −1); Bob (IT 14, the best) repairs her Carapace: 20 fails, unusable 2d6 6+1 days.
    response = api_carry(client, table["crew"], {"battle": table["battle"].pk, "dice": [15, 4, 20, 3, 5, 20, 6, 1]})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"] == 1
    assert body["battle_name"] == "Warehouse"
    assert [d["value"] for d in body["dice"]] == [15, 4, 20, 3, 5, 20, 6, 1]
    assert body["repairs"][0]["repaired"] is False
    assert kate_options(table["crew"])["campaign"] == {"scenarios": 1, "injury_days": 8, "stat_losses": {"WL": 1},
                                                       "armour_broken": False, "armour_unusable_days": 7}  # fmt: skip
    record = ScenarioRecord.objects.get(roster=table["crew"])
    assert "campaign" not in record.options_before[next(iter(record.options_before))]
    listed = client.get(f"/api/v1/rosters/{table['crew'].pk}/scenarios/").json()
    assert [s["number"] for s in listed] == [1]
    assert listed[0]["lines"]
    table["crew"].refresh_from_db()
    assert response["ETag"] == f'"{table["crew"].version}"'
    # The builder now warns that Kate is out and her armour unusable (the army part reads what was carried).
    codes = {i["code"] for e in client.get(f"/api/v1/rosters/{table['crew'].pk}/").json()["entries"]
             for i in e["issues"]}  # fmt: skip
    assert {"injured", "armour_broken"} <= codes


def test_the_server_rolls_when_no_dice_are_given_and_the_page_shows_the_history(client, table):
    hurt_and_end(table)
    client.force_login(table["alice"])
    page = client.get(f"/rosters/{table['crew'].pk}/")
    assert page.status_code == 200
    assert b'data-testid="carry-form"' in page.content
    assert b"Warehouse" in page.content
    response = client.post(f"/rosters/{table['crew'].pk}/scenarios/", {"battle": table["battle"].pk})
    assert response.status_code == 302
    assert response["Location"].endswith("#campaign")
    record = ScenarioRecord.objects.get(roster=table["crew"])
    assert len(record.dice) >= 3  # two TN tests at least, and the repair
    page = client.get(f"/rosters/{table['crew'].pk}/").content.decode()
    assert 'data-testid="scenario-1"' in page
    assert 'data-testid="carry-form"' not in page
    assert record.record["lines"][0] in page.replace("&#x27;", "'").replace("&quot;", '"')


def test_a_battle_is_carried_once_and_a_battle_still_in_play_not_at_all(client, table):
    client.force_login(table["alice"])
    crew = table["crew"]
    before = crew.version
    response = api_carry(client, crew, {"battle": table["battle"].pk})
    assert response.status_code == 409
    assert "not over" in response.json()["detail"]
    hurt_and_end(table)
    assert api_carry(client, crew, {"battle": table["battle"].pk, "dice": [1]}).status_code == 400  # too few dice
    crew.refresh_from_db()
    assert crew.version == before
    assert not ScenarioRecord.objects.exists()
    assert "campaign" not in kate_options(crew)
    assert api_carry(client, crew, {"battle": table["battle"].pk}).status_code == 201
    again = api_carry(client, crew, {"battle": table["battle"].pk})
    assert again.status_code == 409
    assert "scenario 1" in again.json()["detail"]
    assert ScenarioRecord.objects.filter(roster=crew).count() == 1


def test_who_may_read_and_who_may_carry(client, table, make_user):
    hurt_and_end(table)
    crew, url = table["crew"], f"/api/v1/rosters/{table['crew'].pk}/scenarios/"
    body = {"battle": table["battle"].pk}
    # An outsider (bob cannot read alice's private crew): 404 on the read and the write.
    client.force_login(table["bob"])
    assert client.get(url).status_code == 404
    assert api_carry(client, crew, body).status_code == 404
    # Club reader: reads (403 on the write); club editor may edit the roster but not carry: owner only.
    club = services.club_create(user=table["alice"], name="Crew club")
    reader, editor = make_user("reader"), make_user("editor")
    services.member_add(club=club, username="reader", role=Membership.Role.MEMBER)
    services.member_add(club=club, username="editor", role=Membership.Role.EDITOR)
    Roster.objects.filter(pk=crew.pk).update(club=club, visibility=Roster.Visibility.CLUB)
    for who in (reader, editor):
        client.force_login(who)
        assert client.get(url).status_code == 200
        assert api_carry(client, crew, body).status_code == 403
        assert client.post(f"/rosters/{crew.pk}/scenarios/", body).status_code == 403
    # Bob's own roster was in the battle too, but alice did not play it: she may not carry it (404).
    client.force_login(table["alice"])
    assert api_carry(client, table["thugs"], body).status_code == 404
    assert not ScenarioRecord.objects.exists()
    # Anonymous: 404 on the read, 401/403 on the write.
    client.logout()
    assert client.get(url).status_code == 404
    assert api_carry(client, crew, body).status_code in (401, 403)


def test_bad_input_is_a_4xx_that_changes_nothing(client, table, enforcers_pack):
    hurt_and_end(table)
    client.force_login(table["alice"])
    crew = table["crew"]
    for body in ({}, {"battle": "x"}, {"battle": 10**9}, {"battle": table["battle"].pk, "dice": "many"}):
        response = api_carry(client, crew, body)
        assert response.status_code in (400, 404), body
    stale = api_carry(client, crew, {"battle": table["battle"].pk, "version": crew.version - 1})
    assert stale.status_code == 412
    assert client.post(f"/rosters/{crew.pk}/scenarios/", {"battle": "nope"}).status_code == 404
    assert not ScenarioRecord.objects.exists()


def test_a_system_without_a_campaign_shows_no_section_and_refuses(client, official_pack, owner):
    roster = services.roster_create(owner=owner, pack=official_pack, name="Blue", faction="protectorate")
    client.force_login(owner)
    assert b'id="campaign"' not in client.get(f"/rosters/{roster.pk}/").content
    assert campaign.battles_to_carry(owner, roster) == []
    with pytest.raises(services.ServiceError):
        scenario_carry(roster=roster, user=owner, battle={"id": 1, "side": 0, "finished": True})
