"""Each status is applied, ticks and ends as spec §3.16–§3.17 says (statuses.py, the module the battle part uses)."""

from fractions import Fraction

import pytest

from rules import dice as dicelib
from rules.systems.enforcers import agents, wounds
from rules.systems.enforcers.rolling import LiveRoller
from rules.systems.enforcers.statuses import end_of_activation, start_of_activation, status_test
from rules.systems.enforcers.tests.helpers import agent, effects_of, frac, odds, resolve, settings


def roller(*dice):
    return LiveRoller(dicelib.dice_source(dice=list(dice)), settings())


def sheet_of(**kwargs):
    return agents.sheet(agent(**kwargs), "a")


@pytest.mark.parametrize(
    ("status", "armour"),
    [("poisoned", "hazmat"), ("burning", "firesuit"), ("stunned", "olympian-exosuit"),
     ("disoriented", "titan-exosuit"), ("poisoned", "hero-exosuit")],
)  # fmt: skip
def test_armour_immunities_need_no_test(status, armour):
    immune = sheet_of(armour=armour)
    effects, steps = [], []
    assert status_test(immune, status, roller(), settings(), effects, steps, role="a") is False
    assert effects[0] == {"kind": "status_resisted", "role": "a", "status": status, "reason": "immune"}


def test_a_status_trait_takes_hold_only_on_a_failed_tn_test():
    target = sheet_of(TN=9)
    assert status_test(target, "bleeding", roller(9), settings(), [], [], role="a") is False
    assert status_test(target, "bleeding", roller(10), settings(), [], [], role="a") is True
    assert "bleeding" in target["statuses"]


def test_fear_is_gained_re_tested_and_lost():
    afraid = resolve("fear_test", {"agent": agent(WL=8)}, dice=[9, 3])
    assert afraid.result == {"passed": False, "action": "freeze"}
    assert effects_of(afraid, "status_gained")[0]["status"] == "fear"
    still = resolve("activation", {"agent": agent(WL=8, statuses={"fear": {}})}, dice=[9, 2])
    assert (still.result["actions"], still.result["fear_action"]) == (1, "flee")
    calm = resolve("activation", {"agent": agent(WL=8, statuses={"fear": {}})}, dice=[8])
    assert calm.result["actions"] == 2
    assert effects_of(calm, "status_removed")[0]["status"] == "fear"


def test_bleeding_ticks_past_armour_and_ends_with_medical_aid():
    bleeding = agent(HL=10, armour="enforcer-gear", statuses={"bleeding": {}})
    sheet = agents.sheet(bleeding, "a")
    end_of_activation(sheet, roller(), settings())
    end_of_activation(sheet, roller(), settings())
    assert (sheet["hp"], sheet["ap"], "bleeding" in sheet["statuses"]) == (6, 6, True)
    aid = resolve("medical_aid", {"healer": agent(), "target": bleeding, "mode": "restore_hp",
                                  "remove_status": "bleeding"}, dice=[20])  # fmt: skip
    assert "bleeding" not in aid.result["statuses"]


def test_poison_slows_and_is_shaken_off_by_a_tn_test():
    poisoned = sheet_of(TN=10, DX=10, statuses={"poisoned": {}})
    assert agents.max_move(poisoned, settings()) == 8
    end_of_activation(poisoned, roller(11), settings())
    assert (poisoned["hp"], "poisoned" in poisoned["statuses"]) == (9, True)
    end_of_activation(poisoned, roller(10), settings())
    assert (poisoned["hp"], "poisoned" in poisoned["statuses"]) == (9, False)


def test_burning_damages_frightens_and_burns_out_after_3_turns():
    odds_now = odds("status_tick", {"agent": agent(HL=10, WL=8, statuses={"burning": {"turns": 3}})})
    assert frac(odds_now["p_afraid"]) == Fraction(12, 20)
    burning = sheet_of(HL=10, WL=20, statuses={"burning": {"turns": 3}})
    for _turn in range(3):
        end_of_activation(burning, roller(1), settings())
    assert (burning["hp"], "burning" in burning["statuses"]) == (4, False)


def test_stuns_stack_and_are_used_up_by_the_actions_they_take():
    stunned = sheet_of(statuses={"stunned": {"stacks": 1}})
    effects = []
    assert wounds.gain_status(stunned, "stunned", settings(), effects, role="a")
    assert stunned["statuses"]["stunned"]["stacks"] == 2
    out = start_of_activation(stunned, roller(), settings())
    assert out["actions"] == 0
    assert "stunned" not in stunned["statuses"]


def test_disoriented_curses_bs_ws_pr_blocks_actions_and_ends_after_2_turns():
    dizzy = agent(BS=10, PR=10, statuses={"disoriented": {"turns": 2}})
    assert frac(odds("listen", {"agent": dizzy})["p_success"]) == Fraction(13, 40)
    shot = odds("shoot", {"shooter": dizzy, "weapon": {"damage": 1}, "target": agent()})
    assert shot["curses"] == 1
    sheet = agents.sheet(dizzy, "a")
    end_of_activation(sheet, roller(), settings())
    end_of_activation(sheet, roller(), settings())
    assert "disoriented" not in sheet["statuses"]


def test_pinned_curses_bs_draws_reaction_shots_and_ends_after_the_next_activation():
    pinned = agent(statuses={"pinned": {"turns": 1, "by": "Sniper"}})
    shot = resolve("shoot", {"shooter": pinned, "weapon": {"damage": 1}, "target": agent()}, seed=4)
    assert effects_of(shot, "reaction_shot_due")[0]["by"] == "Sniper"
    assert odds("shoot", {"shooter": pinned, "weapon": {"damage": 1}, "target": agent()})["curses"] == 1
    sheet = agents.sheet(pinned, "a")
    end_of_activation(sheet, roller(), settings())
    assert "pinned" not in sheet["statuses"]


def test_seriously_wounded_and_dying_skip_every_action():
    for statuses, hp in (({"seriously_wounded": {}}, 0), ({"dying": {"turns": 0}}, -8)):
        out = resolve("activation", {"agent": agent(hp=hp, statuses=statuses)}, dice=[])
        assert out.result["actions"] == 0


def test_dying_counts_its_turns_to_death():
    dying = sheet_of(HL=10, hp=-6, statuses={"dying": {"turns": 0}})
    states = []
    for _turn in range(3):
        end_of_activation(dying, roller(), settings())
        states.append(wounds.current_wound(dying))
    assert states == ["dying", "dying", "dead"]


def test_damage_moves_a_model_through_the_wound_states_and_sets_the_injury_flags():
    sheet = sheet_of(HL=6)
    states = []
    for amount in (3, 3, 4, 3):
        states.append(wounds.take_damage(sheet, amount, settings(), [], role="a", cause="test")["state"])
    assert states == ["none", "seriously_wounded", "dying", "dead"]
    assert sheet["flags"] == {"half_hp": True, "seriously_wounded": True, "dying": True}
