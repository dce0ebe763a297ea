"""SQLite set up for several phones (issue 11): the pragmas of a fresh connection, write transactions that queue in
turn within a process and across processes (config/sqlite/base.py), and a busy database answered 503 + Retry-After."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.club_server import (
    ROOT,
    base_env,
    django_json,
    manage,
)

# SQLite --------------------------------------------------------------------------------------------------------
PRAGMAS = """
import json
from django.db import connection
with connection.cursor() as c:
    values = {p: c.execute(f"PRAGMA {p}").fetchone()[0] for p in ("journal_mode", "busy_timeout", "foreign_keys", "synchronous")}
values["transaction_mode"] = connection.transaction_mode
print("JSON" + json.dumps(values))
"""


def test_sqlite_pragmas_are_in_force_on_a_fresh_connection(sqlite_url):
    env = base_env(sqlite_url)
    manage(env, "migrate", "--noinput", "--verbosity", "0")
    values = django_json(env, PRAGMAS)
    assert values["journal_mode"] == "wal"
    assert values["busy_timeout"] >= 5000  # ms: a write waits for the lock instead of failing at once
    assert values["foreign_keys"] == 1
    assert values["synchronous"] == 1  # NORMAL: safe with WAL, one fsync per checkpoint
    assert values["transaction_mode"] == "IMMEDIATE"  # writes lock at BEGIN, so two writers never deadlock
    # The file itself is in WAL mode, whoever opens it next.
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert django_json(base_env(sqlite_url, SQLITE_TIMEOUT="2.5"), PRAGMAS)["busy_timeout"] == 2500


WRITE_LOCK = """
import json, threading, time
from django.db import OperationalError, connection, connections, transaction
from config.sqlite.base import write_lock
lock = write_lock(connection.settings_dict["NAME"])
out = {"engine": connection.settings_dict["ENGINE"], "vendor": connection.vendor}
with transaction.atomic():
    out["held_inside"] = lock.locked()
out["after_commit"] = lock.locked()
try:
    with transaction.atomic():
        raise ValueError
except ValueError:
    pass
out["after_rollback"] = lock.locked()
# A second thread's write transaction waits for the first one's end, then goes through.
def other(result):
    t = time.monotonic()
    try:
        with transaction.atomic():
            result["waited"] = time.monotonic() - t
    except OperationalError as exc:
        result["error"] = str(exc)
    finally:
        connections.close_all()
second = {}
with transaction.atomic():
    thread = threading.Thread(target=other, args=(second,))
    thread.start()
    time.sleep(HOLD)
thread.join()
out["second"] = second
out["at_end"] = lock.locked()
print("JSON" + json.dumps(out))
"""


def test_write_transactions_of_a_process_queue_in_turn_and_release_the_lock(migrated_sqlite):
    values = django_json(base_env(migrated_sqlite), WRITE_LOCK.replace("HOLD", "0.5"))
    assert values["engine"] == "config.sqlite"
    assert values["vendor"] == "sqlite"
    assert values["held_inside"] is True
    assert values["after_commit"] is False
    assert values["after_rollback"] is False
    assert values["second"]["waited"] >= 0.4
    assert values["at_end"] is False
    # Past SQLITE_TIMEOUT the second writer gives up as "database is locked" (answered 503 by config/busy.py).
    values = django_json(base_env(migrated_sqlite, SQLITE_TIMEOUT="0.2"), WRITE_LOCK.replace("HOLD", "1.0"))
    assert "database is locked" in values["second"]["error"]
    assert values["at_end"] is False


HOLD_IN_ONE_PROCESS = """
import os, time
from django.db import transaction
from battles.models import Battle
with transaction.atomic():
    Battle.objects.filter(pk=-1).update(version=0)  # a write: the transaction holds the writers' locks
    print("HELD", flush=True)
    end = time.monotonic() + 60
    while not os.path.exists("READY") and time.monotonic() < end:  # the other process is about to write
        time.sleep(0.01)
    time.sleep(HOLD)
print("DONE", flush=True)
"""

WRITE_FROM_ANOTHER = """
import json, time
from django.db import OperationalError, transaction
from battles.models import Battle
out = {}
open("READY", "w").close()
t = time.monotonic()
try:
    with transaction.atomic():
        Battle.objects.filter(pk=-1).update(version=0)
    out["waited"] = time.monotonic() - t
except OperationalError as exc:
    out["error"] = str(exc)
print("JSON" + json.dumps(out))
"""


def _holding(env: dict, hold: float, ready: Path) -> subprocess.Popen:
    """A process holding a write transaction until `ready` exists and `hold` seconds more."""
    ready.unlink(missing_ok=True)
    proc = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            HOLD_IN_ONE_PROCESS.replace("HOLD", str(hold)).replace("READY", str(ready)),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    for line in proc.stdout:  # the shell may first say how many objects it imported
        if line.strip() == "HELD":
            return proc
    raise AssertionError("the holding process never held the lock")


def test_writers_of_two_processes_queue_on_the_lock_file_not_on_sqlites_back_off(migrated_sqlite, tmp_path):
    """The other gunicorn worker (or the Celery worker) writing: the write waits for the lock file beside the
    database, which hands over within a millisecond, instead of SQLite's busy handler (issue #11)."""
    env = base_env(migrated_sqlite)
    ready = tmp_path / "ready"
    holder = _holding(env, 0.6, ready)
    try:
        values = django_json(env, WRITE_FROM_ANOTHER.replace("READY", str(ready)))
    finally:
        holder.wait(timeout=30)
    assert "error" not in values
    assert values["waited"] >= 0.5  # it waited for the other process's transaction to end
    assert Path(migrated_sqlite.removeprefix("sqlite:///") + "-writers").exists()
    # Past SQLITE_TIMEOUT it gives up as "database is locked", from the lock file (answered 503 by config/busy.py).
    holder = _holding(env, 3.0, ready)
    try:
        values = django_json(
            base_env(migrated_sqlite, SQLITE_TIMEOUT="0.3"), WRITE_FROM_ANOTHER.replace("READY", str(ready))
        )
    finally:
        holder.wait(timeout=30)
    assert "database is locked (the writers of another process took too long)" in values["error"]


def test_sqlite_options_only_for_sqlite():
    code = (
        "import json; from django.conf import settings; db = settings.DATABASES['default']; "
        "print('JSON' + json.dumps([db.get('OPTIONS', {}), db['ENGINE']]))"
    )  # one shell: each loads Django and every system
    options, engine = django_json(base_env("postgres://u@127.0.0.1:1/x"), code)
    assert "transaction_mode" not in options
    assert "init_command" not in options
    assert engine == "django.db.backends.postgresql"


# Busy database: 503 + Retry-After, never 500 ----------------------------------------------------------------------
def test_busy_middleware_maps_a_locked_database_to_503_for_pages_and_api(rf):
    from django.db import OperationalError

    from config.busy import DatabaseBusyMiddleware

    middleware = DatabaseBusyMiddleware(lambda request: None)
    api = middleware.process_exception(
        rf.post("/api/v1/battles/1/commands/adjust/"), OperationalError("database is locked")
    )
    assert api.status_code == 503
    assert api["Retry-After"].isdigit()
    assert json.loads(api.content)["code"] == "busy"
    page = middleware.process_exception(rf.get("/battles/1/"), OperationalError("database is locked"))
    assert page.status_code == 503
    assert page["Retry-After"].isdigit()
    assert page["Content-Type"].startswith("text/html")
    assert middleware.process_exception(rf.get("/"), OperationalError("no such table: x")) is None
    assert middleware.process_exception(rf.get("/"), ValueError("database is locked")) is None


HUGE_IDS = """
import json
from django.test import Client
from battles import rows
answers = {path: Client().get(path).status_code for path in (
    "/battles/99999999999999999999999/board", "/battles/9223372036854775808/stream",
    "/api/v1/battles/9223372036854775808/",
)}
reads = [rows.battle_head(10**30), rows.battle(2**63), rows.locked_version(2**64), rows.battle_version(-1)]
print("JSON" + json.dumps({"answers": answers, "reads": reads}))
"""


def test_battle_ids_past_what_sqlite_holds_are_no_such_battle_not_an_error(migrated_sqlite):
    """SQLite refuses a number past 2^63 - 1 as an error, not as "no row" (battles/rows.py binds ids itself): a path
    may carry any digits, so every such id answers 404 or 401 like any battle that does not exist."""
    values = django_json(base_env(migrated_sqlite, ALLOWED_HOSTS="testserver"), HUGE_IDS)
    assert values["reads"] == [None, None, None, None]
    assert values["answers"]["/battles/99999999999999999999999/board"] == 404
    assert values["answers"]["/battles/9223372036854775808/stream"] == 404
    assert values["answers"]["/api/v1/battles/9223372036854775808/"] in {401, 404}
