"""The builder's page for «Энфорсеры» (builder.py, hiring.py): every profile of the pack can be added and set with
the book's words; an agent's stats typed in (1–20, L29) or rolled with a seed (L23); armour and perks added from
the catalogue are given to an agent and priced from its allowance (L55–57); a prayer's card says who may pray it
(L127); each error says how to fix it, and a refused value says so in the player's language."""

import pytest
from django.utils import translation

from rules.contract.testing import Table
from rules.errors import RuleInputError
from rules.systems.enforcers import tables
from rules.systems.enforcers.army import ARMY
from rules.systems.enforcers.builder import ROLL_STATS, roll_agent
from rules.systems.enforcers.system import SYSTEM

PROFILES = {p["slug"]: p for p in tables.PACK["profiles"]}
STATS = dict.fromkeys(tables.STATS, 10)


def roster(*entries):
    return {"system": "enforcers", "faction": "enforcers", "points_limit": None,
            "entries": [{"key": f"e{i}", "profile": PROFILES[slug], "count": 1, "options": options}
                        for i, (slug, options) in enumerate(entries)]}  # fmt: skip


def issues(report, entry=None):
    return {i.code: i.message for i in report.issues if entry is None or i.entry == entry}


def blocks(view, option, path=None):
    return [b for b in view["blocks"] if b.get("option") == option and b.get("path") == path]


def test_every_profile_of_the_pack_can_be_added_and_says_how_to_finish_it():
    crew = roster(*[(slug, ARMY.default_options(p)) for slug, p in PROFILES.items()])
    with translation.override("ru"):
        report = ARMY.cost_roster(crew)
        views = ARMY.entry_views(crew)
    assert set(views) == {e["key"] for e in crew["entries"]}  # a view of its own for every kind, none from JSON
    for view in views.values():
        assert not [b for b in view["blocks"] if b["type"] == "json"]
    errors = [i for i in report.issues if i.severity == "error"]
    # The agent lacks its stats; each armour and the perk lack the agent they are given to: every message says
    # what to do on the page.
    assert {i.code for i in errors} == {"no_stats", "not_given"}
    assert all("выберите агента" in i.message or "впишите характеристики" in i.message for i in errors)
    armour = next(e["key"] for e in crew["entries"] if e["profile"]["kind"] == "armour")
    assert [c["label"] for c in blocks(views[armour], "agent")[0]["choices"]] == ["пока никто", "Apprentice"]


def test_an_agents_card_sets_what_the_book_lets_a_player_choose():
    crew = roster(("apprentice", {**ARMY.default_options(PROFILES["apprentice"]), "stats": {"HL": 8},
                                  "weapons": [{"name": "Автоган"}]}))  # fmt: skip
    with translation.override("ru"):
        view = ARMY.entry_views(crew)["e0"]
        report = ARMY.cost_roster(crew)
    labels = {(b["option"], b.get("path")): b["label"] for b in view["blocks"] if "option" in b}
    assert labels[("stats", "HL")] == "Здоровье (HL)"
    assert labels[("stats", "LD")] == "Лидерство (LD)"
    assert all(("stats", s) in labels for s in tables.STATS)
    assert labels[("weapons", "0.damage")] == "Оружие 1: урон"
    assert labels[("armour", None)] == "Броня"
    assert labels[("medkit", None)] == "Мед.кит"
    assert blocks(view, "stats", "HL")[0]["value"] == 8
    assert blocks(view, "stats", "BS")[0]["value"] is None
    assert (blocks(view, "stats", "BS")[0]["min"], blocks(view, "stats", "BS")[0]["max"]) == (1, 20)
    said = issues(report, "e0")
    assert "WS, BS, DX, TN, WL, IT, PR, LD" in said["no_stats"]
    assert "HL" not in said["no_stats"].split(":")[1]
    assert said["weapon_damage"] == "Apprentice, оружие 1: впишите урон (таблицы оружия в книге нет, L146)."
    counts = next(b for b in blocks(view, "weapons") if b["type"] == "choice")
    grown = next(c for c in counts["choices"] if c["label"] == "2")["value"]
    assert grown == [{"name": "Автоган"}, {"name": "Оружие 2"}]  # a second weapon keeps the first as written
    assert ARMY.validate_options(PROFILES["apprentice"], crew["entries"][0]["options"])


def test_a_refused_value_is_said_in_the_players_words():
    with translation.override("ru"), pytest.raises(RuleInputError) as refused:
        ARMY.validate_options(PROFILES["apprentice"], {"stats": {"BS": 25}, "weapons": [{"damage": -1}]})
    assert refused.value.errors == {
        "options.stats.BS": "Стрельба (BS): целое число от 1 до 20.",
        "options.weapons.0.damage": "Оружие 1: урон: целое число от 0 до 99.",
    }
    with translation.override("ru"), pytest.raises(RuleInputError) as refused:
        ARMY.validate_options(PROFILES["kevlar-vest"], {"agent": 3})
    assert refused.value.errors == {"options.agent": "Носит: такого значения в карточке нет."}


def test_armour_and_a_perk_given_to_an_agent_are_worn_and_paid_from_its_allowance():
    kate = {"name": "Kate", "stats": STATS, "own_gear": True}
    crew = roster(("apprentice", kate), ("kevlar-vest", {"agent": "e0"}), ("prayer", {"agent": "e0"}),
                  ("anointing", {}))  # fmt: skip
    report = ARMY.cost_roster(crew)
    assert report.entry_costs == {"e0": 40, "e1": 0, "e2": 0, "e3": 0}  # hire 20 + own gear 20 (L57)
    assert not report.has_errors
    assert "nobody_prays" not in issues(report)
    with translation.override("ru"):
        views = ARMY.entry_views(crew)
    assert "Экипировка: потрачено 2 из 40 REQ." in views["e0"]["blocks"][0]["text"]
    assert any(b.get("text") == "Может молиться: Kate." for b in views["e3"]["blocks"])
    # In battle she wears it and may pray.
    t = Table(SYSTEM, rosters=[crew, roster(("apprentice", {"name": "Thug", "stats": STATS}))])
    unit = t.state.units["s0-e0"].state
    assert (unit["armour"], unit["ap"], unit["perks"]) == ("kevlar-vest", 2, ["Prayer"])

    without_gear = roster(("apprentice", {**kate, "own_gear": False}), ("kevlar-vest", {"agent": "e0"}))
    assert ARMY.cost_roster(without_gear).entry_costs == {"e0": 20, "e1": 2}  # the table's price in full


def test_each_mistake_of_a_crew_says_how_to_fix_it():
    kate = {"name": "Kate", "stats": STATS, "armour": "enforcer-gear"}
    crew = roster(("apprentice", kate), ("kevlar-vest", {"agent": "e0"}), ("anointing", {}))
    with translation.override("ru"):
        said = issues(ARMY.cost_roster(crew))
    assert said["two_armours"] == "Kate носит Enforcer Gear + Kevlar Vest: броня бывает только одна; оставьте одну."
    assert "отметьте Prayer в перках одного из агентов" in said["nobody_prays"]
    twice = roster(("apprentice", kate), ("kevlar-vest", {"agent": "e0"}))
    twice["entries"][1]["count"] = 2
    assert "given_count" in issues(ARMY.cost_roster(twice))
    # A copy of the vest is given to nobody; an agent who leaves takes its vest's holder with it.
    assert ARMY.copy_options(twice["entries"][1]) == {}
    assert ARMY.options_without(twice["entries"][1], {"e0"}) == {}


def test_the_roll_tool_rolls_a_d20_per_stat_from_a_seed_and_shows_the_dice():
    profiles = list(PROFILES.values())
    crew = roster()
    first = roll_agent(crew, profiles, {"seed": 4242})
    again = roll_agent(crew, profiles, {"seed": 4242})
    other = roll_agent(crew, profiles, {"seed": 4243})
    (entry,) = first.entries
    stats = entry["options"]["stats"]
    assert entry["profile"] == "apprentice"
    assert set(stats) == set(tables.STATS)
    assert all(1 <= v <= 20 for v in stats.values())
    assert again.entries == first.entries
    assert other.entries != first.entries
    assert entry["options"]["rolled"] == {"seed": 4242, "dice": stats}
    with translation.override("ru"):
        lines = roll_agent(crew, profiles, {"seed": 4242}).lines
    assert lines[1].startswith("Накинуто с зерном 4242, по д20 на каждую: HL ")
    ARMY.validate_options(PROFILES["apprentice"], entry["options"])
    assert ARMY.builder_tools == (ROLL_STATS,)
    assert not ARMY.cost_roster(roster(("apprentice", entry["options"]))).has_errors
