"""Long polling through one watcher thread: a waiting request wakes within a tick of a change, and waits its time
out when nothing changes."""

import threading
import time

import pytest
from django.db import connection

from battles.tests import commands
from battles.watch import VersionWatch


@pytest.mark.django_db(transaction=True)
def test_a_waiter_wakes_soon_after_the_battle_changes(battle, alice):
    watch = VersionWatch(tick=0.05)
    answers = []

    def waiter():
        try:
            start = time.monotonic()
            answers.append((watch.wait(battle.pk, battle.version, seconds=5), time.monotonic() - start))
        finally:
            connection.close()

    thread = threading.Thread(target=waiter)
    thread.start()
    time.sleep(0.3)
    commands.unit_adjust(
        battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1", changes={"ammo": 11}
    )
    thread.join(timeout=10)
    version, waited = answers[0]
    assert version == battle.version + 1
    assert 0.3 <= waited < 3.0  # a tick after the change (generous: the machine is shared)


@pytest.mark.django_db(transaction=True)
def test_a_waiter_times_out_when_nothing_changes(battle):
    watch = VersionWatch(tick=0.05)
    start = time.monotonic()
    assert watch.wait(battle.pk, battle.version, seconds=0.4) == battle.version
    assert time.monotonic() - start >= 0.4
