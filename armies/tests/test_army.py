"""«Бронепехота» costing and validation (rules/systems/bronepekhota/army.py), on profiles of the official pack."""

import copy
import json
from pathlib import Path

import pytest

from rules.registry import get_system
from rules.systems.bronepekhota import army

PACK = json.loads((Path(army.__file__).parent / "data" / "tehnolog-classic.json").read_text(encoding="utf-8"))
P = {p["slug"]: p for p in PACK["profiles"]}


def entry(key, slug, *, count=1, options=None, pilot=None):
    """A roster entry as roster_for_rules gives it: the default options (or those given), plus the pilot."""
    chosen = army.ARMY.default_options(P[slug]) if options is None else options
    if pilot:
        chosen = {**chosen, "pilot": pilot}
    return {"key": key, "profile": P[slug], "count": count, "options": chosen}


def pilot(squad_key, soldier, copy=1):
    return [{"entry": squad_key, "soldier": soldier, "copy": copy}]


def codes(report, entry_key="*"):
    return sorted(i.code for i in report.issues if entry_key == "*" or i.entry == entry_key)


def cost(entries, **roster):
    return army.cost_roster({"faction": "protectorate", "points_limit": None, **roster, "entries": entries})


def test_total_is_the_sum_of_costs_times_counts():
    report = cost([entry("a", "protectorate_kiberspetsnaz", count=2), entry("g", "sparennaya_pushka")])
    assert report.entry_costs == {"a": 180, "g": 45}
    assert report.total == 225
    assert not report.has_errors


def test_registered_system_delegates_to_army():
    roster = {"faction": "protectorate", "entries": [entry("a", "protectorate_kiberspetsnaz")]}
    assert get_system("bronepekhota").cost_roster(roster).total == 90


def test_blue_and_red_never_together_green_joins_either():
    report = cost([entry("a", "protectorate_kiberspetsnaz"), entry("r", "raptor"), entry("m", "minomet")])
    assert codes(report, "r") == ["hostile_faction", "no_pilot"]
    assert codes(report, "m") == []
    red = army.cost_roster({"faction": "polaris", "entries": [entry("m", "minomet"), entry("k", "aborigeny")]})
    assert not red.has_errors


def test_without_an_army_faction_the_second_side_is_hostile():
    report = army.cost_roster(
        {
            "faction": None,
            "entries": [entry("a", "protectorate_kiberspetsnaz"), entry("b", "polaris_lineynaya_klon_pehota")],
        }
    )
    assert codes(report, "b") == ["hostile_faction"]
    assert codes(report, "a") == []


@pytest.mark.parametrize(
    ("soldier_rank_squad", "ok"),
    [
        ("protectorate_ruteniyskaya_gvardiya", False),
        ("protectorate_kiberpehota", True),
        ("protectorate_kiberspetsnaz", True),
    ],
)
def test_g2_gryphon_needs_pilot_rank_2(soldier_rank_squad, ok):
    """Spec §6 G2: GRYPHON has rank 2; rank 1 cannot pilot it, ranks 2 and 3 can."""
    report = cost([entry("s", soldier_rank_squad), entry("g", "griffin", pilot=pilot("s", 1))])
    assert ("pilot_rank" in codes(report, "g")) is not ok


def test_every_vehicle_needs_a_pilot_and_only_one():
    report = cost([entry("s", "protectorate_kiberspetsnaz"), entry("g", "griffin")])
    assert codes(report, "g") == ["no_pilot"]
    two = pilot("s", 1) + pilot("s", 2)
    report = cost([entry("s", "protectorate_kiberspetsnaz"), entry("g", "griffin", pilot=two)])
    assert "too_many_pilots" in codes(report, "g")
    pair = cost([entry("s", "protectorate_kiberspetsnaz"), entry("g", "griffin", count=2, pilot=two)])
    assert codes(pair, "g") == []


def test_a_soldier_pilots_at_most_one_vehicle():
    report = cost(
        [
            entry("s", "protectorate_kiberspetsnaz"),
            entry("g", "griffin", pilot=pilot("s", 1)),
            entry("v", "viper", pilot=pilot("s", 1)),
        ]
    )
    assert codes(report, "g") == []
    assert codes(report, "v") == ["pilot_twice"]


def test_pilot_must_be_an_infantryman_of_this_roster():
    report = cost([entry("c", "sparennaya_pushka"), entry("g", "griffin", pilot=pilot("c", 1))])
    assert "pilot_not_infantry" in codes(report, "g")
    report = cost([entry("s", "protectorate_kiberspetsnaz"), entry("g", "griffin", pilot=pilot("s", 9))])
    assert "pilot_unknown" in codes(report, "g")
    report = cost([entry("s", "protectorate_kiberspetsnaz"), entry("g", "griffin", pilot=pilot("s", 1, copy=2))])
    assert "pilot_unknown" in codes(report, "g")


def test_squad_copies_give_more_pilots():
    report = cost(
        [
            entry("s", "protectorate_kiberspetsnaz", count=2),
            entry("g", "griffin", pilot=pilot("s", 1, copy=1)),
            entry("v", "viper", pilot=pilot("s", 1, copy=2)),
        ]
    )
    assert not report.has_errors


def test_halls_condition_counts_soldiers_of_sufficient_rank():
    # Three rank-3 vehicles (VARAN, SPRUT, CONDOR) but only rank-1 soldiers: not enough qualified pilots.
    entries = [entry("s", "protectorate_ruteniyskaya_gvardiya")] + [
        entry(k, slug) for k, slug in (("v", "varan"), ("o", "octopus"), ("c", "condor"))
    ]
    report = cost(entries)
    hall = [i for i in report.issues if i.code == "not_enough_pilots"]
    assert len(hall) == 1
    assert hall[0].entry is None
    assert "3 vehicle(s) need a pilot of rank 3" in hall[0].message
    # Six rank-3 soldiers are enough for three rank-3 vehicles (pilots still to be chosen).
    entries[0] = entry("s", "protectorate_kiberspetsnaz")
    assert "not_enough_pilots" not in codes(cost(entries))


def test_halls_condition_nested_thresholds():
    # Rank 4 needs: one vehicle of rank 3 and seven of rank 1 against six rank-3 soldiers: 8 vehicles > 6 soldiers.
    entries = [entry("s", "protectorate_kiberspetsnaz"), entry("v", "varan"), entry("b", "bronekhod", count=6)]
    assert "not_enough_pilots" in codes(cost(entries))
    entries[2] = entry("b", "bronekhod", count=5)
    assert "not_enough_pilots" not in codes(cost(entries))


def test_arsenal_subset_variant_and_mounts():
    gryphon = P["griffin"]
    bad = cost([entry("g", "griffin", options={"weapons": ["raketnaya-ustanovka", "laser-9000"]})])
    assert "not_in_arsenal" in codes(bad, "g")
    twice = cost([entry("g", "griffin", options={"weapons": ["raketnaya-ustanovka", "raketnaya-ustanovka"]})])
    assert "weapon_twice" in codes(twice, "g")
    limited = {**gryphon, "data": {**gryphon["data"], "mounts": 2}}
    over = army.cost_roster(
        {
            "faction": "protectorate",
            "entries": [{"key": "g", "profile": limited, "count": 1, "options": army.default_loadout(gryphon)}],
        }
    )
    assert "too_many_weapons" in codes(over, "g")
    assert army.default_loadout(limited)["weapons"] == [w["key"] for w in gryphon["data"]["arsenal"][:2]]


def test_helix_variants():
    """HELIX fits the twin rocket launcher or the repair-transport platform (p.48), never both."""
    default = army.default_loadout(P["helix"])
    assert default == {"variant": "rockets", "weapons": ["raketnaya-ustanovka", "raketnaya-ustanovka-2"]}
    roster = {"faction": "polaris"}
    repair = army.cost_roster(
        {**roster, "entries": [entry("h", "helix", options={"variant": "repair", "weapons": []})]}
    )
    assert codes(repair, "h") == ["no_pilot"]
    mixed = army.cost_roster(
        {**roster, "entries": [entry("h", "helix", options={"variant": "repair", "weapons": ["raketnaya-ustanovka"]})]}
    )
    assert "not_in_variant" in codes(mixed, "h")
    unknown = army.cost_roster({**roster, "entries": [entry("h", "helix", options={"variant": "ufo"})]})
    assert "unknown_variant" in codes(unknown, "h")


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        (100, 100, None),
        (100, 90, None),
        (100, 89, "info"),
        (100, 80, "info"),
        (100, 79, "warning"),
        (70, 100, "warning"),
    ],
)
def test_balance_advice_relative_to_the_larger_army(mine, theirs, expected):
    """§5 A2: info above 10 %, warning above 20 %, relative to the larger army."""
    profile = {**P["protectorate_kiberspetsnaz"], "cost": mine}
    report = army.cost_roster(
        {"faction": "protectorate", "opponent_total": theirs, "entries": [{"key": "a", "profile": profile, "count": 1}]}
    )
    found = [i.severity for i in report.issues if i.code == "balance"]
    assert found == ([expected] if expected else [])


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({}, "info"),
        ({"balance_info_percent": 25, "balance_warning_percent": 40}, None),
        ({"balance_info_percent": 5, "balance_warning_percent": 12}, "warning"),
        ({"balance_warning_percent": "junk"}, "info"),
    ],
)
def test_balance_advice_reads_the_named_settings(settings, expected):
    """§5 A2: the builder's advice uses balance_info_percent / balance_warning_percent, as the jobs' verdict does."""
    profile = {**P["protectorate_kiberspetsnaz"], "cost": 100}
    roster = {
        "faction": "protectorate",
        "opponent_total": 85,
        "settings": settings,
        "entries": [{"key": "a", "profile": profile, "count": 1}],
    }
    found = [i for i in army.cost_roster(roster).issues if i.code == "balance"]
    assert [i.severity for i in found] == ([expected] if expected else [])
    if found and settings.get("balance_warning_percent") == 12:
        assert "5–12 %" in found[0].message


def test_points_limit():
    entries = [entry("a", "protectorate_kiberspetsnaz")]
    assert "over_limit" in codes(cost(entries, points_limit=80))
    assert "over_limit" not in codes(cost(entries, points_limit=90))


def test_printed_squads_of_four_pass_but_a_squad_of_seven_warns_and_so_does_a_gun_without_crew():
    # Both printed four-soldier Armlists (p.6: the card lists each soldier) raise no issue of their own.
    for slug, faction in (
        ("protectorate_tyazhyolaya_shturmovaya_pehota_veliana", "protectorate"),
        ("polaris_spetsnaz_planety_shidu", "polaris"),
    ):
        assert len(P[slug]["data"]["soldiers"]) == 4
        assert army.cost_roster({"faction": faction, "entries": [entry("v", slug)]}).issues == []
    seven = copy.deepcopy(P["protectorate_kiberspetsnaz"])
    seven["data"]["soldiers"].append(dict(seven["data"]["soldiers"][0], num=7))
    report = army.cost_roster({"faction": "protectorate", "entries": [{"key": "x", "profile": seven, "count": 1}]})
    assert [(i.severity, i.code) for i in report.issues] == [("warning", "squad_size")]
    guns = cost([entry("s", "protectorate_ruteniyskaya_gvardiya"), entry("c", "sparennaya_pushka")])
    assert [(i.severity, i.code, i.entry) for i in guns.issues] == [("warning", "no_gun_crew", "c")]


def test_bad_counts_and_unreadable_input_are_errors_not_crashes():
    report = cost([entry("a", "protectorate_kiberspetsnaz", count=0), entry("g", "griffin", options=["x"])])
    assert "bad_count" in codes(report, "a")
    assert "bad_loadout" in codes(report, "g")
    weird = cost([entry("g", "griffin", pilot=[{"entry": 5, "soldier": "one"}])])
    assert "pilot_unknown" in codes(weird, "g")


def test_upgrade_changes_drop_removed_weapons():
    old = entry("g", "griffin", options={"weapons": ["raketnaya-ustanovka", "lazernaya-pushka"]})
    new_profile = json.loads(json.dumps(P["griffin"]))
    new_profile["cost"] = 75
    new_profile["data"]["arsenal"] = [w for w in new_profile["data"]["arsenal"] if w["key"] != "lazernaya-pushka"]
    lines, options = army.upgrade_changes(old, new_profile)
    assert options["weapons"] == ["raketnaya-ustanovka"]
    assert any("70 → 75" in line for line in lines)
    assert any("Лазерная пушка" in line for line in lines)
    gone, none = army.upgrade_changes(old, None)
    assert none is None
    assert "no longer in the pack" in gone[0]


def test_old_snapshots_with_loadout_and_pilot_read_like_options():
    """Battles and balance jobs keep rosters snapshotted before options existed: {"loadout", "pilot"} beside each
    other. The costing and the simulator read them as they read the options of today."""
    from rules.systems.bronepekhota.simulate import Battle, BattleParams

    rider = [{"entry": "s", "soldier": 4, "copy": 1}]
    fit = {"weapons": ["raketnaya-ustanovka"]}
    new = [entry("s", "protectorate_kiberspetsnaz"), entry("g", "griffin", options=fit, pilot=rider)]
    old = [
        {"key": "s", "profile": P["protectorate_kiberspetsnaz"], "count": 1, "loadout": {}, "pilot": []},
        {"key": "g", "profile": P["griffin"], "count": 1, "loadout": fit, "pilot": rider},
    ]
    assert codes(cost(new)) == codes(cost(old)) == []
    assert codes(cost([*old[:1], {**old[1], "loadout": {"weapons": ["x"]}}]), "g") == ["not_in_arsenal"]
    sides = []
    for entries in (new, old):
        battle = Battle(entries, [entry("a", "aborigeny")], BattleParams(), {})
        pilots = {v["vehicle"]: v["pilot"] for v in battle.describe()["sides"][0]["pilots"]}
        gryphon = next(el for el in battle.forces[0].elements() if el.name == "GRYPHON")
        sides.append((pilots["GRYPHON"], [w.name for w in gryphon.weapons]))
    assert sides[0] == sides[1]
    assert sides[0][0].endswith("#4")
    assert sides[0][1] == ["Ракетная установка"]


def test_options_schema_and_copies():
    assert army.ARMY.options_schema(P["protectorate_kiberspetsnaz"])["properties"] == {}
    helix = army.ARMY.options_schema(P["helix"])["properties"]
    assert helix["variant"]["enum"] == ["rockets", "repair"]
    assert set(helix) == {"variant", "weapons", "pilot"}
    piloted = entry("h", "helix", pilot=pilot("s", 1))
    assert "pilot" not in army.ARMY.copy_options(piloted)
    assert army.ARMY.copy_options(piloted)["variant"] == "rockets"
    assert army.ARMY.options_without(piloted, {"s"}) == army.ARMY.copy_options(piloted)
    assert army.ARMY.options_without(piloted, {"other"})["pilot"] == pilot("s", 1)
