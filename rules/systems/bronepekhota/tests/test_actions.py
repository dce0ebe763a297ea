"""Rule checks of the actions and how each setting changes them (settings with play effects, spec §5)."""

import pytest

from rules.dice import TableDice
from rules.errors import RuleInputError
from rules.systems.bronepekhota.system import SYSTEM

BASE = SYSTEM.default_settings()


def settings(**over):
    return {**BASE, **over}


def run(action, inputs, dice, **over):
    return SYSTEM.action(action).resolve(inputs, settings(**over), TableDice(dice))


def refuse(action, inputs, field, **over):
    with pytest.raises(RuleInputError) as exc:
        SYSTEM.action(action).validate(inputs, settings(**over))
    assert field in exc.value.errors, exc.value.errors
    return exc.value.errors[field]


def kinds(outcome):
    return [(e["kind"], e["role"]) for e in outcome.effects]


def shot(**over):
    inputs = {
        "shooter": {"kind": "vehicle", "rof": 2, "ammo": 10},
        "weapon": {"key": "w", "range": "Д12", "power": "3Д20"},
        "distance_steps": 2,
        "target": {"kind": "vehicle", "strength": 8, "pilot": {"armour": 3}},
    }
    inputs.update(over)
    return inputs


def test_every_action_is_listed_with_a_schema():
    expected = {"initiative", "virtual_shot", "real_shot", "survival_test", "armour_test", "melee", "grenade",
                "emergency_landing", "repair", "capture", "towing", "jump", "panic", "dispute", "ammo_refresh",
                "movement"}  # fmt: skip
    assert set(SYSTEM.actions) == expected
    for action in SYSTEM.actions.values():
        described = action.describe()
        assert described["input_schema"]["type"] == "object"
        assert described["label"]
        assert described["spec_ref"]


def test_a7_short_ammo_literal_and_strict():
    outcome = run("virtual_shot", shot(shooter={"kind": "vehicle", "rof": 1, "ammo": 2}), [1])
    assert outcome.result["ammo_after"] == 0
    assert {"kind": "ammo_spent", "role": "shooter", "amount": 2} in outcome.effects
    assert "3 ammo" in refuse("virtual_shot", shot(shooter={"kind": "vehicle", "rof": 1, "ammo": 2}), "shooter.ammo",
                              ammo_short_shot="strict")  # fmt: skip


def test_unlimited_ammo_spends_nothing():
    outcome = run("virtual_shot", shot(shooter={"kind": "vehicle", "rof": 1, "ammo": 0}), [1], ammo_limited=False)
    assert ("ammo_spent", "shooter") not in kinds(outcome)


def test_a16_shooting_ban_in_contact():
    gun = {"kind": "gun", "rof": 1, "ammo": 5, "crew_rank": 2, "in_melee": True}
    refuse("virtual_shot", shot(shooter=gun), "shooter.in_melee")
    SYSTEM.action("virtual_shot").validate(shot(shooter=gun), settings(shooting_ban="literal"))
    refuse("virtual_shot", shot(shooter={"kind": "infantry", "in_melee": True}, weapon={"range": "Д6", "power": "1Д6"}),
           "shooter.in_melee", shooting_ban="literal")  # fmt: skip
    refuse("virtual_shot", shot(shooter={**gun, "in_melee": False, "touched_by_two_players": True}),
           "shooter.touched_by_two_players")  # fmt: skip


def test_a17_melee_without_moving():
    inputs = {"attacker": {"kind": "infantry", "melee": 2}, "defender": {"kind": "infantry", "armour": 3},
              "by_movement": False}  # fmt: skip
    SYSTEM.action("melee").validate(inputs, BASE)
    refuse("melee", inputs, "by_movement", melee_in_contact="movement_only")


def test_a18_lying_vehicle_defence():
    inputs = {
        "attacker": {"kind": "infantry", "melee": 2},
        "defender": {"kind": "vehicle", "strength": 4, "melee": 1, "lying": True, "pilot": {"armour": 3}},
    }
    normal = run("melee", inputs, [6, 1, 6])
    assert normal.result["defence"] == 1 + 4 + 1
    flat = run("melee", inputs, [6, 6], lying_vehicle_defence=False)
    assert flat.result["defence"] == 4
    assert flat.result["defence_roll"] is None


def test_a21_exactly_half_hidden():
    half = shot(cover="exactly_half", target={"kind": "infantry", "armour": 2})
    assert SYSTEM.action("virtual_shot").odds(half, BASE)["armour"] == 3
    assert SYSTEM.action("virtual_shot").odds(half, settings(cover_exactly_half=3))["armour"] == 5
    assert "not visible" in refuse("virtual_shot", shot(cover="hidden"), "cover")


def test_a23_gun_rate_of_fire_per_gun_or_per_barrel():
    gun = {"kind": "gun", "rof": 2, "ammo": 16, "crew_rank": 2, "shots_this_round": 1, "weapons_fired": ["w"]}
    SYSTEM.action("virtual_shot").validate(shot(shooter=gun), BASE)
    refuse("virtual_shot", shot(shooter=gun), "weapon.key", gun_rof_rule="per_barrel")


def test_a26_airborne_vehicles_never_melee():
    flyer = {"kind": "vehicle", "strength": 6, "flying": True, "pilot": {"armour": 3}}
    refuse("melee", {"attacker": flyer, "defender": {"kind": "infantry", "armour": 2}}, "attacker.flying")
    refuse("melee", {"attacker": {"kind": "infantry", "melee": 2}, "defender": flyer}, "defender.flying")
    SYSTEM.action("melee").validate({"attacker": {"kind": "infantry", "melee": 2}, "defender": flyer},
                                    settings(airborne_no_melee=False))  # fmt: skip


def test_melee_attackers_that_cannot_attack():
    refuse("melee", {"attacker": {"kind": "gun", "strength": 5}, "defender": {"kind": "infantry", "armour": 2}},
           "attacker.kind")  # fmt: skip
    refuse("melee", {"attacker": {"kind": "vehicle", "strength": 5, "pilot": None},
                     "defender": {"kind": "infantry", "armour": 2}}, "attacker.pilot")  # fmt: skip
    refuse("melee", {"attacker": {"kind": "vehicle", "strength": 5, "lying": True, "pilot": {"armour": 1}},
                     "defender": {"kind": "infantry", "armour": 2}}, "attacker.lying")  # fmt: skip
    refuse("melee", {"attacker": {"kind": "infantry", "melee": 2, "actions_used": ["melee"]},
                     "defender": {"kind": "infantry", "armour": 2}}, "attacker.actions_used")  # fmt: skip


def test_melee_losing_vehicle_takes_the_difference_and_its_pilot_tests():
    outcome = run(
        "melee",
        {
            "attacker": {"kind": "infantry", "melee": 5},
            "defender": {"kind": "vehicle", "strength": 2, "pilot": {"armour": 3}},
        },
        [6, 1, 2],
    )
    assert outcome.result["attack"] == 11
    assert outcome.result["defence"] == 3
    assert outcome.result["damage"] == 8
    assert outcome.result["defender_destroyed"] is True
    assert outcome.result["pilot"] == "survived"
    assert ("dismounted", "defender.pilot") in kinds(outcome)  # the pilot is placed on the spot (p.20)


def test_a12_downward_jump():
    inputs = {"soldier": {"jump": 4}, "length_steps": 4, "rise_steps": -2}
    assert run("jump", inputs, [], jump_packs=True).result["ok"] is True
    assert run("jump", inputs, [], jump_packs=True, jump_downward_height="absolute").result["ok"] is False
    refuse("jump", inputs, "settings.jump_packs")
    refuse("jump", {**inputs, "soldier": {"jump": 4, "moving_gun": True}}, "soldier.moving_gun", jump_packs=True)
    refuse("jump", {**inputs, "soldier": {"jump": 4, "actions_used": ["move"]}}, "soldier.actions_used",
           jump_packs=True)  # fmt: skip
    refuse("jump", {**inputs, "soldier": {"abilities": ["Рм"]}}, "soldier.abilities", jump_packs=True)


def test_a11_captured_vehicle_acts_next_round():
    inputs = {"soldier": {"rank": 3, "soldier": 4, "ref": "s"}, "object": {"kind": "vehicle", "rank": 2, "pilot": None,
                                                                          "ref": "v", "flyer": True}}  # fmt: skip
    outcome = run("capture", inputs, [])
    boarded = next(e for e in outcome.effects if e["kind"] == "pilot_boarded")
    assert boarded["acts_next_round"] is True
    assert ("flying", "object") in kinds(outcome)
    assert ("became_pilot", "soldier") in kinds(outcome)
    now = run("capture", inputs, [], captured_acts_next_round=False)
    assert next(e for e in now.effects if e["kind"] == "pilot_boarded")["acts_next_round"] is False
    refuse("capture", {**inputs, "object": {**inputs["object"], "pilot": {"armour": 3}}}, "object.pilot")
    refuse("capture", {"soldier": {"rank": 1}, "object": {"kind": "gun", "rank": 1, "touched_by_other_infantry": True}},
           "object.touched_by_other_infantry")  # fmt: skip


def test_a31_a32_repair_rules():
    target = {"kind": "vehicle", "strength": 11, "strength_max": 12}
    helix = {"kind": "helix", "repair_platform": True}
    assert run("repair", {"repairer": helix, "target": target}, []).result["strength_after"] == 12
    assert (
        run("repair", {"repairer": helix, "target": target}, [], repair_cap_at_max=False).result["strength_after"] == 13
    )
    walked = {"kind": "soldier", "abilities": ["repair"], "actions_used": ["move"]}
    assert run("repair", {"repairer": walked, "target": target}, [], repair_needs_idle_soldier=False).result[
        "strength_after"] == 12  # fmt: skip
    refuse("repair", {"repairer": {"kind": "soldier", "abilities": []}, "target": target}, "repairer.abilities")
    refuse("repair", {"repairer": {"kind": "soldier", "abilities": ["Рм"]}, "target": {**target, "strength": 12}},
           "target.strength")  # fmt: skip
    refuse("repair", {"repairer": {"kind": "soldier", "abilities": ["Рм"]}, "target": {**target, "strength": 0}},
           "target.strength")  # fmt: skip
    refuse("repair", {"repairer": {"kind": "soldier", "abilities": ["Рм"], "in_melee": True}, "target": target},
           "target.in_melee")  # fmt: skip
    refuse("repair", {"repairer": {"kind": "helix", "repair_platform": False}, "target": target},
           "repairer.repair_platform")  # fmt: skip
    refuse("repair", {"repairer": {**helix, "pilot": None}, "target": target}, "repairer.pilot")
    pilot = run("repair", {"repairer": {"kind": "pilot", "abilities": ["Рм"]}, "target": target, "self": True}, [])
    assert ("activation_used", "target") in kinds(pilot)


def test_a33_and_a4_roll_offs():
    dispute = run("dispute", {"players": ["A", "B"]}, [20, 3], dispute_die=20)
    assert dispute.result["winner"] == "A"
    assert dispute.dice[0]["kind"] == "d20"
    assert run("dispute", {"players": ["A", "B"]}, [4, 9]).dice[0]["kind"] == "d12"
    tied = run("initiative", {"players": ["A", "B", "C"]}, [5, 5, 3, 2, 7])
    assert tied.result["winner"] == "B"
    assert len(tied.dice) == 5
    everyone = run("initiative", {"players": ["A", "B", "C"]}, [5, 5, 3, 2, 7, 1], initiative_reroll="everyone")
    assert everyone.result["winner"] == "B"
    assert len(everyone.dice) == 6
    assert ("initiative", "game") in kinds(tied)
    refuse("initiative", {"players": ["A", "A"]}, "players")


def test_a6_blast_scope_and_cover():
    heavy = {"key": "heavy", "range": "Д12", "power": "1Д20", "special": {"blast_steps": 2, "blast_power": "1Д20"}}
    victims = [{"kind": "infantry", "armour": 3, "cover": "under_half_visible"}]
    inputs = shot(weapon=heavy, blast=victims, target={"kind": "gun", "strength": 8})
    plain = run("virtual_shot", inputs, [5, 20, 5], special_properties=True)
    assert plain.result["target"]["power_rolls"] == [20]
    assert plain.result["blast"][0]["armour"] == 3
    both = run("virtual_shot", inputs, [5, 20, 9, 5], special_properties=True, blast_hits_target=True, blast_cover=True)
    assert both.result["target"]["power_rolls"] == [20, 9]
    assert both.result["target"]["damage"] == 2
    assert both.result["blast"][0]["armour"] == 6
    assert "off" in refuse("virtual_shot", inputs, "blast")
    refuse("virtual_shot", shot(blast=victims), "blast", special_properties=True)  # this weapon has no blast


def test_a13_a14_pilot_panic_in_flight_and_survival_die():
    target = {"kind": "vehicle", "strength": 8, "flying": True, "pilot": {"armour": 3}}
    outcome = run("virtual_shot", shot(target=target), [5, 20, 1, 1, 3], panic=True)
    assert outcome.result["target"]["pilot"] == "panic"
    assert ("pilot_left", "target") in kinds(outcome)
    assert ("landed", "target") in kinds(outcome)
    d12 = run("virtual_shot", shot(target=target), [5, 20, 1, 1, 11, 2], survival_die=12)
    assert d12.dice[-2]["kind"] == "d12"
    assert d12.result["target"]["pilot"] == "killed"


def test_a15_grenade_replaces_the_shot():
    thrower = {"kind": "infantry", "armour": 3, "actions_used": ["shoot"]}
    refuse("grenade", {"thrower": thrower, "victims": []}, "thrower.actions_used", grenades=True)
    ok = run("grenade", {"thrower": thrower, "victims": []}, [3], grenades=True, grenade_replaces_shot=False)
    assert ok.result["victims"] == []
    refuse("grenade", {"thrower": {"kind": "infantry", "armour": 3}, "victims": []}, "settings.grenades")
    refuse("grenade", {"thrower": {"kind": "infantry", "armour": 3}, "victims": [{"kind": "infantry", "armour": 2}]},
           "victims.0.bursts", grenades=True)  # fmt: skip


def test_grenade_in_two_calls():
    throw = run("grenade", {"thrower": {"kind": "infantry", "armour": 3}}, [3], grenades=True)
    assert throw.result["burst_steps"] == 3
    burst = run("grenade", {"thrower": {"kind": "infantry", "armour": 3}, "burst_steps": 3,
                            "victims": [{"kind": "infantry", "armour": 2, "ref": "x"}]}, [17], grenades=True)  # fmt: skip
    assert [d["purpose"] for d in burst.dice] == ["grenade die 1 of 1"]
    assert ("soldier_killed", "victims.0") in kinds(burst)


def test_a25_armour_test_before_or_after_damage():
    inputs = {"shooter": {"kind": "vehicle", "rof": 1}, "charge": "rocket", "hit": True,
              "target": {"kind": "vehicle", "strength": 10, "pilot": {"armour": 3}}}  # fmt: skip
    after = run("real_shot", inputs, [7, 1], mode="real")  # 10 - 4 = 6 < 7: pierced, survival 1
    assert after.result["pilot"] == "survived"
    before = run("real_shot", inputs, [7], mode="real", armour_test_after_damage=False)  # 10 >= 7: safe
    assert before.result["pilot"] == "safe"


def test_real_shot_fall_lying_and_crushing():
    inputs = {"shooter": {"kind": "vehicle", "rof": 1}, "charge": "shell", "hit": True, "fell": True,
              "target": {"kind": "vehicle", "strength": 10, "pilot": {"armour": 3}},
              "crushed": [{"ref": "s1", "soldier": 2}]}  # fmt: skip
    outcome = run("real_shot", inputs, [4], mode="real")
    assert outcome.result["damage"] == 4
    assert outcome.dice[0]["kind"] == "d20"
    assert ("lying", "target") in kinds(outcome)
    assert {
        "kind": "soldier_killed",
        "role": "crushed",
        "cause": "crushed",
        "ref": "s1",
        "soldier": 2,
    } in outcome.effects
    refuse("real_shot", {**inputs, "fell": False}, "crushed", mode="real")
    refuse("real_shot", {**inputs, "shooter": {"kind": "infantry"}}, "shooter.kind", mode="real")
    refuse("real_shot", {**inputs, "weapon": {"charges": ["shell"]}, "charge": "rocket"}, "charge", mode="real")
    fell = run("real_shot", {"shooter": {"kind": "vehicle", "rof": 1}, "charge": "shell", "hit": True, "fell": True,
                             "target": {"kind": "infantry", "armour": 5}}, [], mode="real")  # fmt: skip
    assert fell.result["destroyed"] is True


def test_modes_and_options_gate_actions():
    assert "real shooting mode" in refuse("real_shot", {"shooter": {"kind": "vehicle", "rof": 1}, "charge": "shell", "hit": False},
                               "settings.mode")  # fmt: skip
    refuse("virtual_shot", shot(), "settings.mode", mode="real")
    refuse("armour_test", {"strength": 5, "die": 12, "pilot": {"armour": 3}}, "settings.mode")
    refuse("panic", {"soldier": {"speed": 4}, "reaches_edge": True}, "settings.panic")
    deserted = run("panic", {"soldier": {"speed": 4, "is_pilot": True, "vehicle_flying": True}, "reaches_edge": True},
                   [], panic=True)  # fmt: skip
    assert ("deserted", "soldier") in kinds(deserted)
    assert ("landed", "vehicle") in kinds(deserted)


def test_shooter_eligibility():
    refuse("virtual_shot", shot(shooter={"kind": "vehicle", "rof": 1, "pilot": None}), "shooter.pilot")
    refuse("virtual_shot", shot(shooter={"kind": "vehicle", "rof": 1, "lying": True}), "shooter.lying")
    refuse("virtual_shot", shot(shooter={"kind": "vehicle"}), "shooter.rof")
    refuse("virtual_shot", shot(shooter={"kind": "gun", "rof": 1}), "shooter.crew_rank")
    refuse("virtual_shot", shot(shooter={"kind": "infantry", "actions_used": ["grenade"]},
                                weapon={"range": "Д6", "power": "1Д6"}), "shooter.actions_used")  # fmt: skip
    refuse("virtual_shot", shot(shooter={"kind": "infantry", "aimed": True, "actions_used": ["move"]},
                                weapon={"range": "Д6", "power": "1Д6"}), "shooter.aimed", aimed_fire=True)  # fmt: skip
    refuse("virtual_shot", shot(shooter={"kind": "vehicle", "rof": 1, "aimed": True}), "shooter.aimed",
           aimed_fire=True)  # fmt: skip


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        (shot(distance_steps=None), "distance_cm"),
        (shot(weapon={"range": "Д7", "power": "2Д6"}), "weapon.range"),
        (shot(weapon={"range": "2Д6", "power": "2Д6"}), "weapon.range"),
        (shot(weapon={"range": "Д6", "power": "–"}), "weapon.power"),
        (shot(weapon={"range": "Д6", "power": "ББ/2"}), "weapon.power"),
        (shot(target={"kind": "infantry"}), "target.armour"),
        (shot(target={"kind": "infantry", "armour": 21}), "target.armour"),
        (shot(target={"kind": "vehicle", "strength": 5}), "target.pilot"),
        (shot(target={"kind": "gun", "strength": 0}), "target.strength"),
        (shot(target={"kind": "gun", "strength": 9, "strength_max": 8}), "target.strength"),
        (shot(target={"kind": "tank", "strength": 9}), "target.kind"),
        (shot(cover="behind a wall"), "cover"),
        (shot(extra=1), "non_field_errors"),
    ],
)
def test_bad_inputs_name_the_field(inputs, field):
    inputs = {k: v for k, v in inputs.items() if v is not None}
    refuse("virtual_shot", inputs, field)


def test_distance_needs_exactly_one_unit():
    both = {**shot(), "distance_cm": 10}
    refuse("virtual_shot", both, "distance_cm")


def test_towing_rules():
    helix = {"ref": "h", "repair_platform": True, "towing": None}
    start = run("towing", {"op": "start", "helix": helix, "object": {"kind": "gun", "mobile": True, "ref": "g"}}, [])
    assert ("tow_start", "helix") in kinds(start)
    assert ("tow_start", "object") in kinds(start)
    refuse("towing", {"op": "start", "helix": helix, "object": {"kind": "gun", "mobile": False}}, "object.mobile")
    refuse("towing", {"op": "start", "helix": {**helix, "repair_platform": False}, "object": {"kind": "vehicle"}},
           "helix.repair_platform")  # fmt: skip
    refuse("towing", {"op": "stop", "helix": helix, "object": {"kind": "vehicle"}}, "helix.towing")
    stop = run("towing", {"op": "stop", "helix": {**helix, "towing": "g"}, "object": {"kind": "gun", "ref": "g"}}, [])
    assert ("tow_stop", "helix") in kinds(stop)


def test_ammo_refresh_counts_against_the_setting():
    element = {"ammo": 2, "ammo_max": 12, "refreshes_used": 0}
    refuse("ammo_refresh", {"element": element}, "element.refreshes_used")
    outcome = run("ammo_refresh", {"element": element}, [], ammo_refreshes=1)
    assert outcome.result["ammo_after"] == 12
    refuse("ammo_refresh", {"element": {**element, "refreshes_used": 1}}, "element.refreshes_used", ammo_refreshes=1)


def test_emergency_landing_can_destroy():
    outcome = run("emergency_landing", {"strength": 3, "ref": "v"}, [5])
    assert outcome.result == {"roll": 5, "damage": 5, "strength_after": 0, "destroyed": True}
    assert ("destroyed", "vehicle") in kinds(outcome)


def test_real_shot_on_a_lying_vehicle_doubles_and_uses_d20():
    inputs = {"shooter": {"kind": "vehicle", "rof": 1}, "charge": "shell", "hit": True, "was_lying": True,
              "target": {"kind": "vehicle", "strength": 10, "pilot": {"armour": 3}}}  # fmt: skip
    outcome = run("real_shot", inputs, [3], mode="real")
    assert outcome.result["damage"] == 4
    assert outcome.dice[0]["kind"] == "d20"
    assert ("lying", "target") not in kinds(outcome)  # it already lies


def test_vehicle_fits_and_platform():
    refuse("virtual_shot", shot(shooter={"kind": "vehicle", "rof": 2, "fitted": ["other"]}), "weapon.key")
    SYSTEM.action("virtual_shot").validate(shot(shooter={"kind": "vehicle", "rof": 2, "fitted": ["w"]}), BASE)
    refuse("virtual_shot", shot(shooter={"kind": "vehicle", "rof": 2, "repair_platform": True}),
           "shooter.repair_platform")  # fmt: skip


def test_aimed_shot_marks_the_soldier():
    inputs = shot(shooter={"kind": "infantry", "aimed": True, "soldier": 3}, weapon={"range": "Д6", "power": "1Д6"},
                  target={"kind": "infantry", "armour": 6})  # fmt: skip
    outcome = run("virtual_shot", inputs, [1, 1], aimed_fire=True)  # 1 × 2 reaches 2 steps
    assert {"kind": "aimed", "role": "shooter", "value": True, "soldier": 3} in outcome.effects
