"""Hiring by formula (spec §2.4, L51–59), the official pack and the script that built it from the book's text."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.contract.schema import validate
from rules.errors import RuleInputError
from rules.systems.enforcers import tables
from rules.systems.enforcers.army import ARMY, PROFILE_SCHEMA, agent_stats
from rules.systems.enforcers.data import build_core_pack

DATA = Path(build_core_pack.__file__).resolve().parent
PROFILES = {p["slug"]: p for p in tables.PACK["profiles"]}
STATS = dict.fromkeys(tables.STATS, 10)


def roster(*entries, limit=None):
    return {"system": "enforcers", "faction": "enforcers", "points_limit": limit,
            "entries": [{"key": f"e{i}", "profile": p, "count": 1, "options": o} for i, (p, o) in enumerate(entries)]}  # fmt: skip


def codes(report):
    return {i.code for i in report.issues}


def test_the_pack_rebuilds_byte_for_byte_from_the_book_excerpt(tmp_path):
    out = tmp_path / "pack.json"
    subprocess.run([sys.executable, str(DATA / "build_core_pack.py"), str(DATA / "book-excerpt.ru.md"), str(out)],
                   check=True, capture_output=True)  # fmt: skip
    assert out.read_bytes() == (DATA / "enforcers-core.json").read_bytes()


def test_the_pack_has_the_shape_of_the_other_packs_and_fits_the_profile_schema():
    pack = json.loads((DATA / "enforcers-core.json").read_text(encoding="utf-8"))
    assert list(pack) == ["format", "format_version", "system", "slug", "name", "source", "factions", "provenance",
                          "profiles"]  # fmt: skip
    assert pack["format"] == "armlist-pack"
    assert pack["system"] == "enforcers"
    for profile in pack["profiles"]:
        assert set(profile) == {"slug", "name", "faction", "kind", "cost", "data", "notes"}
        assert profile["slug"].isascii()
        validate(PROFILE_SCHEMA, profile)


def test_the_armour_table_as_the_book_prints_it():
    table = {slug: (a["ap"], a["req"]) for slug, a in tables.ARMOUR.items()}
    assert table == {
        "kevlar-vest": (2, 2), "chameleon-skin": (2, 12), "firesuit": (4, 5), "hazmat": (4, 6), "sanctified": (4, 6),
        "police-riot-gear": (4, 9), "psi-skin": (4, 9), "spider-suit": (4, 12), "enforcer-gear": (6, 4),
        "military-carapace": (8, 7), "hero-exosuit": (12, 17), "olympian-exosuit": (16, 24), "titan-exosuit": (20, 30),
    }  # fmt: skip
    assert tables.ARMOUR["titan-exosuit"]["immune"] == ["poisoned", "stunned", "disoriented", "burning"]
    assert tables.ARMOUR["titan-exosuit"]["two_handed_as_one"] is True  # L350, which the spec thought truncated
    assert tables.ARMOUR["olympian-exosuit"]["stat_changes"] == {"TN": 3, "DX": -3}


def test_the_prayer_table():
    assert {k: (p["name"], p["duration_rounds"], p["range_kind"]) for k, p in tables.PRAYERS.items()} == {
        "anointing": ("Помазание", 0, "touch"),
        "benediction": ("Благословение", 1, "line_of_sight"),
        "intercession": ("Заступничество", 2, "line_of_sight"),
        "last_rites": ("Последние почести", 0, "touch"),
    }
    assert tables.PRAYERS["intercession"]["rerolls_per_round"] == 1
    assert tables.PRAYERS["benediction"]["crit_bonus"] == 2


def test_pricing_is_the_formula_in_req():
    assert (ARMY.pricing, ARMY.currency) == ("formula", "REQ")
    apprentice = PROFILES["apprentice"]
    report = ARMY.cost_roster(roster(
        (apprentice, {"stats": STATS, "stat_bump": 1, "own_gear": True, "armour": "enforcer-gear"}),
        (apprentice, {"stats": STATS, "stat_bump": 3, "own_gear": False}),
    ))  # fmt: skip
    assert report.entry_costs == {"e0": 50, "e1": 50}  # G7 and G6
    assert report.total == 100
    assert not report.has_errors


def test_gear_without_an_allowance_is_paid_in_full():
    report = ARMY.cost_roster(roster((PROFILES["apprentice"], {"stats": STATS, "own_gear": False,
                                                               "armour": "military-carapace"})))  # fmt: skip
    assert report.total == 20 + 7
    assert "gear_full_price" in codes(report)


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({}, "no_stats"),
        ({"stats": {**STATS, "WS": 19}, "stat_bump": 2}, "stat_over_20"),
        ({"stats": STATS, "armour": "titan-exosuit", "weapons": [{"damage": 4, "req": 15}]}, "over_allowance"),
        ({"stats": STATS, "campaign": {"injury_days": 5}}, "injured"),
        ({"stats": STATS, "campaign": {"armour_broken": True}}, "armour_broken"),
    ],
)
def test_validation_issues_in_plain_words(options, code):
    report = ARMY.cost_roster(roster((PROFILES["apprentice"], options)))
    issue = next(i for i in report.issues if i.code == code)
    assert issue.entry == "e0"
    assert issue.message[0].isupper()


def test_perk_count_and_tables_that_are_not_agents():
    custom = {"slug": "priest", "name": "Priest", "faction": "enforcers", "kind": "archetype", "cost": 20,
              "data": {"stats": STATS, "gear_req": 10, "perks_allowed": 1, "perks": ["Prayer"]}}  # fmt: skip
    validate(PROFILE_SCHEMA, custom)
    report = ARMY.cost_roster(roster((custom, {"perks": ["Prayer", "Medic"]}), (PROFILES["kevlar-vest"], {})))
    assert {"too_many_perks", "not_given"} <= codes(report)
    assert report.entry_costs["e1"] == 2  # worn by nobody yet: paid from no allowance


def test_a_budget_is_checked():
    report = ARMY.cost_roster(roster((PROFILES["apprentice"], {"stats": STATS, "stat_bump": 2}), limit=50))
    assert report.total == 60
    assert "over_budget" in codes(report)


def test_options_schema_and_defaults():
    apprentice = PROFILES["apprentice"]
    assert ARMY.default_options(apprentice) == {"stat_bump": 0, "own_gear": True, "armour": None, "weapons": [],
                                                "perks": []}  # fmt: skip
    ARMY.validate_options(apprentice, {"stats": STATS, "armour": "firesuit", "perks": ["Prayer"]})
    with pytest.raises(RuleInputError):
        ARMY.validate_options(apprentice, {"armour": "plate mail"})
    with pytest.raises(RuleInputError):
        ARMY.validate_options(PROFILES["firesuit"], {"stat_bump": 1})


def test_stats_carry_the_bump_and_the_injuries():
    options = {"stats": STATS, "stat_bump": 2, "campaign": {"stat_losses": {"WL": 1, "DX": 3}}}
    stats = agent_stats(PROFILES["apprentice"], options)
    assert (stats["BS"], stats["WL"], stats["DX"]) == (12, 11, 9)
