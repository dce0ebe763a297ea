"""The battle part through rules.contract.testing.Table, as the web runner plays it (spec §4): a short game of
activation, a shot, the target's «ОБСТРЕЛЯН» asked of its player, return fire, Recovery, undo and replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.utils import translation

from rules.contract import Event
from rules.contract.testing import Table
from rules.dice import purpose_words
from rules.errors import GameConflict, NotYours, RuleInputError
from rules.systems.thw5150.system import SYSTEM

PACK = json.loads((Path(__file__).resolve().parents[1] / "data" / "normals.json").read_text(encoding="utf-8"))
PROFILES = {p["slug"]: p for p in PACK["profiles"]}


def entry(key, slug, count=1, **options):
    return {"key": key, "profile": PROFILES[slug], "count": count, "options": options}


POLICE = {"faction": "police", "entries": [
    entry("l", "police-u5", weapon="assault_rifle", armour="light", leader=True),
    entry("r", "police-u4", 2, weapon="rifle"),
]}  # fmt: skip
GANG = {"faction": "criminals", "entries": [
    entry("b", "criminals-u4", weapon="machine_gun", leader=True),
    entry("p", "criminals-u3", 2, weapon="pistol"),
]}  # fmt: skip


@pytest.fixture
def table():
    return Table(SYSTEM, rosters=[POLICE, GANG])


def unit(table, key):
    return table.state.units[key].state


def test_start_builds_one_figure_per_model(table):
    assert sorted(table.state.units) == ["0.l.1", "0.r.1", "0.r.2", "1.b.1", "1.p.1", "1.p.2"]
    leader = unit(table, "0.l.1")
    assert (leader["rep"], leader["leader"], leader["weapon"], leader["cost"]) == (
        5,
        True,
        "assault_rifle",
        83 + 41 + 27,
    )
    assert table.state.game["initial"] == {"0": 3, "1": 3}
    assert table.awaiting().commands == ("activation",)


def test_a_short_firefight(table):
    table.command(0, "activation", dice=[4, 2])  # side 0 first on a 4: the Rep 4 riflemen act with their Rep 5 Leader
    assert table.awaiting().sides == (0,)
    with pytest.raises(GameConflict):
        table.command(1, "shoot", {"shooter": "1.b.1", "targets": [{"unit": "0.l.1", "dice": 1}]}, seed=1)
    with pytest.raises(NotYours):
        table.command(0, "shoot", {"shooter": "1.b.1", "targets": [{"unit": "0.l.1", "dice": 1}]}, seed=1)
    # A rifleman misses the MG gunner (2 + 4 = 6): the gunner's group must take «ОБСТРЕЛЯН».
    table.command(0, "shoot", {"shooter": "0.r.1", "targets": [{"unit": "1.b.1", "dice": 1}]}, dice=[2])
    waiting = table.awaiting()
    assert (waiting.kind, waiting.sides, waiting.commands) == ("question", (1,), ("answer_reaction",))
    with pytest.raises(GameConflict):
        table.command(0, "end_activation")
    with pytest.raises(GameConflict):  # the question is the target's player's
        table.command(0, "answer_reaction", {}, dice=[1, 2, 3])
    # The gunner is a Leader: three dice. 1, 2, 6 against Rep 4: pass 2, not outgunned (ПД 4 > 2): fire back.
    table.command(1, "answer_reaction", {}, dice=[1, 2, 6])
    waiting = table.awaiting()
    assert (waiting.kind, waiting.sides, waiting.commands) == ("question", (1,), ("shoot", "decline_return_fire"))
    with pytest.raises(RuleInputError):  # an inactive figure fires back only at its shooter
        table.command(1, "shoot", {"shooter": "1.b.1", "targets": [{"unit": "0.l.1", "dice": 1}]}, dice=[1])
    # Return fire, 4 dice: 6, 6, 1, 1 at Rep 4 → two hits, out of ammo; the first damage die 1 (Impact 3) kills,
    # so the second hit rolls nothing.
    table.command(1, "shoot", {"shooter": "1.b.1", "targets": [{"unit": "0.r.1", "dice": 4}]}, dice=[6, 6, 1, 1, 1])
    assert unit(table, "0.r.1")["condition"] == "dead"
    assert unit(table, "1.b.1")["loaded"] is False
    assert table.state.game["casualties"] == {"0": 1, "1": 0}
    assert table.awaiting().sides == (0,)  # the firefight is over: side 0 goes on
    assert table.replay_matches()


def test_received_fire_results_change_the_figures(table):
    table.command(0, "activation", dice=[5, 1])
    table.command(0, "shoot", {"shooter": "0.l.1", "targets": [{"unit": "1.p.1", "dice": 1}]}, dice=[1])  # 6: miss
    table.command(1, "answer_reaction", {}, dice=[6, 6])  # pass 0 in the open: runs away
    assert unit(table, "1.p.1")["condition"] == "runaway"
    assert table.awaiting().sides == (0,)
    table.command(0, "shoot", {"shooter": "0.r.1", "targets": [{"unit": "1.p.2", "dice": 1}]}, dice=[1])
    table.command(1, "answer_reaction", {}, dice=[1, 1])  # double 1s: a Hero, pass 2: fire back
    assert unit(table, "1.p.2")["hero"] is True
    table.command(1, "decline_return_fire")
    assert table.awaiting().commands[0] == "shoot"


def test_recovery_reload_and_turns(table):
    table.command(0, "activation", dice=[2, 4])  # side 1 first, on a 4
    table.command(1, "shoot", {"shooter": "1.b.1", "targets": [{"unit": "0.l.1", "dice": 2}]}, dice=[6, 6, 6, 6])
    assert unit(table, "0.l.1")["condition"] == "knocked_down"  # ЛБ reads «ЛБ или ИБ»: Impact 3, 6s knock down
    with pytest.raises(GameConflict):
        table.command(1, "shoot", {"shooter": "1.b.1", "targets": [{"unit": "0.r.1", "dice": 1}]}, dice=[1])
    table.command(1, "end_activation")
    assert table.awaiting().sides == (0,)
    table.command(0, "recover", {"unit": "0.l.1"}, dice=[2, 3, 6])  # Leader: 3 dice, pass 2
    assert unit(table, "0.l.1")["condition"] == "fine"
    table.command(0, "covering_fire", {"unit": "0.r.1"})
    table.command(0, "end_activation")
    assert table.awaiting().commands == ("activation",)
    table.command(1, "activation", dice=[4, 4])  # doubles: reload only
    assert table.awaiting().commands == ("reload", "end_activation")
    with pytest.raises(GameConflict):
        table.command(0, "shoot", {"shooter": "0.l.1", "targets": [{"unit": "1.b.1", "dice": 1}]}, dice=[1])
    table.command(1, "end_activation")
    assert unit(table, "0.r.1")["covering_fire"] is True  # it lasts until the figure next activates (§5 A25)
    table.command(0, "activation", dice=[6, 2])
    assert unit(table, "0.r.1")["covering_fire"] is False
    assert table.replay_matches()


def test_covering_fire_ends_when_moving_under_the_other_reading():
    table = Table(SYSTEM, rosters=[POLICE, GANG], settings={"covering_fire_ends": "when_moving"})
    table.command(0, "activation", dice=[5, 1])
    table.command(0, "covering_fire", {"unit": "0.r.1"})
    table.command(0, "end_activation")
    table.command(1, "end_activation")
    table.command(0, "activation", dice=[4, 1])
    assert unit(table, "0.r.1")["covering_fire"] is True
    table.command(0, "move", {"unit": "0.r.1", "in_cover": True})
    assert unit(table, "0.r.1")["covering_fire"] is False
    assert unit(table, "0.r.1")["in_cover"] is True


def test_activation_gate_and_undo(table):
    table.command(0, "activation", dice=[6, 2])  # a 6: nobody has Rep 6 or a Leader with it
    with pytest.raises(GameConflict) as caught:
        table.command(0, "shoot", {"shooter": "0.l.1", "targets": [{"unit": "1.b.1", "dice": 1}]}, dice=[1])
    assert "cannot act on a 6" in caught.value.message
    table.command(0, "end_activation")
    table.command(1, "end_activation")
    events = table.command(1, "activation", dice=[1, 6])
    assert table.state.game["turn"] == 2
    table.undo(1, seq=events[0]["seq"])
    assert table.state.game["turn"] == 1
    assert table.replay_matches()


def test_victory_when_a_side_has_nobody_left():
    table = Table(SYSTEM, rosters=[POLICE, {"faction": "criminals", "entries": [entry("x", "criminals-u3",
                                                                                          weapon="pistol")]}])  # fmt: skip
    table.command(0, "activation", dice=[5, 1])
    table.command(0, "shoot", {"shooter": "0.l.1", "targets": [{"unit": "1.x.1", "dice": 1}]}, dice=[6, 1])
    assert table.state.game["result"] == {"winner": 0, "why": "no enemy figure is left on the table"}
    assert table.awaiting().kind == "over"


def test_rulings_by_hand_any_table_and_points():
    table = Table(SYSTEM, rosters=[POLICE, GANG])
    table.command(1, "set_state", {"unit": "1.p.1", "changes": {"condition": "out_of_fight"}})
    assert table.state.game["casualties"]["1"] == 1
    table.command(0, "test", {"action": "river", "inputs": {}}, dice=[1])
    assert table.events[-1]["payload"]["result"]["outcome"] == "bridge"
    table.command(0, "end_battle")
    assert table.state.game["result"]["winner"] == 0  # 83+41+27 + 2×(66+15) against 66+58 + 50+4
    assert table.replay_matches()


def test_views_board_and_log(table):
    table.command(0, "activation", dice=[4, 2])
    table.command(0, "shoot", {"shooter": "0.r.1", "targets": [{"unit": "1.b.1", "dice": 1}]}, dice=[2])
    names = {"units": {k: u.name for k, u in table.state.units.items()}, "sides": {0: "A", 1: "B"}}
    with translation.override("ru"):
        lines = [SYSTEM.battle.describe_event(Event(e["seq"], e["type"], e["payload"]), names) for e in table.events]
    assert lines[0].startswith("бросок на Активацию")
    english = SYSTEM.battle.describe_event(Event(1, table.events[0]["type"], table.events[0]["payload"]), names)
    assert english.startswith("Roll the activation dice")
    assert "стреляет" in lines[1]
    view = table.view({1})
    units = [{"key": k, "name": table.state.units[k].name, "kind": "figure", "owner": table.state.units[k].side,
              **v} for k, v in view["units"].items()]  # fmt: skip
    board = SYSTEM.battle.board({"game": view["game"], "units": units, "sides": [{"index": 0, "name": "A"},
                                                                                {"index": 1, "name": "B"}]},
                                frozenset({1}), can_write=True)  # fmt: skip
    # The question is a form in the turn bar (the banner slot draws no form): dice boxes and a server roll.
    (prompt,) = [x for x in board["turnbar"] if x["type"] == "prompt"]
    assert prompt["command"] == "answer_reaction"
    assert [d["label"] for d in prompt["dice"]] == ["group d6 1", "group d6 2", "group d6 3"]  # the Leader reads 3
    assert prompt["options"][0]["command"] == "answer_reaction"
    assert [f["name"] for f in prompt["fields"]] == ["fired_from"]
    # Both phones say what is owed and by whom: the gunner's side takes «ОБСТРЕЛЯН», the other waits.
    texts = [x["value"] for x in board["turnbar"] if x["type"] == "text"]
    assert "B answers: test «RECEIVED FIRE»: Преступники У4; shooter Полиция У4 #1, no damage (L926)." in texts
    assert "A: no test now — waiting for B to answer." in texts
    assert board["banner"] is None
    assert len(board["groups"]) == 2
    assert [c["key"] for c in board["groups"][1]["units"]] == ["1.b.1", "1.p.1", "1.p.2"]


def test_example_script_plays_through(table):
    for side, command, inputs, dice in SYSTEM.battle.example_script(table.state):
        table.command(side, command, inputs, dice=dice)
    assert table.replay_matches()
    assert table.state.game["phase"] == "roll"


def test_the_target_player_may_let_the_server_roll(table):
    table.command(0, "activation", dice=[5, 1])
    table.command(0, "shoot", {"shooter": "0.l.1", "targets": [{"unit": "1.p.1", "dice": 1}]}, dice=[1])
    events = table.command(1, "answer_reaction", {}, seed=12345)  # no dice typed in: the server rolls, seeded
    rolled = events[0]["dice"]
    # stored in English, worded when shown (rules.dice.purpose_words): the log's line names the table
    assert [d["purpose"] for d in rolled] == ["group die 1 of 2", "group die 2 of 2"]
    with translation.override("ru"):
        assert purpose_words(rolled[0]["purpose"]) == "кубик группы 1 из 2"
    again = Table(SYSTEM, rosters=[POLICE, GANG])
    again.command(0, "activation", dice=[5, 1])
    again.command(0, "shoot", {"shooter": "0.l.1", "targets": [{"unit": "1.p.1", "dice": 1}]}, dice=[1])
    assert again.command(1, "answer_reaction", {}, seed=12345)[0]["dice"] == rolled  # the same seed, the same dice
    assert table.replay_matches()
