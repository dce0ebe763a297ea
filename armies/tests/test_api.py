"""The roster API as the builder uses it: live totals, stale versions, import/export, upgrades and query counts."""

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from armies import selectors, services
from armies.models import Roster, RosterEntry


@pytest.fixture
def api(owner):
    client = Client()
    client.force_login(owner)
    return client


def post(client, path, body=None, **headers):
    return client.post(path, body or {}, content_type="application/json", **headers)


def patch(client, path, body, **headers):
    return client.patch(path, body, content_type="application/json", **headers)


def test_build_a_roster_through_the_api(api, official_pack):
    created = post(
        api,
        "/api/v1/rosters/",
        {"pack": official_pack.pk, "name": "API army", "faction": "polaris", "points_limit": 200},
    )
    assert created.status_code == 201
    rid = created.json()["id"]
    state = post(api, f"/api/v1/rosters/{rid}/entries/", {"profile": "polaris_lyogkiy_shturmovoy_desant"}).json()
    squad = state["entries"][0]["key"]
    state = post(api, f"/api/v1/rosters/{rid}/entries/", {"profile": "helix"}).json()
    helix = state["entries"][1]
    assert state["total"] == 180
    assert [i["code"] for i in helix["issues"]] == ["no_pilot"]
    assert helix["options"] == {"variant": "rockets", "weapons": ["raketnaya-ustanovka", "raketnaya-ustanovka-2"]}
    pilot = [{"entry": squad, "soldier": 2, "copy": 1}]
    state = patch(
        api, f"/api/v1/rosters/{rid}/entries/{helix['key']}/", {"options": {**helix["options"], "pilot": pilot}}
    ).json()
    assert state["entries"][1]["issues"] == []
    assert state["counts"]["error"] == 0
    repair = {"variant": "repair", "pilot": pilot}
    state = patch(api, f"/api/v1/rosters/{rid}/entries/{helix['key']}/", {"options": repair}).json()
    assert state["entries"][1]["options"] == repair
    assert state["entries"][1]["issues"] == []
    state = patch(api, f"/api/v1/rosters/{rid}/entries/{squad}/", {"count": 3}).json()
    assert state["total"] == 360
    assert [i["code"] for i in state["issues"]] == ["over_limit"]
    state = post(api, f"/api/v1/rosters/{rid}/entries/{helix['key']}/duplicate/").json()
    assert len(state["entries"]) == 3
    state = api.delete(f"/api/v1/rosters/{rid}/entries/{squad}/").json()
    assert [e["profile"]["slug"] for e in state["entries"]] == ["helix", "helix"]
    assert state["entries"][0]["options"] == {"variant": "repair"}


def test_bad_input_is_a_readable_400_and_changes_nothing(api, roster):
    before = roster.version
    response = post(api, f"/api/v1/rosters/{roster.pk}/entries/", {"profile": "unicorn"})
    assert response.status_code == 400
    assert "No unit 'unicorn'" in response.json()["detail"]
    response = post(api, f"/api/v1/rosters/{roster.pk}/entries/", {"profile": "minomet", "count": "many"})
    assert response.status_code == 400
    assert "count" in response.json()["errors"]
    response = post(api, "/api/v1/rosters/", {"pack": 999999, "name": "x", "faction": "polaris"})
    assert response.status_code == 404
    response = api.post(f"/api/v1/rosters/{roster.pk}/entries/", "not json", content_type="application/json")
    assert response.status_code == 400
    roster.refresh_from_db()
    assert roster.version == before


def test_stale_write_gets_412_with_the_current_version(api, roster):
    key = selectors.roster_entries(roster)[0].key
    current = api.get(f"/api/v1/rosters/{roster.pk}/")
    assert current["ETag"] == f'"{roster.version}"'
    ok = patch(api, f"/api/v1/rosters/{roster.pk}/entries/{key}/", {"count": 2}, HTTP_IF_MATCH=current["ETag"])
    assert ok.status_code == 200
    stale = patch(api, f"/api/v1/rosters/{roster.pk}/entries/{key}/", {"count": 5}, HTTP_IF_MATCH=current["ETag"])
    assert stale.status_code == 412
    assert stale.json()["current_version"] == roster.version + 1
    assert "changed elsewhere" in stale.json()["detail"]
    assert RosterEntry.objects.get(roster=roster, key=key).count == 2
    body_version = patch(api, f"/api/v1/rosters/{roster.pk}/", {"name": "Stale", "version": roster.version})
    assert body_version.status_code == 412


def test_export_then_import_through_the_api(api, roster):
    exported = api.get(f"/api/v1/rosters/{roster.pk}/export/").json()
    imported = post(api, "/api/v1/rosters/import/", exported)
    assert imported.status_code == 201
    assert imported.json()["total"] == 160
    tampered = {**exported, "entries": exported["entries"][:1]}
    count = Roster.objects.count()
    refused = post(api, "/api/v1/rosters/import/", tampered)
    assert refused.status_code == 400
    assert "checksum" in refused.json()["detail"]
    assert Roster.objects.count() == count


def test_balance_against_an_opponent(api, roster, official_pack, owner):
    other = services.roster_create(owner=owner, pack=official_pack, name="Red", faction="polaris")
    services.entry_add(roster=other, profile="polaris_lineynaya_klon_pehota")
    state = api.get(f"/api/v1/rosters/{roster.pk}/?against={other.pk}").json()
    assert state["opponent"]["name"] == "Red"
    balance = [i for i in state["issues"] if i["code"] == "balance"]
    assert balance[0]["severity"] == "warning"  # 160 against 70
    assert api.get(f"/api/v1/rosters/{roster.pk}/?against=999999").status_code == 404


def test_upgrade_preview_and_apply(api, roster, official_pack):
    assert api.get(f"/api/v1/rosters/{roster.pk}/upgrade/").json()["target"] is None
    data = json.loads(
        json.dumps(
            {
                "system": official_pack.system,
                "slug": official_pack.slug,
                "name": official_pack.name,
                "source": "",
                "factions": list(official_pack.factions.values("slug", "name", "colour", "joins_any")),
                "profiles": [{**p.as_rules_dict(), "notes": p.notes} for p in selectors.pack_profiles(official_pack)],
            }
        )
    )
    next(p for p in data["profiles"] if p["slug"] == "griffin")["cost"] = 90
    v2, _ = services.pack_load(pack_data=data)
    preview = api.get(f"/api/v1/rosters/{roster.pk}/upgrade/").json()
    assert preview["target"] == {"id": v2.pk, "version": 2}
    assert (preview["total_before"], preview["total_after"]) == (160, 180)
    assert api.get(f"/api/v1/rosters/{roster.pk}/").json()["pack"]["version"] == 1
    applied = post(api, f"/api/v1/rosters/{roster.pk}/upgrade/", {"pack": v2.pk})
    assert applied.status_code == 200
    assert applied.json()["pack"]["version"] == 2
    assert applied.json()["total"] == 180


def test_custom_units_in_the_browser_api(api, official_pack):
    pack = post(api, "/api/v1/packs/", {"name": "Homebrew"}).json()
    bad = post(
        api,
        f"/api/v1/packs/{pack['id']}/profiles/",
        {"name": "Tank", "faction": "blue", "kind": "vehicle", "cost": 50, "data": {"rank": "two"}},
    )
    assert bad.status_code == 400
    errors = bad.json()["errors"]
    assert "faction" in errors
    good = post(
        api,
        f"/api/v1/packs/{pack['id']}/profiles/",
        {
            "name": "Tank",
            "faction": "green",
            "kind": "vehicle",
            "cost": 50,
            "data": {
                "rank": 1,
                "weight": "light",
                "locomotion": "tracked",
                "rof": 1,
                "ammo_max": 10,
                "strength_max": 8,
                "speed_sectors": [{"min": 1, "max": 8, "speed": 4}],
                "arsenal": [{"key": "gun", "name": "Пушка", "range": "Д12", "power": "2Д20"}],
            },
        },
    )
    assert good.status_code == 201
    assert good.json()["profile"]["slug"] == "tank"
    published = post(api, f"/api/v1/packs/{pack['id']}/publish/")
    assert published.json()["published"] is True
    roster = post(api, "/api/v1/rosters/", {"pack": pack["id"], "name": "Mine", "faction": "polaris"}).json()
    state = post(api, f"/api/v1/rosters/{roster['id']}/entries/", {"profile": "tank"}).json()
    assert state["total"] == 50


def _roster_with(owner, pack, n):
    roster = services.roster_create(owner=owner, pack=pack, name=f"{n} entries", faction="protectorate")
    squads = []
    for i in range(n):
        if i % 2 == 0:
            squads.append(services.entry_add(roster=roster, profile="protectorate_kiberspetsnaz").key)
        else:
            services.entry_add(
                roster=roster, profile="griffin", options={"pilot": [{"entry": squads[-1], "soldier": 1}]}
            )
    roster.refresh_from_db()
    return roster


def _queries(client, path):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("path", ["/api/v1/rosters/{}/", "/rosters/{}/", "/rosters/{}/live/", "/rosters/{}/print/"])
def test_query_count_does_not_grow_with_entries(api, owner, official_pack, path):
    small, large = _roster_with(owner, official_pack, 5), _roster_with(owner, official_pack, 50)
    _queries(api, path.format(small.pk))  # warm caches (session, content types)
    few = _queries(api, path.format(small.pk))
    many = _queries(api, path.format(large.pk))
    assert many == few
    assert few <= 17, few  # the page's reads, and the roster's record in real games (battles.results): one query


def test_query_count_of_a_write_does_not_grow(api, owner, official_pack):
    counts = []
    for n in (5, 50):
        roster = _roster_with(owner, official_pack, n)
        key = selectors.roster_entries(roster)[0].key
        with CaptureQueriesContext(connection) as ctx:
            assert patch(api, f"/api/v1/rosters/{roster.pk}/entries/{key}/", {"count": 2}).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


JUNK = [None, [], "text", 0, -1, 10**12, {"a": {"b": [1, 2, {"c": None}]}}, {"version": "x"}, {"count": True}]


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_junk_never_causes_a_500(api, roster, junk):
    key = selectors.roster_entries(roster)[0].key
    writes = [
        ("post", "/api/v1/rosters/"),
        ("post", "/api/v1/rosters/import/"),
        ("patch", f"/api/v1/rosters/{roster.pk}/"),
        ("post", f"/api/v1/rosters/{roster.pk}/entries/"),
        ("patch", f"/api/v1/rosters/{roster.pk}/entries/{key}/"),
        ("post", f"/api/v1/rosters/{roster.pk}/upgrade/"),
        ("post", f"/api/v1/rosters/{roster.pk}/copy/"),
        ("post", "/api/v1/packs/"),
        ("post", "/api/v1/clubs/"),
    ]
    for field in ("options", "count", "profile", "pack", "faction", "points_limit", "club"):
        writes.append(("patch", f"/api/v1/rosters/{roster.pk}/entries/{key}/", {field: junk}))
        writes.append(("post", f"/api/v1/rosters/{roster.pk}/entries/", {"profile": "griffin", field: junk}))
        writes.append(("post", "/api/v1/rosters/", {"pack": 1, "name": "x", "faction": "polaris", field: junk}))
    for method, path, *body in writes:
        payload = body[0] if body else junk
        response = getattr(api, method)(path, json.dumps(payload), content_type="application/json")
        assert response.status_code < 500, (method, path, payload, response.content[:300])
    assert api.get(f"/api/v1/rosters/{roster.pk}/").status_code == 200
