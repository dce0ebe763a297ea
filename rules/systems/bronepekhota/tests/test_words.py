"""Russian and English on every page of «Бронепехота» (issue «Russian and phone-grade on every page»): a test's
summary is stored as msgids and parameters and read in each reader's language, whichever phone wrote it; the
Armlist's abbreviations (А, Ск, Бр, ББ, Св, Рм, ПрN) are the book's letters in Russian and English letters in
English, never a stored code («jump:3»); the pack's kinds, the odds page's options and labels follow the reader."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from rules.contract import Event
from rules.contract.testing import Table
from rules.systems.bronepekhota import words
from rules.systems.bronepekhota.army import ARMY
from rules.systems.bronepekhota.battle import board as board_module
from rules.systems.bronepekhota.odds_page import known_weapons_and_targets
from rules.systems.bronepekhota.roster.views import entry_views
from rules.systems.bronepekhota.system import SYSTEM

PACK = json.loads((Path(__file__).resolve().parents[1] / "data" / "tehnolog-classic.json").read_text("utf-8"))
PROFILES = {p["slug"]: {k: p[k] for k in ("slug", "name", "faction", "kind", "cost", "data")} for p in PACK["profiles"]}
# A squad with jump packs «Пр5» and a squad whose every soldier has «Рм», from the official pack.
JUMPERS = next(s for s, p in PROFILES.items() if p["kind"] == "squad" and "jump:5" in json.dumps(p["data"]))
MENDERS = "polaris_lyogkiy_shturmovoy_desant"  # every soldier «Рм»


def describe(event: dict, language: str) -> str:
    with translation.override(language):
        return SYSTEM.battle.describe_event(Event(1, event["type"], event["payload"]), {"units": {}, "sides": {}})


def table() -> Table:
    rosters = [{"faction": r["faction"], "entries": r["entries"]} for r in ARMY.demo_rosters(list(PROFILES.values()))]
    t = Table(SYSTEM, rosters=rosters, settings={})
    t.settings["enforce_turns"] = False
    return t


def test_a_melee_written_on_a_russian_phone_reads_in_english_and_back():
    t = table()
    with translation.override("ru"):
        head = t.command(0, "melee", {"unit": "0.squad.1", "soldier": 4, "target": "1.line.1", "target_soldier": 2},
                         dice=[6, 1])[0]  # fmt: skip
    assert head["payload"]["summary"] == "Атакующий выиграл бой (11 против 3): защищающийся уничтожен."
    assert head["payload"]["said"] == [{"msgid": "The attacker wins ({attack} against {defence}): the defender is "
                                                 "destroyed.", "params": {"attack": 11, "defence": 3}}]  # fmt: skip
    assert describe(head, "en").endswith(": The attacker wins (11 against 3): the defender is destroyed.")
    assert describe(head, "ru").endswith(": Атакующий выиграл бой (11 против 3): защищающийся уничтожен.")
    older = {**head, "payload": {k: v for k, v in head["payload"].items() if k != "said"}}
    assert describe(older, "en").endswith("защищающийся уничтожен.")  # an older event reads as it was stored


def test_a_composite_summary_keeps_every_part_and_its_nested_words():
    t = table()
    t.command(1, "adjust", {"unit": "1.thunder.1", "changes": {"strength": 2}})
    with translation.override("en"):
        events = t.command(0, "shoot", {"unit": "0.gryphon.1", "weapon": "raketnaya-ustanovka",
                                        "target": "1.thunder.1", "distance_steps": 3}, dice=[6, 20, 20])  # fmt: skip
    head = events[0]
    # THUNDER at strength 2 takes 20 and 20 against Броня 2: destroyed; its pilot's test goes to its own player.
    assert describe(head, "ru").endswith(
        ": Попадание: повреждений — 2, прочность теперь 0 (цель уничтожена); тест пилота проходит его игрок."
    )
    assert describe(head, "en").split(": ", 1)[1] == head["payload"]["summary"]


def test_said_texts_survive_copies_and_joins():
    with translation.override("en"):
        said = words.say("Survives.") + words.say(" (destroyed)") + "."
    assert isinstance(said, words.Said)
    assert [p.get("msgid") or p.get("text") for p in said.parts] == ["Survives.", " (destroyed)", "."]
    for again in (copy.deepcopy(said), pickle.loads(pickle.dumps(said))):
        assert again.parts == said.parts
        assert str(again) == str(said)
    with translation.override("ru"):
        assert words.words(said.parts) == "Выжил. (цель уничтожена)."
    assert words.words("plain, as stored") == "plain, as stored"


COLUMNS = {
    "en": ["Rk", "Spd", "Rng.", "Pow.", "CC", "Arm", "Abl."],
    "ru": ["А", "Ск", "Дальн.", "Мощн.", "ББ", "Бр", "Св"],
}


@pytest.mark.parametrize(
    ("language", "expected", "jump", "repair"),
    [("en", "Rk3 Spd5 Arm3 CC3", "Jp5", "Rpr"), ("ru", "А3 Ск5 Бр3 ББ3", "Пр5", "Рм")],
)
def test_the_armlists_letters_follow_the_reader(language, expected, jump, repair):
    soldier = PROFILES[MENDERS]["data"]["soldiers"][1]
    with translation.override(language):
        assert words.stat_line(soldier) == expected
        assert words.ability("jump:5") == jump
        assert words.ability("repair") == repair
        roster = {"entries": [{"key": "e1", "profile": PROFILES[JUMPERS], "count": 1, "options": {}}]}
        table_view = entry_views(roster)["e1"]["blocks"][0]
        assert [c["label"] for c in table_view["columns"]][1:] == COLUMNS[language]
        assert any(jump in row["cells"][-1] for row in table_view["rows"])
        assert not any("jump:" in row["cells"][-1] for row in table_view["rows"])


def _t(msgid: str) -> str:
    from rules.i18n import _

    return _(msgid)


def test_the_boards_stat_lines_show_no_stored_code():
    jumper = {**PROFILES[JUMPERS]["data"]["soldiers"][0], "abilities": ["jump:5", "repair"]}
    for language, row in (("en", " · Jp5 · Rpr"), ("ru", " · Пр5 · Рм")):
        with translation.override(language):
            text = board_module._squad_row_text(jumper)
            assert text.startswith(words.stat_line(jumper))
            assert text.endswith(row)
            assert "jump:" not in text


def test_the_pack_kinds_and_the_odds_pages_options_follow_the_reader():
    with translation.override("en"):
        assert {k: _t(v) for k, v in ARMY.profile_kinds.items()} == {"squad": "Squad", "vehicle": "Vehicle",
                                                                     "gun": "Gun"}  # fmt: skip
        options = [t["label"] for t in known_weapons_and_targets()["targets"] + known_weapons_and_targets()["melee"]]
        assert any("(Arm " in o for o in options)
        assert not any("Бр" in o or "ББ" in o for o in options)
    with translation.override("ru"):
        assert _t(ARMY.profile_kinds["gun"]) == "Орудие"
        options = [t["label"] for t in known_weapons_and_targets()["targets"]]
        assert any("(Бр " in o for o in options)


@pytest.mark.django_db
def test_the_odds_page_shows_no_api_line_in_either_language():
    for language in ("ru", "en"):
        page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/odds/?system=bronepekhota").content.decode()
        assert "/api/v1/systems/bronepekhota" not in page
        assert "POST" not in page
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/odds/?system=bronepekhota").content.decode()
    assert "Armour (Arm)" in english
    assert "Бр" not in english.split("<main", 1)[-1].replace("Бронепехота", "")
