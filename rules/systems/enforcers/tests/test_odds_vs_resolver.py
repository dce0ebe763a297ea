"""One rule, two forms: for every action, the resolver rolling real (seeded) dice lands within 4 standard errors
of the exact odds, value by value (exactly where a probability is 0 or 1). The core test is also checked
against a brute-force count of every die face, which shares no code with core.py."""

from collections import Counter
from fractions import Fraction

import pytest

from rules.contract.testing import assert_matches
from rules.dice import SeededDice
from rules.systems.enforcers import core, rolling
from rules.systems.enforcers.system import SYSTEM
from rules.systems.enforcers.tests.helpers import agent, brute_force_test, settings

N = 2_000

SHOOTER = agent("Kate", BS=12, aim=1, rerolls=1)
THUG = agent("Thug", HL=6, TN=8, WL=7, armour="kevlar-vest", aim=1)
CASES = {
    "test": ({"difficulty": 9, "blessings": 1, "curses": 2, "use_reroll": True}, {}, lambda r: (r["success"], r["crit"])),
    "activation": ({"agent": agent(WL=8, statuses={"fear": {}, "stunned": {"stacks": 1}})}, {},
                   lambda r: (r["actions"], r["fear_action"])),
    "move": ({"agent": agent(TN=6, items=4), "difficult_cm": 2}, {}, lambda r: r["crossed"]),
    "listen": ({"agent": agent(PR=11, statuses={"disoriented": {"turns": 1}})}, {}, lambda r: r["success"]),
    "aim": ({"agent": agent(aim=2)}, {}, lambda r: r["stacks"]),
    "shoot": ({"shooter": SHOOTER, "weapon": {"damage": 5, "traits": ["bleeding"]}, "target": THUG,
               "range_band": "long", "stray_victim": agent("Bystander", HL=8), "use_reroll": True}, {},
              lambda r: (r["hit"], r["crit"], r["target_hp"], tuple(r["target_statuses"]), r["aim_kept"],
                         r["stray"] is not None)),
    "throw": ({"thrower": agent(BS=9, TN=10), "weapon": {"damage": 3}, "target": THUG, "distance_cm": 12}, {},
              lambda r: (r["hit"], r["scatter"]["distance_cm"] if r["scatter"] else None)),
    "melee": ({"attacker": agent(WS=13, HL=8), "attacker_weapon": {"damage": 3, "reach_cm": 2},
               "defender": agent(WS=11, HL=8), "defender_weapon": {"damage": 4, "reach_cm": 1}}, {},
              lambda r: (r["winner"], r["counters"], r["attacker_hp"], r["defender_hp"])),
    "overwatch": ({"agent": agent()}, {}, lambda r: r["overwatch"]),
    "suppressive_fire": ({"agent": agent(), "weapon": {"damage": 1, "ammo": 6, "capacity": 6}, "targets": [THUG]}, {},
                         lambda r: tuple(r["pinned"])),
    "take_cover": ({"agent": agent()}, {}, lambda r: r["took_cover"]),
    "medical_aid": ({"healer": agent(HL=9), "target": agent(HL=10, hp=2, statuses={"bleeding": {}}),
                     "mode": "restore_hp", "remove_status": "bleeding"}, {}, lambda r: r["hp"]),
    "prayer": ({"priest": agent(), "prayer": "anointing", "target": agent(HL=11, hp=4)}, {}, lambda r: r["hp"]),
    "damage": ({"target": agent(HL=8, WL=9), "amount": 3}, {"fear_test_on_hp_loss": "always"},
               lambda r: tuple(r["statuses"])),
    "fall": ({"agent": agent(DX=8, TN=11, HL=10), "height_cm": 6}, {}, lambda r: (r["stunned"], r["hp"])),
    "fear_test": ({"agent": agent(WL=7, friendly_ld=9)}, {}, lambda r: (r["passed"], r["action"])),
    "status_tick": ({"agent": agent(HL=8, TN=9, WL=8, hp=5, statuses={"poisoned": {}, "burning": {"turns": 2}})}, {},
                    lambda r: (r["hp"], tuple(r["statuses"]))),
    "injuries": ({"agent": agent(TN=9, flags={"half_hp": True, "seriously_wounded": True})}, {},
                 lambda r: (tuple(r["injuries"]), r["days"], tuple(sorted(r["stat_losses"].items())))),
    "armour_repair": ({"repairer": agent(IT=13), "armour": "kevlar-vest"}, {}, lambda r: (r["repaired"], r["days"])),
}  # fmt: skip


def test_every_action_has_a_case():
    assert set(CASES) == set(SYSTEM.actions)


@pytest.mark.parametrize("key", sorted(CASES))
def test_resolver_lands_within_4_standard_errors_of_the_exact_odds(key):
    inputs, overrides, extract = CASES[key]
    action = SYSTEM.action(key)
    s = settings(**overrides)
    clean = action.validate(inputs, s)
    exact = rolling.distribution_of(action.runs(inputs, s), lambda run: extract(run.result))
    dice = SeededDice(sum(map(ord, key)))
    roller = rolling.LiveRoller(dice, s)
    counts = Counter()
    for _ in range(N):
        dice.rolls.clear()
        counts[extract(action.run(clean, s, roller).result)] += 1
    assert_matches(key, exact, counts, N)


def test_the_summaries_agree_with_the_enumerated_runs():
    """The odds answer is the summary of the same runs (a spot check on three actions)."""
    s = settings()
    shot = SYSTEM.action("shoot").odds(CASES["shoot"][0], s)
    runs = SYSTEM.action("shoot").runs(CASES["shoot"][0], s)
    assert Fraction(shot["p_hit"]["exact"]) == rolling.probability_of(runs, lambda r: r.result["hit"])
    injuries = SYSTEM.action("injuries")
    inputs = CASES["injuries"][0]
    by_tiers = injuries.odds(inputs, s)
    by_runs = injuries.summarise(inputs, s, injuries.runs(inputs, s))
    assert by_tiers == by_runs


@pytest.mark.parametrize(
    ("difficulty", "blessings", "curses", "modifier", "max_only"),
    [(10, 0, 0, 0, False), (5, 0, 1, 0, False), (12, 0, 2, 0, False), (8, 3, 0, 0, True), (15, 0, 3, -2, True),
     (10, 2, 0, 1, False), (1, 0, 0, 0, False)],
)  # fmt: skip
def test_core_test_agrees_with_a_brute_force_count(difficulty, blessings, curses, modifier, max_only):
    spec = core.RollSpec("t", difficulty, blessings, curses, modifier)
    exact = core.p_success(spec, settings(homerule_max_only=max_only))
    assert exact == brute_force_test(difficulty, blessings, curses, modifier, max_only=max_only)


def test_errata_cells_under_the_crit_rule():
    """Errata: difficulty 5 with a curse is 12.5 %, the §3.12 example 23/90, and 3 curses at 10 rise to 11.6 %."""
    s = settings()
    assert core.p_success(core.RollSpec("t", 5, curses=1), s) == Fraction(1, 8)
    assert core.p_success(core.RollSpec("t", 12, curses=2), s) == Fraction(23, 90)
    assert core.p_success(core.RollSpec("t", 10, curses=3), s) == Fraction(251, 2160)
    without_crits = core.RollSpec("t", 10, curses=3, crit_chance=0)
    assert round(float(core.p_success(without_crits, s)), 3) == 0.048
