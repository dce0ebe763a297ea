"""The tracker on the board (issue #16): per figure casualty or suppressed; per squad its activation state, On
Guard, melee and the suppression penalty, which clears at its next activation roll; the chain shows whose squad acts
now, and who must split the hits."""

from __future__ import annotations

from rules.systems.squads.system import SYSTEM
from rules.systems.squads.tests.test_battle import _board, example, figures, squad, table


def card(t, viewer, key):
    return next(c for g in _board(t, viewer)["groups"] for c in g["units"] if c["key"] == key)


def labels(c) -> list[str]:
    return [f["label"] for f in c["flags"]]


def turnbar(t, viewer) -> list[str]:
    return [x.get("value") or x.get("question") or x.get("title") or "" for x in _board(t, viewer)["turnbar"]]


def test_the_chain_names_the_acting_squad_and_the_side_that_must_split():
    t = example()
    script = SYSTEM.battle.example_script(t.state)
    for side, name, inputs, dice in script[:3]:
        t.command(side, name, inputs, dice=dice)
    assert "Acting now: " + t.state.units["s0-e1"].name + " (Red)" in turnbar(t, {1})
    assert "Acting now" in labels(card(t, {1}, "s0-e1"))
    assert "Acting now" not in labels(card(t, {1}, "s0-e2"))
    t.command(*script[3][:3], dice=script[3][3])  # the shot: Blue must split
    assert any(line.startswith("Next: Blue — split the unsaved hits") for line in turnbar(t, {0}))
    t.command(*script[4][:3], dice=script[4][3])
    assert not any(line.startswith(("Acting now", "Next: Blue")) for line in turnbar(t, {0}))
    assert "Next: Red — the activation roll of a unit that has not tried this turn (L12)." in turnbar(t, {1})
    assert card(t, {0}, "s0-e1")["done"]
    assert not card(t, {0}, "s0-e2")["done"]
    b1 = card(t, {0}, "s1-e1")
    assert "Suppressed: 1 (−1 to activation)" in labels(b1)
    assert "Casualties: 1" in labels(b1)
    rows = next(x for x in b1["widgets"] if x["type"] == "rows")["items"]
    assert [[f["label"] for f in r["flags"]] for r in rows[:2]] == [["suppressed"], ["casualty"]]
    assert rows[1]["dead"]
    t.command(*script[5][:3], dice=script[5][3])  # the veterans fail: On Guard, the initiative passes to Blue
    assert "On Guard" in labels(card(t, {1}, "s0-e2"))
    assert turnbar(t, {1})[0].endswith("initiative: Blue")
    t.command(*script[6][:3], dice=script[6][3])  # Blue's roll clears its suppression (L31)
    assert not any(line.startswith("Suppressed") for line in labels(card(t, {0}, "s1-e1")))
    assert not any(f["suppressed"] for f in figures(t, "s1-e1"))


def test_a_melee_shows_on_both_squads_and_ends_with_the_withdrawal():
    t = table(
        [squad("a", "squad-regular", figures=(("smg", 4),)), squad("b", "squad-regular")],
        [squad("b", "squad-veteran", figures=(("rifle", 4),))],
    )
    t.command(0, "start_turn", {}, dice=[5, 1])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[4])
    t.command(0, "act", {"unit": "s0-a", "action": "assault", "moved": 8})
    t.command(0, "assault", {"unit": "s0-a", "target": "s1-b"}, dice=[5, 1, 1, 1, 4, 1, 1, 1])
    assert "In melee" in labels(card(t, {0}, "s0-a"))
    assert "In melee" in labels(card(t, {0}, "s1-b"))
    t.command(0, "activate", {"unit": "s0-b"}, dice=[1])  # the riflemen fail: the initiative passes to Blue
    asked = {x["command"]: x for x in _board(t, {1})["turnbar"] if x["type"] == "prompt"}
    assert set(asked) == {"withdraw"}  # its only activation (L42)
    fields = {f["name"]: [c["label"] for c in f["choices"]] for f in asked["withdraw"]["fields"]}
    assert fields == {"unit": ["Отряд: Ветеран"], "attempt": ["Try to withdraw from the melee", "Stay in the melee"]}
    t.command(1, "withdraw", {"unit": "s1-b", "attempt": False})
    t.command(0, "start_turn", {}, dice=[5, 1])
    t.command(1, "melee_round", {}, dice=[1, 1, 1, 1, 1, 1])
    t.command(0, "withdraw", {"unit": "s0-a"}, dice=[6, 4, 6, 2])
    assert "In melee" not in labels(card(t, {0}, "s0-a"))
    assert "In melee" not in labels(card(t, {0}, "s1-b"))
