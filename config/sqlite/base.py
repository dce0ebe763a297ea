"""Django's SQLite backend, with the write transactions of one server process queued on a lock.

With `transaction_mode: IMMEDIATE` every write transaction takes SQLite's write lock at BEGIN; a writer that finds
it taken waits in SQLite's busy handler, which sleeps and retries (up to 100 ms at a time, in no order). With many
threads per gunicorn worker, a writer can keep losing that race until its timeout runs out, while others get
through. Here the writers of a process first take a process-wide lock, which hands over at once and in turn, and
then a lock file beside the database (`<name>-writers`, flock), which the writers of the other processes (the other
gunicorn workers, the Celery worker) take too: it is polled every millisecond, so a write waits for the one before
it and not for SQLite's back-off, which sleeps up to 100 ms at a time and made event posts queue for seconds with
forty phones (issue #11, benchmarks/bench_club_night.py). SQLite's own busy wait remains for any writer that does not
take the file lock. The locks are held from BEGIN to the end of the transaction (commit, rollback, or a closed
connection) and wait at most the database's `timeout` together; then the write fails as "database is locked", which
the site answers with 503 + Retry-After (config/busy.py).

Reads, and writes made outside a transaction (one statement each), do not take it.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def write_lock(name: str) -> threading.Lock:
    """The lock of one database file, shared by every connection of this process."""
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(str(name), threading.Lock())


_FILES: dict[tuple[int, str], int] = {}  # (process, database) -> the lock file's descriptor, opened once per process
FILE_LOCK_POLL = 0.001  # seconds between two tries of the lock file (a try is one system call)


def _lock_file(name: str) -> int | None:
    """The descriptor of the database's lock file in this process; None for a database in memory. Keyed by the
    process as well: a descriptor inherited through fork shares its lock with the parent, so it must not be used."""
    if not name or name == ":memory:" or str(name).startswith("file:") or "mode=memory" in str(name):
        return None
    key = (os.getpid(), str(name))
    with _LOCKS_GUARD:
        if key not in _FILES:
            _FILES[key] = os.open(f"{name}-writers", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        return _FILES[key]


def _acquire_file(fd: int, deadline: float) -> bool:
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(FILE_LOCK_POLL)


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_write_lock = False
    _held_file: int | None = None

    def _start_transaction_under_autocommit(self):
        if self.transaction_mode in ("IMMEDIATE", "EXCLUSIVE") and not self._holds_write_lock:
            timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
            deadline = time.monotonic() + timeout
            name = self.settings_dict["NAME"]
            if not write_lock(name).acquire(timeout=timeout):
                raise OperationalError("database is locked (the other writers of this process took too long)")
            self._holds_write_lock = True
            fd = _lock_file(name)
            if fd is not None:
                if not _acquire_file(fd, deadline):
                    self._release_write_lock()
                    raise OperationalError("database is locked (the writers of another process took too long)")
                self._held_file = fd
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock()
            raise

    def _release_write_lock(self) -> None:
        if self._held_file is not None:
            fd, self._held_file = self._held_file, None
            fcntl.flock(fd, fcntl.LOCK_UN)
        if self._holds_write_lock:
            self._holds_write_lock = False
            write_lock(self.settings_dict["NAME"]).release()

    def _set_autocommit(self, autocommit):
        try:
            super()._set_autocommit(autocommit)
        finally:
            if autocommit:  # the end of an atomic block: committed or rolled back
                self._release_write_lock()

    def _close(self):
        try:
            super()._close()
        finally:
            self._release_write_lock()
