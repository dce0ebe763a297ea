"""Long polling without a query per waiting phone: one watcher thread per server process reads the versions of every
battle someone waits on, in one query per tick, and wakes the requests waiting for a change.

A phone's board request with `?wait=N` sleeps here instead of polling the database itself, so forty phones cost one
small query every TICK seconds, not forty. The watcher closes its connection whenever nobody waits.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

from django.db import connection

TICK = 0.15


class VersionWatch:
    def __init__(self, *, tick: float = TICK):
        self.tick = tick
        self._cond = threading.Condition()
        self._waiting: Counter[int] = Counter()
        self._seen: dict[int, tuple[int, float]] = {}  # battle id -> (version, when it was read)
        self._thread: threading.Thread | None = None

    def wait(self, battle_id: int, version: int, *, seconds: float) -> int:
        """The battle's version once it differs from `version`, or `version` when `seconds` have passed."""
        start = time.monotonic()
        deadline = start + seconds
        with self._cond:
            self._waiting[battle_id] += 1
            self._start()
            try:
                while True:
                    seen = self._seen.get(battle_id)
                    if seen is not None and seen[1] >= start and seen[0] != version:
                        return seen[0]
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return version
                    self._cond.wait(left)
            finally:
                self._waiting[battle_id] -= 1
                if self._waiting[battle_id] <= 0:
                    del self._waiting[battle_id]
                    self._seen.pop(battle_id, None)

    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="battle-version-watch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        from battles.models import Battle

        while True:
            with self._cond:
                ids = list(self._waiting)
                if not ids:
                    connection.close()  # nobody waits: hold no connection
                    self._cond.wait(1.0)
                    continue
            try:
                rows = dict(Battle.objects.filter(pk__in=ids).order_by().values_list("pk", "version"))
            except Exception:  # the database is away for a moment: the waiters time out and poll again
                connection.close()
                rows = {}
            now = time.monotonic()
            with self._cond:
                for battle_id, version in rows.items():
                    self._seen[battle_id] = (version, now)
                self._cond.notify_all()
            time.sleep(self.tick)


WATCH = VersionWatch()
