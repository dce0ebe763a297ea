"""The questions the book puts to the other player (battle/questions.py), played through the runner's steps with
rules.contract.testing.Table: a counter-attack after a failed blow (L212–214), a reaction shot from Overwatch or a
suppressor (L101–103, L317), and the end of the scenario proposed by one player and confirmed by the other. The
game waits for the answer; the wrong player, a second answer or another command meanwhile are refused with a
message that says whom the game waits for, and nothing changes."""

import copy

import pytest
from django.utils import translation

from rules.contract.testing import Table
from rules.errors import GameConflict, RuleInputError
from rules.systems.enforcers.system import SYSTEM
from rules.systems.enforcers.tests.test_battle import KATE, THUG, roster, state
from rules.systems.enforcers.tests.test_battle import table as _unused_table  # noqa: F401 (the same crews)

GUN = {"name": "Autogun", "damage": 4, "ranged": True, "capacity": 6}
BLADE = {"name": "Blade", "damage": 5, "reach_cm": 2}
NAMES = {0: "Арбитры", 1: "Банда"}


def table(weapons=(BLADE, GUN), **settings) -> Table:
    """Kate with her blade drawn (the first weapon is drawn), unless her gun is given first."""
    kate = roster("Kate", weapons=list(weapons), armour="enforcer-gear")
    thug = roster("Thug", {"HL": 6}, weapons=[BLADE], armour="kevlar-vest")
    return Table(SYSTEM, rosters=[kate, thug], settings=settings, names=NAMES)


def unchanged(t: Table):
    """A context that asserts a refused command left the game as it was."""

    class Same:
        def __enter__(self):
            self.before = (copy.deepcopy(t.state.game), {k: copy.deepcopy(u.state) for k, u in t.state.units.items()})
            self.version = t.version

        def __exit__(self, *exc):
            assert t.version == self.version
            assert (t.state.game, {k: u.state for k, u in t.state.units.items()}) == self.before

    return Same()


def failed_blow(t: Table) -> None:
    """Kate strikes with her blade from 1 cm: the d20 shows 20 and the two parry curses 1 and 1: a miss; the thug
    is within reach of her blade and may strike back."""
    t.command(0, "activate", {"unit": KATE}, dice=[])
    t.command(0, "melee", {"target": THUG, "weapon": 0, "distance_cm": 1}, dice=[20, 1, 1])


def test_a_failed_blow_asks_the_defenders_player_and_waits():
    t = table()
    failed_blow(t)
    awaiting = t.awaiting()
    assert (awaiting.kind, awaiting.sides, awaiting.commands) == ("question", (1,), ("counter_attack",))
    with translation.override("ru"):
        said = SYSTEM.battle.awaiting(t.state).message
    assert said.startswith("Отвечает «Банда»: атакует ли Thug в ответ (Kate) немедленно")
    # Kate's player cannot answer for the thug, nor act meanwhile; nothing changes.
    for side, name, inputs in ((0, "counter_attack", {}), (0, "move", {"distance_cm": 2}), (1, "end_activation", {})):
        with unchanged(t), pytest.raises(GameConflict, match="Thug"):
            t.command(side, name, inputs, dice=[])
    # The thug strikes back: a counter is cursed (+1), Kate parries (2), equal reach: the d20 shows 1, a crit and a
    # success whatever the three curse dice: 5 damage on Enforcer Gear's 6 AP.
    t.command(1, "counter_attack", {}, dice=[1, 1, 1, 1])
    assert (state(t, KATE)["ap"], state(t, KATE)["hp"], state(t, THUG)["counter_used"]) == (1, 10, True)
    assert t.state.game["questions"] == []
    assert t.awaiting().sides == (0,)
    with unchanged(t), pytest.raises(GameConflict):  # answered twice
        t.command(1, "counter_attack", {}, dice=[1, 1, 1, 1])
    assert t.replay_matches()


def test_a_counter_may_be_declined_and_a_failed_counter_answered_in_turn():
    t = table()
    failed_blow(t)
    declined = t.command(1, "counter_attack", {"strike": False}, dice=[])
    assert declined[0]["type"] == "counter_declined"
    assert t.state.game["questions"] == []
    assert state(t, THUG)["counter_used"] is False

    t = table()
    failed_blow(t)
    # The thug's counter misses (20, three curse dice of 1): Kate may answer it in turn (errata §3.12).
    t.command(1, "counter_attack", {"strike": "true"}, dice=[20, 1, 1, 1])
    asked = t.awaiting()
    assert (asked.kind, asked.sides, asked.prompt["unit"]) == ("question", (0,), KATE)
    t.command(0, "counter_attack", {"strike": "false"}, dice=[])
    assert t.awaiting().kind == "sides"

    strict = table(counter_on_counter=False)
    failed_blow(strict)
    strict.command(1, "counter_attack", {}, dice=[20, 1, 1, 1])
    assert strict.awaiting().kind == "sides"  # no counter to a counter under the setting
    assert strict.replay_matches()


def test_a_blow_out_of_reach_is_refused_in_russian_and_changes_nothing():
    t = table()
    t.command(0, "activate", {"unit": KATE}, dice=[])
    with translation.override("ru"), unchanged(t), pytest.raises(RuleInputError) as refused:
        t.command(0, "melee", {"target": THUG, "weapon": 0, "distance_cm": 5}, dice=[10])
    assert "5 см" in refused.value.message


def overwatch_then_thug(t: Table) -> None:
    t.command(0, "activate", {"unit": KATE}, dice=[])
    t.command(0, "overwatch", {}, dice=[])
    t.command(0, "end_activation", {}, dice=[])
    t.command(0, "activate", {"unit": THUG}, dice=[])


def test_a_move_past_a_model_on_overwatch_asks_its_player():
    t = table(weapons=(GUN, BLADE))
    overwatch_then_thug(t)
    t.command(1, "move", {"distance_cm": 3}, dice=[])
    asked = t.awaiting()
    assert (asked.kind, asked.sides, asked.commands) == ("question", (0,), ("reaction_shot", "hold_fire"))
    assert asked.prompt["shooters"] == {KATE: "overwatch"}
    with translation.override("ru"):
        assert "предупреждающий огонь, L103" in SYSTEM.battle.awaiting(t.state).message
    with unchanged(t), pytest.raises(GameConflict):
        t.command(1, "move", {"distance_cm": 3}, dice=[])
    with unchanged(t), pytest.raises(GameConflict):
        t.command(1, "hold_fire", {}, dice=[])
    # Kate does not see him: she holds fire and stays on Overwatch; his next move asks again; she shoots.
    t.command(0, "hold_fire", {"shooter": KATE}, dice=[])
    assert state(t, KATE)["overwatch"] is True
    t.command(1, "move", {"distance_cm": 3}, dice=[])
    assert t.awaiting().kind == "question"
    t.command(0, "reaction_shot", {"shooter": KATE, "weapon": "0", "range_band": "short"}, dice=[19, 6])
    assert state(t, KATE)["overwatch"] is False
    assert t.awaiting().kind == "sides"
    assert state(t, THUG)["actions_left"] == 0
    assert t.replay_matches()


def test_the_end_is_proposed_by_one_player_and_confirmed_by_the_other():
    t = table()
    t.command(0, "propose_end", {"winner": 0}, dice=[])
    asked = t.awaiting()
    assert (asked.kind, asked.sides, asked.commands) == ("question", (1,), ("confirm_end",))
    with unchanged(t), pytest.raises(GameConflict):
        t.command(0, "confirm_end", {"accept": True}, dice=[])
    with unchanged(t), pytest.raises(GameConflict, match="already proposed"):
        t.command(1, "propose_end", {"winner": 1}, dice=[])
    t.command(1, "confirm_end", {"accept": False}, dice=[])
    assert t.state.game["result"] is None
    assert t.state.game["questions"] == []
    t.command(0, "propose_end", {"winner": 0, "note": "Кейт вынесла Громилу"}, dice=[])
    ended = t.command(1, "confirm_end", {"accept": "true"}, dice=[])
    assert ended[0]["type"] == "game_ended"
    assert t.state.game["result"] == {"winner": 0, "note": "Кейт вынесла Громилу", "round": 1, "confirmed_by": 1}
    with translation.override("ru"):
        assert SYSTEM.battle.awaiting(t.state).message.startswith("Сценарий окончен: победа «Арбитры».")
    with unchanged(t), pytest.raises(GameConflict):
        t.command(1, "confirm_end", {"accept": True}, dice=[])
    assert t.replay_matches()


def test_the_board_asks_only_the_player_who_answers():
    t = table()
    failed_blow(t)
    sides = [{"index": i, "name": n} for i, n in NAMES.items()]

    def board(viewer):
        units = [{"key": k, "name": u.name, "kind": u.kind, "owner": u.side,
                  "view": SYSTEM.battle.unit_view(t.state, u, frozenset({viewer}))} for k, u in t.state.units.items()]  # fmt: skip
        with translation.override("ru"):
            view = {"game": t.state.game, "units": units, "sides": sides, "awaiting": t.awaiting().as_dict()}
            return SYSTEM.battle.board(view, frozenset({viewer}), can_write=True)

    def texts(b):
        return [w.get("value") or w.get("question") for w in b["turnbar"]]

    thugs, kates = board(1), board(0)
    prompt = next(w for w in thugs["turnbar"] if w["type"] == "prompt")
    assert prompt["command"] == "counter_attack"
    assert [o["inputs"] for o in prompt["options"]] == [{"strike": False}]
    assert not [w for w in kates["turnbar"] if w["type"] == "prompt"]
    assert any(x.startswith("Ваш ответ: Отвечает «Банда»") for x in texts(thugs)), texts(thugs)
    assert any(x.startswith("Дальше: Отвечает «Банда»") for x in texts(kates))
    assert any(x.startswith("Последнее (№") for x in texts(kates))
