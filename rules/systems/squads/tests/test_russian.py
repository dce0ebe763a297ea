"""Russian first (issue #16): every text «Отряды» marks for translation has a Russian translation, and a Russian
reader's board, log and builder lines hold no English, only the book's words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from rules.contract.testing import Table
from rules.systems.squads.army import ARMY, suggested_block
from rules.systems.squads.system import SYSTEM
from rules.systems.squads.tests.test_battle import PACK, _event

PACKAGE = Path(__file__).resolve().parents[1]
MARKED = re.compile(r'\b(?:_|N_)\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)')
# What a Russian screen may show in Latin letters: the book's line references (L28) and the roster's names.
ALLOWED = re.compile(r"\bL\d+(–\d+)?\b")


def marked_msgids() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "tests" in path.parts:
            continue
        for match in MARKED.finditer(path.read_text(encoding="utf-8")):
            found.append("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1))))
    return found


def texts(node) -> list[str]:
    if isinstance(node, dict):
        return [t for k, v in node.items() if k not in ("command", "type", "kind", "tone", "key", "name", "value", "inputs")
                for t in texts(v)] + ([node["value"]] if node.get("type") == "text" else [])  # fmt: skip
    if isinstance(node, list):
        return [t for v in node for t in texts(v)]
    return [node] if isinstance(node, str) else []


def english(lines) -> list[str]:
    return [line for line in lines if re.search(r"[A-Za-z]", ALLOWED.sub("", line))]


def test_every_marked_squads_text_is_translated_into_russian():
    msgids = marked_msgids()
    assert len(msgids) > 60
    with translation.override("ru"):
        missing = [m for m in msgids if translation.gettext(m) == m]
    assert not missing, missing


def _board(t, viewer):
    view = t.view(viewer)
    units = [{"key": k, "name": u.name, "kind": u.kind, "side": u.side, "owner": u.side, "mine": u.side in viewer,
              "view": view["units"][k]} for k, u in t.state.units.items()]  # fmt: skip
    state_view = {"game": view["game"], "sides": [{"index": 0, "name": "Красные"}, {"index": 1, "name": "Синие"}],
                  "units": units, "version": t.version}  # fmt: skip
    return SYSTEM.battle.board(state_view, frozenset(viewer), can_write=True)


def test_a_russian_reader_sees_no_english_on_the_board_in_the_log_or_the_builder():
    t = Table(SYSTEM, rosters=[ARMY.example_roster(PACK["profiles"], s) for s in (0, 1)])
    seen = []
    with translation.override("ru"):
        seen += texts(_board(t, {0}))
        for i, (side, name, inputs, dice) in enumerate(SYSTEM.battle.example_script(t.state)):
            t.command(side, name, inputs, dice=dice)
            if i in (2, 3, 5, 8):  # acting, the split question, On Guard, the reaction
                seen += texts(_board(t, {0})) + texts(_board(t, {1}))
        names = {"units": {k: u.name for k, u in t.state.units.items()}, "sides": {0: "Красные", 1: "Синие"}}
        seen += [SYSTEM.battle.describe_event(_event(e), names) for e in t.active()]
        t.command(0, "end", {"winner": 0})
        seen += texts(_board(t, {0}))
        found = {"points": 36, "low": 35.5, "high": 36.9, "job": {"battles": 2000, "seed": 1}}
        seen += texts(suggested_block(found))
    assert len(seen) > 100
    assert not english(seen), english(seen)[:20]
    assert "Бой окончен." in seen
    assert any(line.startswith("Предлагаемые очки (по моделированию)") for line in seen)


@pytest.mark.parametrize("text", ["Turn 1 · initiative: Red", "L28 ok"])
def test_the_check_itself_sees_english(text):
    assert english([text])
