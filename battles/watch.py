"""Long polling without a query per waiting phone: one watcher thread per server process reads the versions of every
battle someone waits on, in one query per tick, and wakes the requests waiting for a change.

A phone's board request with `?wait=N` sleeps here instead of polling the database itself, so forty phones cost one
small query every TICK seconds, not forty. A tick wakes only the waiters of a battle whose version changed (and those
that arrived since the last reading, which need one reading taken after they began): waking every waiter on every
tick cost forty thread switches per tick, each taking the interpreter from a request at work (issue #11). The watcher
closes its connection whenever nobody waits.
"""

from __future__ import annotations

import threading
import time

from django.db import connection

TICK = 0.15


class _Battle:
    """The waiters of one battle, and its last reading."""

    __slots__ = ("cond", "waiting", "version", "read_at", "fresh_wanted")

    def __init__(self, lock: threading.Lock):
        self.cond = threading.Condition(lock)
        self.waiting = 0
        self.version: int | None = None
        self.read_at = float("-inf")
        self.fresh_wanted = False  # a waiter arrived since the last reading


class VersionWatch:
    def __init__(self, *, tick: float = TICK):
        self.tick = tick
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)  # the watcher sleeps here while nobody waits
        self._battles: dict[int, _Battle] = {}
        self._thread: threading.Thread | None = None
        self.stopped = False

    def wait(self, battle_id: int, version: int, *, seconds: float) -> int:
        """The battle's version once it differs from `version`, or `version` when `seconds` have passed."""
        start = time.monotonic()
        deadline = start + seconds
        with self._lock:
            if self.stopped:
                return version
            entry = self._battles.get(battle_id)
            if entry is None:
                entry = self._battles[battle_id] = _Battle(self._lock)
            entry.waiting += 1
            entry.fresh_wanted = True
            self._start()
            self._idle.notify()
            try:
                while True:
                    if entry.read_at >= start and entry.version is not None and entry.version != version:
                        return entry.version
                    left = deadline - time.monotonic()
                    if left <= 0 or self.stopped:
                        return version
                    entry.cond.wait(left)
            finally:
                entry.waiting -= 1
                if entry.waiting <= 0:
                    del self._battles[battle_id]

    def stop(self, timeout: float = 5.0) -> None:
        """Wakes every waiter and ends the watcher, which closes its connection (a test database can then be
        dropped while a phone's stream is still open)."""
        with self._lock:
            self.stopped = True
            for entry in self._battles.values():
                entry.cond.notify_all()
            self._idle.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="battle-version-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        from battles.models import Battle

        while True:
            with self._lock:
                if self.stopped:
                    connection.close()
                    return
                ids = list(self._battles)
                if not ids:
                    connection.close()  # nobody waits: hold no connection
                    self._idle.wait(1.0)
                    continue
            try:
                rows = dict(Battle.objects.filter(pk__in=ids).order_by().values_list("pk", "version"))
            except Exception:  # the database is away for a moment: the waiters time out and poll again
                connection.close()
                rows = {}
            now = time.monotonic()
            with self._lock:
                for battle_id, version in rows.items():
                    entry = self._battles.get(battle_id)
                    if entry is None:
                        continue
                    changed = version != entry.version
                    entry.version, entry.read_at = version, now
                    if changed or entry.fresh_wanted:
                        entry.fresh_wanted = False
                        entry.cond.notify_all()
            time.sleep(self.tick)


WATCH = VersionWatch()
