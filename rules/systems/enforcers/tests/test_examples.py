"""Every worked example of spec §6.1 (G1–G22) and every derived vector of §6.2, one test each, with the book's
numbers. Dice are typed in where the example names them."""

from fractions import Fraction

import pytest

from rules import dice as dicelib
from rules.errors import RuleInputError
from rules.systems.enforcers import agents, tables, wounds
from rules.systems.enforcers.actions.melee import melee_modifiers
from rules.systems.enforcers.actions.shooting import shooting_modifiers
from rules.systems.enforcers.rolling import LiveRoller
from rules.systems.enforcers.statuses import end_of_activation, start_of_activation
from rules.systems.enforcers.tests.helpers import agent, as_dist, frac, odds, resolve, settings


# §6.1 Worked examples ------------------------------------------------------------------------------------
def test_g1_a_modifier_changes_the_roll_17_minus_1_is_16():
    outcome = resolve("test", {"difficulty": 16, "modifier": -1}, dice=[17])
    assert outcome.result["test"]["result"] == 16
    assert outcome.result["success"] is True


def test_g2_three_blessings_and_one_curse_roll_two_blessing_dice():
    outcome = resolve("test", {"difficulty": 10, "blessings": 3, "curses": 1}, dice=[12, 3, 4])
    assert outcome.result["dice_rolled"] == {"blessing": 2, "curse": 0}
    assert [d["purpose"] for d in outcome.dice] == ["Test: d20", "Test: blessing d6 1 of 2", "Test: blessing d6 2 of 2"]
    assert outcome.result["test"]["result"] == 12 - 3 - 4
    with pytest.raises(RuleInputError, match="Too many dice"):
        resolve("test", {"difficulty": 10, "blessings": 3, "curses": 1}, dice=[12, 3, 4, 5])


def test_g3_homerule_keeps_the_highest_blessing_10_minus_5_is_5():
    inputs = {"difficulty": 4, "blessings": 2}
    homerule = resolve("test", inputs, dice=[10, 2, 5], homerule_max_only=True)
    as_written = resolve("test", inputs, dice=[10, 2, 5])
    assert homerule.result["test"]["result"] == 5
    assert as_written.result["test"]["result"] == 3
    assert (homerule.result["success"], as_written.result["success"]) == (False, True)


def test_g4_crit_chance_4_crits_on_1_to_4_not_5():
    for face in (1, 2, 3, 4):
        outcome = resolve("test", {"difficulty": 1, "crit_chance": 4, "curses": 0}, dice=[face])
        assert outcome.result["crit"], face
        assert outcome.result["success"], face
    five = resolve("test", {"difficulty": 1, "crit_chance": 4}, dice=[5])
    assert not five.result["crit"]
    assert not five.result["success"]


def test_g5_every_stat_starts_with_crit_chance_2():
    someone = agent()
    assert [agents.crit_chance(someone, s) for s in tables.STATS] == [2] * 9
    assert resolve("test", {"difficulty": 1}, dice=[2]).result["crit"] is True
    assert resolve("test", {"difficulty": 1}, dice=[3]).result["success"] is False


def test_g6_hiring_20_req_and_50_with_plus_3_to_all_stats():
    assert tables.hire_cost(0, False, 0) == 20
    assert tables.hire_cost(3, False, 0) == 50


def test_g7_apprentice_with_all_gear_and_plus_1_costs_50():
    apprentice = next(p for p in tables.PACK["profiles"] if p["slug"] == "apprentice")
    assert tables.hire_cost(1, True, apprentice["data"]["gear_req"]) == 50
    assert {g for g in range(30, 50) if tables.hire_cost(1, True, g) == 50} == {39, 40}


def test_g8_half_the_gear_allowance_rounds_up():
    assert tables.hire_cost(0, True, 15) == 20 + 8


def test_g9_medical_aid_restores_6_on_a_success_2_on_a_failure_capped_at_hl():
    healer = agent("Medic", HL=12)
    wounded = agent("Patient", HL=10, hp=3)
    success = resolve("medical_aid", {"healer": healer, "target": wounded, "mode": "restore_hp"}, dice=[5])
    failure = resolve("medical_aid", {"healer": healer, "target": wounded, "mode": "restore_hp"}, dice=[15])
    capped = resolve("medical_aid", {"healer": healer, "target": {**wounded, "hp": 8}, "mode": "restore_hp"}, dice=[5])
    assert (success.result["hp"], failure.result["hp"], capped.result["hp"]) == (9, 5, 10)


def test_g10_revive_raises_to_1_or_gives_2_up_to_0():
    healer = agent("Medic", HL=12)
    sw = {"seriously_wounded": {}}
    inputs = {"healer": healer, "mode": "revive"}
    ok = resolve("medical_aid", {**inputs, "target": agent(HL=6, hp=-1, statuses=sw)}, dice=[3])
    fail_near = resolve("medical_aid", {**inputs, "target": agent(HL=10, hp=-1, statuses=sw)}, dice=[19])
    fail_far = resolve("medical_aid", {**inputs, "target": agent(HL=10, hp=-5, statuses=sw)}, dice=[19])
    assert ok.result["hp"] == 1
    assert "seriously_wounded" not in ok.result["statuses"]
    assert fail_near.result["hp"] == 0
    assert "seriously_wounded" in fail_near.result["statuses"]
    assert fail_far.result["hp"] == -3
    assert "seriously_wounded" in fail_far.result["statuses"]


def test_g11_stabilize_makes_a_dying_model_seriously_wounded_at_0():
    dying = agent(HL=6, hp=-5, statuses={"dying": {"turns": 1}})
    inputs = {"healer": agent("Medic", HL=12), "target": dying, "mode": "stabilize"}
    ok = resolve("medical_aid", inputs, dice=[4])
    fail = resolve("medical_aid", inputs, dice=[20])
    assert ok.result["hp"] == 0
    assert ok.result["statuses"] == ["seriously_wounded"]
    assert fail.result["hp"] == -5
    assert fail.result["statuses"] == ["dying"]


def test_g12_benediction_raises_every_crit_chance_from_2_to_4():
    target = agent("Target")
    outcome = resolve("prayer", {"priest": agent("Priest"), "prayer": "benediction", "target": target}, dice=[])
    blessed = dict(target)
    for effect in outcome.effects:
        wounds.apply_effect(blessed, effect)
    assert [agents.crit_chance(blessed, s) for s in tables.STATS] == [4] * 9
    assert {"bonus": 2, "rounds": 1}.items() <= outcome.effects[1].items()


@pytest.mark.parametrize(("ws", "curses"), [(10, 2), (4, 0), (5, 1), (15, 3)])
def test_g13_parry_a_curse_per_5_of_the_defenders_ws(ws, curses):
    weapon = {"damage": 1, "reach_cm": 1}
    _b, c, _m, _lines = melee_modifiers(agent(), agent(WS=ws), weapon, weapon, {}, settings(), counter=False)
    assert c == curses


def test_g14_hl_6_half_is_minus_3_dying_from_minus_4_literal_or_minus_3():
    literal, at_half = settings(), settings(dying_threshold="at_half")
    assert wounds.wound_state(-3, 6, literal) == "seriously_wounded"
    assert wounds.wound_state(-4, 6, literal) == "dying"
    assert wounds.wound_state(-3, 6, at_half) == "dying"


def test_g15_dx_10_falls_5_cm_safely():
    assert agents.derived(agent(DX=10))["safe_fall"] == 5
    assert odds("fall", {"agent": agent(DX=10), "height_cm": 5})["damage"] == 0


def test_g16_injury_downtime_d6_2d6_3d6():
    flags = {"half_hp": True, "seriously_wounded": True, "dying": True}
    # TN 10: each test fails on 15; then d6, 2d6, 3d6 days and a d5 for the stat lost.
    dice = [15, 3, 15, 2, 2, 15, 1, 1, 1, 4]
    outcome = resolve("injuries", {"agent": agent(TN=10, flags=flags)}, dice=dice)
    days = [t["days"] for t in outcome.result["tests"]]
    assert days == [3, 4, 3]
    assert [d["purpose"].split(":")[0] for d in outcome.dice if d["faces"] == 6] == ["light injury"] + [
        "medium injury"
    ] * 2 + ["critical injury"] * 3
    assert outcome.result["days"] == 4
    assert outcome.result["stat_losses"] == {"DX": 1}


def test_g17_a_failed_repair_is_2d6_days():
    outcome = resolve("armour_repair", {"repairer": agent(IT=10), "armour": "kevlar-vest"}, dice=[20, 6, 5])
    assert outcome.result == {"repaired": False, "days": 11}
    assert [d["faces"] for d in outcome.dice] == [20, 6, 6]


@pytest.mark.parametrize(("stacks", "actions"), [(2, 0), (1, 1), (0, 2)])
def test_g18_two_stuns_skip_the_whole_activation(stacks, actions):
    statuses = {"stunned": {"stacks": stacks}} if stacks else {}
    assert resolve("activation", {"agent": agent(statuses=statuses)}, dice=[]).result["actions"] == actions


def test_g19_bleeding_poison_and_burning_ticks():
    s = settings()
    roller = LiveRoller(dicelib.dice_source(dice=[20, 20]), s)
    sheet = agents.sheet(agent(HL=10, DX=10, armour="kevlar-vest", statuses={"bleeding": {}, "poisoned": {}}), "a")
    assert agents.max_move(sheet, s) == 8  # poison: −2 cm
    end_of_activation(sheet, roller, s)  # poison TN test fails on 20: −1, bleeding −2, both past the armour
    assert (sheet["hp"], sheet["ap"]) == (7, 2)
    burning = agents.sheet(agent(HL=10, DX=10, WL=10, statuses={"burning": {"turns": 3}}), "b")
    assert agents.max_move(burning, s) == 5  # halved
    end_of_activation(burning, LiveRoller(dicelib.dice_source(dice=[1]), s), s)
    assert burning["hp"] == 8
    assert burning["statuses"]["burning"]["turns"] == 2


def test_g20_disoriented_2_turns_burning_3_dying_fatal_after_3():
    s = settings()
    sheet = agents.sheet(agent(HL=20, WL=10, hp=-12, statuses={"disoriented": {"turns": 2}, "dying": {"turns": 0},
                                                                  "burning": {"turns": 3}}), "a")  # fmt: skip
    history = []
    for _turn in range(3):
        end_of_activation(sheet, LiveRoller(dicelib.dice_source(dice=[]), s), s)
        history.append(sorted(sheet["statuses"]))
    assert history == [["burning", "disoriented", "dying"], ["burning", "dying"], ["dead"]]
    burning_only = agents.sheet(agent(HL=20, WL=10, statuses={"burning": {"turns": 3}}), "b")
    for _turn in range(3):
        end_of_activation(burning_only, LiveRoller(dicelib.dice_source(dice=[1]), s), s)
    assert "burning" not in burning_only["statuses"]
    assert burning_only["hp"] == 14


def test_g21_kinetic_6_against_police_riot_gear_costs_2_ap_and_no_hp():
    target = agent("Riot cop", armour="police-riot-gear", HL=10)
    outcome = resolve("damage", {"target": target, "amount": 6, "kinetic": True})
    assert (outcome.result["ap"], outcome.result["hp"], outcome.result["reduced"]) == (2, 10, 4)


def test_g22_full_cover_short_range_and_one_aim_net_zero():
    blessings, curses, _ = shooting_modifiers(agent(aim=1), agent(), {"cover": "full", "range_band": "short"})
    assert (blessings, curses) == (2, 2)
    shot = odds("shoot", {"shooter": agent(BS=10, aim=1), "weapon": {"damage": 1}, "target": agent(),
                          "cover": "full", "range_band": "short"})  # fmt: skip
    assert frac(shot["p_hit"]) == Fraction(1, 2)


# §6.2 Derived vectors ------------------------------------------------------------------------------------
def test_v1_damage_carries_over_then_bleeding_ignores_armour():
    target = agent(HL=10, armour="kevlar-vest", statuses={"bleeding": {}})
    hit = resolve("damage", {"target": target, "amount": 5})
    assert (hit.result["ap"], hit.result["hp"]) == (0, 7)
    sheet = agents.sheet({**target, "armour": "kevlar-vest", "hp": 10, "ap": 2}, "t")
    end_of_activation(sheet, LiveRoller(dicelib.dice_source(dice=[]), settings()), settings())
    assert (sheet["ap"], sheet["hp"]) == (2, 8)


def test_v2_derived_stats():
    d = agents.derived(agent(TN=9, DX=10))
    assert (d["carry"], d["throw_range"]) == (4, 13)
    assert (d["move"], d["jump_horizontal"], d["jump_vertical"], d["safe_fall"]) == (10, 5, 2, 5)


def test_v3_hero_exosuit_changes_dx_and_tn():
    hero = agent(TN=9, DX=10, armour="hero-exosuit")
    assert (agents.effective_stats(hero)["DX"], agents.effective_stats(hero)["TN"]) == (8, 11)
    d = agents.derived(hero)
    assert (d["move"], d["carry"], d["throw_range"]) == (8, 5, 16)


def test_v4_encumbrance_costs_2_cm_an_item_and_a_dx_test_in_difficult_terrain():
    loaded = agent(TN=8, DX=10, items=6)
    assert agents.derived(loaded)["move"] == 6
    assert odds("move", {"agent": loaded, "difficult_cm": 1})["needs_dx_test"] is True
    assert odds("move", {"agent": loaded, "distance_cm": 6})["needs_dx_test"] is False


@pytest.mark.parametrize(
    ("inputs", "homerule", "expected"),
    [
        ({}, False, Fraction(1, 2)),
        ({"blessings": 1}, False, Fraction(27, 40)),
        ({"curses": 1}, False, Fraction(13, 40)),
        ({"blessings": 2}, False, Fraction(38, 45)),
        ({"blessings": 2}, True, Fraction(521, 720)),
    ],
)
def test_v5_bs_10_probabilities(inputs, homerule, expected):
    assert frac(odds("test", {"difficulty": 10, **inputs}, homerule_max_only=homerule)["p_success"]) == expected


def test_v6_thrown_weapon_bs_10_hits_7_in_12_and_scatters_2_x_the_higher_die():
    answer = odds("throw", {"thrower": agent(BS=10, TN=10), "weapon": {"damage": 1}, "target": agent(),
                            "distance_cm": 5})  # fmt: skip
    assert frac(answer["p_hit"]) == Fraction(7, 12)
    scatter = as_dist(answer["scatter_cm"])
    miss_without_double = Fraction(1, 2) * Fraction(5, 6)
    assert {cm: scatter[cm] / miss_without_double for cm in (4, 6, 8, 10, 12)} == {
        cm: Fraction(n, 30) for cm, n in ((4, 2), (6, 4), (8, 6), (10, 8), (12, 10))
    }


@pytest.mark.parametrize(
    ("hp", "state"),
    [(1, "none"), (0, "seriously_wounded"), (-3, "seriously_wounded"), (-4, "dying"), (-6, "dying"), (-7, "dead")],
)
def test_v7_wound_states_of_hl_6(hp, state):
    assert wounds.wound_state(hp, 6, settings()) == state


def test_v7_three_hp_of_six_sets_the_light_injury_flag():
    sheet = agents.sheet(agent(HL=6), "a")
    wounds.take_damage(sheet, 3, settings(), [], role="a", cause="test")
    assert sheet["flags"] == {"half_hp": True}


def test_v8_hiring_costs():
    assert (tables.hire_cost(2, False, 0), tables.hire_cost(0, True, 10), tables.hire_cost(0, True, 11)) == (40, 25, 26)


def test_v9_parry_and_charge_ws_12_against_ws_10_is_42_5_percent():
    inputs = {"attacker": agent(WS=12), "attacker_weapon": {"damage": 1, "reach_cm": 1}, "defender": agent(WS=10),
              "defender_weapon": {"damage": 1, "reach_cm": 1}, "start_distance_cm": 6}  # fmt: skip
    answer = odds("melee", inputs)
    assert (answer["blessings"], answer["curses"]) == (1, 2)
    assert frac(answer["p_attacker_hits"]) == Fraction(17, 40)


def test_start_of_activation_is_usable_on_its_own():
    sheet = agents.sheet(agent(), "a")
    out = start_of_activation(sheet, LiveRoller(dicelib.dice_source(dice=[]), settings()), settings())
    assert out["actions"] == tables.ACTIONS_PER_ACTIVATION
