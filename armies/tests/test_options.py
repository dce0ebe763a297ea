"""An entry's `options`: checked against the system's options schema (a 400 naming the field, nothing changed),
roster rules reported by cost_roster, older export files converted, and what «Бронепехота» shows for each entry."""

import json

import pytest
from django.test import Client

from armies import exports, selectors, services
from armies.models import Roster, RosterEntry


@pytest.fixture
def api(owner):
    client = Client()
    client.force_login(owner)
    return client


def patch(client, path, body):
    return client.patch(path, json.dumps(body), content_type="application/json")


def post(client, path, body):
    return client.post(path, json.dumps(body), content_type="application/json")


def keys(roster):
    return {e.profile.slug: e.key for e in selectors.roster_entries(roster)}


@pytest.mark.parametrize(
    ("options", "field", "words"),
    [
        ({"weapons": ["laser-9000"]}, "options.weapons.0", "'laser-9000' is not one of"),
        ({"weapons": ["raketnaya-ustanovka", "raketnaya-ustanovka"]}, "options.weapons", "non-unique"),
        ({"pilot": [{"entry": "x", "soldier": "one"}]}, "options.pilot.0.soldier", "not of type 'integer'"),
        ({"pilot": [{"soldier": 1}]}, "options.pilot.0.entry", "this field is required"),
        ({"variant": "rockets"}, "options.variant", "unknown field"),  # GRYPHON has no variants
        ({"turbo": True}, "options.turbo", "unknown field"),
        ("fast", "options", "JSON object"),
    ],
)
def test_options_that_break_the_schema_are_a_400_naming_the_field(api, roster, options, field, words):
    key = keys(roster)["griffin"]
    before = RosterEntry.objects.get(roster=roster, key=key).options
    version = Roster.objects.get(pk=roster.pk).version
    response = patch(api, f"/api/v1/rosters/{roster.pk}/entries/{key}/", {"options": options})
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert words in str(errors[field]), errors  # a string from the system, a list from the serializer
    assert RosterEntry.objects.get(roster=roster, key=key).options == before
    assert Roster.objects.get(pk=roster.pk).version == version


def test_a_squad_has_no_options_and_a_new_entry_is_checked_too(api, roster):
    count = RosterEntry.objects.filter(roster=roster).count()
    response = post(api, f"/api/v1/rosters/{roster.pk}/entries/", {"profile": "aborigeny", "options": {"weapons": []}})
    assert response.status_code == 400
    assert response.json()["errors"] == {"options.weapons": "unknown field"}
    response = post(api, f"/api/v1/rosters/{roster.pk}/entries/", {"profile": "helix", "options": {"variant": "ufo"}})
    assert response.status_code == 400
    assert "'ufo' is not one of: rockets, repair" in response.json()["errors"]["options.variant"]
    assert RosterEntry.objects.filter(roster=roster).count() == count


def test_roster_rules_are_issues_not_refusals(api, roster):
    """Options that fit the schema but break a rule (a weapon the variant forbids, a pilot of too low a rank) are
    saved, and cost_roster reports them on the entry."""
    squad = keys(roster)["protectorate_kiberspetsnaz"]
    state = post(api, f"/api/v1/rosters/{roster.pk}/entries/", {"profile": "helix"}).json()
    helix = state["entries"][-1]
    options = {"variant": "repair", "weapons": ["raketnaya-ustanovka"], "pilot": {"entry": squad, "soldier": 2}}
    response = patch(api, f"/api/v1/rosters/{roster.pk}/entries/{helix['key']}/", {"options": options})
    assert response.status_code == 200
    helix = response.json()["entries"][-1]
    assert helix["options"]["pilot"] == [{"entry": squad, "soldier": 2}]  # one reference: a list of one
    codes = {i["code"] for i in helix["issues"]}
    assert "not_in_variant" in codes
    assert "hostile_faction" in codes  # a red HELIX in a blue army


def test_options_on_add_are_laid_over_the_defaults(roster):
    squad = keys(roster)["protectorate_kiberspetsnaz"]
    entry = services.entry_add(roster=roster, profile="viper", options={"pilot": [{"entry": squad, "soldier": 2}]})
    assert entry.options["pilot"] == [{"entry": squad, "soldier": 2}]
    assert entry.options["weapons"]  # the default fit stays
    with pytest.raises(services.ServiceError) as caught:
        services.entry_update(entry=entry, options={"weapons": "all"})
    assert "options.weapons" in caught.value.errors


def _v1_file(roster) -> dict:
    """The roster as the export of format version 1 wrote it, before options existed."""
    body = {
        "format": "armlist-roster",
        "format_version": 1,
        "system": roster.system,
        "pack": {"slug": roster.pack.slug, "version": roster.pack.version, "checksum": roster.pack.checksum},
        "roster": {"name": "From v1", "faction": roster.faction, "points_limit": None, "notes": ""},
        "entries": [],
    }
    for e in selectors.roster_entries(roster):
        loadout = {k: v for k, v in e.options.items() if k != "pilot"}
        body["entries"].append(
            {"key": e.key, "profile": e.profile.slug, "count": e.count, "loadout": loadout, "pilot": e.options.get("pilot", [])}
        )  # fmt: skip
    return {**body, "checksum": services.checksum_of(body)}


def test_an_export_of_version_1_still_imports_converted(roster):
    data = _v1_file(roster)
    gryphon = next(e for e in data["entries"] if e["profile"] == "griffin")
    assert gryphon["pilot"]
    assert gryphon["loadout"]["weapons"]
    imported = services.roster_import(
        user=roster.owner, data=data, visible_packs=selectors.pack_visible_to(roster.owner)
    )
    again = {e.key: e.options for e in selectors.roster_entries(imported)}
    assert again == {e.key: e.options for e in selectors.roster_entries(roster)}
    assert again[gryphon["key"]] == {**gryphon["loadout"], "pilot": gryphon["pilot"]}
    assert selectors.roster_state(imported)["total"] == selectors.roster_state(roster)["total"]


def test_a_version_1_file_with_a_bad_loadout_creates_nothing(roster):
    data = _v1_file(roster)
    body = {k: v for k, v in data.items() if k != "checksum"}
    body["entries"][1]["loadout"] = {"weapons": ["laser-9000"]}
    before = Roster.objects.count()
    with pytest.raises(services.ServiceError, match=r"entry 2 \(GRYPHON\).*options.weapons.0"):
        services.roster_import(
            user=roster.owner, data={**body, "checksum": services.checksum_of(body)},
            visible_packs=selectors.pack_visible_to(roster.owner),
        )  # fmt: skip
    assert Roster.objects.count() == before


def test_entry_views_of_bronepekhota(roster):
    """What the builder draws comes from the system: a vehicle's fit and pilot controls, a squad's table."""
    squad_key, gryphon_key = keys(roster)["protectorate_kiberspetsnaz"], keys(roster)["griffin"]
    views = exports.entry_views(selectors.roster_state(roster))
    blocks = {b["type"]: b for b in views[gryphon_key]["blocks"]}
    assert blocks["checks"]["option"] == "weapons"
    assert all(item["checked"] for item in blocks["checks"]["items"])
    slot = blocks["slots"]["slots"][0]
    chosen = [c for c in slot["choices"] if c["selected"]]
    assert [c["value"] for c in chosen] == [{"entry": squad_key, "soldier": 1, "copy": 1}]
    assert json.loads(chosen[0]["json"]) == chosen[0]["value"]
    assert slot["current"] == "Киберспецназ · №1 · rank 3"
    table = views[squad_key]["blocks"][0]
    assert table["summary"] == "6 soldiers · №1 drives GRYPHON"
    assert [r["mark"] for r in table["rows"]] == [True, False, False, False, False, False]
    assert views[gryphon_key]["lines"][-1] == "pilot: soldier 1 of Киберспецназ"
