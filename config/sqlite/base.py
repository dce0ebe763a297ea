"""Django's SQLite backend, with the write transactions of one server process queued on a lock.

With `transaction_mode: IMMEDIATE` every write transaction takes SQLite's write lock at BEGIN; a writer that finds
it taken waits in SQLite's busy handler, which sleeps and retries (up to 100 ms at a time, in no order). With many
threads per gunicorn worker, a writer can keep losing that race until its timeout runs out, while others get
through. Here the writers of a process first take a process-wide lock, which hands over at once and in turn, so
SQLite's own wait only arbitrates between processes (one per core). The lock is held from BEGIN to the end of the
transaction (commit, rollback, or a closed connection) and waits at most the database's `timeout`; then the write
fails as "database is locked", which the site answers with 503 + Retry-After (config/busy.py).

Reads, and writes made outside a transaction (one statement each), do not take it.
"""

from __future__ import annotations

import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def write_lock(name: str) -> threading.Lock:
    """The lock of one database file, shared by every connection of this process."""
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(str(name), threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_write_lock = False

    def _start_transaction_under_autocommit(self):
        if self.transaction_mode in ("IMMEDIATE", "EXCLUSIVE") and not self._holds_write_lock:
            timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
            if not write_lock(self.settings_dict["NAME"]).acquire(timeout=timeout):
                raise OperationalError("database is locked (the other writers of this process took too long)")
            self._holds_write_lock = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock()
            raise

    def _release_write_lock(self) -> None:
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
