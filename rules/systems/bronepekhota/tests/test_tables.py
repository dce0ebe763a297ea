"""The probability tables of spec §3 reproduced exactly by tables.py and by the actions' odds."""

from fractions import Fraction as F

import pytest

from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.system import SYSTEM

# §3.7.3 hit table: P(aimed range >= d), as printed (3 decimals).
HIT_COLUMNS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 15, 20, 21]
HIT_TABLE = {
    (6, 0): [1, 0.833, 0.667, 0.5, 0.333, 0.167, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    (6, 1): [1, 1, 0.833, 0.667, 0.5, 0.333, 0.167, 0, 0, 0, 0, 0, 0, 0, 0],
    (6, 2): [1, 1, 1, 0.833, 0.667, 0.5, 0.333, 0.167, 0, 0, 0, 0, 0, 0, 0],
    (6, 3): [1, 1, 1, 1, 0.833, 0.667, 0.5, 0.333, 0.167, 0, 0, 0, 0, 0, 0],
    (12, 0): [1, 0.917, 0.833, 0.75, 0.667, 0.583, 0.5, 0.417, 0.333, 0.25, 0.083, 0, 0, 0, 0],
    (12, 1): [1, 1, 0.917, 0.833, 0.75, 0.667, 0.583, 0.5, 0.417, 0.333, 0.167, 0.083, 0, 0, 0],
    (20, 0): [1, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.45, 0.4, 0.3, 0.05, 0],
}


@pytest.mark.parametrize(("die", "values"), HIT_TABLE.items(), ids=lambda x: str(x))
def test_hit_table_reproduced(die, values):
    faces, mod = die
    for d, printed in zip(HIT_COLUMNS, values, strict=True):
        exact = tables.hit_probability(faces, mod, d)
        assert round(float(exact), 3) == printed, (die, d)
        assert exact == max(F(0), min(F(1), F(faces + mod - d + 1, faces)))  # the spec's formula


def test_hit_table_through_the_virtual_shot_odds():
    shot = SYSTEM.action("virtual_shot")
    for (faces, mod), values in HIT_TABLE.items():
        notation = f"Д{faces}+{mod}" if mod else f"Д{faces}"
        for d, printed in zip(HIT_COLUMNS, values, strict=True):
            odds = shot.odds(
                {
                    "shooter": {"kind": "infantry"},
                    "weapon": {"range": notation, "power": "1Д6"},
                    "distance_steps": d,
                    "target": {"kind": "infantry", "armour": 3},
                },
                {},
            )
            assert round(odds["p_hit"]["p"], 3) == printed


def test_aimed_fire_example_of_the_hit_table():
    assert tables.hit_probability(6, 1, 9, aimed=True) == F(1, 2)
    assert tables.hit_probability(6, 1, 9) == 0


@pytest.mark.parametrize(
    ("faces", "armour", "p"),
    [(6, 2, F(2, 3)), (6, 3, F(1, 2)), (12, 7, F(5, 12)), (20, 3, F(17, 20)), (20, 9, F(11, 20)), (6, 6, 0)],
)
def test_penetration_per_die(faces, armour, p):
    assert tables.penetration_probability(faces, armour) == p


def test_damage_examples_of_section_3_7_3():
    four_d12 = tables.damage_distribution(4, 12, 7)
    assert sum(k * p for k, p in four_d12.items()) == F(5, 3)
    assert 1 - four_d12[0] == 1 - F(7, 12) ** 4
    assert round(float(1 - four_d12[0]), 3) == 0.884
    assert four_d12[2] == F(1225, 3456)
    covered = tables.damage_distribution(2, 6, 2 + tables.cover_bonus("over_half_visible"))
    assert 1 - covered[0] == F(3, 4)


# §3.9 melee table: P(attacker wins) by Δ, normal and surprise.
MELEE_NORMAL = {-5: 0, -4: F(1, 36), -3: F(1, 12), -2: F(1, 6), -1: F(5, 18), 0: F(5, 12), 1: F(7, 12),
                2: F(13, 18), 3: F(5, 6), 4: F(11, 12), 5: F(35, 36), 6: 1}  # fmt: skip
MELEE_SURPRISE = {-5: 0, -4: F(11, 216), -3: F(31, 216), -2: F(29, 108), -1: F(5, 12), 0: F(125, 216),
                  1: F(161, 216), 2: F(31, 36), 3: F(101, 108), 4: F(211, 216), 5: F(215, 216), 6: 1}  # fmt: skip


@pytest.mark.parametrize("delta", sorted(MELEE_NORMAL))
def test_melee_table_reproduced(delta):
    assert tables.melee_win_probability(delta) == MELEE_NORMAL[delta]
    assert tables.melee_win_probability(delta, surprise=True) == MELEE_SURPRISE[delta]
    assert tables.melee_win_probability(delta - 3) <= MELEE_NORMAL[delta]  # and beyond the table: monotone


def test_melee_table_through_the_melee_odds():
    melee = SYSTEM.action("melee")
    for delta in range(-5, 7):
        for surprise, table in ((False, MELEE_NORMAL), (True, MELEE_SURPRISE)):
            # infantry ББ (3 + Δ) against Бр 3: Δ = ББ − Бр; ББ cannot be negative, so shift both when needed
            attack, armour = 6 + delta, 6
            odds = melee.odds(
                {
                    "attacker": {"kind": "infantry", "melee": attack},
                    "defender": {"kind": "infantry", "armour": armour},
                    "surprise": surprise,
                },
                {},
            )
            assert F(odds["p_attacker_wins"]["exact"]) == table[delta]


def test_melee_examples_of_section_3_9():
    assert tables.melee_win_probability(2 - 3) == F(5, 18)  # ББ 2 vs Бр 3
    assert tables.melee_win_probability(2 - 3, surprise=True) == F(5, 12)
    assert tables.melee_win_probability(3 - 7) == F(1, 36)  # ББ 3 vs a piloted vehicle, Броня 7
    assert tables.melee_win_probability_flat(12, 9) == 1  # G18: Д6 + 12 against a gun's Броня 9


@pytest.mark.parametrize("armour", range(0, 7))
def test_survival_table_reproduced(armour):
    plain = tables.survival_probabilities(armour, 6)
    assert plain["survived"] == F(armour, 6)
    assert plain["killed"] == F(6 - armour, 6)
    assert plain["panic"] == 0
    panic = tables.survival_probabilities(armour, 6, panic_rule=True)
    assert panic["panic"] == (F(1, 6) if armour >= 1 else 0)
    assert panic["survived"] == (F(armour - 1, 6) if armour >= 1 else 0)  # survive without panic: (b − 1)/6
    assert panic["killed"] == F(6 - armour, 6)


def test_armour_test_probabilities_of_section_3_5():
    p = tables.armour_test_probabilities(7, 12, 3)
    assert p["safe"] == F(7, 12)
    assert p["killed"] == F(5, 24)
    assert tables.armour_test_probabilities(7, 20, 3)["safe"] == F(7, 20)
    assert tables.armour_test_probabilities(0, 12, 3)["safe"] == 0  # A25: a destroyed vehicle's pilot always tests


def test_grenade_kill_chance_of_section_3_8():
    assert 1 - tables.damage_distribution(1, 20, 3)[0] == F(17, 20)


def test_initiative_two_players_first_roll_and_fairness():
    assert tables.roll_off_decided_first_time(2, 12) == F(11, 12)
    assert tables.roll_off_winner_probability(2) == F(1, 2)
    odds = SYSTEM.action("initiative").odds({"players": ["A", "B"]}, {})
    assert odds["p_win"]["A"]["exact"] == "1/2"
    assert odds["p_decided_first_roll"]["exact"] == "11/12"


def test_real_shot_table_4_damage():
    assert tables.real_hit_damage("shell", fell=False, was_lying=False) == 2
    assert tables.real_hit_damage("rocket", fell=True, was_lying=False) == 8
    assert tables.real_hit_damage("mine", fell=False, was_lying=True) == 6
    assert tables.armour_test_die(fell=False, was_lying=False) == 12
    assert tables.armour_test_die(fell=True, was_lying=False) == 20


def test_distance_rounds_up_to_steps():
    assert [tables.steps_from_cm(cm) for cm in (0, 1, 5, 5.01, 20, 21, 25)] == [0, 1, 1, 2, 4, 5, 5]
