"""The board of «Отряды» (battle/board.py) and the commands its forms send, in memory: the forms' texts are read as
the schema's types, the turn bar asks only the phone that must act and says on every phone what comes next, the
split offers only the legal answers (L28, L31), a side with no unit left loses (the book has no victory conditions,
spec §0), the players may end the battle with a winner, and a vehicle moves and fires in the book's words (L77)."""

from __future__ import annotations

import pytest

from rules.contract import Event, GameConflict, RuleInputError
from rules.systems.squads.battle.commands import from_form, player_names
from rules.systems.squads.system import SYSTEM
from rules.systems.squads.tests.test_battle import _board, figures, squad, table, vehicle

NAMES = {"units": {}, "sides": {0: "Red", 1: "Blue"}}


def prompts(t, viewer) -> dict:
    return {x["command"]: x for x in _board(t, viewer)["turnbar"] if x["type"] == "prompt"}


def lines(t, viewer) -> list[str]:
    return [x["value"] for x in _board(t, viewer)["turnbar"] if x["type"] == "text"]


def test_the_forms_texts_are_read_as_the_schemas_types():
    schema = SYSTEM.battle.commands["start_turn"].input_schema
    assert from_form(schema, {"modifiers.0": 1, "modifiers.1": -2}) == {"modifiers": {"0": 1, "1": -2}}
    schema = SYSTEM.battle.commands["activate"].input_schema
    assert from_form(schema, {"unit": "s0-a", "sees_enemy": "false"}) == {"unit": "s0-a", "sees_enemy": False}
    assert from_form(SYSTEM.battle.commands["shoot"].input_schema, {"weapons": "2"}) == {"weapons": [2]}
    assert from_form(SYSTEM.battle.commands["melee_round"].input_schema, {"melee": "0"}) == {"melee": 0}
    assert from_form(schema, {"sees_enemy": "maybe"}) == {"sees_enemy": "maybe"}  # left for the schema to refuse

    t = table([squad("a", "squad-regular")], [squad("b", "squad-regular")])
    t.command(0, "start_turn", {"modifiers.0": "1", "modifiers.1": "0"}, dice=[5, 5])  # 6 against 5 (L12)
    assert t.state.game["initiative"]["first"] == 0
    with pytest.raises(RuleInputError):
        t.command(0, "activate", {"unit": "s0-a", "sees_enemy": "maybe"}, dice=[3])
    t.command(0, "activate", {"unit": "s0-a", "sees_enemy": "false"}, dice=[3])  # 3 + 1 ≥ 4 (L14)
    assert t.state.game["acting"] == "s0-a"


def test_the_initiative_names_the_sides_by_their_names():
    t = table([squad("a", "squad-regular")], [squad("b", "squad-regular")])
    t.command(0, "start_turn", {}, dice=[2, 6])
    dice = t.active()[-1]["dice"]
    assert [d["purpose"] for d in dice] == ["initiative: Red", "initiative: Blue"]
    assert t.state.game["initiative"]["first"] == 1
    assert player_names({"sides": [0, 1], "side_names": {"0": "Отряд", "1": "Отряд"}}) == {
        0: "Отряд (1)",
        1: "Отряд (2)",
    }


def test_only_the_phone_that_acts_is_asked_and_every_phone_reads_what_comes_next():
    t = table([squad("a", "squad-regular"), squad("c", "squad-veteran")], [squad("b", "squad-regular")])
    assert set(prompts(t, {0})) == {"start_turn"} == set(prompts(t, {1}))  # either player rolls (L12)
    fields = [f["name"] for f in prompts(t, {0})["start_turn"]["fields"]]
    assert fields == ["modifiers.0", "modifiers.1"]  # the scenario's modifiers, one a side
    t.command(0, "start_turn", {}, dice=[5, 2])
    form = prompts(t, {0})["activate"]
    assert [c["value"] for c in form["fields"][0]["choices"]] == ["s0-a", "s0-c"]
    assert {f["name"] for f in form["fields"]} == {"unit", "sees_enemy", "out_of_coherency"}
    assert prompts(t, {1}) == {}
    next_line = "Next: Red — the activation roll of a unit that has not tried this turn (L12)."
    assert next_line in lines(t, {0})
    assert next_line in lines(t, {1})
    t.command(0, "activate", {"unit": "s0-a"}, dice=[6])
    actions = [b["inputs"]["action"] for b in prompts(t, {0})["act"]["options"]]
    assert actions == ["walk", "run", "crouch", "on_guard", "go_to_ground", "aimed_fire", "assault"]
    t.command(0, "act", {"unit": "s0-a", "action": "run"})
    assert "Next: Red — the end of the activation of Отряд: Рядовой." in lines(t, {1})
    t.command(0, "done", {"unit": "s0-a"})
    form = prompts(t, {0})["activate"]
    assert [c["value"] for c in form["fields"][0]["choices"]] == ["s0-c"]  # each unit tries once a turn
    spectator = SYSTEM.battle.board(
        {**t.view(set()), "sides": [{"index": 0, "name": "Red"}, {"index": 1, "name": "Blue"}],
         "units": _board_units(t)}, frozenset(), can_write=False)  # fmt: skip
    assert not [x for x in spectator["turnbar"] if x["type"] == "prompt"]
    assert spectator["footer"] == []


def _board_units(t):
    view = t.view(set())
    return [{"key": k, "name": u.name, "kind": u.kind, "side": u.side, "owner": u.side, "mine": False,
             "view": view["units"][k]} for k, u in t.state.units.items()]  # fmt: skip


def test_the_split_offers_only_the_legal_answers():
    t = table([squad("a", "squad-veteran", figures=(("lmg", 2),))], [squad("b", "squad-regular")])
    t.command(0, "start_turn", {}, dice=[5, 2])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[6])
    t.command(0, "act", {"unit": "s0-a", "action": "aimed_fire"})
    t.command(0, "shoot", {"unit": "s0-a", "target": "s1-b", "distance": 20}, dice=[6, 6, 6, 1, 1, 1])
    question = prompts(t, {1})["split_hits"]
    labels = [o["label"] for o in question["options"]]
    # A Regular has at most 2 suppressed figures (§5 B1); 3 unsaved hits on 4 riflemen.
    assert labels == ["Suppress 0, casualties 3", "Suppress 1, casualties 2", "Suppress 2, casualties 1"]
    assert "split_hits" not in prompts(t, {0})
    assert any(x.startswith("Next: Blue — split the unsaved hits on Отряд: Рядовой") for x in lines(t, {0}))


def test_a_side_with_no_unit_left_loses():
    t = table(
        [squad("a", "squad-veteran", figures=(("lmg", 1),))], [squad("b", "squad-regular", figures=(("rifle", 2),))]
    )
    t.command(0, "start_turn", {}, dice=[5, 2])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[6])
    t.command(0, "act", {"unit": "s0-a", "action": "aimed_fire"})
    t.command(0, "shoot", {"unit": "s0-a", "target": "s1-b", "distance": 20}, dice=[6, 6, 1])
    t.command(1, "split_hits", {"suppress": 1})  # one suppressed, one casualty: Blue still has a figure
    assert t.state.game["result"] is None
    t.command(1, "activate", {"unit": "s1-b"}, dice=[1])  # fails: On Guard
    t.command(0, "start_turn", {}, dice=[6, 1])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[6])
    t.command(0, "act", {"unit": "s0-a", "action": "aimed_fire"})
    t.command(0, "shoot", {"unit": "s0-a", "target": "s1-b", "distance": 20}, dice=[6, 1, 1])
    events = t.command(1, "split_hits", {"suppress": 0})
    assert [e["type"] for e in events] == ["hits.split", "game.ended"]
    assert t.state.game["result"] == {"winner": 0, "reason": "destroyed"}
    assert t.awaiting().kind == "over"
    board = _board(t, {1})
    assert board["banner"]["text"] == "Victory: Red."
    assert "No unit of Blue is left in the game." in board["banner"]["lines"]
    assert not [x for x in board["turnbar"] if x["type"] == "prompt"]
    assert board["footer"] == []
    said = SYSTEM.battle.describe_event(Event(0, "game.ended", events[-1]["payload"], 1, None), NAMES)
    assert said == "The battle is over: only Red has units left in the game; victory of Red."
    with pytest.raises(GameConflict):
        t.command(0, "end", {"winner": 0})
    assert t.replay_matches()


def test_a_melee_that_takes_the_last_figures_of_both_is_a_draw():
    t = table(
        [squad("a", "squad-regular", figures=(("smg", 1),))], [squad("b", "squad-regular", figures=(("rifle", 1),))]
    )
    t.command(0, "start_turn", {}, dice=[5, 2])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[6])
    t.command(0, "act", {"unit": "s0-a", "action": "assault"})
    events = t.command(0, "assault", {"unit": "s0-a", "target": "s1-b"}, dice=[6, 6])  # both hit at once (L42)
    assert events[-1]["type"] == "game.ended"
    assert t.state.game["result"] == {"winner": None, "reason": "destroyed"}
    assert _board(t, {0})["banner"]["text"] == "A draw."
    assert t.replay_matches()


def test_the_players_end_the_battle_with_a_winner():
    t = table([squad("a", "squad-regular")], [squad("b", "squad-regular")])
    t.command(0, "start_turn", {}, dice=[5, 2])
    footer = _board(t, {0})["footer"][0]
    assert [(b["label"], b["inputs"]) for b in footer["items"]] == [
        ("Victory: Red.", {"winner": 0}), ("Victory: Blue.", {"winner": 1}), ("A draw", {})]  # fmt: skip
    t.command(1, "end", {"winner": 1})
    banner = _board(t, {0})["banner"]
    assert banner["text"] == "Victory: Blue."
    assert "The players ended the battle." in banner["lines"]


def test_a_vehicle_moves_and_fires_in_the_books_words():
    t = table([vehicle("v", weapons=(("hmg", 1), ("rpg", 1)))], [squad("b", "squad-regular")])
    t.command(0, "start_turn", {}, dice=[5, 2])
    t.command(0, "activate", {"unit": "s0-v"}, dice=[6])
    moves = [(b["label"], b["inputs"]["action"]) for b in prompts(t, {0})["act"]["options"]]
    assert moves == [("Stationary: fires all its weapons", "stationary"), ("In the open: fires one weapon", "open"),
                     ("Through light cover: fires one weapon", "light_cover"),
                     ("Through medium cover (medium and heavy tanks): no fire", "medium_cover")]  # fmt: skip
    t.command(0, "act", {"unit": "s0-v", "action": "open"})
    form = prompts(t, {0})["shoot"]
    weapons = next(f for f in form["fields"] if f["name"] == "weapons")
    assert [c["value"] for c in weapons["choices"]] == ["1", "2"]  # moving: one weapon, no "every weapon" (L77)
    t.command(0, "shoot", {"unit": "s0-v", "target": "s1-b", "distance": 20, "weapons": "1"}, dice=[1, 1, 1, 1])
    assert sum(f["casualty"] for f in figures(t, "s1-b")) == 0
    card = next(c for g in _board(t, {1})["groups"] for c in g["units"] if c["key"] == "s0-v")
    rows = next(x for x in card["widgets"] if x["type"] == "rows")["items"]
    assert [r["title"] for r in rows] == ["1. Heavy machine gun", "2. RPG"]
    assert "Open" not in str(card)
