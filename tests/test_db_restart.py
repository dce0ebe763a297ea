"""A PostgreSQL restart costs no request once the database is back (issue #18, "A Postgres restart loses one request
per thread").

The test starts its own throwaway PostgreSQL cluster (initdb into a temporary folder on a free 127.0.0.1 port, as
scripts/test.sh does; never the shared test server), migrates it, and serves the app with gunicorn's threaded workers
the way `make run` does (tests/club_server.py). Every thread first holds a persistent connection
(CONN_MAX_AGE); then the cluster restarts (`pg_ctl restart -m fast`, which ends every session) while phones keep
asking. While the database is down an answer may be 503 with Retry-After (config/busy.py); once it is back, no
answer is 5xx, because Django checks a reused connection before the request uses it (CONN_HEALTH_CHECKS). The same
run with the checks turned off shows the fault the test guards against.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.club_server import base_env, django_json, free_port, serving

WEB = {"WEB_WORKERS": "2", "WEB_THREADS": "4"}  # 8 threads, each with its own persistent connection
BURST = 48  # requests at once: more than the threads, so every thread serves some
# The cluster's database set up in one shell (each Django start loads every system: seconds apiece): migrated, the
# official packs loaded (`manage.py migrate`, `manage.py load_packs`), a phone's user.
SETUP = """
import json
from django.core.management import call_command
call_command("migrate", interactive=False, verbosity=0)
call_command("load_packs")
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from armies.models import DataPack
user = get_user_model().objects.create_user("restart", password=None)
pack = DataPack.objects.filter(system="bronepekhota").order_by("-version").first()
print("JSON" + json.dumps({"token": Token.objects.create(user=user).key, "pack": pack.pk}))
"""


@dataclass
class Answer:
    sent: float  # time.monotonic() when the request left
    method: str
    path: str
    status: int
    retry_after: str | None


class Cluster:
    """A PostgreSQL cluster of this test alone."""

    def __init__(self, work: Path):
        self.work = work
        self.bin = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version)[-1])
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/armlist"

    def run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"{args[0]} failed: {result.stderr[-2000:]}{result.stdout[-1000:]}"

    def pg_ctl(self, action: str, *args: str) -> None:
        options = f"-p {self.port} -k {self.work} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50"
        self.run(
            "pg_ctl", "-D", str(self.work / "pg"), "-l", str(self.work / "pg.log"), "-w", "-o", options, action, *args
        )

    def start(self) -> None:
        self.run("initdb", "-D", str(self.work / "pg"), "-A", "trust", "-U", "postgres", "--no-sync")
        self.pg_ctl("start")
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "armlist")

    def restart(self) -> None:
        self.pg_ctl("restart", "-m", "fast")  # ends every session, then waits until it accepts connections again

    def stop(self) -> None:
        command = [str(self.bin / "pg_ctl"), "-D", str(self.work / "pg"), "-m", "immediate", "stop"]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, capture_output=True, timeout=60)


def _version(path: str) -> tuple[int, ...]:
    return tuple(int(p) for p in Path(path).parent.name.split(".") if p.isdigit())


@pytest.fixture(scope="module")
def cluster():
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        pytest.fail("PostgreSQL's server binaries are missing (scripts/test.sh installs the postgresql package)")
    work = Path(tempfile.mkdtemp(prefix="armlist-dbrestart-"))
    work.chmod(0o755)
    if os.geteuid() == 0:
        postgres = pwd.getpwnam("postgres")
        os.chown(work, postgres.pw_uid, postgres.pw_gid)
    cluster = Cluster(work)
    try:
        cluster.start()
        env = base_env(cluster.url)
        cluster.setup = django_json(env, SETUP)
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(work, ignore_errors=True)


def ask(server, token: str, pack: int, n: int) -> Answer:
    """One of a phone's requests: its own token read, a list, a write, a page."""
    kind = n % 4
    method, path, body = "GET", "/api/v1/auth/me/", None
    if kind == 1:
        path = "/api/v1/rosters/"
    elif kind == 2:
        method, path, body = "POST", "/api/v1/rosters/", {"pack": pack, "name": f"R{n}", "faction": "protectorate"}
    elif kind == 3:
        path = "/accounts/login/"
    sent = time.monotonic()
    status, headers, _ = server.request(method, path, body=body, token=token if kind != 3 else None)
    return Answer(sent, method, path, status, headers.get("retry-after"))


def burst(server, setup: dict, count: int = BURST) -> list[Answer]:
    with ThreadPoolExecutor(max_workers=16) as pool:
        return list(pool.map(lambda n: ask(server, setup["token"], setup["pack"], n), range(count)))


def restart_under_load(server, cluster: Cluster) -> tuple[list[Answer], float, float]:
    """Phones keep asking while the cluster restarts. Answers, and when the restart began and ended."""
    answers: list[Answer] = []
    stop = threading.Event()

    def phone(offset: int) -> None:
        n = offset
        while not stop.is_set():
            answers.append(ask(server, cluster.setup["token"], cluster.setup["pack"], n))
            n += 4

    phones = [threading.Thread(target=phone, args=(i,)) for i in range(4)]
    for t in phones:
        t.start()
    time.sleep(0.5)
    began = time.monotonic()
    cluster.restart()
    back = time.monotonic()
    time.sleep(1.0)
    stop.set()
    for t in phones:
        t.join(timeout=90)
    return answers, began, back


def server_errors(answers: list[Answer]) -> list[str]:
    return [f"{a.method} {a.path} -> {a.status}" for a in answers if a.status >= 500]


def test_no_request_fails_once_postgres_is_back(cluster, tmp_path):
    with serving(cluster.url, tmp_path, **WEB) as server:
        warm = burst(server, cluster.setup)  # every thread now holds a connection
        assert server_errors(warm) == []
        assert {a.status for a in warm} <= {200, 201}, [(a.path, a.status) for a in warm]

        during, began, back = restart_under_load(server, cluster)
        after = burst(server, cluster.setup)

    late = [a for a in during if a.sent >= back] + after
    assert server_errors(late) == []  # the database is back: nothing fails, not even each thread's first request
    assert {a.status for a in late} <= {200, 201}
    down = [a for a in during if a.sent < back]
    # While it was down, "try again shortly" is the only server error allowed.
    assert [a for a in down if a.status >= 500 and (a.status != 503 or not a.retry_after)] == []
    assert len(during) > 0
    assert len(after) == BURST
    print(
        f"restart took {back - began:.1f} s; {len(down)} requests while down "
        f"({sum(a.status == 503 for a in down)} answered 503), {len(late)} after, none failed"
    )


def test_without_health_checks_the_first_request_of_a_thread_fails(cluster, tmp_path):
    """The control: the same restart with CONN_HEALTH_CHECKS off shows the fault, so the test above can fail."""
    with serving(cluster.url, tmp_path, DB_CONN_HEALTH_CHECKS="false", **WEB) as server:
        assert server_errors(burst(server, cluster.setup)) == []
        cluster.restart()
        after = burst(server, cluster.setup)
    assert server_errors(after) != []


def test_an_unreachable_postgres_is_try_again_but_other_database_errors_are_not():
    """config/busy.py: the 503 covers a server that is not there (no SQLSTATE) or shutting down, not a broken query."""
    import sqlite3

    import psycopg
    from django.db import OperationalError

    from config.busy import is_database_busy

    def wrapped(cause):
        exc = OperationalError(str(cause))
        exc.__cause__ = cause
        return exc

    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect(f"postgres://postgres@127.0.0.1:{free_port()}/armlist", connect_timeout=2)
    assert refused.value.sqlstate is None
    assert is_database_busy(wrapped(refused.value))
    assert is_database_busy(wrapped(psycopg.errors.AdminShutdown("terminating connection")))
    assert is_database_busy(wrapped(psycopg.errors.CannotConnectNow("the database system is starting up")))
    assert not is_database_busy(wrapped(psycopg.errors.DiskFull("could not extend file")))
    assert not is_database_busy(wrapped(sqlite3.OperationalError("no such table: armies_roster")))
