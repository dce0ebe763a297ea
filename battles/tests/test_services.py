"""The event log and its projection: starting, appending with a version, idempotency, undo, replay, turns."""

from __future__ import annotations

import pytest

from armies.models import RosterEntry
from battles import services, undo
from battles.models import Battle, BattleEvent, BattleUnit
from battles.tests import commands
from rules.errors import NotYours as PermissionDenied


def unit(battle, key) -> BattleUnit:
    return BattleUnit.objects.get(battle=battle, key=key)


def adjust(battle, user, key, changes, **kw):
    battle.refresh_from_db()
    return commands.unit_adjust(
        battle_id=battle.pk, user=user, expected_version=battle.version, unit=key, changes=changes, **kw
    )


def test_start_snapshots_rosters_and_places_sliders_on_max(battle, rosters, alice, bob):
    assert battle.version == 2  # started + bob joined
    assert battle.players == {str(alice.pk): [0], str(bob.pk): [1]}
    assert {s.index: s.player for s in battle.sides.all()} == {0: alice, 1: bob}
    keys = set(BattleUnit.objects.filter(battle=battle).values_list("key", flat=True))
    assert keys == {"0.e1.1", "0.e2.1", "0.e3.1", "1.e1.1", "1.e2.1"}
    salamander = unit(battle, "0.e2.1")
    assert salamander.state["strength"] == 7 == salamander.state["strength_max"]
    assert salamander.state["ammo"] == 12
    assert salamander.state["pilot"]["ref"] == "0.e1.1"
    assert salamander.state["pilot"]["soldier"] == 2
    squad = unit(battle, "0.e1.1")
    assert next(s for s in squad.state["soldiers"] if s["num"] == 2)["role"] == "pilot"
    # A later roster edit never reaches the running game.
    RosterEntry.objects.filter(roster=rosters[0], key="e3").delete()
    assert unit(battle, "0.e3.1").profile["slug"] == "minomet"
    assert battle.state["soldiers"] == {"0": 6, "1": 6}


def test_battle_needs_two_rosters_of_one_system(rosters, alice):
    with pytest.raises(services.RuleInputError) as exc:
        services.battle_create(user=alice, name="x", rosters=[rosters[0]])
    assert "at least two" in str(exc.value)
    assert Battle.objects.count() == 0


def test_unknown_setting_is_refused(rosters, alice):
    with pytest.raises(services.RuleInputError) as exc:
        services.battle_create(user=alice, name="x", rosters=list(rosters), system_settings={"laser_swords": True})
    assert "settings.laser_swords" in exc.value.errors
    assert Battle.objects.count() == 0


def test_adjust_appends_one_event_and_updates_projection(battle, alice):
    result = adjust(battle, alice, "0.e2.1", {"strength": 5}, note="ruling")
    battle.refresh_from_db()
    assert battle.version == 3
    assert [e.type for e in result.events] == ["unit.adjusted"]
    assert unit(battle, "0.e2.1").state["strength"] == 5
    assert BattleEvent.objects.get(battle=battle, seq=3).payload["note"] == "ruling"


def test_stale_version_is_refused_and_changes_nothing(battle, alice):
    adjust(battle, alice, "0.e2.1", {"strength": 5})
    with pytest.raises(services.StaleVersion) as exc:
        commands.unit_adjust(battle_id=battle.pk, user=alice, expected_version=2, unit="0.e2.1", changes={"ammo": 1})
    assert exc.value.current == 3
    battle.refresh_from_db()
    assert battle.version == 3
    assert unit(battle, "0.e2.1").state["ammo"] == 12


def test_missing_version_is_refused(battle, alice):
    with pytest.raises(services.PreconditionRequired):
        commands.unit_adjust(battle_id=battle.pk, user=alice, expected_version=None, unit="0.e2.1", changes={"ammo": 1})
    assert BattleEvent.objects.filter(battle=battle).count() == 2


def test_idempotent_retry_records_nothing_twice(battle, alice):
    first = adjust(battle, alice, "0.e2.1", {"strength": 6}, idempotency_key="k1", request_hash="h1")
    # The retry carries the old version: the key is checked first, so it gets the first answer, not 412.
    again = commands.unit_adjust(
        battle_id=battle.pk,
        user=alice,
        expected_version=2,
        unit="0.e2.1",
        changes={"strength": 6},
        idempotency_key="k1",
        request_hash="h1",
    )
    assert again.replayed
    assert [e.seq for e in again.events] == [e.seq for e in first.events]
    assert BattleEvent.objects.filter(battle=battle).count() == 3
    with pytest.raises(services.IdempotencyKeyReused):
        adjust(battle, alice, "0.e2.1", {"strength": 4}, idempotency_key="k1", request_hash="other")
    assert unit(battle, "0.e2.1").state["strength"] == 6


@pytest.mark.parametrize(
    ("key", "changes", "field"),
    [
        ("0.e2.1", {"strength": 8}, "changes"),  # SALAMANDER's track is 0..7
        ("0.e2.1", {"strength": -1}, "changes"),
        ("0.e2.1", {"ammo": 13}, "changes"),
        ("0.e1.1", {"strength": 3}, "changes"),  # a squad has no strength slider
        ("0.e1.1", {"soldier": 9, "alive": False}, "changes.soldier"),
        ("0.e2.1", {"flags": {"invisible": True}}, "changes"),
        ("0.e2.1", {"warp": 1}, "changes"),
    ],
)
def test_bad_adjustments_are_refused_and_change_nothing(battle, alice, key, changes, field):
    before = unit(battle, key).state
    with pytest.raises(services.RuleInputError) as exc:
        adjust(battle, alice, key, changes)
    assert field in exc.value.errors
    battle.refresh_from_db()
    assert battle.version == 2
    assert unit(battle, key).state == before


def test_unknown_unit_is_refused(battle, alice):
    with pytest.raises(services.RuleInputError) as exc:
        adjust(battle, alice, "9.zz.1", {"strength": 1})
    assert "no unit" in exc.value.errors["unit"]


def test_a_player_adjusts_only_their_own_units(battle, alice, bob, outsider):
    with pytest.raises(PermissionDenied):
        adjust(battle, alice, "1.e2.1", {"strength": 1})
    with pytest.raises(PermissionDenied):
        adjust(battle, outsider, "0.e2.1", {"strength": 1})
    adjust(battle, bob, "1.e2.1", {"strength": 8})
    assert unit(battle, "1.e2.1").state["strength"] == 8


def test_undo_any_earlier_event_with_a_compensating_event(battle, alice):
    adjust(battle, alice, "0.e2.1", {"strength": 5})  # 3
    adjust(battle, alice, "0.e2.1", {"ammo": 10})  # 4
    battle.refresh_from_db()
    result = undo.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=3)
    assert result.events[0].type == "undo"
    assert result.events[0].undoes.seq == 3
    salamander = unit(battle, "0.e2.1")
    assert salamander.state["strength"] == 7  # back to the start
    assert salamander.state["ammo"] == 10  # the later change stays
    assert BattleEvent.objects.filter(battle=battle).count() == 5  # nothing deleted
    battle.refresh_from_db()
    # Undo the undo: the strength change is back.
    undo.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=5)
    assert unit(battle, "0.e2.1").state["strength"] == 5
    battle.refresh_from_db()
    with pytest.raises(services.GameConflict):
        undo.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=5)
    with pytest.raises(services.RuleInputError):
        undo.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=1)
    with pytest.raises(services.RuleInputError):
        undo.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=99)


def test_elimination_ends_the_game_and_undo_reopens_it(battle, alice, bob):
    # Kill every red soldier by hand (pilot included): red is eliminated, blue wins (§3.15).
    for num in range(1, 7):
        adjust(battle, bob, "1.e1.1", {"soldier": num, "alive": False})
    battle.refresh_from_db()
    assert battle.state["eliminated"] == [1]
    assert battle.state["result"] == {"winner": 0, "reason": "elimination", "note": ""}
    assert battle.status == Battle.Status.FINISHED
    with pytest.raises(services.GameConflict):
        commands.round_start(battle_id=battle.pk, user=alice, expected_version=battle.version)
    last = battle.version
    undo.event_undo(battle_id=battle.pk, user=alice, expected_version=last, seq=last)
    battle.refresh_from_db()
    assert battle.state["result"] is None
    assert battle.status == Battle.Status.ACTIVE
    assert battle.state["soldiers"]["1"] == 1


def test_mission_completion_ends_the_game(battle, alice):
    commands.mission_complete(battle_id=battle.pk, user=alice, expected_version=2, side=1, note="held the line")
    battle.refresh_from_db()
    assert battle.state["result"]["winner"] == 1
    assert battle.state["result"]["reason"] == "mission"


def test_initiative_order_turns_and_rounds(battle, alice, bob):
    # Typed-in dice: a tie at 7 is re-rolled by the tied players, then red wins 9 to 4.
    commands.initiative_roll(battle_id=battle.pk, user=alice, expected_version=2, dice=[7, 7, 4, 9])
    battle.refresh_from_db()
    assert battle.state["initiative"]["winner"] == 1
    assert battle.state["initiative"]["rolls"] == [{"0": 7, "1": 7}, {"0": 4, "1": 9}]
    with pytest.raises(PermissionDenied):  # only the winner chooses the order
        commands.order_set(battle_id=battle.pk, user=alice, expected_version=3, order=[0, 1])
    with pytest.raises(services.RuleInputError):
        commands.order_set(battle_id=battle.pk, user=bob, expected_version=3, order=[1, 1])
    commands.order_set(battle_id=battle.pk, user=bob, expected_version=3, order=[1, 0])
    battle.refresh_from_db()
    assert battle.state["turn"] == 1  # red first
    commands.unit_done(battle_id=battle.pk, user=bob, expected_version=4, unit="1.e1.1")
    battle.refresh_from_db()
    assert battle.state["turn"] == 0
    assert battle.state["done"] == {"0": 0, "1": 1}
    with pytest.raises(services.GameConflict):
        commands.unit_done(battle_id=battle.pk, user=bob, expected_version=5, unit="1.e1.1")
    commands.unit_done(battle_id=battle.pk, user=alice, expected_version=5, unit="0.e1.1")
    commands.unit_done(battle_id=battle.pk, user=bob, expected_version=6, unit="1.e2.1")
    commands.unit_done(battle_id=battle.pk, user=alice, expected_version=7, unit="0.e2.1")
    battle.refresh_from_db()
    assert battle.state["round_over"]
    assert battle.state["turn"] is None
    commands.round_start(battle_id=battle.pk, user=alice, expected_version=8)
    battle.refresh_from_db()
    assert battle.state["round"] == 2
    assert battle.state["initiative"] is None
    assert unit(battle, "0.e1.1").state["activated"] is False


def test_enforced_turns_refuse_out_of_turn_actions(rosters, alice, bob):
    battle = services.battle_create(user=alice, name="strict", rosters=list(rosters), enforce_turns=True)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    with pytest.raises(services.GameConflict) as exc:
        commands.unit_done(battle_id=battle.pk, user=alice, expected_version=2, unit="0.e1.1")
    assert "initiative" in exc.value.message
    commands.initiative_roll(battle_id=battle.pk, user=alice, expected_version=2, dice=[10, 3])
    commands.order_set(battle_id=battle.pk, user=alice, expected_version=3, order=[0, 1])
    with pytest.raises(services.GameConflict) as exc:
        commands.unit_done(battle_id=battle.pk, user=bob, expected_version=4, unit="1.e1.1")
    assert "not your turn" in exc.value.message
    with pytest.raises(services.GameConflict):  # the round is not over yet
        commands.round_start(battle_id=battle.pk, user=alice, expected_version=4)
    battle.refresh_from_db()
    assert battle.version == 4


def test_deleting_a_battle_removes_its_whole_log(battle, alice):
    adjust(battle, alice, "0.e2.1", {"strength": 5})
    battle.refresh_from_db()
    undo.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=3)
    battle.delete()
    assert not BattleEvent.objects.exists()
    assert not BattleUnit.objects.exists()


def test_an_idempotency_key_belongs_to_the_player_who_sent_it(battle, alice, bob):
    """Bob sending a key Alice used is simply a new request of Bob's: neither refused (which would tell him which
    keys she used) nor answered with her result."""
    adjust(battle, alice, "0.e2.1", {"strength": 6}, idempotency_key="shared", request_hash="same")
    mine = commands.unit_adjust(
        battle_id=battle.pk,
        user=bob,
        expected_version=3,
        unit="1.e2.1",
        changes={"strength": 5},
        idempotency_key="shared",
        request_hash="other",
    )
    assert not mine.replayed
    assert mine.events[0].seq == 4
    assert unit(battle, "1.e2.1").state["strength"] == 5
    # Each player's retry gets their own first answer back.
    again = commands.unit_adjust(
        battle_id=battle.pk,
        user=bob,
        expected_version=3,
        unit="1.e2.1",
        changes={"strength": 5},
        idempotency_key="shared",
        request_hash="other",
    )
    assert again.replayed
    assert again.events[0].seq == 4
    assert BattleEvent.objects.filter(battle=battle).count() == 4
    assert BattleEvent.objects.filter(battle=battle, idempotency_key="shared").count() == 2


def test_the_log_marks_undone_commands_and_their_effects(battle, alice, bob):
    from battles import selectors

    adjust(battle, alice, "0.e2.1", {"strength": 5})  # 3
    battle.refresh_from_db()
    undo.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=3)  # 4
    battle.refresh_from_db()
    undo.event_undo(battle_id=battle.pk, user=bob, expected_version=battle.version, seq=4)  # 5: redo
    battle.refresh_from_db()
    log = {e["seq"]: e for e in selectors.battle_log(battle)}
    assert log[3]["undone"] is False  # redone
    assert log[4]["undone"] is True
    assert log[5]["text"].startswith("Restored #4")
    assert log[4]["actor"] == "alice"
    assert log[5]["actor"] == "bob"
    assert unit(battle, "0.e2.1").state["strength"] == 5
