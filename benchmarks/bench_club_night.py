"""Club night on one laptop: the server `make run` starts (gunicorn with config/gunicorn_conf.py: uvicorn's workers
serving config/asgi.py, DEBUG off) on the embedded default (a SQLite file in WAL mode), with 40 phones on loopback
(BENCH_PHONES=200 or 500: a tournament hall).

Run:  .venv/bin/python benchmarks/bench_club_night.py               (SQLite in a temporary directory)
      make bench ARGS=benchmarks/bench_club_night.py                 (the same: SQLite, whatever DATABASE_URL says)
      BENCH_DB=env make bench ARGS=benchmarks/bench_club_night.py    (the throwaway PostgreSQL of scripts/test.sh)

Each of the 40 phones (20 battles, two players each) does what the board page does (static/battles/battle.js):
it keeps the board's event stream open (GET /battles/<id>/stream with its browser session: the server says each new
version; the phone then fetches the board only if it lacks that version; BENCH_SYNC=long uses the long poll instead:
GET /battles/<id>/board?wait=15&notify=1 with If-None-Match, a change answered 204 with the new ETag),
and records an event every 2 s through the API (a slider change, POST /api/v1/battles/<id>/commands/adjust/ with
If-Match and an Idempotency-Key; a 412 is retried with the version it returns). BENCH_SYNC=poll replaces the long
poll by API polling with If-None-Match every BENCH_POLL_S (1 s; a 201 rebased on the other phone's newer events is
then followed by a read). Phones start at random moments and their timers wander by ±10 %.

Reported: the server's CPU and the phones' (this process's, to show they leave the server its cores), errors (any answer but 200/201/304/412, or a broken connection; a 503 "busy" counts), event post
p50/p99 (one 201 request; and per event, 412 retries included; the p99 also without the first ARRIVAL_S, while 200
phones arrive at once, which the targets do not leave out), and the sync delay between the two phones of a
battle: from the moment one phone sends an event to the moment the other phone holds a state that includes it
(a long poll or a poll answered 200, or a 412 that carries the state), p50/p95/max.
Targets (issue 11, and at 200 phones the issue «200 phones on one laptop or on PostgreSQL»): errors 0, post p50
<= 20 ms, post p99 <= 100 ms, sync p95 <= 1 s. Also reported: the most threads a server process ran and, on
PostgreSQL, the most connections the server held at once (sampled every 0.25 s), beside the pools' size.

Environment: BENCH_PHASE_S (default 30), BENCH_PHONES (40), BENCH_SYNC (sse, long or poll), BENCH_POLL_S (1.0),
BENCH_NOTIFY (1; 0: the long poll answers a change with the whole board, as before), BENCH_SEED, BENCH_WORKER
(uvicorn; gthread: the former threaded workers with 48 threads, where every open stream holds one, for comparison), WEB_WORKERS and WEB_THREADS (the server's, see config/gunicorn_conf.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from club_night_phones import LONG_POLL_S, NOTIFY, SYNC, Battle, Phone  # noqa: E402 - beside this file

from config import lan  # noqa: E402 - after the path is set
from tests.loopback_http import LoopbackClient  # noqa: E402

PHONES = int(os.environ.get("BENCH_PHONES", "40"))
PHASE_S = float(os.environ.get("BENCH_PHASE_S", "30"))
POLL_S = float(os.environ.get("BENCH_POLL_S", "1.0"))
EVENT_S = 2.0
ARRIVAL_S = 5.0  # the phones start within EVENT_S, then open their streams and fetch their boards
WORKER = os.environ.get("BENCH_WORKER", "uvicorn")  # "gthread": gunicorn's threaded workers, 48 threads each
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
TARGETS = {"post_p50": 20.0, "post_p99": 100.0, "sync_p95": 1000.0}


# Data ------------------------------------------------------------------------------------------------------
def setup_data(phones: int) -> list[dict]:
    """The «Бронепехота» pack, one user with an API token per phone, a started battle per pair of phones."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from armies.models import DataPack, Faction, Roster, RosterEntry, UnitProfile
    from battles import services

    call_command("migrate", verbosity=0)
    data = json.loads((ROOT / "rules/systems/bronepekhota/data/tehnolog-classic.json").read_text())
    stamp = str(time.time_ns())
    pack = DataPack.objects.create(
        system="bronepekhota", slug=f"club-{stamp}", version=1, name="Club night pack", published=True
    )
    factions = {f["slug"]: Faction.objects.create(pack=pack, slug=f["slug"], name=f["name"]) for f in data["factions"]}
    wanted = {"protectorate_kiberpehota", "salamander", "polaris_lineynaya_klon_pehota", "raptor"}
    for i, p in enumerate(x for x in data["profiles"] if x["slug"] in wanted):
        UnitProfile.objects.create(
            pack=pack, slug=p["slug"], name=p["name"], faction=factions[p["faction"]], kind=p["kind"],
            cost=p["cost"], data=p["data"], position=i,
        )  # fmt: skip
    User = get_user_model()

    def roster(owner, faction, squad, vehicle, soldier):
        r = Roster.objects.create(owner=owner, system="bronepekhota", pack=pack, name=faction, faction=faction)
        RosterEntry.objects.create(roster=r, key="e1", profile=UnitProfile.objects.get(pack=pack, slug=squad))
        RosterEntry.objects.create(
            roster=r,
            key="e2",
            profile=UnitProfile.objects.get(pack=pack, slug=vehicle),
            options={"pilot": [{"entry": "e1", "soldier": soldier, "copy": 1}]},
            position=1,
        )
        return r

    clients = []
    for b in range(phones // 2):
        blue_user = User.objects.create_user(f"club-{stamp}-{b}-a")
        red_user = User.objects.create_user(f"club-{stamp}-{b}-b")
        blue = roster(blue_user, "protectorate", "protectorate_kiberpehota", "salamander", 2)
        red = roster(red_user, "polaris", "polaris_lineynaya_klon_pehota", "raptor", 3)
        battle = services.battle_create(user=blue_user, name=f"club {b}", rosters=[blue, red])
        services.battle_join(token=battle.sides.get(index=1).invite_token, user=red_user)
        for side, user in enumerate((blue_user, red_user)):
            token = Token.objects.create(user=user).key
            session = SessionStore()  # the board page's long poll is a page request: the phone's browser session
            session.update({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: MODEL_BACKEND})
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            clients.append(
                {
                    "battle": battle.pk,
                    "token": token,
                    "session": session.session_key,
                    "unit": f"{side}.e2.1",
                    "max_ammo": 12,
                }
            )
    connection.close()  # the server's processes are the only ones that touch the database from now on
    return clients


# Server: what `make run` starts ----------------------------------------------------------------------------
def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, log_path: Path) -> subprocess.Popen:
    env = {**os.environ, "ARMLIST_LOCAL_ONLY": "1", "DEBUG": "false", "LOG_LEVEL": "ERROR", "WEB_LOG_LEVEL": "warning"}
    env.update(lan.server_env(port, environ=env))
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    command = lan.server_command()  # the command of `python -m config.lan serve`
    if WORKER == "gthread":  # the former server, for comparison: a thread per open stream
        command = [*command[:-1], "--worker-class", "gthread", "--threads", "48", "config.wsgi:application"]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
    if not lan.wait_until_serving(port, timeout=60) or proc.poll() is not None:
        stop(proc)
        raise RuntimeError("the server did not start:\n" + log_path.read_text(errors="replace")[-3000:])
    return proc


async def warm_up(port: int, token: str, server: int, seconds: float = 30.0) -> None:
    """gunicorn accepts connections as soon as its master binds, before its workers have booted: wait until every
    worker answers (bursts of concurrent cheap requests all answered fast) and the server is idle (a worker that
    boots late takes no connection yet, and its imports and warm-up would be measured as the phones' wait), so the
    phase measures a running server."""
    from config import gunicorn_conf

    deadline = time.monotonic() + seconds
    width = gunicorn_conf.workers * gunicorn_conf.threads

    async def one():
        conn = LoopbackClient(port, token=token)
        t = time.perf_counter()
        await conn.request("GET", "/api/v1/battles/0/")
        conn.close()
        return time.perf_counter() - t

    while time.monotonic() < deadline:
        if max(await asyncio.gather(*(one() for _ in range(width)))) < 0.1:
            break
        await asyncio.sleep(0.5)
    while time.monotonic() < deadline:
        before = server_cpu(server)
        await asyncio.sleep(0.5)
        if server_cpu(server) - before < 0.05:  # under a tenth of a core: every worker has booted
            return


def stop(proc: subprocess.Popen) -> None:
    lan.stop_server(proc)


# The club night ----------------------------------------------------------------------------------------------------
async def club_night(port: int, clients: list[dict]) -> tuple[dict, float]:
    stats = {
        "post": [],
        "post_sent": [],  # when each of "post" left (time.perf_counter)
        "event": [],
        "stale": [],
        "poll304": [],
        "poll200": [],
        "board200": [],
        "long304": 0,
        "long204": 0,
        "sync": [],
        "errors": [],
        "rebased": 0,
        "streams": 0,
        "sse": 0,
    }
    rng = random.Random(int(os.environ.get("BENCH_SEED", "1")))
    battles: dict[int, Battle] = {}
    deadline = time.monotonic() + PHASE_S

    async def run(info, poll_phase, event_phase, jitter):
        battle = battles.setdefault(info["battle"], Battle())
        phone = Phone(port, info, int(info["unit"][0]), battle, stats)
        await asyncio.sleep(poll_phase)
        await phone.poll()
        listening = {"long": phone.watch, "sse": phone.listen}.get(SYNC)
        watching = asyncio.create_task(listening(deadline)) if listening else None
        next_event = time.monotonic() + event_phase
        next_poll = time.monotonic() + POLL_S if watching is None else float("inf")
        while time.monotonic() < deadline:
            if time.monotonic() >= next_poll:
                await phone.poll()
                next_poll += POLL_S * jitter.uniform(0.9, 1.1)  # set when one starts: a slow answer does not delay it
            if time.monotonic() >= next_event:
                await phone.post_event()
                next_event += EVENT_S * jitter.uniform(0.9, 1.1)
            await asyncio.sleep(max(0.0, min(next_poll, next_event, deadline) - time.monotonic()))
        if watching is not None:
            await watching

    t = time.monotonic()
    stats["start"] = time.perf_counter()
    await asyncio.gather(
        *(run(c, rng.uniform(0, POLL_S), rng.uniform(0, EVENT_S), random.Random(rng.random())) for c in clients)
    )
    seconds = time.monotonic() - t
    stats["unseen"] = 0
    for battle in battles.values():
        delays, unseen = battle.sync_delays()
        stats["sync"] += delays
        stats["unseen"] += unseen
    return stats, seconds


def server_cpu(root: int) -> float:
    """CPU seconds used so far by the server (gunicorn's master and its workers), from /proc; 0 elsewhere. Unlike
    latencies, it hardly moves when other work shares the machine, so it compares runs fairly."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == root or int(fields[1]) == root:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


class Peaks:
    """The most threads of any server process and the most database connections of the server, sampled in a thread
    every 0.25 s while the phones play."""

    def __init__(self, root: int, database_url: str):
        import threading

        self.root, self.url = root, database_url
        self.threads = self.connections = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._done.set()
        self._thread.join(timeout=10)

    def _run(self):
        while not self._done.is_set():
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit():
                    try:
                        parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                        if parent == self.root:
                            self.threads = max(self.threads, len(list((entry / "task").iterdir())))
                    except (OSError, ValueError):
                        continue
            if self.url.startswith(("postgres://", "postgresql://")):
                self.connections = max(self.connections, _connections(self.url))
            self._done.wait(0.25)


def _connections(url: str) -> int:
    from urllib.parse import urlsplit

    import psycopg

    parts = urlsplit(url)
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        query = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s"
        return conn.execute(query, (parts.path.lstrip("/"),)).fetchone()[0]


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> int:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # three connections a phone: 500 phones pass 1024
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 65536), hard))
    use_env_db = os.environ.get("BENCH_DB", "sqlite") == "env" or "--db=env" in sys.argv
    tmp = tempfile.TemporaryDirectory(prefix="bench-club-")
    if not use_env_db:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp.name) / 'club.sqlite3'}"
        os.environ["REDIS_URL"] = ""
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x9" * 25)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    database = os.environ["DATABASE_URL"].split(":", 1)[0]
    clients = setup_data(PHONES)
    port = free_port()
    log_path = Path(tmp.name) / "server.log"
    from config import gunicorn_conf

    print(
        f"club night: {PHONES} phones, {PHONES // 2} battles, "
        + {
            "long": f"long polls of the board page (?wait={LONG_POLL_S}{'&notify=1' if NOTIFY else ''})",
            "sse": "server-sent events of the board page (/stream)",
        }.get(SYNC, f"API polls every {POLL_S:g} s")
        + f", an event every {EVENT_S:g} s "
        f"per phone, {PHASE_S:g} s; {database}; gunicorn {gunicorn_conf.workers} uvicorn workers, each with "
        f"{gunicorn_conf.threads} threads for short requests, on 127.0.0.1:{port}; {os.cpu_count()} cores; load average before "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    proc = start_server(port, log_path)
    try:
        asyncio.run(warm_up(port, clients[0]["token"], proc.pid))
        cpu, own = server_cpu(proc.pid), time.process_time()
        with Peaks(proc.pid, os.environ["DATABASE_URL"]) as peaks:
            stats, seconds = asyncio.run(club_night(port, clients))
        cpu, own = server_cpu(proc.pid) - cpu, time.process_time() - own
    finally:
        stop(proc)
    load_after = " ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = log_path.read_text(errors="replace").splitlines()
    quiet = ("Precondition Failed", "Not Found", "[INFO]")
    noisy = [x for x in lines if x.strip() and not any(q in x for q in quiet)]
    tmp.cleanup()

    requests = sum(len(stats[k]) for k in ("post", "stale", "poll304", "poll200", "board200"))
    requests += stats["long304"] + stats["long204"] + stats["streams"]
    # The posts sent once every phone has come and opened its stream (they all start within EVENT_S).
    settled = [ms for ms, t in zip(stats["post"], stats["post_sent"], strict=True) if t >= stats["start"] + ARRIVAL_S]
    row = {
        "errors": len(stats["errors"]),
        "post_p50": pct(stats["post"], 50),
        "post_p99": pct(stats["post"], 99),
        "settled_p99": pct(settled, 99),
        "event_p99": pct(stats["event"], 99),
        "poll_p50": pct(stats["poll304"], 50),
        "poll_p99": pct(stats["poll304"], 99),
        "state_p50": pct(stats["poll200"], 50),
        "state_p99": pct(stats["poll200"], 99),
        "board_p50": pct(stats["board200"], 50),
        "board_p99": pct(stats["board200"], 99),
        "sync_p50": pct(stats["sync"], 50),
        "sync_p95": pct(stats["sync"], 95),
        "sync_max": max(stats["sync"], default=float("nan")),
    }
    print(
        f"{requests} requests in {seconds:.1f} s ({requests / seconds:.0f}/s): {len(stats['post'])} events "
        f"({len(stats['stale'])} retried after 412, {stats['rebased']} rebased on the other phone's), {len(stats['poll304'])} polls 304, {len(stats['poll200'])} polls 200, "
        f"{stats['long204']} long polls woken by a change (204), {len(stats['board200'])} boards fetched (200), "
        f"{stats['long304']} timed out (304), {stats['streams']} streams opened and {stats['sse']} versions said on them"
    )
    print(
        f"  server CPU              {cpu / seconds * 100:.0f} % of one core ({cpu * 1000 / max(requests, 1):.1f} ms a request); the phones (this process) "
        f"{own / seconds * 100:.0f} % of one core"
    )
    from config import serving

    pool = gunicorn_conf.workers * serving.connections_per_process()
    print(
        f"  server threads          at most {peaks.threads} in a process (fixed: {serving.connections_per_process()} "
        f"+ the event loop's, + psycopg_pool's 4 on PostgreSQL), with {PHONES} phones' streams open; load average "
        f"after {load_after}"
    )
    if peaks.connections:
        print(f"  database connections    at most {peaks.connections} at once (the pools: {pool})")
    print(f"  errors                  {row['errors']}")
    for e in stats["errors"][:5]:
        print("     ", e)
    print(f"  event post (one 201)    p50 {row['post_p50']:7.2f} ms   p99 {row['post_p99']:7.2f} ms")
    print(f"  event post, after the first {ARRIVAL_S:g} s (the phones' arrival)  p99 {row['settled_p99']:7.2f} ms")
    print(f"  event, 412 retries incl.                  p99 {row['event_p99']:7.2f} ms")
    print(f"  poll 304                p50 {row['poll_p50']:7.2f} ms   p99 {row['poll_p99']:7.2f} ms")
    print(f"  poll 200 (new state)    p50 {row['state_p50']:7.2f} ms   p99 {row['state_p99']:7.2f} ms")
    print(f"  board fetch (200)       p50 {row['board_p50']:7.2f} ms   p99 {row['board_p99']:7.2f} ms")
    print(
        f"  sync delay, phone to phone ({len(stats['sync'])} events)  p50 {row['sync_p50']:6.0f} ms   "
        f"p95 {row['sync_p95']:6.0f} ms   max {row['sync_max']:6.0f} ms ({stats['unseen']} sent in the last moments, unseen)"
    )
    print(f"server log: {len(lines)} lines, {len(noisy)} other than start-up, 404 and 412 warnings")
    for line in noisy[:20]:
        print("   ", line)
    print("Against the targets (figure / target; <= 1.00 meets it):")
    for label, key in (("event post p50", "post_p50"), ("event post p99", "post_p99"), ("sync delay p95", "sync_p95")):
        print(f"  {label:<16} {row[key]:8.2f} ms / {TARGETS[key]:6.0f} ms = {row[key] / TARGETS[key]:5.2f}")
    return 0 if row["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
