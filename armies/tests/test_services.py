"""Writes: rosters and entries, stale versions, export/import, pack upgrades and custom packs."""

import copy

import pytest

from armies import selectors, services
from armies.models import DataPack, Roster, RosterEntry, UnitProfile


def keys_by_slug(roster):
    return {e.profile.slug: e.key for e in selectors.roster_entries(roster)}


def test_roster_state_has_totals_and_issues_per_entry(roster):
    state = selectors.roster_state(roster)
    assert state["total"] == 160
    assert state["counts"]["error"] == 0
    assert [e["profile"]["slug"] for e in state["entries"]] == ["protectorate_kiberspetsnaz", "griffin"]


def test_every_write_bumps_the_version_and_a_stale_write_is_refused(roster):
    before = roster.version
    entry = services.entry_add(roster=roster, profile="minomet", expected_version=before)
    roster.refresh_from_db()
    assert roster.version == before + 1
    with pytest.raises(services.StaleVersion) as caught:
        services.entry_update(entry=entry, count=3, expected_version=before)
    assert caught.value.current == before + 1
    entry.refresh_from_db()
    assert entry.count == 1


def test_add_remove_duplicate(roster):
    keys = keys_by_slug(roster)
    gryphon = RosterEntry.objects.get(roster=roster, key=keys["griffin"])
    dup = services.entry_duplicate(entry=gryphon)
    assert dup.key != gryphon.key
    assert "pilot" not in dup.options  # a soldier drives one vehicle: the copy needs its own pilot
    assert gryphon.options["pilot"]
    assert dup.options == {k: v for k, v in gryphon.options.items() if k != "pilot"}
    assert dup.options["weapons"]
    assert selectors.roster_state(roster)["total"] == 230
    squad = RosterEntry.objects.get(roster=roster, key=keys["protectorate_kiberspetsnaz"])
    services.entry_remove(entry=squad)
    gryphon.refresh_from_db()
    assert "pilot" not in gryphon.options  # the pilot left with his squad
    assert gryphon.options["weapons"]  # the rest of its options stay
    codes = {i["code"] for e in selectors.roster_state(roster)["entries"] for i in e["issues"]}
    assert "no_pilot" in codes


def test_entry_input_is_checked(roster, official_pack):
    with pytest.raises(services.ServiceError, match="No unit"):
        services.entry_add(roster=roster, profile="no-such-unit")
    with pytest.raises(services.ServiceError, match="count"):
        services.entry_add(roster=roster, profile="minomet", count=0)
    with pytest.raises(services.ServiceError, match="options"):
        services.entry_add(roster=roster, profile="minomet", options=["x"])
    other = services.pack_create(user=roster.owner, system="bronepekhota", name="Mine")
    foreign = services.profile_save(pack=other, data=copy.deepcopy(_custom_squad()))
    with pytest.raises(services.ServiceError, match="not in this roster's pack"):
        services.entry_add(roster=roster, profile=foreign)
    assert RosterEntry.objects.filter(roster=roster).count() == 2


def test_roster_with_errors_can_still_be_saved(owner, official_pack):
    r = services.roster_create(owner=owner, pack=official_pack, name="Broken", faction="protectorate", points_limit=10)
    services.entry_add(roster=r, profile="raptor")  # red vehicle, no pilot, over the limit
    state = selectors.roster_state(r)
    assert state["counts"]["error"] >= 3
    assert RosterEntry.objects.filter(roster=r).count() == 1


def test_roster_fields_are_checked(owner, official_pack):
    with pytest.raises(services.ServiceError) as caught:
        services.roster_create(owner=owner, pack=official_pack, name="X", faction="green")
    assert "faction" in caught.value.errors
    with pytest.raises(services.ServiceError):
        services.roster_create(owner=owner, pack=official_pack, name="  ", faction="polaris")
    assert not Roster.objects.exists()


def test_export_import_round_trip(roster, make_user):
    data = services.roster_export(roster=roster)
    assert data["format"] == "armlist-roster"
    assert data["format_version"] == 3
    assert data["extra_packs"] == []  # official pack only: no entry names a pack
    assert all("pack" not in e for e in data["entries"])
    assert "loadout" not in data["entries"][1]
    assert data["entries"][1]["options"]["pilot"]
    other = make_user("other")
    imported = services.roster_import(user=other, data=data, visible_packs=selectors.pack_visible_to(other))
    assert imported.owner == other
    original = selectors.roster_state(roster)
    again = selectors.roster_state(imported)
    assert again["total"] == original["total"]
    assert [(e["key"], e["options"]) for e in again["entries"]] == [
        (e["key"], e["options"]) for e in original["entries"]
    ]
    assert again["counts"] == original["counts"]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: "not a dict", "not an Armlist roster"),
        (lambda d: {**d, "format": "battlescribe"}, "not an Armlist roster export"),
        (lambda d: {**d, "format_version": 4}, "format version 4 is not supported"),
        (lambda d: {**d, "roster": {**d["roster"], "name": "Tampered"}}, "checksum does not match"),
        (lambda d: {k: v for k, v in d.items() if k != "checksum"}, "checksum does not match"),
    ],
)
def test_import_refuses_bad_files_and_creates_nothing(roster, mutate, message):
    data = mutate(services.roster_export(roster=roster))
    before = Roster.objects.count()
    with pytest.raises(services.ServiceError, match=message):
        services.roster_import(user=roster.owner, data=data, visible_packs=selectors.pack_visible_to(roster.owner))
    assert Roster.objects.count() == before


def test_import_refuses_unknown_units_even_with_a_valid_checksum(roster):
    data = services.roster_export(roster=roster)
    body = {k: v for k, v in data.items() if k not in ("checksum", "signature")}  # a forger drops the signature
    body["entries"][0]["profile"] = "made-up"
    forged = {**body, "checksum": services.checksum_of(body)}
    before = (Roster.objects.count(), RosterEntry.objects.count())
    with pytest.raises(services.ServiceError, match="not in"):
        services.roster_import(user=roster.owner, data=forged, visible_packs=selectors.pack_visible_to(roster.owner))
    assert (Roster.objects.count(), RosterEntry.objects.count()) == before


def _new_official_version(pack, *, mutate):
    """Loads a changed copy of the official pack file, as `load_packs` would after the file changed."""
    data = {
        "format": "armlist-pack",
        "format_version": 1,
        "system": pack.system,
        "slug": pack.slug,
        "name": pack.name,
        "source": pack.source,
        "factions": list(pack.factions.values("slug", "name", "colour", "joins_any")),
        "provenance": pack.meta.get("provenance"),
        "profiles": [{**p.as_rules_dict(), "notes": p.notes} for p in selectors.pack_profiles(pack)],
    }
    mutate(data["profiles"])
    new, created = services.pack_load(pack_data=data)
    assert created
    return new


def test_upgrade_shows_changes_then_applies(roster, official_pack):
    keys = keys_by_slug(roster)

    def mutate(profiles):
        gryphon = next(p for p in profiles if p["slug"] == "griffin")
        gryphon["cost"] = 80
        gryphon["data"]["arsenal"] = [w for w in gryphon["data"]["arsenal"] if w["key"] != "lazernaya-pushka"]
        profiles.remove(next(p for p in profiles if p["slug"] == "protectorate_kiberspetsnaz"))

    v2 = _new_official_version(official_pack, mutate=mutate)
    assert selectors.roster_state(roster)["newer_pack"] == {"id": v2.pk, "version": 2}
    plan = services.roster_upgrade_plan(roster=roster, target=v2)
    assert (plan["total_before"], plan["total_after"]) == (160, 80)
    lines = [line for c in plan["changes"] for line in c["changes"]]
    assert any("70 → 80" in line for line in lines)
    assert any("Лазерная пушка" in line for line in lines)
    assert any("no longer in the pack" in line for line in lines)
    assert plan["removed_entries"] == [keys["protectorate_kiberspetsnaz"]]
    # Nothing changed yet: the roster still pins v1.
    roster.refresh_from_db()
    assert roster.pack == official_pack
    services.roster_upgrade(roster=roster, target=v2)
    roster.refresh_from_db()
    assert roster.pack == v2
    state = selectors.roster_state(roster)
    assert state["total"] == 80
    gryphon = state["entries"][0]
    assert "lazernaya-pushka" not in gryphon["options"]["weapons"]
    assert "pilot" not in gryphon["options"]


def _custom_squad():
    return {
        "name": "Ополчение клуба",
        "faction": "protectorate",
        "kind": "squad",
        "cost": 55,
        "data": {
            "soldiers": [
                {"num": n, "rank": 2, "speed": 4, "range": "Д6+1", "power": "1Д6", "melee": 2, "armour": 2}
                for n in range(1, 7)
            ]
        },
    }


def test_custom_pack_draft_publish_and_new_version(owner, official_pack):
    pack = services.pack_create(user=owner, system="bronepekhota", name="Club specials")
    assert not pack.published
    assert set(pack.factions.values_list("slug", flat=True)) == {"protectorate", "polaris", "green"}
    unit = services.profile_save(pack=pack, data=_custom_squad())
    assert unit.pack == pack
    assert unit.slug == "opolchenie-kluba"
    with pytest.raises(services.ServiceError, match="Publish the pack"):
        services.roster_create(owner=owner, pack=pack, name="R", faction="protectorate")
    services.pack_publish(pack=pack)
    pack.refresh_from_db()
    roster = services.roster_create(owner=owner, pack=pack, name="R", faction="protectorate")
    services.entry_add(roster=roster, profile=unit.slug)
    # Editing a published pack makes a draft v2; v1 and the roster keep their numbers.
    changed = {**_custom_squad(), "cost": 65}
    saved = services.profile_save(pack=pack, data=changed, slug=unit.slug)
    assert saved.pack.version == 2
    assert not saved.pack.published
    assert UnitProfile.objects.get(pack=pack, slug=unit.slug).cost == 55
    assert selectors.roster_state(roster)["total"] == 55
    assert selectors.roster_state(roster)["newer_pack"] is None  # drafts are not offered
    services.pack_publish(pack=saved.pack)
    assert selectors.roster_state(roster)["newer_pack"]["version"] == 2


def test_custom_unit_errors_are_readable(owner, official_pack):
    pack = services.pack_create(user=owner, system="bronepekhota", name="Mine")
    bad = _custom_squad()
    bad["data"]["soldiers"][0]["power"] = "three dice"
    bad["data"]["soldiers"][1].pop("armour")
    bad["kind"] = "tank"
    with pytest.raises(services.ServiceError) as caught:
        services.profile_save(pack=pack, data=bad)
    errors = caught.value.errors
    assert "kind" in errors
    assert "'tank' is not one of" in errors["kind"]
    bad["kind"] = "squad"
    with pytest.raises(services.ServiceError) as caught:
        services.profile_save(pack=pack, data=bad)
    errors = caught.value.errors
    assert "Д6+2" in errors["data.soldiers.0.power"]
    assert errors["data.soldiers.1.armour"] == "this field is required"
    assert not pack.profiles.exists()


def test_official_packs_cannot_be_edited(official_pack):
    with pytest.raises(services.ServiceError, match="Official packs"):
        services.profile_save(pack=official_pack, data=_custom_squad())
    assert DataPack.objects.count() == 1


def test_club_owner_is_kept(club_setup):
    owner_membership = club_setup["club"].memberships.get(user=club_setup["owner"])
    with pytest.raises(services.ServiceError, match="at least one owner"):
        services.member_set_role(membership=owner_membership, role="member")
    with pytest.raises(services.ServiceError, match="at least one owner"):
        services.member_remove(membership=owner_membership)
    with pytest.raises(services.ServiceError, match="already a member"):
        services.member_add(club=club_setup["club"], username="editor")


def test_roster_for_rules_shape(roster):
    data = selectors.roster_for_rules(roster)
    assert data["faction"] == "protectorate"
    first = data["entries"][0]
    assert set(first) == {"key", "profile", "count", "options"}
    assert set(first["profile"]) == {"slug", "name", "faction", "kind", "cost", "data"}
    assert data["entries"][1]["options"]["pilot"] == [{"entry": first["key"], "soldier": 1}]
