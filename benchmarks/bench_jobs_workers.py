"""Do balance jobs scale across workers? The same roster-against-roster job (same seed, same chunks) runs once
on one real Celery worker and once on two; two should finish at least 1.7x faster (target).

Needs the PostgreSQL and Redis that `make bench` starts (DATABASE_URL, REDIS_URL). It migrates (make bench
already did) and creates its own user, pack and rosters. Time is wall clock from submission to the job being
done; the workers are started (and answering pings) before the clock starts.

Run: make bench ARGS=benchmarks/bench_jobs_workers.py
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from armies import services as armies_services  # noqa: E402
from conftest import start_worker, stop_worker  # noqa: E402
from rules.jobs import services  # noqa: E402
from rules.models import BalanceJob, JobChunk  # noqa: E402

ARMY_A = ["protectorate_kiberspetsnaz", "trex", "salamander", "protectorate_regulyary_planety_velian"]  # 300
ARMY_B = ["polaris_lineynaya_klon_pehota", "polaris_lyogkiy_shturmovoy_desant", "hunter", "thunder"]  # 300
CHUNKS, CHUNK_BATTLES = 24, 20_000  # the default chunk size (settings.BALANCE_CHUNK_BATTLES)


def data():
    call_command("migrate", verbosity=0, interactive=False)
    user, _ = get_user_model().objects.get_or_create(username=f"bench-{os.getpid()}")
    (pack, _created), *_ = armies_services.load_packs()
    rosters = []
    for name, faction, slugs in (("Bench blue", "protectorate", ARMY_A), ("Bench red", "polaris", ARMY_B)):
        roster = armies_services.roster_create(owner=user, pack=pack, name=name, faction=faction)
        for slug in slugs:
            armies_services.entry_add(roster=roster, profile=slug)
        rosters.append(roster)
    return user, rosters


def purge() -> None:
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("celery")


def children_cpu() -> float:
    """CPU seconds of every finished descendant process (the workers, once stopped, and their pool children)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(workers: int, user, rosters) -> tuple[float, BalanceJob, float]:
    database = settings.DATABASES["default"]["NAME"]
    cpu_before = children_cpu()
    procs = [start_worker(database, concurrency=1, hostname=f"bench{workers}-{i}") for i in range(workers)]
    try:
        start = time.monotonic()
        job = services.balance_job_submit_rosters(
            user=user,
            roster_a_id=rosters[0].pk,
            roster_b_id=rosters[1].pk,
            battles=CHUNKS * CHUNK_BATTLES,
            seed=2026,
        )
        while True:
            job.refresh_from_db()
            if job.finished:
                break
            time.sleep(0.05)
        elapsed = time.monotonic() - start
    finally:
        for proc in procs:
            stop_worker(proc)
    if job.status != "done":
        raise SystemExit(f"job {job.pk} ended {job.status}: {job.error}")
    return elapsed, job, children_cpu() - cpu_before


def main() -> None:
    settings.BALANCE_CHUNK_BATTLES = CHUNK_BATTLES
    user, rosters = data()
    purge()
    one, job_one, cpu_one = run(1, user, rosters)
    two, job_two, cpu_two = run(2, user, rosters)
    workers_two = set(JobChunk.objects.filter(job=job_two).values_list("worker", flat=True))
    assert job_one.result == job_two.result, "the same seed must give the same numbers on any number of workers"
    battles = CHUNKS * CHUNK_BATTLES
    print(f"job of {battles:,} battles in {CHUNKS} chunks (300 v 300 points), machine has {os.cpu_count()} cores")
    print(f"   load average {os.getloadavg()[0]:.1f} (other processes share these cores)")
    print(f"   one worker:  {one:6.1f} s  ({battles / one:,.0f} battles/s)")
    print(
        f"   two workers: {two:6.1f} s  ({battles / two:,.0f} battles/s; chunks shared by {len(workers_two)} workers)"
    )
    print(f"   worker CPU, start-up included: {cpu_one:.1f} s with one worker, {cpu_two:.1f} s with two")
    print(f"   speed-up {one / two:.2f}x (target >= 1.7x); identical results: yes")


if __name__ == "__main__":
    main()
