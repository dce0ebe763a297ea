"""The spec's worked examples (§6): G1–G15 from the book's text and D1–D16 derived edge cases, one test each,
with the book's numbers (typed-in dice where the book gives them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.errors import RuleInputError
from rules.systems.thw5150 import core
from rules.systems.thw5150.system import SYSTEM
from rules.systems.thw5150.tests.helpers import resolve, settings_with

PACK = json.loads((Path(__file__).resolve().parents[1] / "data" / "normals.json").read_text(encoding="utf-8"))
PROFILES = {p["slug"]: p for p in PACK["profiles"]}


def member(o, name):
    return next(r for r in o.result["members"] if r["name"] == name)


def test_g1_pass_a_die():
    # L71–73: Rep 5, a 5 passes, a 6 fails.
    assert core.passes([5], 5) == 1
    assert core.passes([6], 5) == 0
    o = resolve("group_reaction_test", {"members": [{"rep": 5, "name": "У5"}]}, dice=[5, 6])
    assert member(o, "У5")["passes"] == 1


def test_g2_leader_die():
    # L276–282: Leader Rep 4 rolls 3 (passes); John 1 → 2, Harry 2 stays 2, Larry 0 → 1.
    members = [
        {"name": "Leader", "rep": 4, "leader": True, "tests": False},
        {"name": "John", "rep": 4},
        {"name": "Harry", "rep": 6},
        {"name": "Larry", "rep": 3},
    ]
    o = resolve("wanting_to_charge", {"members": members}, dice=[4, 6, 3])
    assert o.result["leader_die"] == {"roll": 3, "rep": 4, "passed": True}
    got = {n: (member(o, n)["passes"], member(o, n)["level"]) for n in ("John", "Harry", "Larry")}
    assert got == {"John": (1, 2), "Harry": (2, 2), "Larry": (0, 1)}


def test_g3_points_pools_are_separate_and_limited():
    # L333–337: the infantry pool is its own limit (1500 here); vehicle points never add to it.
    entry = {"key": "e1", "profile": PROFILES["police-u5"], "count": 7,
             "options": {"weapon": "assault_rifle", "armour": "heavy", "leader": True}}  # fmt: skip
    within = SYSTEM.cost_roster({"points_limit": 1500, "entries": [entry]})
    assert within.total == 7 * (83 + 41 + 68)
    assert not any(i.code == "over_limit" for i in within.issues)
    over = SYSTEM.cost_roster({"points_limit": 1500, "entries": [{**entry, "count": 8}]})
    assert any(i.code == "over_limit" and "1500" in i.message for i in over.issues)


def test_g4_activation_rep_gate():
    # L426–428: die 4 lets Rep 4, Rep 5 and a Rep 3 led by a Rep 4 act; not a Rep 3 led by a Rep 3.
    groups = [{"name": "r4", "reps": [4]}, {"name": "r5", "reps": [5]},
              {"name": "led4", "leader_rep": 4, "reps": [4, 3]}, {"name": "led3", "leader_rep": 3, "reps": [3]}]  # fmt: skip
    o = resolve("activation", {"sides": [{"groups": groups}, {"groups": [{"reps": [4]}]}]}, dice=[4, 2])
    plan = {g["group"]: g["acts"] for g in o.result["sides"][0]["groups"]}
    assert plan == {"r4": "all", "r5": "all", "led4": "all", "led3": "none"}


def test_g5_fast_move():
    # L482–490: dice 4 and 5; У5 16″, У4 12″, У3 8″, all fast moving.
    o = resolve("fast_move", {"members": [{"rep": 5, "name": "У5"}, {"rep": 4, "name": "У4"}, {"rep": 3, "name": "У3"}]},
                dice=[4, 5])  # fmt: skip
    assert [member(o, n)["max_inches"] for n in ("У5", "У4", "У3")] == [16, 12, 8]
    assert sum(1 for e in o.effects if e["kind"] == "fast_moved") == 3


def test_g6_only_the_figure_fired_on_reads_the_group_roll():
    # L560–562: Chopo is fired on; the group's 2d6 are compared with Chopo's Rep only.
    o = resolve("received_fire", {"members": [{"name": "Chopo", "rep": 4}, {"name": "Radkis", "rep": 5, "tests": False}]},
                dice=[3, 2])  # fmt: skip
    assert [r["name"] for r in o.result["members"]] == ["Chopo"]
    assert o.result["group_dice"] == [3, 2]


def test_g7_in_sight_taken_by_a_figure_in_the_street():
    # L602–603: Gras in the open sees the MSS soldier and tests at once: pass 1 in the open ducks back or goes prone.
    o = resolve("in_sight", {"members": [{"name": "Грас", "rep": 4}]}, dice=[2, 6])
    assert member(o, "Грас")["outcome"] == "duck_back_or_prone"


def test_g8_shooting_allocation():
    # L682–686: Jim Rep 4 rolls 6, 5, 4 → 10, 9, 8: two hits on the first target, the 8 misses the second.
    inputs = {"shooter": {"name": "Jim", "rep": 4, "weapon": "assault_rifle"},
              "targets": [{"name": "T1", "dice": 2}, {"name": "T2", "dice": 1}]}  # fmt: skip
    o = resolve("shooting", inputs, dice=[4, 6, 5, 6, 5])  # to-hit dice in any order; two damage dice for T1
    t1, t2 = o.result["targets"]
    assert [d["total"] for d in t1["dice"] + t2["dice"]] == [10, 9, 8]
    assert [d["hit"] for d in t1["dice"]] == [True, True]
    assert t2["dice"][0]["hit"] is False
    assert "second" in t2["dice"][0]["reason"]
    assert o.result["out_of_ammo"] is False


@pytest.mark.parametrize(("roll", "result"), [(4, "knocked_down"), (1, "dead"), (2, "out_of_fight")])
def test_g9_ranged_damage(roll, result):
    # L743–747: the light MG's Impact against the Slag in ЛБ is 2 (§5 A10): 4 knocks down, 1 kills, 2 OOF.
    assert resolve("ranged_damage", {"impact": 2}, dice=[roll]).result["result"] == result


def test_g10_hand_of_fate():
    # L808–813: SMG against ЭКЗ is «НЭ»; hit die 6, fate dice 1, 1, damage die 1: dead.
    inputs = {"shooter": {"name": "Фриц", "rep": 4, "weapon": "smg"}, "targets": [{"dice": 1, "armour": "ЭКЗ"}]}
    o = resolve("shooting", inputs, dice=[6, 1, 1, 1])
    assert o.result["targets"][0]["result"] == "dead"
    assert [d["purpose"] for d in o.dice][1:3] == [
        "first Hand of Fate die: target 1",
        "second Hand of Fate die: target 1",
    ]


def test_g11_grenade():
    # L830–835: total 8, three figures; the one in cover is missed; Impact 2: damage 1 dead, 5 knocked down.
    inputs = {"thrower": {"rep": 4}, "blast": [{"name": "cover", "in_cover": True}, {"name": "a"}, {"name": "b"}]}
    o = resolve("grenade", inputs, dice=[4, 1, 5])
    assert o.result["hit_total"] == 8
    assert [(r["name"], r["result"]) for r in o.result["blast"]] == [
        ("cover", "no_damage"),
        ("a", "dead"),
        ("b", "knocked_down"),
    ]


def test_g12_an_active_figure_may_fire_back_at_anyone():
    # L982–985: Jim, active, passes Received Fire: he may fire at B, at A, or both; inactive only at B.
    fired = {"members": [{"name": "Jim", "rep": 4, "active": True}]}
    o = resolve("received_fire", fired, dice=[2, 3])
    assert {"kind": "fires", "role": "members.0", "rep_modifier": 0, "at": "any"} in o.effects
    o = resolve("received_fire", {"members": [{"name": "Jim", "rep": 4}]}, dice=[2, 3])
    assert {"kind": "fires", "role": "members.0", "rep_modifier": 0, "at": "shooter"} in o.effects


def test_g13_melee_slag_against_two_skrunts():
    # L1102–1111: Slag Rep 5 → 4 against two; 4, 3 pass 2; Skrunt 1 6, 4 pass 1; Skrunt 2 5, 5 pass 0.
    impact3 = {"name": "Impact 3", "rof": 1, "impact": 3}
    inputs = {"fighter": {"name": "Слаг", "rep": 5, "weapon": impact3},
              "opponents": [{"name": "Скрунт 1", "rep": 4, "weapon": impact3},
                            {"name": "Скрунт 2", "rep": 4, "weapon": impact3}]}  # fmt: skip
    o = resolve("melee", inputs, dice=[4, 3, 6, 4, 5, 5, 2, 1])  # then: damage die 2, won-by-2 die 1
    first, second = o.result["pairs"]
    assert (first["fighter_rep"], first["fighter_passes"], first["opponent_passes"]) == (4, 2, 1)
    assert (second["fighter_rep"], second["fighter_passes"], second["opponent_passes"]) == (4, 2, 0)
    assert first["result"] == "wins_by_1"
    assert first["opponent_status"] == "out_of_fight"
    assert second["result"] == "wins_by_2"
    assert second["opponent_status"] == "dead"


def test_g14_stay_or_run_threshold():
    # L1195–1197: 12 figures → 12 / 6 = 2: a test at 2, 4, 6 casualties.
    settings = settings_with()
    assert core.stay_or_run_threshold(12, settings) == 2
    assert [core.stay_or_run_tests_due(12, c, c - 1, settings) for c in range(1, 7)] == [0, 1, 0, 1, 0, 1]


def test_g15_rof_spread():
    # L177–178: RoF 3 may hit up to 3 targets; a fourth die is refused.
    three = {"shooter": {"rep": 5, "weapon": "assault_rifle"}, "targets": [{"dice": 1}, {"dice": 1}, {"dice": 1}]}
    o = resolve("shooting", three, dice=[4, 4, 4, 6, 6])  # 9 each: hit, hit, miss (third); two damage dice
    assert [t["hits"] for t in o.result["targets"]] == [1, 1, 0]
    with pytest.raises(RuleInputError) as caught:
        resolve("shooting", {**three, "targets": three["targets"] + [{"dice": 1}]}, seed=1)
    assert "rate of fire is 3" in caught.value.errors["targets"]


@pytest.mark.parametrize(
    ("case", "target", "die", "rep", "hit"),
    [
        ("D1 8 in the open", {}, 4, 4, True),
        ("D2 prone", {"prone": True}, 4, 4, False),
        ("D2 concealed", {"concealed": True}, 4, 4, False),
        ("D2 cover", {"in_cover": True}, 4, 4, False),
        ("D2 target fast", {"fast_moved": True}, 4, 4, False),
        ("D3 9 in cover", {"in_cover": True}, 4, 5, False),
        ("D4 10 in cover", {"in_cover": True}, 6, 4, True),
    ],
)
def test_d1_to_d4_hit_table(case, target, die, rep, hit):
    inputs = {"shooter": {"rep": rep, "weapon": "rifle"}, "targets": [{"dice": 1, **target}]}
    o = resolve("shooting", inputs, dice=[die, 6] if hit else [die])  # a hit rolls one damage die
    assert o.result["targets"][0]["hits"] == (1 if hit else 0), case


def test_d3_and_d4_later_targets():
    # Rep 5: 6, 4, 4 → 11, 9, 9: a 9 hits the 2nd target and misses the 3rd; a 10 hits even a 3rd target.
    inputs = {"shooter": {"rep": 5, "weapon": "assault_rifle"}, "targets": [{"dice": 1}, {"dice": 1}, {"dice": 1}]}
    o = resolve("shooting", inputs, dice=[6, 4, 4, 6, 6])
    assert [t["dice"][0]["hit"] for t in o.result["targets"]] == [True, True, False]
    o = resolve("shooting", {**inputs, "shooter": {"rep": 4, "weapon": "assault_rifle"}}, dice=[6, 6, 6, 6, 6, 6])
    assert [t["dice"][0]["hit"] for t in o.result["targets"]] == [True, True, True]


def test_d2_shooter_fast_and_two_guns_miss_on_8():
    fast = {"shooter": {"rep": 4, "weapon": "rifle", "fast_moved": True}, "targets": [{"dice": 1}]}
    assert resolve("shooting", fast, dice=[4]).result["targets"][0]["hits"] == 0
    two = {"shooter": {"rep": 4, "weapon": "pistol", "second_weapon": "pistol"}, "targets": [{"dice": 1}]}
    assert "two-gun" in resolve("shooting", two, dice=[4]).result["targets"][0]["dice"][0]["reason"]


@pytest.mark.parametrize(("reroll", "hit"), [(3, True), (4, False)])
def test_d5_lucky_shot(reroll, hit):
    inputs = {"shooter": {"rep": 3, "weapon": "rifle"}, "targets": [{"dice": 1, "in_cover": True}]}
    dice = [6, reroll] + ([6] if hit else [])  # a hit rolls damage (6: knocked down)
    assert resolve("shooting", inputs, dice=dice).result["targets"][0]["hits"] == (1 if hit else 0)


def test_d6_two_ones_run_out_of_ammo():
    inputs = {"shooter": {"rep": 4, "weapon": "smg"}, "targets": [{"dice": 3}]}
    o = resolve("shooting", inputs, dice=[1, 1, 5, 6])  # 5 + 4 = 9 hits: one damage die
    assert o.result["out_of_ammo"] is True
    assert {"kind": "loaded", "role": "shooter", "value": False} in o.effects


def test_d7_impact_0_always_knocks_down():
    for roll in range(1, 7):
        o = resolve("ranged_damage", {"weapon": "grenades", "armour": "shimmer"}, dice=[roll])
        assert {k: v for k, v in o.result.items() if k != "text"} == {"impact": 0, "result": "knocked_down"}


@pytest.mark.parametrize(("absorb", "result"), [(2, "no_damage"), (5, "knocked_down")])
def test_d8_pistol_against_absorbing_armour(absorb, result):
    dice = [absorb] if absorb <= 3 else [absorb, 1]  # 4–6: ТБ Impact 0, any damage die knocks down
    o = resolve("ranged_damage", {"weapon": "pistol", "armour": "absorbing"}, dice=dice)
    assert o.result["result"] == result


def test_d9_laser_rifle_against_reflective_armour_reads_tb():
    o = resolve("ranged_damage", {"weapon": "laser_rifle", "armour": "reflective"}, dice=[4, 3])
    assert o.result["result"] == "out_of_fight"  # reflect 4 → ТБ Impact 3; 3 ≤ 3, not 1
    assert "Impact 3" in " ".join(o.steps)


@pytest.mark.parametrize(("state", "result"), [("knocked_down", "out_of_fight"), ("duck_back", "runaway")])
def test_d10_recovery_pass_1_twice(state, result):
    o = resolve("recovery", {"figure": {"rep": 4, "state": state}}, dice=[3, 5, 2, 6])
    assert [r["level"] for r in o.result["rolls"]] == [1, 1]
    assert o.result["outcome"] == result


def test_d11_leader_three_dice():
    o = resolve("received_fire", {"members": [{"name": "L", "rep": 4, "leader": True}]}, dice=[5, 6, 2])
    assert member(o, "L")["level"] == 1


def test_d12_covering_fire_third_die():
    o = resolve("in_sight", {"members": [{"name": "C", "rep": 3, "covering_fire": True}]}, dice=[2, 3, 6])
    assert member(o, "C")["level"] == 2


@pytest.mark.parametrize(("initial", "threshold"), [(6, 1), (8, 1), (9, 2), (10, 2), (12, 2), (18, 3), (2, 1)])
def test_d13_stay_or_run_thresholds(initial, threshold):
    assert core.stay_or_run_threshold(initial, settings_with()) == threshold


def test_d14_points():
    u4 = {"key": "a", "profile": PROFILES["police-u4"], "count": 1,
          "options": {"weapon": "assault_rifle", "armour": "light", "leader": True}}  # fmt: skip
    u5 = {"key": "b", "profile": PROFILES["police-u5"], "count": 1,
          "options": {"weapon": "machine_gun", "armour": "heavy", "group": "2", "leader": True}}  # fmt: skip
    report = SYSTEM.cost_roster({"entries": [u4, u5]})
    assert report.entry_costs == {"a": 134, "b": 209}


def test_d15_bayonet_against_unarmed():
    inputs = {"fighter": {"rep": 4, "weapon": "rifle_bayonet"}, "opponents": [{"rep": 4}]}
    clean = SYSTEM.action("melee").validate(inputs, settings_with())
    assert (clean["pairs"][0]["fighter_rep"], clean["pairs"][0]["opponent_rep"]) == (4, 3)


def test_d16_activation_doubles():
    o = resolve("activation", {"sides": [{"groups": [{"reps": [5]}]}, {"groups": [{"reps": [4]}]}]}, dice=[3, 3])
    assert o.result["doubles"] is True
    assert o.result["sides"] == []
