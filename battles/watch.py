"""Long polling without a query per waiting phone: one watcher thread per server process reads the versions of every
battle someone waits on, in one query per tick, and wakes the requests waiting for a change.

A phone's board request with `?wait=N` sleeps here instead of polling the database itself, so forty phones cost one
small query every TICK seconds, not forty. A tick wakes only the waiters of a battle whose version changed (and those
that arrived since the last reading, which need one reading taken after they began): waking every waiter on every
tick cost forty thread switches per tick, each taking the interpreter from a request at work (issue #11). The watcher
closes its connection whenever nobody waits.

Two kinds of waiters share it: a thread (`wait`, the sync views under a WSGI server and the tests' client) sleeps
on a condition; a coroutine (`wait_async`, the views served by gunicorn's uvicorn workers, config/asgi.py) awaits a
future of its event loop, which the watcher's thread resolves through `loop.call_soon_threadsafe` (asyncio's objects
may only be touched from their loop's thread). A waiting coroutine holds no thread and no database connection: a
hundred open streams are a hundred futures, not a hundred threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

from django.db import connection

TICK = 0.15


class _Battle:
    """The waiters of one battle, and its last reading."""

    __slots__ = ("cond", "futures", "waiting", "version", "read_at", "fresh_wanted")

    def __init__(self, lock: threading.Lock):
        self.cond = threading.Condition(lock)
        self.futures: set[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = set()  # waiting coroutines
        self.waiting = 0
        self.version: int | None = None
        self.read_at = float("-inf")
        self.fresh_wanted = False  # a waiter arrived since the last reading

    def wake(self) -> None:
        """Wakes every waiter, threads and coroutines (called with the watch's lock held)."""
        self.cond.notify_all()
        for loop, future in self.futures:
            with contextlib.suppress(RuntimeError):  # that loop has closed: its waiter is gone
                loop.call_soon_threadsafe(_resolve, future)


def _resolve(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


class VersionWatch:
    def __init__(self, *, tick: float = TICK):
        self.tick = tick
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)  # the watcher sleeps here while nobody waits
        self._battles: dict[int, _Battle] = {}
        self._thread: threading.Thread | None = None
        self.stopped = False

    def _enter(self, battle_id: int) -> _Battle:
        """Counts a new waiter of the battle (with the lock held) and wakes the watcher for a fresh reading."""
        entry = self._battles.get(battle_id)
        if entry is None:
            entry = self._battles[battle_id] = _Battle(self._lock)
        entry.waiting += 1
        entry.fresh_wanted = True
        self._start()
        self._idle.notify()
        return entry

    def _leave(self, battle_id: int, entry: _Battle) -> None:
        entry.waiting -= 1
        if entry.waiting <= 0:
            del self._battles[battle_id]

    def wait(self, battle_id: int, version: int, *, seconds: float) -> int:
        """The battle's version once it differs from `version`, or `version` when `seconds` have passed."""
        start = time.monotonic()
        deadline = start + seconds
        with self._lock:
            if self.stopped:
                return version
            entry = self._enter(battle_id)
            try:
                while True:
                    if entry.read_at >= start and entry.version is not None and entry.version != version:
                        return entry.version
                    left = deadline - time.monotonic()
                    if left <= 0 or self.stopped:
                        return version
                    entry.cond.wait(left)
            finally:
                self._leave(battle_id, entry)

    async def wait_async(self, battle_id: int, version: int, *, seconds: float) -> int:
        """`wait` for a coroutine: awaits a future that the watcher resolves, holding no thread meanwhile. The lock
        is only held for a few dictionary operations, never across an await."""
        start = time.monotonic()
        deadline = start + seconds
        loop = asyncio.get_running_loop()
        with self._lock:
            if self.stopped:
                return version
            entry = self._enter(battle_id)
        try:
            while True:
                with self._lock:
                    if entry.read_at >= start and entry.version is not None and entry.version != version:
                        return entry.version
                    left = deadline - time.monotonic()
                    if left <= 0 or self.stopped:
                        return version
                    waiter = (loop, loop.create_future())
                    entry.futures.add(waiter)
                try:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(waiter[1], left)
                finally:
                    with self._lock:
                        entry.futures.discard(waiter)
        finally:  # also when the phone went away (the request's task is cancelled)
            with self._lock:
                self._leave(battle_id, entry)

    def stop(self, timeout: float = 5.0) -> None:
        """Wakes every waiter and ends the watcher, which closes its connection (a test database can then be
        dropped while a phone's stream is still open)."""
        with self._lock:
            self.stopped = True
            for entry in self._battles.values():
                entry.wake()
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
                        entry.wake()
            time.sleep(self.tick)


WATCH = VersionWatch()


def stop_waiting() -> None:
    """Every waiting stream wakes and ends now (the server is stopping: config/lifecycle.py)."""
    WATCH.stop(timeout=0)
