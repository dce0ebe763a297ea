"""The battle part played through rules.contract.testing.Table, the runner's own steps: secret orders and the
reveal, activation by initiative, shooting with wound markers per unit, an assault and a melee, undo and replay,
the turn counter, and victory points (spec §1.3–§1.6, §4)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rules.contract import Event, GameConflict, NotYours, RuleInputError, UndoNeedsAgreement
from rules.contract.testing import Table
from rules.systems.zvezdny_desant.system import SYSTEM

PACK = json.loads((Path(__file__).parents[1] / "data" / "demo-examples.json").read_text(encoding="utf-8"))
ROSTERS = [SYSTEM.army.example_roster(PACK["profiles"], s) for s in (0, 1)]


def table(**settings) -> Table:
    return Table(SYSTEM, rosters=copy.deepcopy(ROSTERS), settings=settings)


def keys(t: Table, side: int) -> list[str]:
    return [k for k, u in t.state.units.items() if u.side == side]


def orders(*cards) -> dict:
    return {"orders": [{"unit": u, "order": o, "initiative": i} for u, o, i in cards]}


def start(t: Table, dice=(15, 4)) -> None:
    t.command(0, "start_turn", {}, dice=list(dice))


def test_units_start_from_the_rosters_with_their_cards():
    t = table()
    assert len(t.state.units) == 4
    unit = t.state.units[keys(t, 0)[0]]
    assert unit.state["figures"] == 5
    assert unit.state["markers"] == 0
    assert unit.profile["cost"] == 250
    assert unit.profile["strikes_per_figure"] == 2
    names = [u.name for u in t.state.units.values()]
    assert len(set(names)) == 4  # two units of one card are told apart
    assert t.state.game["turn"] == 1
    assert t.state.game["cp"] == 10
    assert t.state.game["max_turns"] == 5


def test_orders_are_secret_until_both_sides_have_ordered():
    t = table()
    start(t)
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    awaiting = t.awaiting()
    assert awaiting.kind == "all"
    assert awaiting.sides == (0, 1)
    secret = t.command(0, "give_orders", orders((a1, "attack", 7), (a2, "defence", 3)))
    assert [e["visible_to"] for e in secret] == [(0,)]
    assert t.awaiting().sides == (1,)
    # Side 1 (and a spectator) hold no trace of side 0's orders: not in the feed, the game or the units.
    for viewer in ({1}, set()):
        feed = t.feed(viewer)
        assert all(e["seq"] != secret[0]["seq"] for e in feed)
        seen = t.view(viewer)
        assert seen["game"]["orders"] == {}
        assert all(seen["units"][k]["order"] is None and seen["units"][k]["initiative"] is None for k in (a1, a2))
        text = json.dumps({"feed": feed, "view": seen}, ensure_ascii=False)
        assert "attack" not in text
        assert "defence" not in text
    assert t.view({0})["game"]["orders"]["0"][a1] == {"order": "attack", "initiative": 7}
    with pytest.raises(GameConflict):  # side 0 has ordered: the game now waits for side 1 only
        t.command(0, "give_orders", orders((a1, "move", 10), (a2, "defence", 0)))
    revealed = t.command(1, "give_orders", orders((b1, "move", 5), (b2, "defence", 5)))
    assert [e["type"] for e in revealed] == ["orders_given", "orders_revealed"]
    assert revealed[1]["visible_to"] is None
    assert revealed[1]["payload"]["orders"][a1] == {"order": "attack", "initiative": 7}
    seen = t.view({1})
    assert seen["units"][a1]["order"] == "attack"
    assert seen["units"][b2]["initiative"] == 5
    assert t.replay_matches()


def test_command_points_must_all_be_spent_and_only_on_own_units():
    t = table()
    start(t)
    a1, a2 = keys(t, 0)
    b1, _ = keys(t, 1)
    with pytest.raises(RuleInputError, match="Spend all 10"):
        t.command(0, "give_orders", orders((a1, "attack", 4), (a2, "move", 4)))
    with pytest.raises(RuleInputError, match="11 command points"):
        t.command(0, "give_orders", orders((a1, "attack", 6), (a2, "move", 5)))
    with pytest.raises(RuleInputError, match="needs an order"):
        t.command(0, "give_orders", orders((a1, "attack", 10)))
    with pytest.raises(NotYours):
        t.command(0, "give_orders", orders((a1, "attack", 5), (b1, "move", 5)))
    assert t.version == 1  # refusals leave no trace
    lenient = table(cp_underspend="lost")
    start(lenient)
    lenient.command(0, "give_orders", orders((a1, "attack", 4), (a2, "move", 4)))


def play_orders(t: Table, side0, side1) -> None:
    t.command(0, "give_orders", orders(*side0))
    t.command(1, "give_orders", orders(*side1))


def test_units_act_by_initiative_ties_alternate_from_the_first_player_and_zero_never_acts():
    t = table()
    start(t, (2, 9))  # side 1 is First Player
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    play_orders(t, [(a1, "defence", 10), (a2, "move", 0)], [(b1, "defence", 5), (b2, "move", 5)])
    acted = []
    while t.state.game["phase"] == "execution":
        side = t.awaiting().sides[0]
        unit = next(k for k in keys(t, side) if not t.state.units[k].state["acted"]
                    and t.state.units[k].state["initiative"])  # fmt: skip
        t.command(side, "act", {"unit": unit})
        acted.append(unit)
    assert acted == [a1, b1, b2]  # initiative 10, then side 1's two 5s; a2 (initiative 0) never acts (L276)
    assert t.awaiting().commands == ("fight", "end_turn")


def test_acting_out_of_turn_or_against_the_order_is_refused():
    t = table()
    start(t)
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    play_orders(t, [(a1, "defence", 6), (a2, "move", 4)], [(b1, "move", 6), (b2, "defence", 4)])
    with pytest.raises(GameConflict):
        t.command(1, "act", {"unit": b1})  # the First Player's unit goes first at a tie (L266)
    with pytest.raises(RuleInputError, match="does not act now"):
        t.command(0, "act", {"unit": a2})
    with pytest.raises(RuleInputError, match="stays in place"):
        t.command(0, "act", {"unit": a1, "move": True})
    t.command(0, "act", {"unit": a1})
    with pytest.raises(RuleInputError, match="cannot shoot"):
        t.command(1, "act", {"unit": b1, "shoot": {"target": a1}})


def test_wound_markers_stay_on_the_unit_between_shots():
    t = table()
    start(t)
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    play_orders(t, [(a1, "defence", 6), (a2, "move", 4)], [(b1, "defence", 6), (b2, "defence", 4)])
    # a1 (5 Автомат, Defence) at b1 (Defence, open): 10+; 2 hits, both wound (В12): 2 wounds, СТК 2 → 1 dies.
    t.command(0, "act", {"unit": a1, "shoot": {"target": b1}}, dice=[10, 11, 1, 1, 1, 12, 12])
    # b1 (4 figures) at a1: 2 hits, 1 wound → one marker on a1 (СТК 3).
    t.command(1, "act", {"unit": b1, "shoot": {"target": a1}}, dice=[10, 10, 1, 1, 12, 2])
    assert t.state.units[b1].state["figures"] == 4
    assert t.state.units[b1].state["markers"] == 0
    assert t.state.units[a1].state["markers"] == 1
    t.command(0, "act", {"unit": a2})
    t.command(1, "act", {"unit": b2, "shoot": {"target": a1}}, dice=[20, 20, 1, 1, 1, 20, 20])
    assert t.state.units[a1].state["figures"] == 4
    assert t.state.units[a1].state["markers"] == 0
    t.undo(1, seq=t.version - 1)  # the shot (activation and volley) is taken back
    assert t.state.units[a1].state["figures"] == 5
    assert t.state.units[a1].state["markers"] == 1
    with pytest.raises(RuleInputError, match="Die 6 is 21"):  # a typed-in die out of range is named
        t.command(1, "act", {"unit": b2, "shoot": {"target": a1}}, dice=[20, 20, 1, 1, 1, 21, 20])
    assert t.replay_matches()


def test_assault_melee_and_its_end():
    t = table()
    start(t)
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    play_orders(t, [(a1, "attack", 6), (a2, "move", 4)], [(b1, "move", 6), (b2, "defence", 4)])
    t.command(0, "act", {"unit": a1, "assault": {"target": b2}})
    assert t.state.units[b2].state["in_melee"]
    assert t.state.units[b2].state["order"] is None
    t.command(1, "act", {"unit": b1})
    t.command(0, "act", {"unit": a2})
    assert t.state.game["phase"] == "melee"  # b2 lost its card: nobody is left to act
    with pytest.raises(GameConflict, match="Fight every melee"):
        t.command(0, "end_turn")
    # The humans strike first: 5 strikes, all miss. Nobody is removed until the forcers have struck too (L659).
    t.command(1, "fight", {"melee": 1}, dice=[1] * 5)
    assert t.state.units[a1].state["figures"] == 5
    asked = t.awaiting()
    assert (asked.kind, asked.sides, asked.commands) == ("question", (0,), ("strike",))
    with pytest.raises(GameConflict):  # the side that struck cannot answer its own question
        t.command(1, "strike", {}, dice=[20] * 10)
    with pytest.raises(GameConflict):  # nor may anything else happen before the answer
        t.command(0, "end_turn")
    # Forcers: 5 figures × 2 strikes at БСП 7, all hit: 10 wounds on СТК 2 → destroyed.
    t.command(0, "strike", {}, dice=[20] * 10)
    with pytest.raises(GameConflict):  # answered once: a second answer is refused
        t.command(0, "strike", {}, dice=[20] * 10)
    assert t.state.units[b2].state["destroyed"]
    assert t.state.game["melees"] == []
    assert not t.state.units[a1].state["in_melee"]
    t.command(0, "end_turn")
    start(t)
    t.command(1, "give_orders", orders((b1, "move", 10)))  # b2 is gone: only b1 takes an order
    with pytest.raises(RuleInputError, match="needs an order"):  # a1 left the melee: it takes orders again
        t.command(0, "give_orders", orders((a2, "move", 10)))


def test_the_turn_counter_stops_the_game_with_victory_points():
    t = table(max_turns=2)
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    for turn in (1, 2):
        start(t)
        play_orders(t, [(a1, "defence", 10), (a2, "defence", 0)], [(b1, "defence", 10), (b2, "defence", 0)])
        if turn == 1:  # all 5 hit and wound: 5 wounds on СТК 2 → 2 of b1's 5 figures die
            t.command(0, "act", {"unit": a1, "shoot": {"target": b1}}, dice=[20] * 5 + [20] * 5)
        else:  # 4 more wounds + 1 marker: 2 more die: 4 of 5 lost, more than half
            t.command(0, "act", {"unit": a1, "shoot": {"target": b1}}, dice=[20] * 4 + [1] + [20] * 4)
        t.command(1, "act", {"unit": b1})
        t.command(0, "end_turn")
    result = t.state.game["result"]
    assert result["reason"] == "turns"
    assert result["vp"] == [125, 0]
    assert result["winner"] == 0
    assert t.awaiting().kind == "over"
    with pytest.raises(GameConflict):
        t.command(0, "start_turn", {}, dice=[1, 2])
    assert t.replay_matches()


def test_wiping_out_a_side_ends_the_game_at_once():
    rosters = copy.deepcopy(ROSTERS)
    for r in rosters:
        r["entries"] = r["entries"][:1]
    t = Table(SYSTEM, rosters=rosters)
    (a1,), (b1,) = keys(t, 0), keys(t, 1)
    start(t)
    play_orders(t, [(a1, "move", 10)], [(b1, "defence", 10)])
    t.command(0, "act", {"unit": a1, "assault": {"target": b1}})
    t.command(0, "fight", {"melee": 1}, dice=[20] * 10)  # 10 wounds on СТК 2: all 5 figures
    assert t.state.game["result"] is None  # not before the other side has struck back (L659)
    t.command(1, "strike", {}, dice=[1] * 5)
    assert t.state.game["result"] == {"vp": [250, 0], "winner": 0, "draw": False, "reason": "wiped_out"}


def test_ending_the_game_by_agreement():
    t = table()
    t.command(0, "end_game")
    assert t.state.game["result"] == {"vp": [0, 0], "winner": None, "draw": True, "reason": "agreed"}


def test_undo_takes_back_secret_orders_and_the_reveal():
    t = table()
    start(t)
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    t.command(0, "give_orders", orders((a1, "attack", 7), (a2, "defence", 3)))
    head = t.version + 1
    t.command(1, "give_orders", orders((b1, "move", 5), (b2, "defence", 5)))
    assert t.state.game["phase"] == "execution"
    with pytest.raises(UndoNeedsAgreement):  # after the reveal no side takes its orders back alone
        t.undo(1, seq=head)
    t.undo(1, seq=head, agreed=True)
    assert t.state.game["phase"] == "orders"
    assert t.awaiting().sides == (1,)
    assert t.state.units[a1].state["order"] is None
    assert t.view({1})["game"]["orders"] == {}
    undo = t.events[-1]
    assert undo["visible_to"] is None  # both players agreed to it
    assert t.replay_matches()


def test_before_the_reveal_a_side_takes_back_its_own_orders_alone():
    t = table()
    start(t)
    a1, a2 = keys(t, 0)
    head = t.version + 1
    t.command(0, "give_orders", orders((a1, "attack", 7), (a2, "defence", 3)))
    t.undo(0, seq=head)
    assert t.events[-1]["visible_to"] == (0,)  # as secret as the orders
    assert t.awaiting().sides == (0, 1)
    assert t.replay_matches()


def test_marking_panic_by_hand():
    t = table()
    a1, a2 = keys(t, 0)
    t.command(0, "mark", {"unit": a2, "panicked": True})
    start(t)
    t.command(0, "give_orders", orders((a1, "attack", 10)))  # a panicked unit gets no order (L228)
    strict = table(states_by_hand=False)
    with pytest.raises(RuleInputError, match="A4"):
        strict.command(0, "mark", {"unit": a2, "panicked": True})
    with pytest.raises(NotYours):
        t.command(1, "mark", {"unit": a1, "suppressed": True})


def test_flat_order_form_fields_and_the_board():
    t = table()
    start(t)
    a1, a2 = keys(t, 0)
    t.command(0, "give_orders", {f"{a1}:order": "attack", f"{a1}:initiative": 4, f"{a2}:order": "move",
                                 f"{a2}:initiative": 6})  # fmt: skip
    assert t.view({0})["game"]["orders"]["0"][a2] == {"order": "move", "initiative": 6}
    state_view = {
        "game": t.view({1})["game"],
        "sides": [{"index": 0, "name": "A"}, {"index": 1, "name": "B"}],
        "units": [{"key": k, "name": u.name, "kind": u.kind, "owner": u.side, "side": u.side,
                   "view": t.view({1})["units"][k]} for k, u in t.state.units.items()],
    }  # fmt: skip
    board = SYSTEM.battle.board(state_view, frozenset({1}), can_write=True)
    forms = [w for w in board["turnbar"] if w.get("type") == "order_form"]
    assert len(forms) == 1
    assert {f["name"] for f in forms[0]["fields"]} >= {f"{k}:order" for k in keys(t, 1)}
    assert "«Attack» 4" not in json.dumps(board, ensure_ascii=False)  # side 0's secret card is not on side 1's board
    names = {"units": {k: u.name for k, u in t.state.units.items()}, "sides": {0: "A", 1: "B"}}
    lines = [SYSTEM.battle.describe_event(Event(e["seq"], e["type"], e["payload"]), names) for e in t.events]
    assert lines[0].startswith("Turn 1: the First Player is A")
    assert "«Attack» 4" in lines[1]  # the order card in the reader's language (English here)


def test_orders_sent_before_the_other_sides_arrived_commute_with_them():
    """Both players fill in their cards at once (L226): a phone that has not yet seen the other side's orders may
    still send its own; anything else in between makes it stale."""
    t = table()
    start(t)
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    given = t.command(1, "give_orders", orders((b1, "attack", 6), (b2, "defence", 4)))
    since = [Event(e["seq"], e["type"], e["payload"], e["side"], e["visible_to"]) for e in given]
    assert SYSTEM.battle.commutes(t.state, "give_orders", {}, since)
    assert not SYSTEM.battle.commutes(t.state, "act", {}, since)
    assert not SYSTEM.battle.commutes(t.state, "give_orders", {}, [Event(9, "turn_started", {}, 0, None)])


def test_the_phone_form_sends_distance_hidden_figures_and_a_charge_that_fell_short():
    """The board's act form: steps to the target (a weapon whose Длн is shorter cannot hit, L424), target figures
    out of sight (they cannot die, L558–569), and an assault that did not come within 3 steps (only a move, L609)."""
    t = table()
    start(t)
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    play_orders(t, [(a1, "defence", 6), (a2, "defence", 4)], [(b1, "move", 5), (b2, "attack", 5)])
    # 5 hits and 5 wounds on СТК 2 would kill 2, but 4 of the 5 figures are out of sight: only 1 can die (L569).
    t.command(0, "act", {"unit": a1, "do": "shoot", "target": b1, "cover": "open", "hidden": 4}, dice=[20] * 10)
    assert t.state.units[b1].state["figures"] == 4
    t.command(1, "act", {"unit": b1, "do": "assault", "target": a2, "reached": "no"})
    assert not t.state.units[a2].state["in_melee"]
    assert not t.state.game["melees"]
    far = t.command(1, "act", {"unit": b2, "do": "move_shoot", "target": a2, "cover": "open", "distance": 31})
    assert far[0]["payload"]["hits"] == 0  # the Автомат reaches 30 steps
    with pytest.raises(RuleInputError):  # the form's fields need the form's «do»
        t.command(0, "act", {"unit": a2, "target": b1, "distance": 3})
