"""The server `make run` starts, for tests (issue 11): gunicorn started the way scripts/run.sh starts it
(`python -m config.lan serve` with the environment of `config.lan.server_env`), on a free port, with its own database,
stopped by the test; `manage.py` run against that database; fixtures for a migrated SQLite file. Requests go to
127.0.0.1 only.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from config import lan

ROOT = Path(__file__).resolve().parent.parent
SECRET_KEY = "club-night-test-" + "k3y" * 16


# Helpers: environment, manage.py, the server ------------------------------------------------------------------
def base_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        {
            "DATABASE_URL": database_url,
            "SECRET_KEY": SECRET_KEY,
            "DEBUG": "false",
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }
    )
    if database_url.startswith("sqlite"):
        env["REDIS_URL"] = ""  # the embedded default: filesystem broker
    env.update(extra)
    return env


def manage(env: dict, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:] + result.stdout[-2000:]
    return result.stdout


def django_json(env: dict, code: str):
    """Runs `code` in `manage.py shell` against the server's database; it prints one line `JSON<payload>`."""
    out = manage(env, "shell", "-c", code)
    line = next(x for x in out.splitlines() if x.startswith("JSON"))
    return json.loads(line[4:])


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, port: int, env: dict, proc: subprocess.Popen, log: Path):
        self.port, self.env, self.proc, self.log = port, env, proc, log

    def request(self, method, path, *, body=None, headers=None, token=None, host=None):
        """One request over loopback: (status, headers (lower-case names), parsed JSON body or the raw bytes)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            return send(conn, method, path, body=body, headers=headers, token=token, host=host)
        finally:
            conn.close()


def send(conn, method, path, *, body=None, headers=None, token=None, host=None):
    hdrs = {"Accept": "application/json", **(headers or {})}
    if host:
        hdrs["Host"] = host
    if token:
        hdrs["Authorization"] = f"Token {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        hdrs["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=hdrs)
    response = conn.getresponse()
    raw = response.read()
    parsed = raw
    if "json" in (response.getheader("Content-Type") or ""):
        parsed = json.loads(raw) if raw else None
    return response.status, {k.lower(): v for k, v in response.getheaders()}, parsed


@contextmanager
def serving(database_url: str, tmp_path: Path, *, local_only: bool = True, **extra: str):
    """The server of `make run` (scripts/run.sh: `python -m config.lan serve`), on a free port, until the block ends."""
    port = free_port()
    env = base_env(database_url, ARMLIST_LOCAL_ONLY="1" if local_only else "0", **extra)
    env.update(lan.server_env(port, environ=env))
    log = tmp_path / f"gunicorn-{port}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "config.lan", "serve"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        if not lan.wait_until_serving(port, timeout=60) or proc.poll() is not None:
            raise AssertionError("the server did not start:\n" + log.read_text(errors="replace")[-3000:])
        yield Server(port, env, proc, log)
    except BaseException:
        print("server log (tail):\n" + log.read_text(errors="replace")[-6000:])
        raise
    finally:
        lan.stop_server(proc)


def listening_addresses(port: int) -> set[str]:
    """Addresses with a socket listening on `port`, from /proc/net/tcp and tcp6 (0.0.0.0, ::, 127.0.0.1…)."""
    import ipaddress

    found = set()
    for name in ("tcp", "tcp6"):
        path = Path("/proc/net") / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            local, state = fields[1], fields[3]
            addr_hex, port_hex = local.split(":")
            if state != "0A" or int(port_hex, 16) != port:  # 0A: LISTEN
                continue
            raw = bytes.fromhex(addr_hex)
            if len(raw) == 4:
                found.add(str(ipaddress.IPv4Address(raw[::-1])))
            else:  # four little-endian 32-bit words
                words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
                found.add(str(ipaddress.IPv6Address(words)))
    return found


@contextmanager
def postgres_database(*, template: str = ""):
    """A fresh database on the PostgreSQL server of the test run (scripts/test.sh), dropped afterwards; a copy of the
    database at the URL `template` if given (nobody may be connected to that one)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("PostgreSQL variant: run through scripts/test.sh (DATABASE_URL=postgres://…)")
    import psycopg

    parts = urlsplit(url)
    name = f"armlist_club_{secrets.token_hex(4)}"
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        source = f' TEMPLATE "{urlsplit(template).path.lstrip("/")}"' if template else ""
        conn.execute(f'CREATE DATABASE "{name}"{source}')
    try:
        yield parts._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# Many phones at once (issue: 200 phones on one laptop or on PostgreSQL) ----------------------------------------
PHONES = """
import json, sys
sys.path.insert(0, "benchmarks")
from bench_club_night import setup_data
print("JSON" + json.dumps(setup_data({count})))
"""


def phones(server: Server, count: int) -> list[dict]:
    """`count` phones in `count // 2` started battles (benchmarks/bench_club_night.py's data): each with its battle,
    API token, browser session and unit."""
    return django_json(server.env, PHONES.format(count=count))


def worker_pids(server: Server) -> list[int]:
    """gunicorn's workers: the children of its master."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == server.proc.pid:
                found.append(int(entry.name))
    return found


def thread_count(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/task").iterdir()))


def connections_to(database_url: str) -> int:
    """Sessions PostgreSQL holds for the server's database (this query's own excluded)."""
    import psycopg

    name = urlsplit(database_url).path.lstrip("/")
    admin = urlsplit(database_url)._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)).fetchone()[0]
