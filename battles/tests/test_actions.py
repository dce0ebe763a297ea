"""Tests resolved from the tracker: the server rolls or takes typed-in dice, records them, and applies the outcome as
events (ammo, damage, kills, the pilot). Units: blue 0.e1.1 cyber-infantry (soldier 2 pilots 0.e2.1 SALAMANDER,
Бр 3, «Рм»), 0.e3.1 mortar; red 1.e1.1 line clones (Бр 2; soldier 3 pilots 1.e2.1 RAPTOR, Д6+3 / 2Д20)."""

from __future__ import annotations

import pytest

from battles import services, undo
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


# These tests type the hit pilot's survival test with the attack's dice: the attacker rolls it (setting pilot_tests;
# by default the pilot's own player is asked, rules/systems/bronepekhota/tests/test_questions.py).
ATTACKER_ROLLS = {"pilot_tests": "attacker"}
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
    undo.event_undo(battle_id=battle.pk, user=bob, expected_version=battle.version, seq=head.seq)
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
    undo.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=shot.events[0].seq)
    assert state(battle, "0.e2.1")["strength"] == 7
    assert state(battle, "0.e2.1")["pilot"]["soldier"] == 2
    assert soldier(battle, "0.e1.1", 2)["alive"] is True
    assert state(battle, "1.e2.1")["ammo"] == 12
    battle.refresh_from_db()
    with pytest.raises(services.RuleInputError):  # a caused event is undone through its command
        undo.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=shot.events[1].seq)


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
    settings = {"mode": "real", **ATTACKER_ROLLS}
    battle = services.battle_create(user=alice, name="real", rosters=list(rosters), system_settings=settings)
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
    battle = services.battle_create(
        user=alice, name="strict", rosters=list(rosters), enforce_turns=True, system_settings=ATTACKER_ROLLS
    )
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


# Issue 17: the rest of the book's tests from the board --------------------------------------------------------
# Blue (alice): assault commandos «Пр5» (Ск 5, Бр 4; soldier 2 flies the CONDOR), 0.e2.1 CONDOR (flyer, strength 14,
# speed 6), 0.e3.1 mortar. Red (bob): heavy clones «Рм» (Бр 2; soldier 3 drives the HELIX), 1.e2.1 HELIX with the
# repair-transport platform, 1.e3.1 БУЛЬДОГ (a mobile gun).
CONDOR, HELIX, COMMANDOS, CLONES, MORTAR, BULLDOG = "0.e2.1", "1.e2.1", "0.e1.1", "1.e1.1", "0.e3.1", "1.e3.1"


@pytest.fixture
def more_rosters(pack, alice, bob):
    from battles.tests.conftest import make_roster

    blue = make_roster(
        alice,
        pack,
        "protectorate",
        "Blue commandos",
        [
            {"key": "e1", "slug": "protectorate_shturmovoy_otryad_stervyatniki"},
            {"key": "e2", "slug": "condor", "pilot": [{"entry": "e1", "soldier": 2, "copy": 1}]},
            {"key": "e3", "slug": "minomet"},
        ],
    )
    red = make_roster(
        bob,
        pack,
        "polaris",
        "Red repairmen",
        [
            {"key": "e1", "slug": "polaris_tyazhyolaya_klon_pehota"},
            {
                "key": "e2",
                "slug": "helix",
                "loadout": {"variant": "repair"},
                "pilot": [{"entry": "e1", "soldier": 3, "copy": 1}],
            },
            {"key": "e3", "slug": "buldog"},
        ],
    )
    return blue, red


@pytest.fixture
def start(more_rosters, alice, bob):
    def make(**settings):
        settings = {**ATTACKER_ROLLS, **settings}
        battle = services.battle_create(user=alice, name="more", rosters=list(more_rosters), system_settings=settings)
        services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
        battle.refresh_from_db()
        return battle

    return make


def run(helper, battle, user, **inputs):
    battle.refresh_from_db()
    return helper(battle_id=battle.pk, user=user, expected_version=battle.version, **inputs)


def test_tow_starts_and_stops_from_the_board(start, alice, bob):
    battle = start()
    result = run(commands.tow, battle, bob, unit=HELIX, target=BULLDOG)
    assert [e.type for e in result.events] == ["action.resolved", "unit.tow_start", "unit.tow_start"]
    assert state(battle, HELIX)["towing"] == BULLDOG
    assert state(battle, BULLDOG)["towed_by"] == HELIX
    with pytest.raises(services.RuleInputError):  # one object at a time (p.49)
        run(commands.tow, battle, bob, unit=HELIX, target=CONDOR)
    run(commands.tow, battle, bob, unit=HELIX, op="stop")
    assert state(battle, HELIX)["towing"] is None
    assert state(battle, BULLDOG)["towed_by"] is None
    with pytest.raises(services.RuleInputError) as exc:  # only the repair-transport platform tows
        run(commands.tow, battle, alice, unit=CONDOR, target=MORTAR)
    assert "platform" in str(exc.value)


def test_a_towed_vehicle_cannot_move_itself_and_towing_ends_when_the_helix_is_destroyed(start, alice, bob):
    battle = start()
    run(commands.tow, battle, bob, unit=HELIX, target=CONDOR)
    with pytest.raises(services.RuleInputError) as exc:
        run(commands.move, battle, alice, unit=CONDOR, path=[{"kind": "forward", "steps": 1}])
    assert "towed" in str(exc.value)
    run(commands.unit_adjust, battle, bob, unit=HELIX, changes={"strength": 1})
    # Commando 1 (ББ 4) charges the HELIX: 6 + 4 against 1 + 1: 8 damage, destroyed; its pilot (Бр 2) rolls 1.
    act(battle, alice, "melee", {"unit": COMMANDOS, "soldier": 1, "target": HELIX}, dice=[6, 1, 1])
    assert state(battle, HELIX)["destroyed"]
    assert state(battle, CONDOR)["towed_by"] is None


def test_jump_from_the_board(start, alice):
    battle = start(jump_packs=True)
    # «Пр5»: 3 steps away and 2 up = 5 <= 5 (Table 8, p.46).
    result = run(commands.jump, battle, alice, unit=COMMANDOS, soldier=1, length_steps=3, rise_steps=2)
    assert result.outcome["result"]["ok"] is True
    assert set(soldier(battle, COMMANDOS, 1)["actions"]) == {"move", "jump"}
    # 4 away and 2 up = 6 > 5: the jump falls short (Рис.57б); it is recorded, nothing else changes.
    short = run(commands.jump, battle, alice, unit=COMMANDOS, soldier=3, length_steps=4, rise_steps=2)
    assert short.outcome["result"]["ok"] is False
    assert [e.type for e in short.events] == ["action.resolved"]
    with pytest.raises(services.RuleInputError):  # a jump replaces his move: once a round
        run(commands.jump, battle, alice, unit=COMMANDOS, soldier=1, length_steps=1)


def test_jump_packs_are_an_option(start, alice):
    battle = start()
    with pytest.raises(services.RuleInputError) as exc:
        run(commands.jump, battle, alice, unit=COMMANDOS, soldier=1, length_steps=1)
    assert "optional rule" in str(exc.value)


def test_dispute_roll_from_the_board(start, alice, bob, outsider):
    battle = start()
    # d12 each: 5 and 5 tie, re-roll 2 against 6: red wins (p.51 §12.2, A33).
    result = run(commands.dispute_roll, battle, alice, note="is the RAPTOR in cover?", dice=[5, 5, 2, 6])
    head = result.events[0]
    assert head.type == "dispute.rolled"
    assert [d["kind"] for d in head.dice] == ["d12"] * 4
    assert head.payload["winner"] == 1
    assert result.outcome["summary"] == "Red repairmen wins the dispute (is the RAPTOR in cover?)."
    battle.refresh_from_db()
    assert battle.state["disputes"][-1]["winner"] == 1
    d20 = start(dispute_die=20)
    assert run(commands.dispute_roll, d20, bob, dice=[20, 1]).events[0].dice[0]["kind"] == "d20"
    with pytest.raises(PermissionDenied):
        run(commands.dispute_roll, battle, outsider, dice=[1, 2])


def test_survival_test_of_a_soldier_and_of_a_flying_pilot(start, alice, bob):
    battle = start()
    run(commands.survival_test, battle, bob, unit=CLONES, soldier=1, dice=[3])  # Бр 2 < 3: killed
    assert soldier(battle, CLONES, 1)["alive"] is False
    # The CONDOR's pilot (Бр 4) rolls 6: killed in flight, so the CONDOR lands and takes d6 = 5 (p.19).
    result = run(commands.survival_test, battle, alice, unit=CONDOR, dice=[6, 5])
    assert [e.type for e in result.events][1:] == ["unit.soldier_killed", "unit.pilot_killed", "unit.landed",
                                                    "unit.damage"]  # fmt: skip
    condor = state(battle, CONDOR)
    assert (condor["pilot"], condor["flying"], condor["strength"]) == (None, False, 9)
    assert soldier(battle, COMMANDOS, 2)["alive"] is False


def test_armour_test_in_real_shooting(start, alice):
    battle = start(mode="real")
    run(commands.unit_adjust, battle, alice, unit=CONDOR, changes={"strength": 6})
    # Д20 (it fell): 15 > 6 pierced; pilot Бр 4 rolls 5: killed; in flight: landing d6 = 2, 6 -> 4.
    result = run(commands.armour_test, battle, alice, unit=CONDOR, die=20, dice=[15, 5, 2])
    assert result.events[0].dice[0]["kind"] == "d20"
    assert result.outcome["result"]["emergency_landing"] == {"roll": 2, "strength_after": 4}
    assert state(battle, CONDOR)["strength"] == 4
    assert state(battle, CONDOR)["pilot"] is None
    virtual = start()
    with pytest.raises(services.RuleInputError):  # real shooting only
        run(commands.armour_test, virtual, alice, unit=CONDOR, dice=[15])


def test_real_shot_kills_the_flying_pilot_and_the_condor_lands(start, alice):
    battle = start(mode="real")
    # Blue's mortar hits its own CONDOR (a ruling): mine 3, 14 -> 11; Д12 12 pierces; Бр 4 rolls 6; landing 3.
    shot = {"unit": MORTAR, "crew_unit": COMMANDOS, "crew_soldier": 4, "target": CONDOR, "charge": "mine", "hit": True}
    result = act(battle, alice, "shoot", shot, dice=[12, 6, 3])
    assert "unit.landed" in [e.type for e in result.events]
    condor = state(battle, CONDOR)
    assert (condor["strength"], condor["flying"], condor["pilot"]) == (8, False, None)


def test_emergency_landing_from_the_board(start, alice, bob):
    battle = start()
    result = run(commands.emergency_landing, battle, alice, unit=CONDOR, dice=[4])
    assert state(battle, CONDOR)["strength"] == 10
    assert state(battle, CONDOR)["flying"] is False
    assert result.events[0].dice[0]["purpose"] == "emergency landing damage"
    with pytest.raises(services.RuleInputError) as exc:  # the HELIX does not fly
        run(commands.emergency_landing, battle, bob, unit=HELIX, dice=[4])
    assert "does not fly" in str(exc.value)


def test_panic_flight_of_a_flying_pilot(start, alice):
    battle = start(panic=True)
    run(commands.panic_flight, battle, alice, unit=CONDOR, reaches_edge=True)
    condor = state(battle, CONDOR)
    assert (condor["pilot"], condor["flying"]) == (None, False)  # he lands first, without damage (A13)
    assert condor["strength"] == 14
    pilot = soldier(battle, COMMANDOS, 2)
    assert (pilot["deserted"], pilot["on_field"], pilot["role"]) == (True, False, "dismounted")
    battle.refresh_from_db()
    assert battle.state["soldiers"]["0"] == 5


def test_move_from_the_board(start, alice):
    battle = start()
    # Commando 1 (Ск 5): 3 steps and a 4 cm obstacle: 3 + 2 = 5 SP (Table 1, A9).
    result = run(commands.move, battle, alice, unit=COMMANDOS, soldier=1,
                 path=[{"kind": "flat", "steps": 3}, {"kind": "obstacle", "height_cm": 4}])  # fmt: skip
    assert result.outcome["result"]["cost"] == 5
    assert "move" in soldier(battle, COMMANDOS, 1)["actions"]
    battle.refresh_from_db()
    version = battle.version
    with pytest.raises(services.RuleInputError) as exc:  # 4 + 2 = 6 > 5
        run(commands.move, battle, alice, unit=COMMANDOS, soldier=2 + 1,
            path=[{"kind": "flat", "steps": 4}, {"kind": "obstacle", "height_cm": 4}])  # fmt: skip
    assert "not possible" in str(exc.value)
    battle.refresh_from_db()
    assert battle.version == version
    # The CONDOR moves, shoots, moves (p.11); a third move is refused.
    run(commands.move, battle, alice, unit=CONDOR, path=[{"kind": "forward", "steps": 6}])
    run(
        commands.move,
        battle,
        alice,
        unit=CONDOR,
        path=[{"kind": "turn", "degrees": 90}, {"kind": "forward", "steps": 5}],
    )
    with pytest.raises(services.RuleInputError) as exc:
        run(commands.move, battle, alice, unit=CONDOR, path=[{"kind": "forward", "steps": 1}])
    assert "twice" in str(exc.value)


def test_alternate_deployment(start, alice, bob):
    battle = start()
    run(commands.deployment_roll, battle, alice, dice=[9, 2])  # blue places first
    run(commands.deploy, battle, alice, unit=COMMANDOS)
    with pytest.raises(services.GameConflict):
        run(commands.deploy, battle, alice, unit=CONDOR)
    run(commands.deploy, battle, bob, unit=CLONES)
    battle.refresh_from_db()
    assert battle.state["deployment"]["next"] == 0
    assert battle.state["deployment"]["placed"] == [COMMANDOS, CLONES]
    with pytest.raises(services.GameConflict):  # every unit is placed before the first initiative
        commands.initiative_roll(battle_id=battle.pk, user=alice, expected_version=battle.version, dice=[5, 3])


def test_a_dismounted_pilot_acts_on_his_own_when_the_setting_says_so(start, alice, bob):
    battle = start(dismounted_pilot_rejoins_squad=False)
    run(commands.unit_adjust, battle, bob, unit=HELIX, changes={"strength": 1})
    act(battle, alice, "melee", {"unit": COMMANDOS, "soldier": 1, "target": HELIX}, dice=[6, 1, 1])
    assert soldier(battle, CLONES, 3)["role"] == "dismounted"
    battle.refresh_from_db()
    pending = battle.state["pending"]["1"]
    run(commands.soldier_done, battle, bob, unit=CLONES, soldier=3)
    battle.refresh_from_db()
    assert battle.state["pending"]["1"] == pending - 1
    assert battle.state["done"]["1"] == 1
    with pytest.raises(services.RuleInputError):  # a soldier still with his squad is done with it
        run(commands.soldier_done, battle, bob, unit=CLONES, soldier=1)
