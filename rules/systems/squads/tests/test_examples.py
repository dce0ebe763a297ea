"""The test vectors of spec §6 (T1–T21), one test each with the book's numbers, and its exact probability checks.

The book has no worked examples with dice; the spec restates its explicit numeric rules as these vectors.
"""

from fractions import Fraction

import pytest

from rules.systems.squads import tables
from rules.systems.squads.tests.support import dist, effect, frac, kinds, odds, refuse, run

SHOOT_OPEN = {"groups": [{"count": 10, "armour": "none"}]}


def shot(level, weapon, distance=6, count=1, action="aimed_fire", target=None, **shooter):
    return {
        "shooter": {"level": level, "action": action, "groups": [{"weapon": weapon, "count": count, "distance": distance}], **shooter},
        "target": target or SHOOT_OPEN,
    }  # fmt: skip


def activation_passes(unit: dict, die: int, **over) -> bool:
    return run("activation", {"unit": unit}, [die], **over).result["success"]


@pytest.mark.parametrize(
    ("level", "activation", "expertise"),
    [("recruit", 5, 6), ("regular", 4, 5), ("veteran", 3, 4), ("elite", 2, 4)],
)
def test_t1_training_table(level, activation, expertise):
    assert activation_passes({"level": level}, activation)
    assert not activation_passes({"level": level}, activation - 1)
    walk = shot(level, "rifle", action="walk")  # no aim: the die meets «Опыт» itself
    assert run("shooting", walk, [expertise]).result["hits"] == 1
    assert run("shooting", walk, [expertise - 1]).result["hits"] == 0


def test_t2_two_figures_out_of_coherency_regular_needs_a_six():
    unit = {"level": "regular", "out_of_coherency": 2}
    assert activation_passes(unit, 6)
    assert not activation_passes(unit, 5)


def test_t3_recruit_with_no_visible_enemy_activates_on_a_four():
    assert activation_passes({"level": "recruit", "sees_enemy": False}, 4)
    assert not activation_passes({"level": "recruit", "sees_enemy": False}, 3)


def test_t4_veteran_with_two_suppressed_fails_on_4_passes_on_5_and_recovers():
    unit = {"level": "veteran", "suppressed": 2, "figures": 6}
    for die, success in ((4, False), (5, True)):
        outcome = run("activation", {"unit": unit}, [die])
        assert outcome.result["success"] is success
        assert effect(outcome, "suppression_cleared", "unit")["figures"] == 2  # after the roll, either way


def test_t5_regular_unit_with_veteran_leader_activates_on_3():
    unit = {"level": "regular", "leader": {"level": "veteran"}}
    assert activation_passes(unit, 3)
    assert not activation_passes(unit, 2)
    assert odds("activation", {"unit": unit})["need"] == 3


def test_t6_stunned_elite_crew_fails_on_3():
    vehicle = {"kind": "vehicle", "level": "elite", "crew_stunned": 1}
    assert not activation_passes(vehicle, 3)
    assert activation_passes(vehicle, 4)


@pytest.mark.parametrize(
    ("level", "cover", "need"),
    [("veteran", "medium", 6), ("veteran", "heavy", 6), ("regular", "light", 6), ("veteran", "none", 4)],
)
def test_t7_cover_raises_the_hit_number_capped_at_6(level, cover, need):
    inputs = shot(level, "rifle", action="walk", target={"groups": [{"count": 5, "cover": cover}]})
    assert odds("shooting", inputs)["groups"][0]["need"] == need
    assert run("shooting", inputs, [need]).result["hits"] == 1
    assert run("shooting", inputs, [need - 1]).result["hits"] == 0


def test_t8_regular_flamethrower_against_a_bunker_four_dice_on_5():
    inputs = shot("regular", "flamethrower", target={"groups": [{"count": 5, "cover": "heavy"}]}, action="on_guard")
    inputs["reaction"] = {"enemy_action": "declared"}
    group = odds("shooting", inputs)["groups"][0]
    assert (group["dice"], group["need"]) == (4, 5)
    assert run("shooting", inputs, [5, 4, 6, 1]).result["hits"] == 2


def test_t9_aimed_regular_in_the_open_hits_on_a_four():
    assert run("shooting", shot("regular", "rifle"), [4]).result["hits"] == 1
    assert run("shooting", shot("regular", "rifle"), [3]).result["hits"] == 0


def test_t10_assault_rifle_two_dice_at_12_one_at_13_none_beyond_24():
    assert odds("shooting", shot("regular", "assault_rifle", distance=12))["groups"][0]["dice"] == 2
    assert odds("shooting", shot("regular", "assault_rifle", distance=13))["groups"][0]["dice"] == 1
    assert "reaches 24" in refuse(
        "shooting", shot("regular", "assault_rifle", distance=25), "shooter.groups.0.distance"
    )
    assert odds("shooting", shot("regular", "assault_rifle", distance=30), units="cm")["groups"][0]["dice"] == 2


@pytest.mark.parametrize(
    ("weapon", "dice"),
    [("pistol", 1), ("rifle", 1), ("sniper_rifle", 2), ("smg", 3), ("lmg", 3), ("shotgun", 3), ("grenade_launcher", 3),
     ("hmg", 4), ("flamethrower", 4), ("grenades", 3), ("rpg", 3), ("light_at_gun", 3), ("light_mortar", 3),
     ("light_cannon", 4), ("heavy_cannon", 6)],
)  # fmt: skip
def test_t11_fire_dice_per_weapon(weapon, dice):
    count = 2 if weapon == "hmg" else 1  # an infantry HMG fires with its two-man crew (L64)
    inputs = shot("regular", weapon, distance=5, count=1)
    inputs["shooter"]["groups"][0]["crew"] = count
    assert odds("shooting", inputs)["groups"][0]["dice"] == dice


@pytest.mark.parametrize(
    ("armour", "save"), [("light", 6), ("medium", 5), ("heavy", 4), ("power", 3), ("battle_suit", 2)]
)
def test_t12_personal_saves(armour, save):
    inputs = {"hits": 1, "target": {"groups": [{"count": 3, "armour": armour}]}}
    assert run("armour_saves", inputs, [save]).result["unsaved"] == 0
    assert run("armour_saves", inputs, [save - 1]).result["unsaved"] == 1
    assert dist(odds("armour_saves", inputs)["unsaved"])[1] == Fraction(save - 1, 6)


@pytest.mark.parametrize(
    ("armour", "save"), [("unarmoured", 6), ("light", 5), ("medium", 4), ("heavy", 3), ("super_heavy", 2)]
)
def test_t13_vehicle_saves(armour, save):
    hit = {"vehicle": {"armour": armour, "facing": "side"}, "hits": 1, "weapon": "rpg"}
    assert run("vehicle_hit", hit, [save]).result["unsaved"] == 0
    damaged = run("vehicle_hit", hit, [save - 1, 1])  # unsaved: one damage die (side)
    assert damaged.result["unsaved"] == 1
    assert damaged.result["damage"][0]["effect"] == "crew_stunned"


@pytest.mark.parametrize("weapon", ["rifle", "hmg"])
def test_t14_rifle_or_hmg_cannot_harm_light_armour_but_roll_on_a_truck(weapon):
    armoured = run("vehicle_hit", {"vehicle": {"armour": "light", "facing": "side"}, "hits": 3, "weapon": weapon}, [])
    assert armoured.result["immune"] is True
    assert armoured.effects == []
    truck = run(
        "vehicle_hit", {"vehicle": {"armour": "unarmoured", "facing": "side"}, "hits": 1, "weapon": weapon}, [6]
    )
    assert truck.result["immune"] is False
    assert truck.result["save_rolls"] == [6]


@pytest.mark.parametrize(
    ("die", "effect_kind"),
    [(1, "crew_stunned"), (2, "crew_stunned"), (3, "weapon_destroyed"), (4, "weapon_destroyed"), (5, "immobilised"),
     (6, "destroyed")],
)  # fmt: skip
def test_t15_damage_die(die, effect_kind):
    outcome = run(
        "vehicle_hit", {"vehicle": {"armour": "light", "facing": "side"}, "hits": 1, "weapon": "rpg"}, [1, die]
    )
    assert outcome.result["damage"][0]["effect"] == effect_kind
    assert (effect_kind, "vehicle") in kinds(outcome)
    if die == 6:
        assert effect(outcome, "bail_out", "vehicle")["hits"] == "per_figure"  # one hit per crewman and passenger


def test_t16_facing_front_lower_rear_higher_doubles_rerolled_side_single():
    def damage(facing, dice):
        hit = {"vehicle": {"armour": "light", "facing": facing}, "hits": 1, "weapon": "rpg"}
        return run("vehicle_hit", hit, [1, *dice]).result["damage"][0]

    assert damage("front", [2, 5])["value"] == 2
    assert damage("rear", [2, 5])["value"] == 5
    rerolled = damage("front", [4, 4, 1, 3])
    assert rerolled["dice"] == [4, 4, 1, 3]
    assert rerolled["value"] == 1
    assert damage("side", [4])["value"] == 4


def test_t17_more_than_half_casualties_withdraws_else_on_guard():
    lost_six = run("activation", {"unit": {"level": "regular", "strength": 10, "casualties": 6}}, [1])
    assert effect(lost_six, "withdraw", "unit")["distance"] == 6
    assert lost_six.result["consequence"] == "withdraw"
    in_cm = run("activation", {"unit": {"level": "regular", "strength": 10, "casualties": 6}}, [1], units="cm")
    assert effect(in_cm, "withdraw", "unit")["distance"] == 15
    lost_five = run("activation", {"unit": {"level": "regular", "strength": 10, "casualties": 5}}, [1])
    assert ("on_guard", "unit") in kinds(lost_five)
    assert effect(lost_five, "withdraw") is None
    assert ("initiative_passes", "game") in kinds(lost_five)


def test_t18_regular_of_eight_splits_four_unsaved_hits():
    target = {"level": "regular", "figures": 8, "suppressed": 0}
    options = odds("split_hits", {"unsaved": 4, "suppress": 0, "target": target})["options"]
    assert [(o["suppressed"], o["casualties"]) for o in options] == [(0, 4), (1, 3), (2, 2)]
    two_two = run("split_hits", {"unsaved": 4, "suppress": 2, "target": target}, [])
    assert (effect(two_two, "suppressed")["figures"], effect(two_two, "casualties")["figures"]) == (2, 2)
    assert "At most 2" in refuse("split_hits", {"unsaved": 4, "suppress": 3, "target": target}, "suppress")


def test_t19_five_regulars_against_four_veterans():
    inputs = {"attacker": {"level": "regular", "figures": 5}, "defender": {"level": "veteran", "figures": 4}}
    # attacker 5 dice on 5+ (two hits), defender 4 dice on 4+ (two hits), at once; no armour, no saves
    outcome = run("melee", inputs, [5, 6, 4, 1, 2, 4, 4, 3, 1])
    assert [len(outcome.result["waves"][0]["dice"][r]) for r in ("attacker", "defender")] == [5, 4]
    assert outcome.result["casualties"] == {"attacker": 2, "defender": 2}
    assert not any(e["kind"] == "suppressed" for e in outcome.effects)  # melee gives casualties only
    p = odds("melee", inputs)["p_die_kills"]
    assert (frac(p["defender"]), frac(p["attacker"])) == (Fraction(1, 3), Fraction(1, 2))
    in_cover = odds("melee", {**inputs, "defender": {"level": "veteran", "figures": 4, "armour": "light"}})
    assert frac(in_cover["p_die_kills"]["defender"]) == Fraction(1, 3) * Fraction(5, 6)  # personal saves only


@pytest.mark.parametrize(
    ("action", "inches", "cm"),
    [("walk", 6, 15), ("run", 12, 30), ("crouch", 8, 20), ("on_guard", 0, 0), ("go_to_ground", 3, 8),
     ("aimed_fire", 0, 0), ("assault", 8, 20)],
)  # fmt: skip
def test_t20_move_distances(action, inches, cm):
    assert odds("unit_action", {"action": action})["result"]["move"] == inches
    assert odds("unit_action", {"action": action}, units="cm")["result"]["move"] == cm
    refuse("unit_action", {"action": action, "moved": inches + 1}, "moved")


def test_t21_vehicle_moves():
    truck = {"armour": "unarmoured", "weapons": 2}
    assert odds("vehicle_move", {"vehicle": truck, "move": "open"})["result"]["allowance"] == 12
    assert odds("vehicle_move", {"vehicle": truck, "move": "open"}, units="cm")["result"]["allowance"] == 30
    light = odds("vehicle_move", {"vehicle": truck, "move": "light_cover"})["result"]
    assert (light["allowance"], light["weapons_may_fire"]) == (6, 1)
    tank = odds("vehicle_move", {"vehicle": {"armour": "heavy", "weapons": 2}, "move": "medium_cover"})["result"]
    assert (tank["allowance"], tank["weapons_may_fire"]) == (6, 0)
    assert "medium and heavy tanks" in refuse("vehicle_move", {"vehicle": truck, "move": "medium_cover"}, "move")
    assert odds("vehicle_move", {"vehicle": truck, "move": "stationary"})["result"]["weapons_may_fire"] == 2


def test_exact_probability_checks():
    assert frac(odds("activation", {"unit": {"level": "elite", "sees_enemy": False}})["p_success"]) == 1
    recruit = {"level": "recruit", "suppressed": 2, "figures": 5}
    assert frac(odds("activation", {"unit": recruit})["p_success"]) == 0
    veteran = shot("veteran", "rifle", action="walk", target={"groups": [{"count": 4, "cover": "light"}]})
    assert frac(odds("shooting", veteran)["groups"][0]["p_hit"]) == Fraction(1, 3)
    smg = odds("shooting", shot("regular", "smg", action="walk"))
    assert frac(smg["expected_hits"]) == 1
    assert frac(smg["p_any_hit"]) == Fraction(19, 27)


@pytest.mark.parametrize("level", tables.LEVELS)
def test_activation_table_of_section_3_2(level):
    """Spec §3.2's table: success by level and modifier −2..+1 (no 1/6 rule)."""
    expected = {"recruit": (0, 1, 2, 3), "regular": (1, 2, 3, 4), "veteran": (2, 3, 4, 5), "elite": (3, 4, 5, 6)}
    for mod, sixths in zip((-2, -1, 0, 1), expected[level], strict=True):
        unit = {"level": level, "suppressed": max(0, -mod), "figures": 5, "sees_enemy": mod != 1}
        assert frac(odds("activation", {"unit": unit})["p_success"]) == Fraction(sixths, 6)


def test_hit_table_of_section_3_5():
    """Spec §3.5's table: P(hit) per die by level, cover and aim (cap first, then +1)."""
    sixths = {
        "recruit": (1, 1, 1, 1, 2, 2, 2),
        "regular": (2, 1, 1, 1, 3, 2, 2),
        "veteran": (3, 2, 1, 1, 4, 3, 2),
        "elite": (3, 2, 1, 1, 4, 3, 2),
    }
    columns = [("none", "walk"), ("light", "walk"), ("medium", "walk"), ("heavy", "walk"),
               ("none", "aimed_fire"), ("light", "aimed_fire"), ("medium", "aimed_fire")]  # fmt: skip
    for level, row in sixths.items():
        for (cover, action), want in zip(columns, row, strict=True):
            inputs = shot(level, "rifle", action=action, target={"groups": [{"count": 3, "cover": cover}]})
            assert frac(odds("shooting", inputs)["groups"][0]["p_hit"]) == Fraction(want, 6), (level, cover, action)
