"""Club night on one laptop (issue 11, server half): the server `make run` starts, on the LAN, SQLite set up for
several phones, and busy answers that are 503 + Retry-After rather than 500.

Every server here is gunicorn started the way scripts/run.sh starts it (`python -m config.lan serve` with the
environment of `config.lan.server_env`), on a free port, with its own database, and stopped by the test. Requests
go to 127.0.0.1 only; the LAN address appears only in a Host header.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from config import lan

ROOT = Path(__file__).resolve().parent.parent
WRITES_PER_PHONE = 200
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
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


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


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'club.sqlite3'}"


@pytest.fixture
def migrated_sqlite(sqlite_url):
    manage(base_env(sqlite_url), "migrate", "--noinput", "--verbosity", "0")
    return sqlite_url


@contextmanager
def postgres_database():
    """A fresh database on the PostgreSQL server of the test run (scripts/test.sh), dropped afterwards."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("PostgreSQL variant: run through scripts/test.sh (DATABASE_URL=postgres://…)")
    import psycopg

    parts = urlsplit(url)
    name = f"armlist_club_{secrets.token_hex(4)}"
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield parts._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# The server make run starts ------------------------------------------------------------------------------------
def printed_url(env: dict) -> str:
    """The address `make run` prints (the first URL of `python -m config.lan banner`)."""
    result = subprocess.run(
        [sys.executable, "-m", "config.lan", "banner"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=90
    )
    assert result.returncode == 0, result.stderr
    return re.search(r"https?://\S+", result.stdout).group(0)


def test_make_run_server_listens_on_all_interfaces_and_accepts_its_lan_address(migrated_sqlite, tmp_path):
    static = str(tmp_path / "static")
    manage(base_env(migrated_sqlite, STATIC_ROOT=static), "collectstatic", "--noinput", "--verbosity", "0")  # as run.sh
    with serving(migrated_sqlite, tmp_path, local_only=False, STATIC_ROOT=static) as server:
        bound = listening_addresses(server.port)
        assert bound, "nothing listens on the port"
        assert bound <= {"0.0.0.0", "::"}, bound  # every interface, nothing narrower

        url = printed_url(server.env)
        assert url in server.env["ARMLIST_URL"]
        host = urlsplit(url).netloc
        addresses = lan.lan_addresses()
        if addresses:  # a machine on a network prints its LAN address, never loopback
            assert urlsplit(url).hostname == addresses[0]
        # Over loopback, as a phone would ask for it on the Wi-Fi.
        status, _, _ = server.request("GET", "/", host=host, headers={"Accept": "text/html"})
        assert status == 200
        status, _, body = server.request("GET", "/healthz", host=host)
        assert status == 200, body
        status, headers, _ = server.request("GET", "/static/css/site.css", host=host)  # whitenoise, DEBUG off
        assert status == 200
        assert headers["content-type"].startswith("text/css")
        for name in lan.host_names():
            assert server.request("GET", "/healthz", host=f"{name}:{server.port}")[0] == 200
        # A Host the laptop is not known by.
        assert server.request("GET", "/", host="evil.example", headers={"Accept": "text/html"})[0] == 400
        assert server.request("GET", "/healthz", host=f"203.0.113.9:{server.port}")[0] == 400


def test_local_only_setting_keeps_the_server_on_loopback(migrated_sqlite, tmp_path):
    with serving(migrated_sqlite, tmp_path, local_only=True) as server:
        assert listening_addresses(server.port) == {"127.0.0.1"}
        assert server.request("GET", "/healthz", host=f"127.0.0.1:{server.port}")[0] == 200
        for address in lan.lan_addresses():
            assert server.request("GET", "/healthz", host=f"{lan.url_host(address)}:{server.port}")[0] == 400
        assert "this laptop only" in lan.banner(server.env)


def test_server_env_on_the_lan_and_local_only():
    env = lan.server_env(8123, environ={"ALLOWED_HOSTS": "club.example"})
    hosts = env["ALLOWED_HOSTS"].split(",")
    assert {"club.example", "localhost", "127.0.0.1", "[::1]"} <= set(hosts)
    for address in lan.lan_addresses():
        assert lan.url_host(address) in hosts
        assert f"http://{lan.url_host(address)}:8123" in env["CSRF_TRUSTED_ORIGINS"].split(",")
    assert all(b.rsplit(":", 1)[0] in {"0.0.0.0", "[::]"} for b in env["ARMLIST_BIND"].split())
    local = lan.server_env(8123, environ={"ARMLIST_LOCAL_ONLY": "1"})
    assert local["ARMLIST_BIND"] == "127.0.0.1:8123"
    assert local["ARMLIST_URL"] == "http://127.0.0.1:8123/"
    assert local["ALLOWED_HOSTS"] == "localhost,127.0.0.1,[::1]"


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
    code = "import json; from django.conf import settings; print('JSON' + json.dumps(settings.DATABASES['default'].get('OPTIONS', {})))"
    options = django_json(base_env("postgres://u@127.0.0.1:1/x"), code)
    assert "transaction_mode" not in options
    assert "init_command" not in options
    engine = django_json(
        base_env("postgres://u@127.0.0.1:1/x"),
        "import json; from django.conf import settings; print('JSON' + json.dumps(settings.DATABASES['default']['ENGINE']))",
    )
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


def make_battle(server: Server) -> dict:
    """Two players with API tokens; alice builds two rosters through the armies API and starts the battle through
    the battles API (POST /api/v1/battles/); bob takes the second side by its invitation."""
    env = server.env
    setup = django_json(
        env,
        """
import json
from django.core.management import call_command
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from armies.models import DataPack
call_command("load_packs", "rules/systems/bronepekhota/data/tehnolog-classic.json", verbosity=0)
pack = DataPack.objects.filter(system="bronepekhota", slug="tehnolog-classic").order_by("-version").first()
out = {"pack": pack.pk}
for name in ("alice", "bob"):
    out[name] = Token.objects.create(user=get_user_model().objects.create_user(name)).key
print("JSON" + json.dumps(out))
""",
    )
    alice = setup["alice"]

    def roster(name, faction, squad, vehicle, pilot_soldier):
        status, _, body = server.request(
            "POST", "/api/v1/rosters/", token=alice, body={"pack": setup["pack"], "name": name, "faction": faction}
        )
        assert status == 201, body
        rid = body["id"]
        status, _, body = server.request(
            "POST", f"/api/v1/rosters/{rid}/entries/", token=alice, body={"profile": squad}
        )
        assert status == 201, body
        squad_key = body["entries"][-1]["key"]
        pilot = [{"entry": squad_key, "soldier": pilot_soldier, "copy": 1}]
        status, _, body = server.request(
            "POST",
            f"/api/v1/rosters/{rid}/entries/",
            token=alice,
            body={"profile": vehicle, "options": {"pilot": pilot}},
        )
        assert status == 201, body
        return rid, body["entries"][-1]["key"]

    blue, blue_vehicle = roster("Blue", "protectorate", "protectorate_kiberpehota", "salamander", 2)
    red, red_vehicle = roster("Red", "polaris", "polaris_lineynaya_klon_pehota", "raptor", 3)
    status, _, body = server.request(
        "POST", "/api/v1/battles/", token=alice, body={"name": "Club night", "rosters": [blue, red], "my_side": 0}
    )
    assert status == 201, body
    battle_id = body["id"]
    invite = next(i for i in body["invitations"] if i["side"] == 1)["url"].rstrip("/").rsplit("/", 1)[1]
    django_json(
        env,
        f"""
from django.contrib.auth import get_user_model
from battles import services
services.battle_join(token={invite!r}, user=get_user_model().objects.get(username="bob"))
print("JSON{{}}")
""",
    )
    return {
        "id": battle_id,
        "phones": [("a", alice, f"0.{blue_vehicle}.1"), ("b", setup["bob"], f"1.{red_vehicle}.1")],
    }


def command_request(battle_id: int, unit: str, ammo: int, etag: str, key: str) -> tuple[str, str, dict, dict]:
    """One write as the battle API takes it: (method, path, body, headers). The only place that knows the endpoint."""
    return (
        "POST",
        f"/api/v1/battles/{battle_id}/commands/adjust/",
        {"unit": unit, "changes": {"ammo": ammo}},
        {"If-Match": etag, "Idempotency-Key": key},
    )


def phone_writer(server: Server, battle_id: int, tag: str, token: str, unit: str, stats: Counter, failures: list):
    """200 writes in a row, each retried on 412 with the version the answer gives; every 50th is sent twice (a
    phone that missed the answer): the second must replay the first."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        status, headers, _ = send(conn, "GET", f"/api/v1/battles/{battle_id}/", token=token)
        etag = headers["etag"]
        for i in range(WRITES_PER_PHONE):
            method, path, body, hdrs = command_request(battle_id, unit, i % 12, etag, f"{tag}-{i}")
            while True:
                status, headers, answer = send(conn, method, path, body=body, headers=hdrs, token=token)
                stats[status] += 1
                if status == 201:
                    etag = headers["etag"]
                    break
                if status != 412:
                    failures.append(f"{tag}-{i}: {status} {str(answer)[:300]}")
                    return
                hdrs = {**hdrs, "If-Match": f'"v{answer["version"]}"'}
            if i % 50 == 0:
                status, headers, answer = send(conn, method, path, body=body, headers=hdrs, token=token)
                stats[status] += 1
                stats["replayed"] += headers.get("idempotent-replayed") == "true"
                if status != 201:
                    failures.append(f"{tag}-{i} again: {status} {str(answer)[:300]}")
    except Exception as exc:  # reported by the main thread
        failures.append(f"{tag}: {exc!r}")
    finally:
        conn.close()


CHECK = """
import json
from collections import Counter
from battles import services
from battles.models import Battle, BattleEvent, BattleUnit
battle = Battle.objects.get(pk={battle_id})
events = list(BattleEvent.objects.filter(battle=battle).order_by("seq"))
ok, why = services.replay_matches(battle)
print("JSON" + json.dumps({{
    "keys": Counter(e.idempotency_key for e in events if e.idempotency_key),
    "seqs": [e.seq for e in events],
    "version": battle.version,
    "replay": [ok, str(why)],
    "ammo": {{u.key: u.state.get("ammo") for u in BattleUnit.objects.filter(battle=battle)}},
}}))
"""


def two_phones_at_once(server: Server) -> None:
    battle = make_battle(server)
    start = django_json(server.env, CHECK.format(battle_id=battle["id"]))
    stats = {tag: Counter() for tag, _, _ in battle["phones"]}
    failures: list[str] = []
    threads = [
        threading.Thread(target=phone_writer, args=(server, battle["id"], tag, token, unit, stats[tag], failures))
        for tag, token, unit in battle["phones"]
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not any(t.is_alive() for t in threads)
    server_errors = {tag: {s: n for s, n in c.items() if isinstance(s, int) and s >= 500} for tag, c in stats.items()}
    assert not any(server_errors.values()), (server_errors, failures[:5])
    assert not failures, failures[:5]

    end = django_json(server.env, CHECK.format(battle_id=battle["id"]))
    keys = Counter(end["keys"])
    mine = Counter({k: n for k, n in keys.items() if k not in start["keys"]})
    assert len(mine) == 2 * WRITES_PER_PHONE  # none lost
    assert set(mine.values()) == {1}  # none doubled (the re-sent ones replayed)
    assert end["seqs"] == list(range(1, len(end["seqs"]) + 1))
    assert end["version"] == end["seqs"][-1] == start["version"] + 2 * WRITES_PER_PHONE
    for tag, _, unit in battle["phones"]:
        assert stats[tag][201] == WRITES_PER_PHONE + WRITES_PER_PHONE // 50
        assert stats[tag]["replayed"] == WRITES_PER_PHONE // 50
        assert end["ammo"][unit] == (WRITES_PER_PHONE - 1) % 12
        order = [int(k.split("-")[1]) for k in end["keys"] if k.startswith(f"{tag}-")]
        assert sorted(order) == list(range(WRITES_PER_PHONE))
    assert end["replay"][0], end["replay"][1]
    print({tag: dict(c) for tag, c in stats.items()})


def test_two_phones_200_writes_each_on_sqlite_no_5xx_nothing_lost(migrated_sqlite, tmp_path):
    with serving(migrated_sqlite, tmp_path) as server:
        two_phones_at_once(server)


def test_two_phones_200_writes_each_on_postgresql_no_5xx_nothing_lost(tmp_path):
    with postgres_database() as url:
        manage(base_env(url), "migrate", "--noinput", "--verbosity", "0")
        with serving(url, tmp_path) as server:
            two_phones_at_once(server)


def test_a_write_that_cannot_get_the_lock_answers_503_retry_after_and_reads_go_on(migrated_sqlite, tmp_path):
    """Another writer holds SQLite's lock longer than SQLITE_TIMEOUT: the write answers 503 + Retry-After (API and
    page alike), polls still answer (WAL), and the same write succeeds once the lock is free."""
    with serving(migrated_sqlite, tmp_path, SQLITE_TIMEOUT="0.5") as server:
        battle = make_battle(server)
        _, token, unit = battle["phones"][0]
        status, headers, state = server.request("GET", f"/api/v1/battles/{battle['id']}/", token=token)
        assert status == 200
        method, path, body, hdrs = command_request(battle["id"], unit, 5, headers["etag"], "held-1")

        holder = sqlite3.connect(migrated_sqlite.removeprefix("sqlite:///"), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # the write lock, as a long transaction would hold it
        try:
            status, headers, answer = server.request(method, path, body=body, headers=hdrs, token=token)
            assert status == 503, answer
            assert int(headers["retry-after"]) > 0
            assert answer["code"] == "busy"
            # A page whose answer writes (a spectator link stores itself in a new session) fails the same way,
            # in the middleware that saves the session rather than in the view.
            spectator = django_json(
                server.env,
                f"from battles.models import Battle; print('JSON\"' + Battle.objects.get(pk={battle['id']}).spectator_token + '\"')",
            )
            status, headers, page = server.request(
                "GET", f"/battles/watch/{spectator}/", headers={"Accept": "text/html"}
            )
            assert status == 503, page[:500]
            assert int(headers["retry-after"]) > 0
            assert b"<h1>" in page
            # Reads are not blocked by the writer.
            assert server.request("GET", f"/api/v1/battles/{battle['id']}/", token=token)[0] == 200
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        status, _, answer = server.request(method, path, body=body, headers=hdrs, token=token)
        assert status == 201, answer


# QR codes ------------------------------------------------------------------------------------------------------
def render_qr(rf, settings, *, host: str, url: str, public: str = "") -> str:
    from django.template.loader import render_to_string

    settings.ARMLIST_URL = public
    request = rf.get("/battles/1/", HTTP_HOST=host)
    return render_to_string("includes/qr.html", {"url": url, "label": "Scan <me>"}, request=request)


def test_qr_include_renders_an_inline_svg_of_the_link(rf, settings):
    from config.qr import svg

    settings.ALLOWED_HOSTS = ["*"]
    html = render_qr(rf, settings, host="192.0.2.7:8000", url="/battles/join/abc/")
    assert "<svg" in html
    assert 'href="http://192.0.2.7:8000/battles/join/abc/"' in html
    assert svg("http://192.0.2.7:8000/battles/join/abc/", "Scan <me>") in html
    assert "Scan &lt;me&gt;" in html
    assert "<me>" not in html


def test_qr_from_a_page_opened_on_the_laptop_carries_the_lan_address(rf, settings):
    settings.ALLOWED_HOSTS = ["*"]
    html = render_qr(
        rf,
        settings,
        host="127.0.0.1:8000",
        url="http://127.0.0.1:8000/battles/join/abc/",
        public="http://192.0.2.7:8000/",
    )
    assert 'href="http://192.0.2.7:8000/battles/join/abc/"' in html
    assert "127.0.0.1" not in html
    # Without a LAN address (local-only), the link stays as it was.
    html = render_qr(rf, settings, host="127.0.0.1:8000", url="/battles/join/abc/")
    assert 'href="http://127.0.0.1:8000/battles/join/abc/"' in html


def test_banner_prints_the_address_and_a_terminal_qr_code():
    text = lan.banner(
        {"ARMLIST_URL": "http://192.0.2.7:8000/", "ARMLIST_URLS": "http://192.0.2.7:8000/", "PORT": "8000"}
    )
    assert text.splitlines()[0] == "Armlist is at http://192.0.2.7:8000/"
    assert "█" in text or "▀" in text


def test_a_graceful_stop_ends_the_phones_event_streams_at_once(migrated_sqlite, tmp_path):
    """`make run`'s Ctrl-C stops gunicorn with SIGTERM; a phone's open stream must not hold a worker for the whole
    graceful timeout (config/gunicorn_conf.py, 10 s)."""
    with serving(migrated_sqlite, tmp_path) as server:
        battle = make_battle(server)
        token = django_json(
            server.env,
            f'from battles.models import Battle\nprint("JSON" + __import__("json").dumps('
            f"Battle.objects.get(pk={battle['id']}).spectator_token))",
        )
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("GET", f"/battles/{battle['id']}/stream?watch={token}")
        response = conn.getresponse()
        assert response.status == 200
        assert response.getheader("Content-Type").startswith("text/event-stream")
        assert b"event: version" in response.fp.readline() + response.fp.readline() + response.fp.readline()
        start = time.monotonic()
        os.killpg(server.proc.pid, signal.SIGTERM)
        server.proc.wait(timeout=30)
        stopped_in = time.monotonic() - start
        conn.close()
    assert stopped_in < 5.0  # not the 10 s graceful timeout: the stream ended when the stop began
