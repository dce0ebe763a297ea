"""Tests resolved from the tracker: the server rolls or takes typed-in dice, records them, and applies the outcome as
events (ammo, damage, kills, the pilot). Units: blue 0.e1.1 cyber-infantry (soldier 2 pilots 0.e2.1 SALAMANDER,
Бр 3, «Рм»), 0.e3.1 mortar; red 1.e1.1 line clones (Бр 2; soldier 3 pilots 1.e2.1 RAPTOR, Д6+3 / 2Д20)."""

from __future__ import annotations

import pytest

from battles import services
from battles.models import BattleEvent, BattleUnit
from battles.tests import commands
from battles.tests.conftest import make_user
from rules.errors import NotYours as PermissionDenied


def state(battle, key) -> dict:
    return BattleUnit.objects.get(battle=battle, key=key).state


def soldier(battle, key, num) -> dict:
    return next(s for s in state(battle, key)["soldiers"] if s["num"] == num)


def act(battle, user, action, inputs, dice=None, **kw):
    battle.refresh_from_db()
    return commands.action_resolve(
        battle_id=battle.pk, user=user, expected_version=battle.version, action=action, inputs=inputs, dice=dice, **kw
    )


RAPTOR_SHOOTS_SALAMANDER = {
    "unit": "1.e2.1",
    "weapon": "raketnaya-ustanovka",
    "target": "0.e2.1",
    "distance_steps": 5,
    "cover": "none",
}


def test_virtual_shot_applies_ammo_damage_and_pilot_death_as_events(battle, bob):
    # Range d6+3: 3 -> 6 >= 5 hit; power 2d20: 8 and 12 beat armour 7 -> 2 damage; pilot Бр 3 rolls 5: killed.
    result = act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8, 12, 5])
    head, *children = result.events
    assert head.type == "action.resolved"
    assert [d["value"] for d in head.dice] == [3, 8, 12, 5]
    assert [d["purpose"] for d in head.dice][0] == "range roll"
    kinds = [e.type for e in children]
    assert kinds == [
        "unit.ammo_spent",
        "unit.shot_fired",
        "unit.damage",
        "unit.pilot_killed",
        "unit.soldier_killed",
    ]
    assert all(e.cause_id == head.pk for e in children)
    raptor, salamander = state(battle, "1.e2.1"), state(battle, "0.e2.1")
    assert raptor["ammo"] == 10
    assert raptor["shots_this_round"] == 1
    assert salamander["strength"] == 5
    assert salamander["pilot"] is None
    pilot = soldier(battle, "0.e1.1", 2)
    assert pilot["alive"] is False
    battle.refresh_from_db()
    assert battle.state["soldiers"]["0"] == 5
    assert result.outcome["summary"].startswith("Hit: 2 damage")


def test_shot_from_a_vehicle_without_pilot_is_refused(battle, alice, bob):
    act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8, 12, 5])  # kills SALAMANDER's pilot
    battle.refresh_from_db()
    version = battle.version
    with pytest.raises(services.RuleInputError) as exc:
        act(
            battle,
            alice,
            "shoot",
            {"unit": "0.e2.1", "weapon": "raketnaya-ustanovka", "target": "1.e2.1", "distance_steps": 3},
            dice=[6, 20, 20],
        )
    assert "pilot" in str(exc.value)
    battle.refresh_from_db()
    assert battle.version == version


def test_shot_without_ammo_is_refused(battle, bob):
    commands.unit_adjust(battle_id=battle.pk, user=bob, expected_version=2, unit="1.e2.1", changes={"ammo": 0})
    with pytest.raises(services.RuleInputError) as exc:
        act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8, 12, 5])
    assert "Out of ammo" in str(exc.value)
    assert state(battle, "0.e2.1")["strength"] == 7


def test_typed_in_dice_must_fit_the_test(battle, bob):
    with pytest.raises(services.RuleInputError) as exc:
        act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8])
    assert "Not enough dice" in str(exc.value)
    with pytest.raises(services.RuleInputError) as exc:
        act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8, 12, 5, 1])
    assert "Too many dice" in str(exc.value)
    with pytest.raises(services.RuleInputError):
        act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[7, 8, 12, 5])  # a d6 cannot show 7
    battle.refresh_from_db()
    assert battle.version == 2


def test_server_roll_is_recorded_die_by_die(battle, bob):
    result = act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, seed=12345)
    head = result.events[0]
    assert head.dice
    assert all({"kind", "faces", "value", "purpose"} <= set(d) for d in head.dice)
    battle.refresh_from_db()
    services.event_undo(battle_id=battle.pk, user=bob, expected_version=battle.version, seq=head.seq)
    again = act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, seed=12345)
    assert again.events[0].dice == head.dice  # same seed, same dice


def test_infantry_shot_kills_on_any_damage(battle, alice):
    # Soldier 3 (Д6+1 / 1Д6) at 4 steps: 3+1 = 4 hits; 1d6 = 5 > Бр 2 -> the clone is destroyed (A24).
    act(
        battle,
        alice,
        "shoot",
        {"unit": "0.e1.1", "soldier": 3, "target": "1.e1.1", "target_soldier": 1, "distance_cm": 17},
        dice=[3, 5],
    )
    assert soldier(battle, "1.e1.1", 1)["alive"] is False
    assert "shoot" in soldier(battle, "0.e1.1", 3)["actions"]
    with pytest.raises(services.RuleInputError):  # one shot a round
        act(
            battle,
            alice,
            "shoot",
            {"unit": "0.e1.1", "soldier": 3, "target": "1.e1.1", "target_soldier": 2, "distance_steps": 1},
            dice=[3, 5],
        )


def test_melee_infantry_against_infantry(battle, alice):
    # Soldier 1, ББ 4: d6 5 -> 9 against clone 1, Бр 2: d6 2 -> 4. Attacker wins: the defender is destroyed.
    result = act(
        battle, alice, "melee", {"unit": "0.e1.1", "soldier": 1, "target": "1.e1.1", "target_soldier": 1}, dice=[5, 2]
    )
    assert "unit.soldier_killed" in [e.type for e in result.events]
    assert soldier(battle, "1.e1.1", 1)["alive"] is False
    assert soldier(battle, "0.e1.1", 1)["alive"] is True


def test_melee_against_a_vehicle_damages_it_and_tests_the_pilot(battle, alice, bob):
    # Soldier 1: ББ 4 + d6 6 = 10 against RAPTOR d6 1 + Броня 9 = 10: repelled, both stay in contact.
    result = act(battle, alice, "melee", {"unit": "0.e1.1", "soldier": 1, "target": "1.e2.1"}, dice=[6, 1])
    assert result.outcome["summary"] == "Repelled (10 against 10)."
    assert state(battle, "1.e2.1")["strength"] == 9
    assert state(battle, "1.e2.1")["in_melee"] is True
    assert soldier(battle, "0.e1.1", 1)["in_melee"] is True
    # At strength 6: 6 + 4 = 10 against 1 + 6 = 7: 3 damage (Table 7); the pilot (Бр 2) rolls 1 and survives.
    battle.refresh_from_db()
    commands.unit_adjust(
        battle_id=battle.pk, user=bob, expected_version=battle.version, unit="1.e2.1", changes={"strength": 6}
    )
    act(battle, alice, "melee", {"unit": "0.e1.1", "soldier": 6, "target": "1.e2.1"}, dice=[6, 1, 1])
    assert state(battle, "1.e2.1")["strength"] == 3
    assert state(battle, "1.e2.1")["pilot"] is not None


def test_grenade_in_two_steps(rosters, alice, bob):
    battle = services.battle_create(user=alice, name="g", rosters=list(rosters), system_settings={"grenades": True})
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    throw = act(battle, alice, "grenade", {"unit": "0.e1.1", "soldier": 3}, dice=[4])
    assert throw.outcome["result"]["burst_steps"] == 4
    assert any("within 1 step" in n for n in throw.notices)
    assert set(soldier(battle, "0.e1.1", 3)["actions"]) >= {"grenade", "shoot"}
    seq = throw.events[0].seq
    burst = act(
        battle, alice, "grenade_burst", {"throw": seq, "victims": [{"unit": "1.e1.1", "soldier": 2}]}, dice=[20]
    )
    assert soldier(battle, "1.e1.1", 2)["alive"] is False
    assert "unit.action_used" not in [e.type for e in burst.events]
    with pytest.raises(services.RuleInputError):  # one burst per throw
        act(battle, alice, "grenade_burst", {"throw": seq, "victims": [{"unit": "1.e1.1", "soldier": 4}]}, dice=[20])


def test_grenades_are_an_option(battle, alice):
    with pytest.raises(services.RuleInputError) as exc:
        act(battle, alice, "grenade", {"unit": "0.e1.1", "soldier": 3}, dice=[4])
    assert "optional rule" in str(exc.value)


def test_repair_by_a_repair_soldier(battle, alice):
    commands.unit_adjust(battle_id=battle.pk, user=alice, expected_version=2, unit="0.e2.1", changes={"strength": 4})
    act(battle, alice, "repair", {"unit": "0.e1.1", "soldier": 4, "target": "0.e2.1"})
    assert state(battle, "0.e2.1")["strength"] == 5
    assert "repair" in soldier(battle, "0.e1.1", 4)["actions"]
    with pytest.raises(services.RuleInputError):  # he already acted this round (A31)
        act(battle, alice, "repair", {"unit": "0.e1.1", "soldier": 4, "target": "0.e2.1"})


def test_capture_of_a_pilotless_vehicle_changes_its_owner(battle, alice, bob):
    act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8, 12, 5])  # SALAMANDER loses its pilot
    act(battle, bob, "capture", {"unit": "1.e1.1", "soldier": 1, "target": "0.e2.1"})
    salamander = state(battle, "0.e2.1")
    assert salamander["owner"] == 1
    assert salamander["pilot"]["ref"] == "1.e1.1"
    assert salamander["acts_next_round"] is True
    assert soldier(battle, "1.e1.1", 1)["role"] == "pilot"
    battle.refresh_from_db()
    assert battle.state["owners"]["0.e2.1"] == 1
    with pytest.raises(PermissionDenied):
        commands.unit_adjust(
            battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1", changes={"ammo": 1}
        )
    # The new owner's soldiers still count for the new owner; the dead pilot still counts for nobody.
    assert battle.state["soldiers"] == {"0": 5, "1": 6}


def test_undo_of_a_shot_restores_everything_it_did(battle, alice, bob):
    shot = act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8, 12, 5])
    battle.refresh_from_db()
    services.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=shot.events[0].seq)
    assert state(battle, "0.e2.1")["strength"] == 7
    assert state(battle, "0.e2.1")["pilot"]["soldier"] == 2
    assert soldier(battle, "0.e1.1", 2)["alive"] is True
    assert state(battle, "1.e2.1")["ammo"] == 12
    battle.refresh_from_db()
    with pytest.raises(services.RuleInputError):  # a caused event is undone through its command
        services.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=shot.events[1].seq)


def test_destroyed_vehicle_puts_its_surviving_pilot_on_foot(battle, alice, bob):
    commands.unit_adjust(battle_id=battle.pk, user=alice, expected_version=2, unit="0.e2.1", changes={"strength": 1})
    # Hit (3+3 >= 5), 20 beats armour 1: destroyed; the pilot (Бр 3) rolls 2: survives and is on foot.
    act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 20, 1, 2])
    salamander = state(battle, "0.e2.1")
    assert salamander["destroyed"]
    assert salamander["pilot"] is None
    pilot = soldier(battle, "0.e1.1", 2)
    assert pilot["alive"]
    assert pilot["role"] == "dismounted"


def test_real_shot_uses_the_charge_and_the_armour_test(rosters, alice, bob):
    battle = services.battle_create(user=alice, name="real", rosters=list(rosters), system_settings={"mode": "real"})
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    # A rocket (power 4) hits the standing RAPTOR: 4 damage (9 -> 5), Д12 armour test 3 <= 5: the pilot is safe.
    result = act(
        battle,
        alice,
        "shoot",
        {"unit": "0.e2.1", "weapon": "raketnaya-ustanovka", "target": "1.e2.1", "charge": "rocket", "hit": True},
        dice=[3],
    )
    assert state(battle, "0.e2.1")["ammo"] == 8
    assert state(battle, "1.e2.1")["strength"] == 5
    assert state(battle, "1.e2.1")["pilot"] is not None
    assert result.events[0].dice[0]["kind"] == "d12"


def test_a_player_shoots_only_with_own_units(battle, alice):
    with pytest.raises(PermissionDenied):
        act(battle, alice, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8, 12, 5])
    assert BattleEvent.objects.filter(battle=battle).count() == 2


def test_a_gun_fires_through_its_crew(battle, alice):
    # The mortar (Д6+2 / 3Д20) crewed by soldier 5 (rank 2 >= 1): range 4+2 = 6 >= 6 hits; no power die (3, 3, 3)
    # beats Бр 2 + 1 for cover, so the clone lives.
    result = act(
        battle,
        alice,
        "shoot",
        {
            "unit": "0.e3.1",
            "weapon": "minomet",
            "crew_unit": "0.e1.1",
            "crew_soldier": 5,
            "target": "1.e1.1",
            "target_soldier": 4,
            "distance_steps": 6,
            "cover": "over_half_visible",
        },
        dice=[4, 3, 3, 3],
    )
    assert result.outcome["result"]["hit"] is True
    assert soldier(battle, "1.e1.1", 4)["alive"] is True
    assert state(battle, "0.e3.1")["ammo"] == 9  # 3 power dice
    assert "shoot" in soldier(battle, "0.e1.1", 5)["actions"]


def test_outsider_cannot_write(battle):
    mallory = make_user("mallory2")
    with pytest.raises(PermissionDenied):
        act(battle, mallory, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8, 12, 5])


def test_a_pilot_is_attacked_through_his_vehicle(battle, bob):
    with pytest.raises(services.RuleInputError) as exc:
        act(
            battle,
            bob,
            "melee",
            {"unit": "1.e1.1", "soldier": 1, "target": "0.e1.1", "target_soldier": 2},
            dice=[6, 1],
        )
    assert "attack the vehicle" in str(exc.value)


def test_enforced_turns_one_unit_at_a_time(rosters, alice, bob):
    battle = services.battle_create(user=alice, name="strict", rosters=list(rosters), enforce_turns=True)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    commands.initiative_roll(battle_id=battle.pk, user=alice, expected_version=2, dice=[10, 3])
    commands.order_set(battle_id=battle.pk, user=alice, expected_version=3, order=[0, 1])
    with pytest.raises(services.GameConflict) as exc:  # red acts out of turn
        act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8, 12, 5])
    assert "not your turn" in exc.value.message
    # Blue's squad acts; until it is marked done, blue's SALAMANDER may not act.
    act(battle, alice, "melee", {"unit": "0.e1.1", "soldier": 1, "target": "1.e1.1", "target_soldier": 1}, dice=[1, 6])
    with pytest.raises(services.GameConflict) as exc:
        act(battle, alice, "shoot", {"unit": "0.e2.1", "target": "1.e2.1", "distance_steps": 3}, dice=[6, 20, 20])
    assert "mark it done" in exc.value.message
    battle.refresh_from_db()
    assert battle.state["active_unit"] == "0.e1.1"
    commands.unit_done(battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e1.1")
    battle.refresh_from_db()
    assert battle.state["turn"] == 1
    assert battle.state["active_unit"] is None
    act(battle, bob, "shoot", RAPTOR_SHOOTS_SALAMANDER, dice=[3, 8, 12, 5])  # now it is red's turn
    assert state(battle, "0.e2.1")["strength"] == 5
