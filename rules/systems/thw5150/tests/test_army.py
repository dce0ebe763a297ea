"""The army part and the official pack (spec §2): prices as the book adds them, issues in plain words, the pack
rebuilt from the book's text, and the seeded random Normal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.contract.schema import validate
from rules.errors import RuleInputError
from rules.systems.thw5150 import equipment, random_normal
from rules.systems.thw5150.army import ARMY, DEFAULT_OPTIONS
from rules.systems.thw5150.data import build_normals
from rules.systems.thw5150.system import SYSTEM

DATA = Path(__file__).resolve().parents[1] / "data"
PACK = json.loads((DATA / "normals.json").read_text(encoding="utf-8"))
PROFILES = {p["slug"]: p for p in PACK["profiles"]}


def entry(key, slug, count=1, **options):
    return {"key": key, "profile": PROFILES[slug], "count": count, "options": {**DEFAULT_OPTIONS, **options}}


def codes(report, severity=None):
    return {i.code for i in report.issues if severity is None or i.severity == severity}


def test_pack_has_the_shape_of_the_other_packs_and_the_books_numbers():
    assert {
        "format",
        "format_version",
        "system",
        "slug",
        "name",
        "source",
        "factions",
        "provenance",
        "profiles",
    } <= set(PACK)
    for p in PACK["profiles"]:
        assert set(p) == {"slug", "name", "faction", "kind", "cost", "data", "notes"}
        validate(SYSTEM.profile_schema, p)
    assert {p["data"]["rep"]: p["cost"] for p in PACK["profiles"]} == {5: 83, 4: 66, 3: 50}
    assert PROFILES["police-u4"]["name"] == "Полиция У4"
    assert equipment.RANGED["assault_rifle"]["name"] == "Штурмовая винтовка"
    assert equipment.RANGED["machine_gun"]["impact"]["ЭКЗ"] == 0  # §5 A37, as printed
    assert equipment.MELEE["rifle_bayonet"]["impact"]["НБ"] == 4


# Lines of the book as printed (L1420–1423, L1441–1447, L1490–1507, L1521–1524), «Спец» without a dot included.
BOOK_LINES = """Умения людей У5 (1) (83 очка)
У4 (2-4) (66 очков)
У3 (5-6) (50 очков)
2-3 Пистолет
4-5 КК Пистолет
6 Пистолет-пулемет
7-8 Помповое ружье
9 Винтовка
10-11 Полуавтоматическая винтовка
12+ Штурмовая винтовка
Замечание: имеют ли «обычные» доступ к лазерному оружию?
Лазерный пистолет 12 1 4 3 3 Спец. 4 2 1 16
Пистолет 12 2 1 0 Спец 1 1 НЭ НЭ 4
Пулемет* 48 4 3 2 Спец. 3 3 0 НЭ 58
Гранаты** 6 5” 2 1 Спец. 2 0 НЭ НЭ 14

Безоружный х 1 3 2 0 0 1 2 0 НЭ НЭ 4
""".splitlines()


def test_the_script_reads_the_books_lines_into_the_pack():
    lines = [line.strip() for line in BOOK_LINES]
    reps = build_normals.parse_reps(lines)
    assert reps == [{"rep": 5, "roll": [1, 1], "cost": 83}, {"rep": 4, "roll": [2, 4], "cost": 66},
                    {"rep": 3, "roll": [5, 6], "cost": 50}]  # fmt: skip
    weapon_rows = build_normals.parse_band_table(lines, 3, r"^Замечание")
    assert [(r["roll"], r["text"]) for r in weapon_rows][::3] == [([2, 3], "Пистолет"), ([7, 8], "Помповое ружье"),
                                                                  ([12, 99], "Штурмовая винтовка")]  # fmt: skip
    ranged = build_normals.parse_weapon_rows(lines, 11, build_normals.RANGED_COLUMNS, False)
    for row in ranged:
        packed = equipment.RANGED[row["slug"]]
        assert {k: packed[k] for k in ("name", "range", "rof", "impact", "cost")} == {
            k: row[k] for k in ("name", "range", "rof", "impact", "cost")
        }
    assert [r["footnote"] for r in ranged] == [0, 0, 1, 2]
    melee = build_normals.parse_weapon_rows(lines, 16, build_normals.MELEE_COLUMNS, True)
    assert melee[0]["impact"] == equipment.MELEE["unarmed"]["impact"]


def test_options_have_a_schema_and_defaults():
    schema = ARMY.options_schema(PROFILES["police-u5"])
    validate(schema, ARMY.default_options(PROFILES["police-u5"]))
    with pytest.raises(RuleInputError):
        ARMY.validate_options(PROFILES["police-u5"], {"weapon": "bazooka"})


def test_costs_add_rep_weapons_armour_and_grenades():
    report = SYSTEM.cost_roster(
        {
            "entries": [
                entry(
                    "a",
                    "police-u5",
                    weapon="pistol",
                    second_weapon="pistol",
                    melee_weapon="combat_knife",
                    armour="shimmer",
                    grenades=2,
                    leader=True,
                ),  # fmt: skip
                entry("b", "colonists-u3", count=3, weapon="rifle", group="2", leader=False),
            ]
        }
    )
    assert report.entry_costs == {"a": 83 + 4 + 4 + 8 + 51 + 2 * 14, "b": 3 * (50 + 15)}
    assert report.total == sum(report.entry_costs.values())
    assert "no_leader" in codes(report, "warning")  # group 2 has no Leader


def test_book_limits_are_errors_and_advice_is_a_warning():
    big = SYSTEM.cost_roster({"entries": [entry("a", "police-u5", count=11, weapon="rifle", leader=True)]})
    assert "over_limit" in codes(big, "error")  # 11 × 98 = 1078 over the introductory 1000
    assert "many_figures" in codes(big, "warning")
    roomy = SYSTEM.cost_roster({"points_limit": 1500, "entries": [entry("a", "police-u5", count=11, weapon="rifle",
                                                                         leader=True)]})  # fmt: skip
    assert "over_limit" not in codes(roomy)


@pytest.mark.parametrize(
    ("slug", "options", "code"),
    [
        ("proletariat-u4", {"weapon": "assault_rifle"}, "weapon_not_available"),
        ("criminals-u4", {"grenades": 1}, "grenades_not_available"),
        ("police-u4", {"armour": "exo"}, "armour_not_available"),
        ("police-u4", {"weapon": "rifle", "second_weapon": "pistol"}, "two_gun"),
        ("police-u4", {"weapon": "laser_pistol"}, "lasers"),
        ("police-u4", {"weapon": None}, "unarmed"),
        ("police-u4", {"weapon": "bazooka"}, "bad_options"),
    ],
)
def test_issues_name_the_rule(slug, options, code):
    report = SYSTEM.cost_roster({"entries": [entry("e", slug, leader=True, **options)]})
    assert code in codes(report)
    assert all(i.message for i in report.issues)


def test_two_leaders_and_stars_are_flagged():
    report = SYSTEM.cost_roster({"entries": [entry("a", "police-u5", count=2, leader=True, star=True)]})
    assert {"many_leaders", "stars"} <= codes(report)


def test_random_normal_is_seeded_and_shows_its_dice():
    first = random_normal.roll_random_normal(seed=42)
    again = random_normal.roll_random_normal(seed=42)
    assert first == again
    assert [d["purpose"] for d in first["dice"]][:3] == ["Rep (1d6)", "weapon availability die 1 of 2",
                                                         "weapon availability die 2 of 2"]  # fmt: skip
    assert first["cost"] == equipment.REP_COST[first["rep"]] + equipment.RANGED[first["weapon"]]["cost"] + (
        equipment.ARMOUR[first["armour"]]["cost"] or 0
    )


def test_random_normal_from_typed_in_dice():
    # Rep die 1 (У5); weapon 6 + 6 (+1 Leader) = 13 → assault rifle; laser check 6 + 6 → лазерная винтовка;
    # armour 6 + 5 + 1 = 12 → special: 1 + 1 = 2 → absorbing armour.
    figure = random_normal.roll_random_normal(dice=[1, 6, 6, 6, 6, 6, 5, 1, 1], leader=True)
    assert (figure["rep"], figure["weapon"], figure["armour"]) == (5, "laser_rifle", "absorbing")
    assert figure["cost"] == 83 + 20 + 102
    with pytest.raises(RuleInputError) as caught:
        random_normal.roll_random_normal(dice=[1, 6, 9])
    assert "Die 3 is 9" in caught.value.errors["dice"]
