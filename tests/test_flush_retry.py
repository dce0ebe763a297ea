"""The suite's own safety net (conftest.py `flush_again_after_a_deadlock`): a transactional test's flush that
PostgreSQL cancelled for a deadlock is tried again; any other failure of the flush is not."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django.db import OperationalError

from conftest import FLUSH_TRIES, flush_again_after_a_deadlock


def failing(times: int, cause: Exception):
    calls = []

    def fixture_teardown(case):
        calls.append(case)
        if len(calls) <= times:
            raise CommandError("Database test couldn't be flushed.") from cause

    return fixture_teardown, calls


def test_a_flush_cancelled_for_a_deadlock_is_tried_again():
    teardown, calls = failing(2, OperationalError("deadlock detected"))
    flush_again_after_a_deadlock(teardown)("case")
    assert calls == ["case"] * 3


def test_a_deadlock_every_time_fails_after_the_last_try():
    teardown, calls = failing(FLUSH_TRIES, OperationalError("deadlock detected"))
    with pytest.raises(CommandError):
        flush_again_after_a_deadlock(teardown)("case")
    assert len(calls) == FLUSH_TRIES


def test_another_failure_of_the_flush_is_not_tried_again():
    teardown, calls = failing(1, OperationalError('relation "armies_roster" does not exist'))
    with pytest.raises(CommandError):
        flush_again_after_a_deadlock(teardown)("case")
    assert len(calls) == 1
