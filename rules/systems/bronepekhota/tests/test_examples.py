"""The 28 worked examples of the «Бронепехота» spec (§6, G1–G28), one test each.

Dice are typed in (TableDice) so each example runs on the numbers the book shows."""

from fractions import Fraction

import pytest

from rules import dice as dicelib
from rules.dice import TableDice
from rules.errors import RuleInputError
from rules.systems.bronepekhota import tables, tracker
from rules.systems.bronepekhota.system import SYSTEM

VIRTUAL = SYSTEM.default_settings()
REAL = {**VIRTUAL, "mode": "real"}

BRONEKHOD = {
    "slug": "bronekhod",
    "name": "BRONEKHOD",
    "faction": "protectorate",
    "kind": "vehicle",
    "cost": 60,
    "data": {
        "rank": 1,
        "weight": "light",
        "locomotion": "tracked",
        "rof": 1,
        "ammo_max": 12,
        "strength_max": 10,
        "speed_sectors": [
            {"min": 7, "max": 10, "speed": 4, "colour": "green"},
            {"min": 4, "max": 6, "speed": 3, "colour": "yellow"},
            {"min": 1, "max": 3, "speed": 2, "colour": "red"},
        ],
        "arsenal": [{"key": "gun", "name": "Gun", "range": "Д12", "power": "2Д12"}],
    },
}


def run(action, inputs, dice, settings=VIRTUAL):
    return SYSTEM.action(action).resolve(inputs, settings, TableDice(dice))


def kinds(outcome):
    return [(e["kind"], e["role"]) for e in outcome.effects]


def test_g01_dice_notation_d12_plus_2_and_six_d20():
    expr = dicelib.parse("Д12 + 2")
    assert (expr.count, expr.faces, expr.modifier) == (1, 12, 2)
    assert min(expr.total_distribution()) == 3
    assert max(expr.total_distribution()) == 14
    six = dicelib.parse("6 Д20")
    assert (six.count, six.faces) == (6, 20)
    # "6 Д20": each die is compared separately (one damage per die above the armour).
    outcome = run(
        "virtual_shot",
        {
            "shooter": {"kind": "vehicle", "rof": 1, "ammo": None},
            "weapon": {"range": "Д20", "power": "6 Д20"},
            "distance_steps": 1,
            "target": {"kind": "gun", "strength": 20},
        },
        [10, 1, 5, 9, 10, 15, 20],
    )
    assert outcome.result["target"]["power_rolls"] == [1, 5, 9, 10, 15, 20]
    assert outcome.result["target"]["damage"] == 0  # no single die beats 20, even though they sum to 60


def test_g02_gryphon_rank_2_pilots():
    assert not tables.can_pilot(1, 2)
    assert tables.can_pilot(2, 2)
    assert tables.can_pilot(3, 2)
    capture = SYSTEM.action("capture")
    gryphon = {"kind": "vehicle", "rank": 2, "pilot": None, "strength": 11}
    with pytest.raises(RuleInputError) as exc:
        capture.validate({"soldier": {"rank": 1}, "object": gryphon}, VIRTUAL)
    assert "soldier.rank" in exc.value.errors
    for rank in (2, 3):
        assert capture.resolve({"soldier": {"rank": rank}, "object": gryphon}, VIRTUAL, TableDice([])).result[
            "captured"
        ]


def test_g03_climb_one_and_a_half_steps_costs_3_sp():
    assert tables.climb_cost(1.5) == 3


def test_g04_speed_4_one_step_then_mortar_moves_7_5_cm():
    speed, walked = 4, 1
    with_gun = tables.mobile_gun_distance_cm(speed - walked)
    assert with_gun == Fraction(15, 2)
    assert walked * tables.STEP_CM + with_gun == Fraction(25, 2)  # 12.5 cm in all


def test_g05_bronekhod_yellow_sector_speed_3():
    for strength in (4, 5, 6):
        assert tables.speed_for_strength(BRONEKHOD["data"]["speed_sectors"], strength) == 3
    state = tracker.initial_unit_state(BRONEKHOD, {"pilot": [{"entry": "a", "soldier": 1}]})
    state = tracker.apply_effect(state, {"kind": "damage", "amount": 5})
    assert state["strength"] == 5
    assert tracker.unit_view(state, BRONEKHOD)["speed"] == 3


def test_g06_bronekhod_back_turn_forward_costs_4_sp():
    cost = tables.vehicle_move_cost([("back", 1), ("turn", 90), ("forward", 2)], "tracked")
    assert cost == 4
    assert cost <= tables.speed_for_strength(BRONEKHOD["data"]["speed_sectors"], 10)


def test_g07_strength_9_takes_2_damage_slider_at_7():
    profile = {**BRONEKHOD, "data": {**BRONEKHOD["data"], "strength_max": 9}}
    state = tracker.initial_unit_state(profile, {"pilot": [{"entry": "a", "soldier": 1}]})
    assert state["strength"] == 9
    state = tracker.apply_effect(state, {"kind": "damage", "amount": 2, "role": "target"})
    assert state["strength"] == 7
    assert tracker.unit_view(state, profile)["armour"] == 7


@pytest.mark.parametrize(
    ("roll", "plain", "with_panic"),
    [(1, "survived", "survived"), (2, "survived", "survived"), (3, "survived", "panic")]
    + [(r, "killed", "killed") for r in (4, 5, 6)],
)
def test_g08_survival_test_armour_3(roll, plain, with_panic):
    inputs = {"subject": {"armour": 3, "soldier": 2}}
    assert run("survival_test", inputs, [roll]).result["result"] == plain
    outcome = run("survival_test", inputs, [roll], {**VIRTUAL, "panic": True})
    assert outcome.result["result"] == with_panic
    if with_panic == "killed":
        assert ("soldier_killed", "subject") in kinds(outcome)
    if with_panic == "panic":
        assert ("panic", "subject") in kinds(outcome)


def test_g09_t_rex_rof_2_two_launchers_one_shot_each():
    shot = SYSTEM.action("real_shot")
    base = {"weapon": {"key": "left"}, "charge": "shell", "hit": False}
    t_rex = {"kind": "vehicle", "rof": 2, "ammo": 16, "shots_this_round": 0, "weapons_fired": []}
    first = shot.resolve({**base, "shooter": t_rex}, REAL, TableDice([]))
    assert ("shot_fired", "shooter") in kinds(first)
    after_one = {**t_rex, "shots_this_round": 1, "weapons_fired": ["left"]}
    with pytest.raises(RuleInputError) as exc:
        shot.validate({**base, "shooter": after_one}, REAL)  # the same launcher again
    assert "weapon.key" in exc.value.errors
    shot.validate({**base, "weapon": {"key": "right"}, "shooter": after_one}, REAL)  # the other launcher: fine
    after_two = {**t_rex, "shots_this_round": 2, "weapons_fired": ["left", "right"]}
    with pytest.raises(RuleInputError) as exc:
        shot.validate({**base, "weapon": {"key": "third"}, "shooter": after_two}, REAL)
    assert "shooter.shots_this_round" in exc.value.errors


def test_g10_real_mode_ammo_costs_by_charge():
    shot = SYSTEM.action("real_shot")
    spent = {}
    for charge, mortar in (("shell", False), ("rocket", False), ("mine", True)):
        shooter = {"kind": "gun" if mortar else "vehicle", "rof": 1, "ammo": 12, "crew_rank": 1, "mortar": mortar}
        outcome = shot.resolve({"shooter": shooter, "charge": charge, "hit": False}, REAL, TableDice([]))
        spent[charge] = next(e["amount"] for e in outcome.effects if e["kind"] == "ammo_spent")
    assert spent == {"shell": 2, "rocket": 4, "mine": 3}
    with pytest.raises(RuleInputError) as exc:  # at 0 it can never fire again
        shot.validate({"shooter": {"kind": "vehicle", "rof": 1, "ammo": 0}, "charge": "shell", "hit": False}, REAL)
    assert "shooter.ammo" in exc.value.errors
    with pytest.raises(RuleInputError):  # vehicles may not fire mines
        shot.validate({"shooter": {"kind": "vehicle", "rof": 1, "ammo": 9}, "charge": "mine", "hit": False}, REAL)


def test_g11_armour_test_d12_armour_7():
    inputs = {"strength": 7, "die": 12, "pilot": {"armour": 3}}
    saved = run("armour_test", inputs, [5], REAL)
    assert saved.result["safe"] is True
    assert len(saved.dice) == 1
    pierced = run("armour_test", inputs, [11, 2], REAL)
    assert pierced.result["safe"] is False
    assert pierced.dice[1]["kind"] == "d6"
    assert pierced.dice[1]["purpose"] == "pilot survival test"
    assert pierced.result["pilot"] == "survived"
    odds = SYSTEM.action("armour_test").odds(inputs, REAL)
    assert odds["p_pilot_killed"]["exact"] == "5/24"


def test_g12_range_d6_plus_2_at_a_little_over_4_steps():
    inputs = {
        "shooter": {"kind": "infantry"},
        "weapon": {"range": "Д6+2", "power": "2Д6"},
        "distance_cm": 21,
        "target": {"kind": "infantry", "armour": 6},
    }
    miss = run("virtual_shot", inputs, [2])
    assert miss.result["steps"] == 5
    assert miss.result["aimed_range"] == 4
    assert miss.result["hit"] is False
    hit = run("virtual_shot", inputs, [3, 1, 1])
    assert hit.result["aimed_range"] == 5
    assert hit.result["hit"] is True
    assert SYSTEM.action("virtual_shot").odds(inputs, VIRTUAL)["p_hit"]["exact"] == "2/3"


def test_g13_salamander_aviation_rocket():
    inputs = {
        "shooter": {"kind": "vehicle", "rof": 1, "ammo": 12},
        "weapon": {"key": "aviation-rocket", "range": "Д12", "power": "4Д12"},
        "distance_steps": 4,
        "target": {"kind": "vehicle", "name": "SALAMANDER", "strength": 7, "pilot": {"armour": 3}},
    }
    outcome = run("virtual_shot", inputs, [9, 3, 7, 8, 11, 1])
    target = outcome.result["target"]
    assert target["power_rolls"] == [3, 7, 8, 11]
    assert target["damage"] == 2
    assert target["strength_after"] == 5
    pilot_tests = [d for d in outcome.dice if d["purpose"] == "pilot survival test"]
    assert len(pilot_tests) == 1
    assert pilot_tests[0]["kind"] == "d6"
    assert {"kind": "damage", "role": "target", "amount": 2, "cause": "shot"} in outcome.effects


def test_g14_cannon_machine_gun_laser_rof_2():
    shot = SYSTEM.action("virtual_shot")

    def inputs(weapon, fired):
        return {
            "shooter": {
                "kind": "vehicle",
                "rof": 2,
                "ammo": None,
                "shots_this_round": len(fired),
                "weapons_fired": fired,
            },
            "weapon": {"key": weapon, "range": "Д12", "power": "1Д12"},
            "distance_steps": 1,
            "target": {"kind": "infantry", "armour": 3},
        }

    shot.validate(inputs("cannon", []), VIRTUAL)
    shot.validate(inputs("laser", ["cannon"]), VIRTUAL)
    with pytest.raises(RuleInputError):
        shot.validate(inputs("cannon", ["cannon"]), VIRTUAL)
    with pytest.raises(RuleInputError):
        shot.validate(inputs("machine-gun", ["cannon", "laser"]), VIRTUAL)


def test_g15_gatling_then_twin_mg_spend_5_ammo_on_one_track():
    profile = {
        **BRONEKHOD,
        "data": {
            **BRONEKHOD["data"],
            "rof": 2,
            "ammo_max": 16,
            "arsenal": [
                {"key": "gatling", "name": "Пушка Гатлинга", "range": "Д12", "power": "3Д20"},
                {"key": "twin-mg", "name": "Двуствольный пулемет", "range": "Д12", "power": "2Д12"},
            ],
        },
    }
    state = tracker.initial_unit_state(profile, {"pilot": [{"entry": "a", "soldier": 1}]})
    target = {"kind": "gun", "strength": 20}
    for weapon, dice in (("gatling", [1]), ("twin-mg", [1])):  # both miss: only the ammo matters here
        w = next(x for x in profile["data"]["arsenal"] if x["key"] == weapon)
        shooter = {
            "kind": "vehicle",
            "rof": 2,
            "ammo": state["ammo"],
            "shots_this_round": state["shots_this_round"],
            "weapons_fired": state["weapons_fired"],
        }
        outcome = run("virtual_shot", {"shooter": shooter, "weapon": w, "distance_steps": 20, "target": target}, dice)
        for effect in outcome.effects:
            if effect["role"] == "shooter":
                state = tracker.apply_effect(state, effect)
    assert state["ammo"] == 16 - 5
    assert state["weapons_fired"] == ["gatling", "twin-mg"]
    assert state["shots_this_round"] == 2


GRENADE_SETTINGS = {**VIRTUAL, "grenades": True}
THROWER = {"kind": "infantry", "armour": 3, "ref": "me", "soldier": 1}


def test_g16_grenade_burst_4_attacks_the_enemy_within_1_step():
    inputs = {
        "thrower": THROWER,
        "victims": [
            {"kind": "infantry", "armour": 2, "ref": "near", "bursts": [3, 4, 5]},
            {"kind": "infantry", "armour": 2, "ref": "far", "bursts": [6]},
        ],
    }
    outcome = run("grenade", inputs, [4, 12], GRENADE_SETTINGS)
    assert outcome.result["burst_steps"] == 4
    assert [v["role"] for v in outcome.result["victims"]] == ["victims.0"]
    assert outcome.dice[1] == {"kind": "d20", "faces": 20, "value": 12, "purpose": "grenade die 1 of 1"}
    assert {"kind": "soldier_killed", "role": "victims.0", "cause": "grenade", "ref": "near"} in outcome.effects
    assert not any(e.get("ref") == "far" for e in outcome.effects)


def test_g17_grenade_burst_1_attacks_the_thrower():
    outcome = run("grenade", {"thrower": THROWER, "victims": []}, [1, 20], GRENADE_SETTINGS)
    assert [v["role"] for v in outcome.result["victims"]] == ["thrower"]
    assert {"kind": "soldier_killed", "role": "thrower", "cause": "grenade", "ref": "me", "soldier": 1} in (
        outcome.effects
    )
    calm = run("grenade", {"thrower": THROWER, "victims": []}, [2], GRENADE_SETTINGS)
    assert calm.result["victims"] == []


def test_g18_vibro_saw_and_claw_against_a_gun():
    inputs = {
        "attacker": {"kind": "vehicle", "strength": 9, "melee_weapons": ["ББ/2", "ББ/1"], "pilot": {"armour": 3}},
        "defender": {"kind": "gun", "strength": 9},
    }
    outcome = run("melee", inputs, [4])
    assert outcome.result["attack"] == 16
    assert outcome.result["defence"] == 9
    assert outcome.result["damage"] == 7
    assert outcome.result["strength_after"] == 2
    odds = SYSTEM.action("melee").odds(inputs, VIRTUAL)
    assert odds["p_attacker_wins"]["exact"] == "1/1"
    assert [d["value"] for d in odds["damage"]] == [4, 5, 6, 7, 8, 9]


def test_g19_infantry_melee_2_against_armour_3():
    inputs = {"attacker": {"kind": "infantry", "melee": 2}, "defender": {"kind": "infantry", "armour": 3, "soldier": 4}}
    outcome = run("melee", inputs, [5, 2])
    assert outcome.result["attack"] == 7
    assert outcome.result["defence"] == 5
    assert outcome.result["defender_destroyed"] is True
    assert {"kind": "soldier_killed", "role": "defender", "cause": "melee", "soldier": 4} in outcome.effects


def test_g20_surprise_attack_best_of_two_and_vehicle_loses_its_melee():
    vehicle = {"kind": "vehicle", "strength": 5, "melee": 3, "pilot": {"armour": 3}}
    normal = run("melee", {"attacker": {"kind": "infantry", "melee": 2}, "defender": vehicle}, [6, 1])
    assert normal.result["defence"] == 1 + 5 + 3
    surprise = run(
        "melee", {"attacker": {"kind": "infantry", "melee": 2}, "defender": vehicle, "surprise": True}, [2, 6, 1, 6]
    )
    assert [d["purpose"] for d in surprise.dice[:2]] == ["surprise attack die 1 of 2", "surprise attack die 2 of 2"]
    assert surprise.result["attack"] == 6 + 2  # the higher of 2 and 6
    assert surprise.result["defence"] == 1 + 5  # no ББ under surprise
    assert surprise.result["damage"] == 2


def test_g21_repair_soldier_who_walked_this_round_cannot_repair():
    repair = SYSTEM.action("repair")
    gun = {"kind": "gun", "strength": 3, "strength_max": 8}
    walked = {"kind": "soldier", "abilities": ["Рм"], "actions_used": ["move"]}
    with pytest.raises(RuleInputError) as exc:
        repair.validate({"repairer": walked, "target": gun, "touching": True}, VIRTUAL)
    assert "repairer.actions_used" in exc.value.errors
    next_round = repair.resolve(
        {"repairer": {**walked, "actions_used": []}, "target": gun, "touching": True}, VIRTUAL, TableDice([])
    )
    assert next_round.result["strength_after"] == 4
    assert {"kind": "repair", "role": "target", "amount": 1} in next_round.effects


def test_g22_jump_pack_5_table():
    assert tables.jump_table(5) == [(5, 0), (4, 1), (3, 2), (2, 3), (1, 4), (0, 5)]
    assert all(tables.jump_allowed(5, length, height) for length, height in tables.jump_table(5))


JUMP_SETTINGS = {**VIRTUAL, "jump_packs": True}


def test_g23_jump_2_away_2_up_succeeds():
    outcome = run("jump", {"soldier": {"abilities": ["Пр5"]}, "length_steps": 2, "rise_steps": 2}, [], JUMP_SETTINGS)
    assert outcome.result == {"ok": True, "total": 4, "max": 5}


def test_g24_jump_4_away_2_up_fails_but_1_up_is_fine():
    fail = run("jump", {"soldier": {"abilities": ["Пр5"]}, "length_steps": 4, "rise_steps": 2}, [], JUMP_SETTINGS)
    assert fail.result["ok"] is False
    assert fail.effects == []
    lower = run("jump", {"soldier": {"abilities": ["Пр5"]}, "length_steps": 4, "rise_steps": 1}, [], JUMP_SETTINGS)
    assert lower.result["ok"] is True
    ground = run("jump", {"soldier": {"abilities": ["Пр5"]}, "length_steps": 4, "rise_steps": 0}, [], JUMP_SETTINGS)
    assert ground.result["ok"] is True


def test_g25_helix_repairs_2_once_a_round_instead_of_shooting():
    repair = SYSTEM.action("repair")
    helix = {"kind": "helix", "repair_platform": True, "pilot": {"armour": 3}, "actions_used": []}
    target = {"kind": "vehicle", "strength": 5, "strength_max": 12}
    outcome = repair.resolve({"repairer": helix, "target": target, "touching": True}, VIRTUAL, TableDice([]))
    assert outcome.result["strength_after"] == 7
    assert {"kind": "action_used", "role": "repairer", "action": "shoot"} in outcome.effects
    with pytest.raises(RuleInputError):  # one object per round
        repair.validate({"repairer": {**helix, "repaired_this_round": True}, "target": target}, VIRTUAL)
    with pytest.raises(RuleInputError):  # it already used its shoot action
        repair.validate({"repairer": {**helix, "actions_used": ["shoot"]}, "target": target}, VIRTUAL)


def test_g26_aimed_fire_d6_plus_1_roll_5_reaches_12_steps():
    assert tables.aimed_range(5, 1, aimed=True) == 12
    inputs = {
        "shooter": {"kind": "infantry", "aimed": True},
        "weapon": {"range": "Д6+1", "power": "1Д6"},
        "distance_steps": 12,
        "target": {"kind": "infantry", "armour": 6},
    }
    outcome = run("virtual_shot", inputs, [5, 1], {**VIRTUAL, "aimed_fire": True})
    assert outcome.result["aimed_range"] == 12
    assert outcome.result["hit"] is True
    with pytest.raises(RuleInputError) as exc:  # the option is off by default
        SYSTEM.action("virtual_shot").validate(inputs, VIRTUAL)
    assert "shooter.aimed" in exc.value.errors


def test_g27_pilot_dies_in_flight_emergency_landing_then_melee():
    flyer = {"kind": "vehicle", "strength": 10, "flying": True, "pilot": {"armour": 1, "soldier": 3, "ref": "p"}}
    outcome = run(
        "virtual_shot",
        {
            "shooter": {"kind": "vehicle", "rof": 1, "ammo": None},
            "weapon": {"range": "Д12", "power": "1Д12"},
            "distance_steps": 1,
            "target": flyer,
        },
        [5, 12, 6, 4],  # range, power 12 > 10: 1 damage, pilot d6 6 > 1: dies, landing d6 4
    )
    assert outcome.result["target"]["pilot"] == "killed"
    assert outcome.result["target"]["emergency_landing"] == {"roll": 4, "strength_after": 5}
    assert ("landed", "target") in kinds(outcome)
    assert {"kind": "damage", "role": "target", "amount": 4, "cause": "emergency landing"} in outcome.effects
    state = {
        "kind": "vehicle",
        **{k: v for k, v in tracker.initial_unit_state(BRONEKHOD, {}).items() if k != "kind"},
        "flying": True,
        "pilot": {"entry": "a", "soldier": 3},
        "strength": 10,
    }
    for effect in outcome.effects:
        if effect["role"] == "target":
            state = tracker.apply_effect(state, effect)
    assert state["flying"] is False
    assert state["pilot"] is None
    assert state["strength"] == 5
    # Landed and pilotless, it can now be attacked in melee: its defence is its flat Броня.
    melee = run(
        "melee",
        {"attacker": {"kind": "infantry", "melee": 2}, "defender": {"kind": "vehicle", "strength": 5, "pilot": None}},
        [6],
    )
    assert melee.result["defence"] == 5
    assert melee.result["damage"] == 3


def test_g28_twin_cannon_rank_2_needs_a_rank_2_crew_any_soldier_captures():
    shot = SYSTEM.action("virtual_shot")

    def inputs(rank):
        return {
            "shooter": {"kind": "gun", "rank": 2, "rof": 2, "ammo": 16, "crew_rank": rank},
            "weapon": {"key": "twin-cannon", "range": "Д12", "power": "3Д20"},
            "distance_steps": 3,
            "target": {"kind": "infantry", "armour": 3},
        }

    with pytest.raises(RuleInputError) as exc:
        shot.validate(inputs(1), VIRTUAL)
    assert "shooter.crew_rank" in exc.value.errors
    shot.validate(inputs(2), VIRTUAL)
    captured = run("capture", {"soldier": {"rank": 1}, "object": {"kind": "gun", "rank": 2}}, [])
    assert captured.result == {"captured": True, "may_fire_now": False}
    crew = run("capture", {"soldier": {"rank": 2}, "object": {"kind": "gun", "rank": 2}}, [])
    assert crew.result["may_fire_now"] is True
