"""A command is worked out before the write lock is taken (battles/services.py `_prepare`, issue #11): under the lock
only the writes run. What must hold: the rules run once when nothing moved, and a write landing in between is
never lost nor overwritten — the command is then worked out again on the state that counts."""

import pytest

from battles import services
from battles.models import Battle, BattleUnit
from battles.tests import commands


@pytest.fixture
def counted_runs(monkeypatch):
    calls = []
    original = services.run_command

    def counting(*args, **kwargs):
        calls.append(args[2])
        return original(*args, **kwargs)

    monkeypatch.setattr(services, "run_command", counting)
    return calls


def _ammo(battle, key):
    return BattleUnit.objects.get(battle=battle, key=key).state["ammo"]


def test_the_rules_run_once_outside_the_lock_when_nothing_moved(battle, alice, counted_runs):
    commands.unit_adjust(
        battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1", changes={"ammo": 7}
    )
    assert counted_runs == ["adjust"]
    assert _ammo(battle, "0.e2.1") == 7


def test_a_write_landing_after_the_preparation_is_kept_and_the_command_worked_out_again(
    battle, alice, bob, counted_runs, monkeypatch
):
    version = battle.version
    original = services._prepare

    def prepare_then_other_phone_writes(*args, **kwargs):
        prepared = original(*args, **kwargs)
        assert prepared is not None
        assert prepared.version == version
        monkeypatch.setattr(services, "_prepare", original)  # the other phone's write prepares normally
        commands.unit_adjust(
            battle_id=battle.pk, user=bob, expected_version=version, unit="1.e2.1", changes={"ammo": 3}
        )
        return prepared

    monkeypatch.setattr(services, "_prepare", prepare_then_other_phone_writes)
    result = commands.unit_adjust(
        battle_id=battle.pk, user=alice, expected_version=version, unit="0.e2.1", changes={"ammo": 5}
    )
    # Two different units commute: alice's change is rebased on bob's, both are kept, and her command ran again
    # under the lock on the state that includes bob's write (the prepared one was dropped).
    assert [e.seq for e in result.events] == [version + 2]
    assert _ammo(battle, "1.e2.1") == 3
    assert _ammo(battle, "0.e2.1") == 5
    assert counted_runs.count("adjust") == 3  # alice prepared, bob, alice again under the lock
    assert Battle.objects.get(pk=battle.pk).version == version + 2


def test_a_stale_write_is_still_refused_when_it_does_not_commute(battle, alice, monkeypatch):
    version = battle.version
    original = services._prepare

    def prepare_then_other_phone_writes(*args, **kwargs):
        prepared = original(*args, **kwargs)
        monkeypatch.setattr(services, "_prepare", original)  # alice's other phone, on the same unit
        commands.unit_adjust(
            battle_id=battle.pk, user=alice, expected_version=version, unit="0.e2.1", changes={"ammo": 2}
        )
        return prepared

    monkeypatch.setattr(services, "_prepare", prepare_then_other_phone_writes)
    with pytest.raises(services.StaleVersion):
        commands.unit_adjust(
            battle_id=battle.pk, user=alice, expected_version=version, unit="0.e2.1", changes={"ammo": 5}
        )
    assert _ammo(battle, "0.e2.1") == 2  # the other phone's write stands, the prepared one never landed
