"""«Бронепехота»: a refusal reads in the player's language (issues 16, 17): the board and the odds page show the
message as the rules raised it, so every refusal in battle/ and actions/ is marked and in a catalogue."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from rules.contract.testing import Table
from rules.dice import SeededDice
from rules.errors import ArmlistError, GameConflict, RuleInputError
from rules.systems.bronepekhota.system import SYSTEM
from tests.test_i18n import po_entries

PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.parents[2]
CATALOGUES = (PACKAGE / "locale/ru/LC_MESSAGES/django.po", ROOT / "locale/ru/LC_MESSAGES/django.po")
MARKERS = {"_", "tr", "N_", "gettext"}
ERRORS = {"RuleInputError", "GameConflict", "NotYours", "err"}
ENGLISH = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}")  # two words: a sentence, not a field path or a key
PACK = json.loads((PACKAGE / "data" / "tehnolog-classic.json").read_text(encoding="utf-8"))
PROFILES = {p["slug"]: p for p in PACK["profiles"]}
BLUE_SQUAD, CONDOR = "0.e1.1", "0.e2.1"


def table(*, turns=False) -> Table:
    """Blue: assault commandos (soldier 2 flies the CONDOR) and the CONDOR; Red: heavy clone infantry."""
    blue = [{"key": "e1", "profile": PROFILES["protectorate_shturmovoy_otryad_stervyatniki"], "count": 1, "options": {}},
            {"key": "e2", "profile": PROFILES["condor"], "count": 1,
             "options": {"pilot": [{"entry": "e1", "soldier": 2, "copy": 1}]}}]  # fmt: skip
    red = [{"key": "e1", "profile": PROFILES["polaris_tyazhyolaya_klon_pehota"], "count": 1, "options": {}}]
    t = Table(SYSTEM, rosters=[{"faction": "protectorate", "entries": blue}, {"faction": "polaris", "entries": red}])
    t.settings["enforce_turns"] = turns
    return t


def refusal(t, side, name, inputs=None, dice=None, language="ru") -> ArmlistError:
    with translation.override(language), pytest.raises(ArmlistError) as caught:
        t.command(side, name, inputs, dice=dice)
    return caught.value


def test_a_finished_battle_refuses_in_russian_and_in_english():
    t = table()
    t.command(0, "mission", {"side": 0})
    ru, en = refusal(t, 1, "round"), refusal(t, 1, "round", language="en")
    assert isinstance(ru, GameConflict)
    assert ru.message == "Бой окончен. Отмените последние события, чтобы играть дальше."
    assert en.message == "The battle is over. Undo the last events to play on."


def test_the_table_refusals_read_in_russian():
    t = table(turns=True)
    before = refusal(t, 0, "move", {"unit": BLUE_SQUAD, "soldier": 1, "path": [{"kind": "flat", "steps": 1}]})
    assert before.message.startswith("Сначала бросьте инициативу и задайте порядок игроков")
    nobody = refusal(t, 0, "adjust", {"unit": BLUE_SQUAD, "changes": {"soldier": 9, "alive": False}})
    assert isinstance(nobody, RuleInputError)
    assert nobody.errors == {"changes.soldier": "В этом отряде нет пехотинца 9."}
    slider = refusal(t, 0, "adjust", {"unit": CONDOR, "changes": {"strength": 5, "strength_step": 1}})
    assert slider.errors == {"changes.strength_step": "Задайте значение (прочность) или сдвиньте ползунок, но не то и "
                                                      "другое сразу."}  # fmt: skip
    side = refusal(t, 0, "mission", {"side": 7})
    assert side.errors == {"side": "Стороны 7 нет."}


def test_the_odds_pages_refusals_read_in_russian():
    settings = SYSTEM.default_settings()
    shot = {"shooter": {"kind": "gun", "rank": 1, "crew_rank": 1}, "weapon": {"key": "x", "name": "x"},
            "charge": "shell", "hit": True, "target": {"kind": "infantry", "armour": 3}}  # fmt: skip
    for language, expected in (("ru", "«Реальный выстрел» используется только при реальной стрельбе."),
                               ("en", "Real shot is only used in real shooting mode.")):  # fmt: skip
        with translation.override(language), pytest.raises(RuleInputError) as refused:
            SYSTEM.action("real_shot").resolve(shot, settings, SeededDice(1))
        assert refused.value.errors == {"settings.mode": expected}


def unmarked_refusals(path: Path) -> list[str]:
    """English sentences handed to an error without a gettext mark (field paths such as f"changes.{key}" aside)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        name = getattr(node, "func", None)
        name = getattr(name, "id", None) or getattr(name, "attr", None)
        if not isinstance(node, ast.Call) or name not in ERRORS:
            continue
        stack = list(node.args) + [k.value for k in node.keywords]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Call) and getattr(n.func, "id", getattr(n.func, "attr", "")) in MARKERS:
                continue
            if isinstance(n, ast.Dict):
                stack += [v for v in n.values if v is not None]  # keys are field paths
                continue
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and ENGLISH.search(n.value):
                found.append(f"{path.name}:{n.lineno}: {n.value}")
            elif isinstance(n, ast.JoinedStr):
                words = " ".join(v.value for v in n.values if isinstance(v, ast.Constant))
                found += [f"{path.name}:{n.lineno}: {ast.unparse(n)}"] if ENGLISH.search(words) else []
            else:
                stack += list(ast.iter_child_nodes(n))
    return found


def test_every_refusal_of_the_board_and_the_odds_page_is_marked_and_translated():
    battle = sorted((PACKAGE / "battle").glob("*.py")) + sorted((PACKAGE / "actions").glob("*.py"))
    assert [m for path in battle for m in unmarked_refusals(path)] == []
    translated = {e["msgid"]: e["msgstr"] for c in CATALOGUES for e in po_entries(c) if all(e["msgstr"].values())}
    marked = set()
    for path in battle:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in MARKERS and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and re.search("[A-Za-z]", arg.value):
                    marked.add(arg.value)
    assert len(marked) > 250
    assert sorted(marked - set(translated)) == []


def test_the_checker_sees_an_unmarked_refusal(tmp_path):
    source = tmp_path / "x.py"
    source.write_text(
        'raise RuleInputError({f"a.{k}": f"No {k} here."})\nraise GameConflict(tr("Fine here."))\n'
        'raise RuleInputError({"op": "start or stop"})\n'
    )
    assert unmarked_refusals(source) == ["x.py:1: f'No {k} here.'", "x.py:3: start or stop"]
