"""The army part: the example pack (built from the demo's text), costing (figures + weapons + upgrades), the
«Стычка» limit (G15: 500 and 499 legal, 501 an error), factions, СТК per unit, and the settings it reads."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rules.contract import RuleInputError
from rules.contract.schema import validate
from rules.systems.zvezdny_desant.army import ARMY
from rules.systems.zvezdny_desant.data import build_demo_examples
from rules.systems.zvezdny_desant.profile import compile_unit
from rules.systems.zvezdny_desant.system import SYSTEM

PACK_FILE = Path(build_demo_examples.__file__).with_name("demo-examples.json")
PACK = json.loads(PACK_FILE.read_text(encoding="utf-8"))
BOOK = build_demo_examples.DEFAULT_BOOK

CARD = {
    "slug": "card",
    "name": "Отделение",
    "faction": "humans",
    "kind": "infantry",
    "cost": 0,
    "data": {
        "figures": [
            {"key": "boec", "name": "Боец", "pdv": 6, "stk": 1, "kbr": "В", "bsp": 7, "ldr": 6, "cost": 12,
             "min": 3, "max": 10, "default": 4, "weapons": ["avtomat", "pulemet"]},
            {"key": "serzhant", "name": "Сержант", "pdv": 6, "stk": 1, "kbr": "В", "bsp": 8, "ldr": 8, "cost": 20,
             "min": 1, "max": 1, "weapons": ["avtomat"]},
        ],
        "weapons": [
            {"key": "avtomat", "name": "Автомат", "dln": 30, "skr": 1, "msch": 1, "hrk": "A8 В12", "cost": 0},
            {"key": "pulemet", "name": "Пулемет", "dln": 40, "skr": 3, "msch": 1, "hrk": {"B": 10}, "cost": 15},
        ],
        "upgrades": [{"key": "granaty", "name": "Гранаты", "cost": 2, "per": "figure"},
                     {"key": "znamya", "name": "Знамя", "cost": 10, "per": "unit"}],
    },
}  # fmt: skip


def roster(*entries, faction="humans", limit=None, **settings) -> dict:
    out = {"faction": faction, "points_limit": limit, "entries": [
        {"key": f"e{i}", "profile": p, "count": 1, "options": o} for i, (p, o) in enumerate(entries, 1)]}  # fmt: skip
    if settings:
        out["settings"] = settings
    return out


def errors(report) -> list[str]:
    return [i.code for i in report.issues if i.severity == "error"]


def warnings(report) -> list[str]:
    return [i.code for i in report.issues if i.severity == "warning"]


def test_the_pack_is_what_the_script_builds_from_the_book():
    assert build_demo_examples.build(BOOK.read_text(encoding="utf-8")) == PACK


def test_every_pack_profile_fits_the_schema_and_is_labelled_an_example():
    assert set(PACK) >= {"format", "format_version", "system", "slug", "name", "source", "factions", "profiles"}
    for profile in PACK["profiles"]:
        SYSTEM.validate_profile(profile)
        assert set(profile) == {"slug", "name", "faction", "kind", "cost", "data", "notes"}
        assert profile["data"]["example"] is True
        assert profile["notes"].startswith("EXAMPLE, not a ЛБХ")  # worded in Russian by the catalogue
        assert profile["slug"].isascii()
        assert not profile["name"].isascii()
    forcers = next(p for p in PACK["profiles"] if p["faction"] == "forcers")
    assert forcers["data"]["strikes_per_figure"] == 2  # L665


def test_cost_is_figures_plus_weapons_plus_upgrades():
    options = {"loadout": [{"figure": "boec", "weapon": "avtomat", "count": 3},
                           {"figure": "boec", "weapon": "pulemet", "count": 1},
                           {"figure": "serzhant", "weapon": "avtomat", "count": 1}],
               "upgrades": ["granaty", "znamya"]}  # fmt: skip
    report = ARMY.cost_roster(roster((CARD, options)))
    # figures 4 × 12 + 20, the machine gun +15, grenades 2 × 5 figures, the banner 10
    assert report.total == 48 + 20 + 15 + 10 + 10
    assert report.entry_costs == {"e1": report.total}
    assert not report.issues


def test_g15_skirmish_budget():
    def army(points):  # a card whose one figure costs exactly `points`
        card = copy.deepcopy(CARD)
        card["data"]["figures"] = [{**card["data"]["figures"][1], "cost": points}]
        return ARMY.cost_roster(roster((card, {"loadout": [{"figure": "serzhant", "weapon": "avtomat", "count": 1}]})))

    assert not errors(army(500))
    assert not errors(army(499))
    over = army(501)
    assert errors(over) == ["over_limit"]
    assert "501" in over.issues[0].message


def test_army_limit_setting_and_the_rosters_own_limit():
    options = ARMY.default_options(CARD)  # 4 × 12 + 20 = 68
    assert not errors(ARMY.cost_roster(roster((CARD, options))))
    assert errors(ARMY.cost_roster(roster((CARD, options), army_limit=60))) == ["over_limit"]
    assert not errors(ARMY.cost_roster(roster((CARD, options), limit=100, army_limit=60)))


def test_tournament_setting_makes_mixed_factions_an_error():
    forcers = {**CARD, "slug": "f", "faction": "forcers"}
    mixed = roster((CARD, ARMY.default_options(CARD)), (forcers, ARMY.default_options(forcers)))
    assert warnings(ARMY.cost_roster(mixed)) == ["mixed_factions"]
    assert not errors(ARMY.cost_roster(mixed))
    assert errors(ARMY.cost_roster({**mixed, "settings": {"tournament": True}})) == ["mixed_factions"]


def test_mixed_stk_in_one_unit():
    card = copy.deepcopy(CARD)
    card["data"]["figures"][1]["stk"] = 2
    report = ARMY.cost_roster(roster((card, ARMY.default_options(card))))
    assert errors(report) == ["mixed_stk"]
    lowest = ARMY.cost_roster(roster((card, ARMY.default_options(card)), mixed_stk="lowest"))
    assert not errors(lowest)
    assert "mixed_stk" in warnings(lowest)
    assert compile_unit({"profile": card, "options": ARMY.default_options(card)}, {})["stk"] == 1


@pytest.mark.parametrize(
    ("loadout", "code"),
    [
        ([{"figure": "boec", "weapon": "avtomat", "count": 2}, {"figure": "serzhant", "weapon": "avtomat", "count": 1}],
         "figure_count"),
        ([{"figure": "boec", "weapon": "avtomat", "count": 4}], "figure_count"),
        ([{"figure": "boec", "weapon": "avtomat", "count": 4}, {"figure": "serzhant", "weapon": "pulemet", "count": 1}],
         "weapon_not_allowed"),
    ],
)  # fmt: skip
def test_card_limits_are_errors_in_plain_words(loadout, code):
    report = ARMY.cost_roster(roster((CARD, {"loadout": loadout})))
    assert code in errors(report)
    assert all("«" in i.message for i in report.issues if i.code == code)


def test_options_schema_refuses_what_the_card_does_not_have():
    with pytest.raises(RuleInputError) as exc:
        ARMY.validate_options(CARD, {"loadout": [{"figure": "tank", "count": 1}]})
    assert "options.loadout.0.figure" in exc.value.errors
    ARMY.validate_options(CARD, ARMY.default_options(CARD))


def test_costs_missing_from_a_card_are_typed_in():
    """The demo prints no cost (L754): a cost not typed from the card is an error, never a silent 0."""
    example = PACK["profiles"][0]
    bare = ARMY.cost_roster(roster((example, ARMY.default_options(example))))
    assert errors(bare) == ["cost_unknown"]
    assert bare.has_errors
    assert "«Пехотинец»" in bare.issues[0].message
    assert "«Автомат»" in bare.issues[0].message
    half = {**ARMY.default_options(example), "card_costs": {"figures": {"pehotinec": 40}}}
    assert errors(ARMY.cost_roster(roster((example, half)))) == ["cost_unknown"]  # the rifle's extra cost too
    typed = {**ARMY.default_options(example), "card_costs": {"figures": {"pehotinec": 40}, "weapons": {"avtomat": 5}}}
    report = ARMY.cost_roster(roster((example, typed)))
    assert report.total == 5 * 45
    assert not report.issues


def test_the_builder_asks_each_missing_cost_at_the_top_of_the_entry_and_counts_figures_by_the_cards_names():
    example = PACK["profiles"][1]  # the Forcer assault squad: no cost printed
    entry = {"key": "e1", "profile": example, "count": 1, "options": ARMY.default_options(example)}
    view = ARMY.entry_views({"entries": [entry]})["e1"]
    kinds = [b["type"] for b in view["blocks"]]
    assert kinds[:3] == ["text", "number", "number"]  # the costs come first
    fields = {b["path"]: b for b in view["blocks"] if b["type"] == "number"}
    assert set(fields) == {"figures.forser", "weapons.avtomat"}
    assert all(b["option"] == "card_costs" and b["value"] is None and b["min"] == 0 for b in fields.values())
    (counts,) = [b for b in view["blocks"] if b["type"] == "counts"]
    assert counts["option"] == "loadout"
    assert [(i["value"], i["count"], i["label"]) for i in counts["items"]] == [
        ({"figure": "forser", "weapon": "avtomat"}, 5, "Форсер with «Автомат»")
    ]
    assert "json" not in kinds
    assert "checks" not in kinds
    entry["options"]["card_costs"] = {"figures": {"forser": 50}, "weapons": {"avtomat": 0}}
    view = ARMY.entry_views({"entries": [entry]})["e1"]
    assert {b["path"]: b["value"] for b in view["blocks"] if b["type"] == "number"} == {
        "figures.forser": 50,
        "weapons.avtomat": 0,
    }
    assert view["lines"] == ["5 × Форсер («Автомат»)", "costs from the ЛБХ: Форсер 50, Автомат 0"]


@pytest.mark.parametrize(
    ("options", "field", "words"),
    [
        ({"card_costs": {"figures": {"boec": "abc"}}}, "options.card_costs.figures.boec", "whole number of points"),
        ({"card_costs": {"weapons": {"pulemet": -5}}}, "options.card_costs.weapons.pulemet", "«Пулемет»: a cost"),
        ({"loadout": [{"figure": "boec", "weapon": "avtomat", "count": 0}]}, "options.loadout.0.count", "1 to 50"),
        ({"loadout": [{"figure": "boec", "weapon": "laser", "count": 1}]}, "options.loadout.0.weapon", "«laser»"),
        ({"upgrades": ["jetpack"]}, "options.upgrades.0", "no upgrade «jetpack»"),
    ],
)
def test_bad_options_are_refused_in_the_players_words_naming_the_field(options, field, words):
    with pytest.raises(RuleInputError) as exc:
        ARMY.validate_options(CARD, options)
    assert words in exc.value.errors[field]


def test_an_emptied_loadout_stays_empty_and_is_an_error():
    example = PACK["profiles"][1]
    options = {"loadout": [], "card_costs": {"figures": {"forser": 50}, "weapons": {"avtomat": 0}}}
    report = ARMY.cost_roster(roster((example, options)))
    assert "empty_unit" in errors(report)
    assert report.total == 0


def test_example_rosters_are_legal_skirmish_armies_of_one_faction():
    for side, faction in ((0, "forcers"), (1, "humans")):
        example = ARMY.example_roster(PACK["profiles"], side)
        report = ARMY.cost_roster(copy.deepcopy(example))
        assert example["faction"] == faction
        assert report.total == 500
        assert not report.issues
        for entry in example["entries"]:
            ARMY.validate_options(entry["profile"], entry["options"])


def test_a_card_typed_in_the_editor_fits_the_schema():
    template = ARMY.profile_editor["kinds"]["infantry"]["template"]
    assert set(template) <= set(SYSTEM.profile_schema["properties"]["data"]["properties"])
    card = copy.deepcopy(CARD)
    card["data"]["weapons"][0]["hrk"] = "ХРК: Ж12"
    with pytest.raises(RuleInputError):
        validate(SYSTEM.profile_schema, card)
