"""Who may do what: owner, club editor, club member, outsider, anonymous user and link holder, against every
roster and pack endpoint (API and pages). Outsiders get 404, read-only viewers 403 on writes."""

import pytest
from django.test import Client

from armies import selectors, services
from armies.models import Roster

ACTORS = ["owner", "editor", "member", "outsider", "anonymous", "link"]


@pytest.fixture
def world(club_setup, official_pack):
    """A club roster shared by link, and a club draft pack with one unit."""
    roster = services.roster_create(
        owner=club_setup["owner"],
        pack=official_pack,
        name="Shared army",
        faction="protectorate",
        club=club_setup["club"],
        visibility=Roster.Visibility.CLUB,
    )
    squad = services.entry_add(roster=roster, profile="protectorate_kiberspetsnaz")
    services.entry_add(roster=roster, profile="griffin", options={"pilot": [{"entry": squad.key, "soldier": 1}]})
    link = services.share_link_create(roster=roster, user=club_setup["owner"])
    pack = services.pack_create(
        user=club_setup["owner"], system="bronepekhota", name="Club units", club=club_setup["club"]
    )
    services.profile_save(
        pack=pack,
        data={
            "name": "Gun X",
            "faction": "green",
            "kind": "gun",
            "cost": 10,
            "data": {
                "rank": 1,
                "mobile": True,
                "rof": 1,
                "ammo_max": 4,
                "strength_max": 3,
                "weapons": [{"key": "g", "name": "G", "range": "Д6", "power": "1Д6"}],
            },
        },
    )
    roster.refresh_from_db()
    return {**club_setup, "roster": roster, "squad": squad.key, "link": link, "pack": pack}


def client_for(world, actor):
    client = Client()
    if actor in ("owner", "editor", "member", "outsider"):
        client.force_login(world[actor])
    return client


def fill(path, world):
    gryphon = next(e.key for e in selectors.roster_entries(world["roster"]) if e.profile.slug == "griffin")
    return path.format(
        r=world["roster"].pk, e=gryphon, s=world["squad"], t=world["link"].token, p=world["pack"].pk, l=world["link"].pk
    )


def call(client, method, path, body=None):
    if method == "get":
        return client.get(path)
    return getattr(client, method)(path, body or {}, content_type="application/json")


# (method, path, kind): kind "read" = every reader gets 200; "write" = owner/editor may; "owner" = only the owner.
ROSTER_API = [
    ("get", "/api/v1/rosters/{r}/", "read"),
    ("get", "/api/v1/rosters/{r}/export/", "read"),
    ("get", "/api/v1/rosters/{r}/text/", "read"),
    ("get", "/api/v1/rosters/{r}/upgrade/", "read"),
    ("post", "/api/v1/rosters/{r}/copy/", "read"),
    ("patch", "/api/v1/rosters/{r}/", "write", {"name": "Renamed"}),
    ("post", "/api/v1/rosters/{r}/entries/", "write", {"profile": "minomet"}),
    ("patch", "/api/v1/rosters/{r}/entries/{e}/", "write", {"count": 2}),
    ("post", "/api/v1/rosters/{r}/entries/{e}/duplicate/", "write"),
    ("delete", "/api/v1/rosters/{r}/entries/{e}/", "write"),
    ("post", "/api/v1/rosters/{r}/upgrade/", "write", {"pack": 0}),
    ("get", "/api/v1/rosters/{r}/links/", "owner"),
    ("post", "/api/v1/rosters/{r}/links/", "owner"),
    ("delete", "/api/v1/rosters/{r}/links/{l}/", "owner"),
    ("delete", "/api/v1/rosters/{r}/", "owner"),
]
PACK_API = [
    ("get", "/api/v1/packs/{p}/", "read"),
    ("get", "/api/v1/packs/{p}/profiles/", "read"),
    ("get", "/api/v1/packs/{p}/profiles/gun-x/", "read"),
    (
        "post",
        "/api/v1/packs/{p}/profiles/",
        "write",
        {
            "name": "Y",
            "faction": "green",
            "kind": "squad",
            "cost": 1,
            "data": {"soldiers": [{"num": 1, "rank": 1, "speed": 1, "melee": 1, "armour": 1}]},
        },
    ),
    (
        "put",
        "/api/v1/packs/{p}/profiles/gun-x/",
        "write",
        {
            "name": "Gun X",
            "faction": "green",
            "kind": "gun",
            "cost": 12,
            "data": {
                "rank": 1,
                "mobile": True,
                "rof": 1,
                "ammo_max": 4,
                "strength_max": 3,
                "weapons": [{"key": "g", "name": "G"}],
            },
        },
    ),
    ("delete", "/api/v1/packs/{p}/profiles/gun-x/", "write"),
    ("post", "/api/v1/packs/{p}/publish/", "write"),
    ("delete", "/api/v1/packs/{p}/", "write"),
]
# Read expectations for non-readers: everyone outside the club sees 404 (the link opens only /s/ and /shared/).
READERS = {"owner", "editor", "member"}
WRITERS = {"owner", "editor"}


def expected(actor, kind):
    if actor not in READERS:
        return 404
    if kind == "read":
        return "ok"
    if kind == "write":
        return "ok" if actor in WRITERS else 403
    return "ok" if actor == "owner" else 403


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("endpoint", ROSTER_API + PACK_API, ids=lambda e: f"{e[0]} {e[1]}")
def test_api_matrix(world, actor, endpoint):
    method, path, kind, *body = endpoint
    if path.endswith("/upgrade/") and method == "post":
        body = [{"pack": world["roster"].pack_id}]  # not newer: a 400 for writers, but only after the access check
    response = call(client_for(world, actor), method, fill(path, world), body[0] if body else None)
    want = expected(actor, kind)
    if want == "ok":
        ok = response.status_code < 300 or (path.endswith("/upgrade/") and response.status_code == 400)
        assert ok, (response.status_code, getattr(response, "data", response.content))
    else:
        assert response.status_code == want, (response.status_code, response.content[:200])


ROSTER_PAGES = [
    ("get", "/rosters/{r}/", "read"),
    ("get", "/rosters/{r}/live/", "read"),
    ("get", "/rosters/{r}/print/", "read"),
    ("get", "/rosters/{r}/text/", "read"),
    ("get", "/rosters/{r}/export/", "read"),
    ("get", "/rosters/{r}/upgrade/", "read"),
    ("post", "/rosters/{r}/copy/", "read"),
    ("post", "/rosters/{r}/settings/", "write"),
    ("post", "/rosters/{r}/upgrade/", "write"),
    ("post", "/rosters/{r}/links/", "owner"),
    ("post", "/rosters/{r}/links/{l}/revoke/", "owner"),
    ("post", "/rosters/{r}/delete/", "owner"),
    ("get", "/packs/{p}/", "read"),
    ("get", "/packs/{p}/units/new/", "write"),
    ("get", "/packs/{p}/units/gun-x/", "write"),
    ("post", "/packs/{p}/units/gun-x/delete/", "write"),
    ("post", "/packs/{p}/publish/", "write"),
]


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("endpoint", ROSTER_PAGES, ids=lambda e: f"{e[0]} {e[1]}")
def test_page_matrix(world, actor, endpoint):
    method, path, kind = endpoint
    client = client_for(world, actor)
    response = client.get(fill(path, world)) if method == "get" else client.post(fill(path, world), {})
    if actor in ("anonymous", "link"):
        # Not logged in: sent to the login page, whatever exists behind the address.
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
        return
    want = expected(actor, kind)
    if want == "ok":
        assert response.status_code in (200, 302), response.status_code
    else:
        assert response.status_code == want


SHARED = [
    ("get", "/api/v1/shared/{t}/"),
    ("get", "/api/v1/shared/{t}/export/"),
    ("get", "/s/{t}/"),
    ("get", "/s/{t}/print/"),
    ("get", "/s/{t}/text/"),
    ("get", "/s/{t}/export/"),
]
SHARED_WRITES = [
    ("post", "/api/v1/shared/{t}/"),
    ("patch", "/api/v1/shared/{t}/"),
    ("put", "/api/v1/shared/{t}/"),
    ("delete", "/api/v1/shared/{t}/"),
    ("post", "/s/{t}/"),
    ("post", "/s/{t}/print/"),
]


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("endpoint", SHARED, ids=lambda e: e[1])
def test_link_reads_for_everyone_with_the_token(world, actor, endpoint):
    method, path = endpoint
    response = call(client_for(world, actor), method, fill(path, world))
    assert response.status_code == 200
    assert "Shared army" in response.content.decode()


@pytest.mark.parametrize("actor", ["link", "member", "outsider"])
@pytest.mark.parametrize("endpoint", SHARED_WRITES, ids=lambda e: f"{e[0]} {e[1]}")
def test_link_is_read_only(world, actor, endpoint):
    method, path = endpoint
    response = call(client_for(world, actor), method, fill(path, world), {"name": "x"})
    assert response.status_code == 403
    world["roster"].refresh_from_db()
    assert world["roster"].name == "Shared army"


def test_revoked_or_unshared_link_is_404(world):
    client = Client()
    path = f"/s/{world['link'].token}/"
    assert client.get(path).status_code == 200
    services.share_link_revoke(link=world["link"])
    assert client.get(path).status_code == 404
    assert client.get(f"/api/v1/shared/{world['link'].token}/").status_code == 404
    fresh = services.share_link_create(roster=world["roster"], user=world["owner"])
    assert client.get(f"/s/{fresh.token}/").status_code == 200
    services.roster_update(roster=world["roster"], user=world["owner"], visibility=Roster.Visibility.PRIVATE)
    assert client.get(f"/s/{fresh.token}/").status_code == 404
    assert client.get("/s/not-a-token/").status_code == 404


def test_tokens_are_long_and_unguessable(world):
    tokens = {services.share_link_create(roster=world["roster"], user=world["owner"]).token for _ in range(20)}
    assert len(tokens) == 20
    assert all(len(t) >= 32 for t in tokens)


def test_private_roster_is_hidden_from_the_club(world):
    services.roster_update(roster=world["roster"], user=world["owner"], visibility=Roster.Visibility.PRIVATE)
    for actor in ("editor", "member"):
        assert client_for(world, actor).get(f"/api/v1/rosters/{world['roster'].pk}/").status_code == 404
    assert client_for(world, "owner").get(f"/api/v1/rosters/{world['roster'].pk}/").status_code == 200


def test_lists_show_only_what_each_user_may_read(world, official_pack):
    mine = services.roster_create(owner=world["outsider"], pack=official_pack, name="Lone", faction="polaris")
    names = {r["name"] for r in client_for(world, "outsider").get("/api/v1/rosters/").json()}
    assert names == {"Lone"}
    names = {r["name"] for r in client_for(world, "member").get("/api/v1/rosters/").json()}
    assert names == {"Shared army"}
    packs = {p["name"] for p in client_for(world, "outsider").get("/api/v1/packs/").json()}
    assert packs == {official_pack.name}
    packs = {p["name"] for p in client_for(world, "member").get("/api/v1/packs/").json()}
    assert packs == {official_pack.name, "Club units"}
    assert client_for(world, "anonymous").get("/api/v1/rosters/").json() == []
    assert mine.pk not in {r["id"] for r in client_for(world, "owner").get("/api/v1/rosters/").json()}


def test_csrf_stays_on(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["owner"])
    path = f"/api/v1/rosters/{world['roster'].pk}/entries/"
    refused = client.post(path, {"profile": "minomet"}, content_type="application/json")
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["detail"]
    client.get(f"/rosters/{world['roster'].pk}/")  # sets the csrftoken cookie, as the builder page does
    token = client.cookies["csrftoken"].value
    accepted = client.post(path, {"profile": "minomet"}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 201
    page = client.post(f"/rosters/{world['roster'].pk}/copy/")
    assert page.status_code == 403


def test_club_api_roles(world):
    club = world["club"].pk
    member = client_for(world, "member")
    assert member.get(f"/api/v1/clubs/{club}/").status_code == 200
    assert (
        member.post(
            f"/api/v1/clubs/{club}/members/", {"username": "outsider"}, content_type="application/json"
        ).status_code
        == 403
    )
    assert client_for(world, "outsider").get(f"/api/v1/clubs/{club}/").status_code == 404
    assert client_for(world, "anonymous").get(f"/api/v1/clubs/{club}/members/").status_code == 404
    owner = client_for(world, "owner")
    added = owner.post(f"/api/v1/clubs/{club}/members/", {"username": "outsider"}, content_type="application/json")
    assert added.status_code == 201
    assert client_for(world, "outsider").get(f"/api/v1/rosters/{world['roster'].pk}/").status_code == 200
    promoted = owner.patch(
        f"/api/v1/clubs/{club}/members/{world['member'].pk}/", {"role": "editor"}, content_type="application/json"
    )
    assert promoted.status_code == 200
    renamed = member.patch(
        f"/api/v1/rosters/{world['roster'].pk}/", {"name": "By member"}, content_type="application/json"
    )
    assert renamed.status_code == 200
    left = member.delete(f"/api/v1/clubs/{club}/members/{world['member'].pk}/")
    assert left.status_code == 204
    assert member.get(f"/api/v1/rosters/{world['roster'].pk}/").status_code == 404
