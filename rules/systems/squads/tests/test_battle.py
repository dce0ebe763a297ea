"""The battle part through rules.contract.testing.Table (the runner's own steps): a short game played by commands,
undo, replay equal to the state, and what the tracker of spec §4 must keep: per-figure casualties and suppression,
activation chains that pass the initiative, On Guard, melee locks, the split question to the target's owner, and
vehicle damage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.contract import GameConflict, NotYours, RuleInputError
from rules.contract.testing import Table
from rules.systems.squads.army import ARMY
from rules.systems.squads.system import SYSTEM

PACK = json.loads((Path(__file__).resolve().parents[1] / "data" / "squads-core.json").read_text(encoding="utf-8"))
PROFILES = {p["slug"]: p for p in PACK["profiles"]}


def squad(key, slug, armour="none", figures=(("rifle", 4),), leader=None):
    options = {"armour": armour, "figures": [{"weapon": w, "count": n} for w, n in figures], "leader": leader}
    return {"key": key, "profile": PROFILES[slug], "count": 1, "options": options}


def vehicle(key, slug="vehicle-light", weapons=(("rpg", 1), ("hmg", 1)), level="regular"):
    options = {"crew_level": level, "weapons": [{"weapon": w, "count": n} for w, n in weapons], "passengers": []}
    return {"key": key, "profile": PROFILES[slug], "count": 1, "options": options}


def table(side0, side1, **settings):
    return Table(SYSTEM, rosters=[{"faction": "any", "entries": side0}, {"faction": "any", "entries": side1}],
                 settings=settings, names={0: "Red", 1: "Blue"})  # fmt: skip


def figures(t, key):
    return t.state.units[key].state["figures"]


def example():
    return Table(SYSTEM, rosters=[ARMY.example_roster(PACK["profiles"], s) for s in (0, 1)])


def test_a_short_game_splits_hits_passes_the_initiative_and_reacts():
    t = example()
    script = SYSTEM.battle.example_script(t.state)
    a1, b1 = "s0-e1", "s1-e1"
    for i, (side, name, inputs, dice) in enumerate(script):
        t.command(side, name, inputs, dice=dice)
        if i == 3:  # after the shot: a question to the target's owner, only split_hits accepted
            awaiting = t.awaiting()
            assert (awaiting.kind, awaiting.sides, awaiting.commands) == ("question", (1,), ("split_hits",))
            assert awaiting.prompt["unsaved"] == 2
            with pytest.raises(GameConflict):
                t.command(0, "split_hits", {"suppress": 0})
        if i == 4:
            standing = [(f["n"], f["suppressed"], f["casualty"]) for f in figures(t, b1)]
            assert standing == [(1, True, False), (2, False, True), (3, False, False), (4, False, False)]
            assert t.state.game["current"] == 0  # a success keeps the initiative (L12)
        if i == 5:
            assert t.state.game["current"] == 1  # the veterans failed: the initiative passes
            assert t.state.units["s0-e2"].state["on_guard"]
        if i == 6:
            assert not any(f["suppressed"] for f in figures(t, b1))  # cleared by its activation roll (L31)
    assert t.state.units["s0-e2"].state["reaction_used"]
    assert sum(f["casualty"] for f in figures(t, b1)) == 2
    assert t.state.units[a1].state["attempted"]
    assert t.replay_matches()
    lines = [SYSTEM.battle.describe_event(_event(e), {"units": {}, "sides": {0: "Red", 1: "Blue"}}) for e in t.active()]
    assert lines[0] == "Turn 1: Red has the initiative."
    assert any("reacts with fire" in line for line in lines)


def _event(row):
    from rules.contract import Event

    return Event(row["seq"], row["type"], row["payload"], row["side"], row["visible_to"])


def test_undo_of_a_shot_takes_back_the_question_and_replay_matches():
    t = example()
    for side, name, inputs, dice in SYSTEM.battle.example_script(t.state)[:4]:
        t.command(side, name, inputs, dice=dice)
    assert t.state.game["pending_split"]
    before_shot = t.events[2]["seq"] + 1
    t.undo(0, seq=before_shot)
    assert t.state.game["pending_split"] is None
    assert t.state.game["acting"] == "s0-e1"
    assert t.awaiting().commands == ("act", "shoot", "assault", "done", "react")
    assert t.replay_matches()


def test_out_of_turn_and_bad_commands_change_nothing():
    t = example()
    with pytest.raises(GameConflict):
        t.command(0, "activate", {"unit": "s0-e1"})  # no turn yet
    t.command(0, "start_turn", {}, dice=[2, 5])  # Blue first
    version = t.version
    with pytest.raises(GameConflict):
        t.command(0, "activate", {"unit": "s0-e1"}, dice=[6])
    with pytest.raises(NotYours):
        t.command(1, "activate", {"unit": "s0-e1"}, dice=[6])
    with pytest.raises(RuleInputError) as exc:
        t.command(1, "activate", {"unit": "s1-e1"}, dice=[9])
    assert "Die 1 is 9" in exc.value.errors["dice"]
    with pytest.raises(GameConflict):
        t.command(1, "shoot", {"unit": "s1-e1", "target": "s0-e1", "distance": 5})
    assert t.version == version


def test_a_side_without_units_to_try_hands_on_and_the_turn_ends():
    t = table([squad("a", "squad-elite")], [squad("b", "squad-recruit"), squad("c", "squad-recruit")])
    t.command(0, "start_turn", {}, dice=[6, 1])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[2])
    t.command(0, "act", {"unit": "s0-a", "action": "run", "moved": 12})
    t.command(0, "done", {"unit": "s0-a"})
    assert SYSTEM.battle.awaiting(t.state).commands == ("activate", "withdraw", "react")
    t.command(1, "activate", {"unit": "s1-b"}, dice=[1])  # failed, but Red has nobody left: Blue goes on
    t.command(1, "activate", {"unit": "s1-c"}, dice=[1])
    assert t.awaiting().commands == ("start_turn", "react")
    t.command(1, "start_turn", {"modifiers": {"1": 2}}, dice=[3, 2])  # Blue 2 + 2 beats Red 3
    assert t.state.game["initiative"]["first"] == 1
    assert not any(u.state["attempted"] for u in t.state.units.values())


def test_more_than_half_lost_withdraws_on_a_failed_roll():
    t = table([squad("a", "squad-regular", figures=(("rifle", 6),))], [squad("b", "squad-regular")])
    t.command(0, "start_turn", {}, dice=[5, 1])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[5])
    t.command(0, "act", {"unit": "s0-a", "action": "aimed_fire"})
    t.command(0, "shoot", {"unit": "s0-a", "target": "s1-b", "distance": 8}, dice=[6, 6, 6, 1, 1, 1])
    t.command(1, "split_hits", {"suppress": 0, "casualties": [2, 3, 4]})
    assert [f["casualty"] for f in figures(t, "s1-b")] == [False, True, True, True]
    t.command(1, "activate", {"unit": "s1-b"}, dice=[1])
    assert t.state.units["s1-b"].state["stance"] == "withdrew"
    assert not t.state.units["s1-b"].state["on_guard"]


def test_split_refuses_figures_that_cannot_take_the_outcome():
    t = table([squad("a", "squad-elite", figures=(("smg", 2),))], [squad("b", "squad-recruit")])
    t.command(0, "start_turn", {}, dice=[5, 1])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[5])
    t.command(0, "act", {"unit": "s0-a", "action": "walk"})
    t.command(0, "shoot", {"unit": "s0-a", "target": "s1-b", "distance": 6}, dice=[6, 6, 1, 1, 1, 1])
    with pytest.raises(RuleInputError) as exc:
        t.command(1, "split_hits", {"suppress": 2})  # a Recruit unit suppresses at most 1 (§5 B1)
    assert "At most 1" in exc.value.errors["suppress"]
    with pytest.raises(RuleInputError):
        t.command(1, "split_hits", {"suppress": 1, "suppressed": [2], "casualties": [2]})
    t.command(1, "split_hits", {"suppress": 1, "suppressed": [4], "casualties": [1]})
    assert [(f["suppressed"], f["casualty"]) for f in figures(t, "s1-b")] == [
        (False, True), (False, False), (False, False), (True, False)]  # fmt: skip


def test_on_guard_after_action_setting_moves_the_reaction_window():
    sides = ([squad("a", "squad-veteran")], [squad("b", "squad-regular")])
    t = table(*sides, on_guard_timing="after_action")
    t.command(0, "start_turn", {}, dice=[5, 1])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[1])  # fails: On Guard
    t.command(1, "activate", {"unit": "s1-b"}, dice=[6])
    t.command(1, "act", {"unit": "s1-b", "action": "run"})
    with pytest.raises(GameConflict):
        t.command(0, "react", {"unit": "s0-a", "distance": 10}, dice=[4, 4, 4, 4])
    t.command(1, "done", {"unit": "s1-b"})
    t.command(0, "react", {"unit": "s0-a", "distance": 10}, dice=[1, 1, 1, 1])
    assert t.state.units["s0-a"].state["reaction_used"]
    with pytest.raises(GameConflict):
        t.command(0, "react", {"unit": "s0-a", "distance": 10}, dice=[1, 1, 1, 1])


def test_assault_locks_both_and_the_melee_goes_on_next_turn():
    t = table(
        [squad("a", "squad-regular", figures=(("smg", 4),))], [squad("b", "squad-veteran", figures=(("rifle", 4),))]
    )
    t.command(0, "start_turn", {}, dice=[5, 1])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[4])
    t.command(0, "act", {"unit": "s0-a", "action": "assault", "moved": 8})
    t.command(0, "assault", {"unit": "s0-a", "target": "s1-b"}, dice=[5, 1, 1, 1, 4, 1, 1, 1])
    assert t.state.game["melees"] == [["s0-a", "s1-b"]]
    assert sum(f["casualty"] for f in figures(t, "s0-a")) == 1
    assert sum(f["casualty"] for f in figures(t, "s1-b")) == 1
    with pytest.raises(GameConflict) as exc:
        t.command(1, "activate", {"unit": "s1-b"}, dice=[6])
    assert "withdrawal" in str(exc.value)
    t.command(1, "withdraw", {"unit": "s1-b", "attempt": False})
    t.command(0, "start_turn", {}, dice=[5, 1])
    assert t.awaiting().commands == ("melee_round",)
    t.command(1, "melee_round", {}, dice=[1, 1, 1, 1, 1, 1])
    assert t.awaiting().commands == ("activate", "withdraw", "react")
    t.command(0, "withdraw", {"unit": "s0-a"}, dice=[6, 4, 6, 2])  # escapes: the pursuit falls short
    assert t.state.game["melees"] == []
    assert t.state.units["s1-b"].state["melee"] is None
    assert t.replay_matches()


def test_vehicle_damage_asks_its_owner_and_stuns_next_turn():
    t = table([squad("a", "squad-elite", figures=(("rpg", 1),))], [vehicle("v")])
    t.command(0, "start_turn", {}, dice=[5, 1])
    t.command(0, "activate", {"unit": "s0-a"}, dice=[5])
    t.command(0, "act", {"unit": "s0-a", "action": "aimed_fire"})
    # three RPG dice hit (4+ with aim: 3+), the APC saves none (5+), damage dice from the side: 3, 1
    t.command(
        0, "shoot", {"unit": "s0-a", "target": "s1-v", "distance": 10, "facing": "side"}, dice=[6, 6, 1, 1, 2, 3, 1]
    )
    awaiting = t.awaiting()
    assert (awaiting.kind, awaiting.sides, awaiting.commands) == ("question", (1,), ("lose_weapon",))
    with pytest.raises(RuleInputError):
        t.command(1, "lose_weapon", {"weapon": 7})
    t.command(1, "lose_weapon", {"weapon": 2})
    v = t.state.units["s1-v"].state
    assert [w["destroyed"] for w in v["weapons"]] == [False, True]
    assert v["stun_next_turn"] == 1
    t.command(1, "activate", {"unit": "s1-v"}, dice=[4])  # this turn the crew is not stunned yet: 4 passes
    t.command(1, "act", {"unit": "s1-v", "action": "stationary"})
    t.command(1, "done", {"unit": "s1-v"})
    t.command(0, "start_turn", {}, dice=[1, 5])
    assert t.state.units["s1-v"].state["stunned"] == 1
    t.command(1, "activate", {"unit": "s1-v"}, dice=[5])  # 5 − 2 = 3 < 4: fails
    assert t.state.units["s1-v"].state["on_guard"]
    assert t.replay_matches()


def test_views_and_board_are_json_safe_for_every_viewer():
    t = example()
    for side, name, inputs, dice in SYSTEM.battle.example_script(t.state)[:4]:
        t.command(side, name, inputs, dice=dice)
    for viewer in ({0}, {1}):
        json.dumps(t.view(viewer))
        board = _board(t, viewer)
        json.dumps(board)
        prompts = [w for w in board["turnbar"] if w["type"] == "prompt"]  # the split question waits there
        assert bool([p for p in prompts if p["command"] == "split_hits"]) == (viewer == {1})


def _board(t, viewer):
    view = t.view(viewer)
    units = [{"key": k, "name": u.name, "kind": u.kind, "side": u.side, "owner": u.side, "mine": u.side in viewer,
              "view": view["units"][k]} for k, u in t.state.units.items()]  # fmt: skip
    state_view = {"game": view["game"], "sides": [{"index": 0, "name": "Red"}, {"index": 1, "name": "Blue"}],
                  "units": units, "version": t.version}  # fmt: skip
    return SYSTEM.battle.board(state_view, frozenset(viewer), can_write=True)


def test_board_offers_the_acting_unit_a_shot_form_with_real_targets_and_the_game_can_end():
    t = example()
    for side, name, inputs, dice in SYSTEM.battle.example_script(t.state)[:3]:
        t.command(side, name, inputs, dice=dice)
    form = next(x for x in _board(t, {0})["turnbar"] if x["type"] == "prompt" and x["command"] == "shoot")
    fields = {f["name"]: f for f in form["fields"]}
    assert [c["value"] for c in fields["unit"]["choices"]] == ["s0-e1"]
    assert {c["value"] for c in fields["target"]["choices"]} == {"s1-e1", "s1-e2"}
    assert {"distance", "cover", "edge_figures"} <= set(fields)  # the range and cover typed or chosen (§3.5)
    other = _board(t, {1})["turnbar"]
    assert not [x for x in other if x["type"] == "prompt" and x["command"] != "react"]
    assert "Next: Red — shooting with Отряд: Рядовой, or the end of its activation." in [x.get("value") for x in other]
    t.command(1, "end", {"winner": 0, "reason": "time"})
    assert t.awaiting().kind == "over"
    assert _board(t, {0})["banner"]["text"] == "Victory: Red."
    with pytest.raises(GameConflict):
        t.command(0, "done", {"unit": "s0-e1"})
