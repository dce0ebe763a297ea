"""In Sight, melee, a grenade and Stay or Run as board commands (issue 13) through rules.contract.testing.Table:
each reads the figures from the state, takes typed-in dice (or the server's), applies its outcome to the figures'
conditions, logs it in the book's words, and undoes and replays cleanly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.utils import translation

from rules.contract import Event
from rules.contract.testing import Table
from rules.errors import GameConflict, NotYours, RuleInputError
from rules.systems.thw5150.system import SYSTEM

PACK = json.loads((Path(__file__).resolve().parents[1] / "data" / "normals.json").read_text(encoding="utf-8"))
PROFILES = {p["slug"]: p for p in PACK["profiles"]}


def entry(key, slug, count=1, **options):
    return {"key": key, "profile": PROFILES[slug], "count": count, "options": options}


POLICE = {"faction": "police", "entries": [
    entry("l", "police-u5", weapon="assault_rifle", armour="light", leader=True),
    entry("r", "police-u4", 2, weapon="rifle"),
    entry("g", "police-u4", weapon="pistol", grenades=2),
]}  # fmt: skip
GANG = {"faction": "criminals", "entries": [
    entry("b", "criminals-u4", weapon="machine_gun", leader=True),
    entry("p", "criminals-u3", 2, weapon="pistol"),
]}  # fmt: skip


@pytest.fixture
def table():
    t = Table(SYSTEM, rosters=[POLICE, GANG])
    t.command(0, "activation", dice=[4, 2])  # side 0 acts on a 4
    return t


def unit(table, key):
    return table.state.units[key].state


def log(table, event) -> str:
    """The log line a Russian reader sees (the book's words follow the reader's language)."""
    names = {"units": {k: u.name for k, u in table.state.units.items()}}
    with translation.override("ru"):
        return SYSTEM.battle.describe_event(Event(event["seq"], event["type"], event["payload"]), names)


def test_in_sight_pass_2_lets_the_other_side_fire_at_once(table):
    (event,) = table.command(1, "in_sight", {"units": ["1.p.1", "1.p.2"]}, dice=[1, 2])
    assert "В ПОЛЕ ВИДИМОСТИ" in log(table, event)
    waiting = table.awaiting()
    assert (waiting.kind, waiting.sides, waiting.commands) == ("question", (1,), ("shoot", "decline_return_fire"))
    assert set(table.state.game["pending"][0]["shooters"]) == {"1.p.1", "1.p.2"}
    with pytest.raises(GameConflict):  # side 0 waits for the fire its move drew
        table.command(0, "move", {"unit": "0.r.1"})
    # «Остальные стреляют»: at anyone, not only at a shooter
    table.command(1, "shoot", {"shooter": "1.p.1", "targets": [{"unit": "0.l.1", "dice": 1}]}, dice=[1])
    table.command(1, "decline_return_fire")  # 1.p.2 holds its fire
    (question,) = table.state.game["pending"]  # the missed Leader's group now owes «ОБСТРЕЛЯН»
    assert (question["kind"], question["side"], question["testers"]) == ("received_fire", 0, ["0.l.1"])
    assert table.replay_matches()


def test_in_sight_pass_1_in_the_open_ducks_back_or_goes_prone_and_pass_0_does_nothing(table):
    table.command(1, "in_sight", {"units": ["1.p.1"]}, dice=[1, 5])  # Rep 3: one die passes
    assert unit(table, "1.p.1")["condition"] == "duck_back"
    assert table.state.game["pending"] == []
    table.command(1, "in_sight", {"units": ["1.p.2"], "in_the_open": "prone"}, dice=[2, 6])
    assert unit(table, "1.p.2")["prone"] is True
    assert unit(table, "1.p.2")["condition"] == "fine"
    (event,) = table.command(1, "in_sight", {"units": ["1.b.1"]}, dice=[5, 6])  # Rep 4, no third die here
    assert event["payload"]["effects"] == []
    assert event["payload"]["return_fire"] is None
    assert unit(table, "1.b.1")["condition"] == "fine"
    assert table.replay_matches()


def test_in_sight_refuses_bad_input_and_changes_nothing(table):
    before = table.version
    with pytest.raises(NotYours):
        table.command(0, "in_sight", {"units": ["1.p.1"]}, dice=[1, 2])
    with pytest.raises(RuleInputError):  # two groups at once
        table.command(1, "in_sight", {"units": ["1.p.1", "9.x.1"]}, dice=[1, 2])
    with pytest.raises(RuleInputError):
        table.command(1, "in_sight", {"units": []}, dice=[1, 2])
    assert table.version == before


def test_melee_won_by_two_kills_on_a_1_and_a_tie_changes_nothing(table):
    # Rep 4 fighter 1, 2 (two passes) against Rep 3 opponent 6, 6 (none): won by 2, 1d6 = 1: dead (L1120–1125).
    (event,) = table.command(0, "melee", {"fighter": "0.r.1", "opponents": ["1.p.1"]}, dice=[1, 2, 6, 6, 1])
    assert unit(table, "1.p.1")["condition"] == "dead"
    assert "рукопашная" in log(table, event).lower()
    table.command(0, "melee", {"fighter": "0.r.2", "opponents": ["1.p.2"]}, dice=[1, 2, 1, 2])  # equal: goes on
    assert unit(table, "1.p.2")["condition"] == "fine"
    assert unit(table, "0.r.2")["condition"] == "fine"
    with pytest.raises(RuleInputError):  # a dead figure fights no more
        table.command(0, "melee", {"fighter": "0.r.1", "opponents": ["1.p.1"]}, dice=[1, 2, 6, 6])
    with pytest.raises(RuleInputError):
        table.command(0, "melee", {"fighter": "0.r.1", "opponents": ["0.l.1"]}, dice=[1, 2, 6, 6])
    with pytest.raises(GameConflict):  # not side 1's activation
        table.command(1, "melee", {"fighter": "1.b.1", "opponents": ["0.l.1"]}, dice=[1, 2, 6, 6])
    table.undo(0, seq=event["seq"])
    assert unit(table, "1.p.1")["condition"] == "fine"
    assert table.replay_matches()


def test_a_grenade_hits_everyone_under_the_template_and_uses_one_up(table):
    (event,) = table.command(0, "grenade", {"thrower": "0.g.1", "blast": ["1.p.1"]}, dice=[6, 1])
    assert unit(table, "1.p.1")["condition"] == "dead"  # 6 + 4 = 10 hits; damage die 1: «Убит»
    assert unit(table, "0.g.1")["grenades"] == 1
    assert unit(table, "0.g.1")["activated"] is True
    assert "ГРАНАТА" in log(table, event).upper() or "грана" in log(table, event)
    with pytest.raises(GameConflict):  # it has acted
        table.command(0, "grenade", {"thrower": "0.g.1", "blast": ["1.p.2"]}, dice=[6, 1])
    with pytest.raises(RuleInputError):  # no grenades
        table.command(0, "grenade", {"thrower": "0.r.1", "blast": ["1.p.2"]}, dice=[6, 1])
    table.undo(0, seq=event["seq"])
    assert unit(table, "0.g.1")["grenades"] == 2
    assert unit(table, "1.p.1")["condition"] == "fine"
    assert table.replay_matches()


def test_a_grenade_that_does_no_damage_asks_the_target_for_received_fire(table):
    # A miss: 1 + 4 = 5; «ГДЕ ГРАНАТА?» 1, 2 against Rep 4: pass 2, harmless (L837–861).
    (event,) = table.command(0, "grenade", {"thrower": "0.g.1", "blast": ["1.b.1"]}, dice=[1, 1, 2])
    assert "where_is_the_grenade" in event["payload"]["result"]
    (question,) = event["payload"]["questions"]  # a missed figure under the template owes «ОБСТРЕЛЯН» at ПД 5
    assert question["testers"] == ["1.b.1"]
    assert question["shooter_outgun"] == 5
    waiting = table.awaiting()
    assert (waiting.sides, waiting.commands) == ((1,), ("answer_reaction",))
    assert unit(table, "1.b.1")["condition"] == "fine"
    assert table.replay_matches()


def test_stay_or_run_when_a_sixth_is_lost(table):
    with pytest.raises(GameConflict):  # no casualty yet
        table.command(1, "stay_or_run", {"motivation": "conquest"}, dice=[1, 2, 3, 1])
    table.command(1, "set_state", {"unit": "1.p.2", "changes": {"condition": "dead"}})
    # One group roll: the force's Leader (Rep 4) reads three dice, the others two; then the Leader Die. All 6s:
    # pass 0 for everyone: they stop fighting (L1213–1221).
    (event,) = table.command(1, "stay_or_run", {"motivation": "conquest"}, dice=[6, 6, 6, 6])
    assert unit(table, "1.b.1")["stopped_fighting"]
    assert unit(table, "1.p.1")["stopped_fighting"]
    assert not unit(table, "1.p.2")["stopped_fighting"]  # dead: not tested
    assert "ОСТАТЬСЯ ИЛИ УБЕЖАТЬ" in log(table, event)
    with pytest.raises(GameConflict):  # tested at this many casualties already
        table.command(1, "stay_or_run", {"motivation": "conquest"}, dice=[1, 2, 3, 1])
    with pytest.raises(RuleInputError):
        table.command(1, "stay_or_run", {"motivation": "glory"}, dice=[1, 2, 3, 1])
    table.undo(1, seq=event["seq"])
    assert not unit(table, "1.b.1")["stopped_fighting"]
    table.command(1, "stay_or_run", {"motivation": "conquest"}, dice=[1, 2, 3, 1])  # passes: they stay
    assert not unit(table, "1.b.1")["stopped_fighting"]
    assert not unit(table, "1.p.1")["stopped_fighting"]
    assert table.replay_matches()


def test_server_dice_are_seeded(table):
    a = Table(SYSTEM, rosters=[POLICE, GANG])
    a.command(0, "activation", dice=[4, 2])
    (first,) = table.command(0, "melee", {"fighter": "0.r.1", "opponents": ["1.p.1"]}, seed=11)
    (second,) = a.command(0, "melee", {"fighter": "0.r.1", "opponents": ["1.p.1"]}, seed=11)
    assert first["dice"] == second["dice"]
    assert first["payload"]["effects"] == second["payload"]["effects"]
