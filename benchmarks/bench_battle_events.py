"""Battle tracker under load: gunicorn against the test PostgreSQL, 32 phone-like clients on loopback.

Run: make bench ARGS=benchmarks/bench_battle_events.py   (scripts/test.sh sets DATABASE_URL and REDIS_URL)

What it does:
1. migrates, then creates its own data: the «Бронепехота» pack from rules/.../data, 32 users with API tokens,
   16 battles (two players each);
2. starts gunicorn (gthread) on a free loopback port;
3. runs three bounded phases with an asyncio HTTP/1.1 client (keep-alive, one connection per client):
   - "phones": 32 clients, each polls its battle with If-None-Match every POLL_S (as the page does) and posts an
     event (a slider change with If-Match and an Idempotency-Key) every EVENT_S; a 412 is retried with the
     version it returns;
   - "poll, 1 client": one client polling back to back (the latency of a 304 with nothing else running);
   - "poll, 1 paced": one client polling every 30 ms (what idle wake-ups cost, without any contention);
   - "saturation": 32 clients posting back to back with no pause (throughput ceiling; latency is mostly queueing);
4. prints p50/p99 of event posting and of the 304 poll, requests/s, and each figure as a ratio of its target;
5. prints the CPU each phase cost per request, split into gunicorn, PostgreSQL and the load client (from /proc):
   unlike latencies, these hardly move when other work shares the machine, so they compare runs fairly.
Targets: event post p50 <= 15 ms, p99 <= 60 ms; 304 poll < 5 ms.

Server: BENCH_WORKERS x BENCH_THREADS gthread workers (default 4 x 2: more threads per process only queue on the GIL
on 2 cores), BENCH_SWITCH_MS sets the workers' GIL switch interval (Python's default is 5 ms).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from club_night_phones import ammo_recorded, next_ammo_event  # noqa: E402 - beside this file

from tests.loopback_http import LoopbackClient  # noqa: E402 - after the path is set

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

CLIENTS = 32
BATTLES = CLIENTS // 2
PHASE_S = float(os.environ.get("BENCH_PHASE_S", "20"))
POLL_S = 1.0  # as the phone page polls
EVENT_S = 2.0  # every phone records an event every 2 s: a very busy table
WORKERS = int(os.environ.get("BENCH_WORKERS", "4"))
THREADS = int(os.environ.get("BENCH_THREADS", "2"))
WORKER_CLASS = os.environ.get("BENCH_WORKER_CLASS", "gthread")  # "sync": one request per process, no keep-alive
SWITCH_MS = float(os.environ.get("BENCH_SWITCH_MS", "0"))  # 0: Python's default
SERVER_LOG = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench_battle_events.{os.getpid()}.log"
SERVER_CONF = SERVER_LOG.with_suffix(".gunicorn.py")
TARGETS = {"post_p50": 15.0, "post_p99": 60.0, "poll_p50": 5.0}


# Data ------------------------------------------------------------------------------------------------------
def setup_data() -> list[dict]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from armies.models import DataPack, Faction, Roster, RosterEntry, UnitProfile
    from battles import services

    call_command("migrate", verbosity=0)
    data = json.loads((ROOT / "rules/systems/bronepekhota/data/tehnolog-classic.json").read_text())
    stamp = str(int(time.time()))
    pack = DataPack.objects.create(
        system="bronepekhota", slug=f"bench-{stamp}", version=1, name="Bench pack", published=True
    )
    factions = {f["slug"]: Faction.objects.create(pack=pack, slug=f["slug"], name=f["name"]) for f in data["factions"]}
    wanted = {"protectorate_kiberpehota", "salamander", "minomet", "polaris_lineynaya_klon_pehota", "raptor"}
    for i, p in enumerate(x for x in data["profiles"] if x["slug"] in wanted):
        UnitProfile.objects.create(
            pack=pack, slug=p["slug"], name=p["name"], faction=factions[p["faction"]], kind=p["kind"],
            cost=p["cost"], data=p["data"], position=i,
        )  # fmt: skip
    User = get_user_model()

    def roster(owner, faction, name, entries):
        r = Roster.objects.create(owner=owner, system="bronepekhota", pack=pack, name=name, faction=faction)
        for i, e in enumerate(entries):
            RosterEntry.objects.create(
                roster=r,
                key=e[0],
                profile=UnitProfile.objects.get(pack=pack, slug=e[1]),
                options={"pilot": e[2]} if e[2] else {},
                position=i,
            )
        return r

    clients = []
    for b in range(BATTLES):
        blue_user = User.objects.create_user(f"bench-{stamp}-{b}-a")
        red_user = User.objects.create_user(f"bench-{stamp}-{b}-b")
        blue = roster(
            blue_user,
            "protectorate",
            "Blue",
            [
                ("e1", "protectorate_kiberpehota", []),
                ("e2", "salamander", [{"entry": "e1", "soldier": 2, "copy": 1}]),
                ("e3", "minomet", []),
            ],
        )
        red = roster(
            red_user,
            "polaris",
            "Red",
            [("e1", "polaris_lineynaya_klon_pehota", []), ("e2", "raptor", [{"entry": "e1", "soldier": 3, "copy": 1}])],
        )
        battle = services.battle_create(user=blue_user, name=f"bench {b}", rosters=[blue, red])
        services.battle_join(token=battle.sides.get(index=1).invite_token, user=red_user)
        for user, unit, max_ammo in ((blue_user, "0.e2.1", 12), (red_user, "1.e2.1", 12)):
            token = Token.objects.create(user=user).key
            clients.append({"battle": battle.pk, "token": token, "unit": unit, "max_ammo": max_ammo})
    return clients


# Server ----------------------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int) -> subprocess.Popen:
    cmd = [
        str(Path(sys.executable).parent / "gunicorn"),
        "config.wsgi:application",
        f"--bind=127.0.0.1:{port}",
        f"--workers={WORKERS}",
        f"--worker-class={WORKER_CLASS}",
        f"--threads={THREADS}",
        "--keep-alive=5",
        "--log-level=warning",
    ]
    if SWITCH_MS > 0:
        SERVER_CONF.write_text(
            f"import sys\n\n\ndef post_fork(server, worker):\n    sys.setswitchinterval({SWITCH_MS / 1000!r})\n"
        )
        cmd.append(f"--config={SERVER_CONF}")
    env = {**os.environ, "DEBUG": "false", "LOG_LEVEL": "ERROR"}
    # Django logs every 412 as a warning; the server's output goes to a file that is summarised at the end.
    log = open(SERVER_LOG, "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True, stdout=log, stderr=log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    stop(proc)
    raise RuntimeError("gunicorn did not start within 30 s")


def stop(proc: subprocess.Popen) -> None:
    from config import lan  # after the caller has put the project on sys.path

    lan.stop_server(proc, timeout=15)


# CPU accounting ---------------------------------------------------------------------------------------------
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _proc_stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of a process from /proc, or None when it is gone (or not Linux)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw.rsplit(")", 1)[1].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK


def _tree_cpu(root: int) -> float:
    """CPU seconds used so far by a process and its children (gunicorn's workers, PostgreSQL's backends)."""
    total = 0.0
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if entry.name.isdigit():
            stat = _proc_stat(int(entry.name))
            if stat and (int(entry.name) == root or stat[0] == root):
                total += stat[1]
    return total


def postmaster_pid() -> int | None:
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        stat = _proc_stat(cursor.fetchone()[0])
    return stat[0] if stat else None


class CpuMeter:
    """CPU seconds of the gunicorn tree, the PostgreSQL tree and this process (the load client) over a phase."""

    def __init__(self, gunicorn_pid: int, postgres_pid: int | None):
        self.roots = {"server": gunicorn_pid, "postgres": postgres_pid}

    def sample(self) -> dict:
        usage = os.times()
        cpu = {"client": usage.user + usage.system}
        for name, pid in self.roots.items():
            cpu[name] = _tree_cpu(pid) if pid else float("nan")
        return cpu

    def run(self, coro):
        before = self.sample()
        result = asyncio.run(coro)
        after = self.sample()
        return (*result, {k: after[k] - before[k] for k in after})


class Phone:
    def __init__(self, port: int, info: dict, stats: dict):
        self.conn = LoopbackClient(port, token=info["token"])
        self.info = info
        self.stats = stats
        self.etag = None
        self.n = 0

    async def poll(self):
        t = time.perf_counter()
        headers = {"If-None-Match": self.etag} if self.etag else {}
        status, headers, _ = await self.conn.request("GET", f"/api/v1/battles/{self.info['battle']}/", headers=headers)
        ms = (time.perf_counter() - t) * 1000
        if status == 304:
            self.stats["poll304"].append(ms)
        elif status == 200:
            self.stats["poll200"].append(ms)
            self.etag = headers.get("etag")
        else:
            self.stats["errors"].append(f"poll {status}")

    async def post_event(self):
        self.n += 1
        path, key, body = next_ammo_event(self.info, self.n)
        while True:
            if self.etag is None:
                await self.poll()
            t = time.perf_counter()
            status, headers, raw = await self.conn.request(
                "POST", path, body=body, headers={"If-Match": self.etag, "Idempotency-Key": key}
            )
            ms = (time.perf_counter() - t) * 1000
            if status == 201:
                self.stats["post"].append(ms)
                self.etag = headers.get("etag")
                ammo_recorded(self.info, body)
                return
            if status == 412:
                self.stats["stale"].append(ms)
                self.etag = f'"v{json.loads(raw)["version"]}"'
                continue
            self.stats["errors"].append(f"post {status} {raw[:120]!r}")
            return


def new_stats() -> dict:
    return {"post": [], "stale": [], "poll304": [], "poll200": [], "baseline": [], "errors": []}


async def phase_phones(port: int, clients: list[dict]) -> tuple[dict, float]:
    stats = new_stats()
    deadline = time.monotonic() + PHASE_S
    # Phones are independent: each starts at a random moment and its timer wanders a little around the period
    # (the page sets its next poll when one starts, so a slow answer does not slow the schedule down).
    rng = random.Random(int(os.environ.get("BENCH_SEED", "1")))

    async def run(info, poll_phase, event_phase, jitter):
        phone = Phone(port, info, stats)
        await asyncio.sleep(poll_phase)
        await phone.poll()
        next_event = time.monotonic() + event_phase
        next_poll = time.monotonic()
        while time.monotonic() < deadline:
            await phone.poll()
            if time.monotonic() >= next_event:
                await phone.post_event()
                next_event += EVENT_S
            next_poll += POLL_S * jitter.uniform(0.9, 1.1)
            await asyncio.sleep(max(0.0, next_poll - time.monotonic()))

    t = time.monotonic()
    runs = [run(c, rng.uniform(0, POLL_S), rng.uniform(0, EVENT_S), random.Random(rng.random())) for c in clients]
    await asyncio.gather(*runs)
    return stats, time.monotonic() - t


async def phase_single_poll(port: int, info: dict) -> tuple[dict, float]:
    stats = new_stats()
    phone = Phone(port, info, stats)
    await phone.poll()
    stats["poll200"].clear()
    deadline = time.monotonic() + min(PHASE_S, 5)
    t = time.monotonic()
    while time.monotonic() < deadline:
        await phone.poll()
    return stats, time.monotonic() - t


async def phase_paced_poll(port: int, info: dict) -> tuple[dict, float]:
    """One client polling every 30 ms: the machine idles between requests, as it mostly does with 32 phones
    (about a quarter of the cores busy). Compared with the back-to-back poll, it shows what waking idle processes
    and cores costs on this virtual machine, apart from any contention between clients."""
    stats = new_stats()
    phone = Phone(port, info, stats)
    await phone.poll()
    stats["poll200"].clear()
    deadline = time.monotonic() + min(PHASE_S, 5)
    t = time.monotonic()
    while time.monotonic() < deadline:
        await phone.poll()
        await asyncio.sleep(0.03)
    return stats, time.monotonic() - t


async def phase_single_post(port: int, info: dict) -> tuple[dict, float]:
    stats = new_stats()
    phone = Phone(port, info, stats)
    await phone.poll()
    stats["poll200"].clear()  # the first read only fetches the version
    deadline = time.monotonic() + min(PHASE_S, 5)
    t = time.monotonic()
    while time.monotonic() < deadline:
        await phone.post_event()
    return stats, time.monotonic() - t


async def phase_baseline(port: int, info: dict) -> tuple[dict, float]:
    """The cheapest request of the API for this machine: an unknown battle, anonymous (one query, a 404)."""
    stats = new_stats()
    conn = LoopbackClient(port)
    deadline = time.monotonic() + min(PHASE_S, 5)
    t = time.monotonic()
    while time.monotonic() < deadline:
        start = time.perf_counter()
        status, _, _ = await conn.request("GET", "/api/v1/battles/999999999/")
        stats["baseline"].append((time.perf_counter() - start) * 1000)
        if status != 404:
            stats["errors"].append(f"baseline {status}")
    return stats, time.monotonic() - t


async def phase_saturation(port: int, clients: list[dict]) -> tuple[dict, float]:
    stats = new_stats()
    deadline = time.monotonic() + min(PHASE_S, 10)

    async def run(info):
        phone = Phone(port, info, stats)
        while time.monotonic() < deadline:
            await phone.post_event()

    t = time.monotonic()
    await asyncio.gather(*(run(c) for c in clients))
    return stats, time.monotonic() - t


# Report ----------------------------------------------------------------------------------------------------
def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def report(name: str, stats: dict, seconds: float, cpu: dict) -> dict:
    requests = sum(len(stats[k]) for k in ("post", "stale", "poll304", "poll200", "baseline"))
    row = {
        "cpu": {k: v * 1000 / max(requests, 1) for k, v in cpu.items()},
        "cpu_share": sum(cpu.values()) / seconds / (os.cpu_count() or 1) if seconds else 0,
        "phase": name,
        "requests": requests,
        "rps": requests / seconds if seconds else 0,
        "posts": len(stats["post"]),
        "stale_412": len(stats["stale"]),
        "post_p50": pct(stats["post"], 50),
        "post_p99": pct(stats["post"], 99),
        "poll304": len(stats["poll304"]),
        "poll_p50": pct(stats["poll304"], 50),
        "poll_p99": pct(stats["poll304"], 99),
        "poll200": len(stats["poll200"]),
        "state_p50": pct(stats["poll200"], 50),
        "base_p50": pct(stats["baseline"], 50),
        "errors": len(stats["errors"]),
    }
    if stats["baseline"]:
        print(f"{name:<16} {row['requests']:>6} req {row['rps']:>7.1f} req/s | p50 {row['base_p50']:5.2f} ms")
        return row
    print(
        f"{name:<16} {row['requests']:>6} req {row['rps']:>7.1f} req/s | events {row['posts']:>5} "
        f"(412 retried {row['stale_412']:>4}) p50 {row['post_p50']:6.2f} ms p99 {row['post_p99']:7.2f} ms | "
        f"304 polls {row['poll304']:>6} p50 {row['poll_p50']:5.2f} ms p99 {row['poll_p99']:6.2f} ms | "
        f"200 polls (new state) {row['poll200']:>4} p50 {row['state_p50']:6.2f} ms | errors {row['errors']}"
    )
    for e in stats["errors"][:3]:
        print("   error:", e)
    return row


def report_cpu(rows: list[dict]) -> None:
    print("CPU per request (ms; gunicorn + PostgreSQL + load client) and the share of all cores the phase used:")
    for row in rows:
        c = row["cpu"]
        print(
            f"  {row['phase']:<16} server {c['server']:5.2f}  postgres {c['postgres']:5.2f}  client {c['client']:5.2f}"
            f"  | {row['cpu_share'] * 100:4.0f}% of the cores"
        )


def main() -> int:
    clients = setup_data()
    port = free_port()
    cores = os.cpu_count()
    switch = f", GIL switch {SWITCH_MS} ms" if SWITCH_MS > 0 else ""
    print(
        f"gunicorn {WORKER_CLASS} {WORKERS} workers x {THREADS} threads{switch} on 127.0.0.1:{port}; {CLIENTS} clients, "
        f"{BATTLES} battles; {PHASE_S:.0f} s phases; {cores} CPU cores (shared with the load client); "
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    proc = start_gunicorn(port)
    try:
        asyncio.run(phase_single_poll(port, clients[0]))  # warm up every worker's connections
        meter = CpuMeter(proc.pid, postmaster_pid())
        rows = [
            report("baseline 404", *meter.run(phase_baseline(port, clients[0]))),
            report("poll, 1 client", *meter.run(phase_single_poll(port, clients[0]))),
            report("poll, 1 paced", *meter.run(phase_paced_poll(port, clients[0]))),
            report("post, 1 client", *meter.run(phase_single_post(port, clients[1]))),
            report("phones", *meter.run(phase_phones(port, clients))),
            report("saturation", *meter.run(phase_saturation(port, clients))),
        ]
    finally:
        stop(proc)
        SERVER_CONF.unlink(missing_ok=True)
    lines = SERVER_LOG.read_text(errors="replace").splitlines()
    other = [line for line in lines if "Precondition Failed" not in line and "Not Found" not in line]
    print(f"server log: {len(lines) - len(other)} warnings for 412 and 404 answers, {len(other)} other lines")
    for line in other[:10]:
        print("   ", line)
    SERVER_LOG.unlink(missing_ok=True)
    report_cpu(rows)
    base, poll1, paced, post1, phones, sat = rows
    print("\nAgainst the targets (figure / target; <= 1.00 meets it):")
    for label, value, target in (
        ("event post p50, 32 phones", phones["post_p50"], TARGETS["post_p50"]),
        ("event post p99, 32 phones", phones["post_p99"], TARGETS["post_p99"]),
        ("304 poll p50, 32 phones", phones["poll_p50"], TARGETS["poll_p50"]),
        ("event post p50, 1 client", post1["post_p50"], TARGETS["post_p50"]),
        ("304 poll p50, 1 client", poll1["poll_p50"], TARGETS["poll_p50"]),
        ("304 poll p50, 1 paced/30ms", paced["poll_p50"], TARGETS["poll_p50"]),
    ):
        print(f"  {label:<27} {value:7.2f} ms / {target:5.1f} ms = {value / target:5.2f}")
    print("Relative to the cheapest request on this machine in this run (baseline 404, one query):")
    for label, value in (
        ("304 poll, 1 client", poll1["poll_p50"]),
        ("304 poll, 1 paced", paced["poll_p50"]),
        ("event post, 1 client", post1["post_p50"]),
        ("304 poll, 32 phones", phones["poll_p50"]),
        ("event post, 32 phones", phones["post_p50"]),
    ):
        print(f"  {label:<22} {value / base['base_p50']:5.2f} x baseline ({base['base_p50']:.2f} ms)")
    print(
        f"Saturation: {sat['rps']:.0f} requests/s of which {sat['posts'] / (min(PHASE_S, 10)):.0f} events/s recorded."
    )
    ok = all(r["errors"] == 0 for r in rows)
    if not ok:
        print("Some requests failed: see the errors above.")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
