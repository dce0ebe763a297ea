"""Balance jobs on real Celery worker processes against the test PostgreSQL and Redis: a job end to end, and a
worker killed in the middle of a chunk whose chunk is redone by another worker and counted once."""

from __future__ import annotations

import os
import signal
import time

import pytest
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

from rules.jobs import analysis, services
from rules.jobs.broker import CHUNK_TASK
from rules.models import BalanceJob, JobChunk
from rules.tests.jobs_support import (
    ARMY_A,
    ARMY_B,
    DUEL_UNITS,
    make_roster,
    make_user,
    official_pack,
    purge_queue,
    wait_for,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def expected_result(job: BalanceJob) -> dict:
    """The job's answer recomputed here, chunk by chunk, without the workers."""
    chunks = list(job.chunks.order_by("index"))
    results = [services.compute_chunk(job, c) for c in chunks]
    if job.kind == BalanceJob.Kind.ROSTERS:
        return analysis.roster_result(
            analysis.add_summaries(results), cost_a=job.inputs["side_a"]["cost"], cost_b=job.inputs["side_b"]["cost"]
        )
    return analysis.duel_result(job.inputs["profiles"], [row for r in results for row in r["pairs"]])


def finished(job_id: int) -> BalanceJob | None:
    job = BalanceJob.objects.get(pk=job_id)
    return job if job.finished else None


@pytest.fixture
def setup_data():
    purge_queue()
    user = make_user("worker-test")
    pack = official_pack()
    rosters = (
        make_roster(user, pack, "Blue", "protectorate", ARMY_A),
        make_roster(user, pack, "Red", "polaris", ARMY_B),
    )
    client = APIClient()
    client.force_authenticate(user)
    yield {"user": user, "pack": pack, "rosters": rosters, "client": client}
    purge_queue()


@override_settings(BALANCE_CHUNK_BATTLES=500)
def test_a_real_worker_runs_roster_and_duel_jobs_end_to_end(setup_data, celery_worker):
    client, (blue, red), pack = setup_data["client"], setup_data["rosters"], setup_data["pack"]
    response = client.post(
        "/api/v1/jobs/rosters/",
        {"roster_a": blue.pk, "roster_b": red.pk, "battles": 2000, "params": {"rounds": 6}, "seed": 21},
        format="json",
    )
    assert response.status_code == 202, response.content
    roster_job = response.json()["id"]
    response = client.post(
        "/api/v1/jobs/duels/", {"pack": pack.pk, "profiles": DUEL_UNITS, "battles": 200, "seed": 4}, format="json"
    )
    assert response.status_code == 202, response.content
    duel_job = response.json()["id"]

    for job_id in (roster_job, duel_job):
        job = wait_for(lambda job_id=job_id: finished(job_id), timeout=180, what=f"job {job_id} to finish")
        assert job.status == "done", job.error
        chunks = list(JobChunk.objects.filter(job=job))
        assert all(c.status == "done" and c.attempts == 1 and c.worker for c in chunks)
        assert sum(c.battles for c in chunks) == job.total_battles == job.battles_done
        assert job.result == expected_result(job)  # the workers computed exactly what the seed says

    roster = BalanceJob.objects.get(pk=roster_job)
    assert roster.chunk_count == 4
    assert roster.result["battles"] == 2000
    status = client.get(f"/api/v1/jobs/{roster_job}/status/").json()
    assert status["status"] == "done"
    assert status["progress"] == 1.0
    assert status["eta_seconds"] == 0
    duel = BalanceJob.objects.get(pk=duel_job)
    assert duel.result["games"] == 6 * 200
    assert len(duel.result["matrix"]) == 4


def filesystem_broker(folder) -> tuple[dict, object]:
    """The worker environment and a Celery app of this test's own filesystem broker (the `make run` transport)."""
    from celery import Celery

    env = {"REDIS_URL": "", "ARMLIST_TEST_BROKER_DIR": str(folder)}
    options = {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "control_folder": str(folder / "control"),
        "store_processed": False,
        "polling_interval": 0.1,  # as the workers' (rules/tests/jobs_worker_settings.py)
    }
    for key in ("data_folder_in", "control_folder"):
        os.makedirs(options[key], exist_ok=True)
    app = Celery("armlist-fs-test", broker="filesystem://", set_as_current=False)
    app.conf.update(broker_transport_options=options, task_serializer="json", accept_content=["json"])
    return env, app


def start_filesystem_worker(database: str, app, *, hostname: str, extra_env: dict):
    """conftest.start_worker's process, answering pings on the filesystem broker rather than Redis."""
    import subprocess
    import sys

    from django.conf import settings

    from conftest import ROOT

    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{database}",
        "ARMLIST_LANGUAGE_CODE": settings.LANGUAGE_CODE,
        **extra_env,
    }
    node = f"{hostname}-{os.environ.get('ARMLIST_TEST_TAG', 'armlist-test')}-{os.getpid()}@localhost"
    args = [sys.executable, "-m", "celery", "-A", "rules.tests.slow_chunks", "worker", "--loglevel=WARNING"]
    args += ["--pool=prefork"]
    args += ["--concurrency=1", f"--hostname={node}", "--without-gossip", "--without-mingle"]
    proc = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        wait_for(
            lambda: proc.poll() is not None or app.control.ping(destination=[node], timeout=0.5),
            timeout=60,
            what=f"worker {hostname} to answer a ping",
        )
    except AssertionError:
        proc.kill()
        raise
    assert proc.poll() is None, f"celery worker exited with {proc.returncode}"
    return proc


@pytest.mark.alone  # the watchdog's shortened clock: a slow neighbour makes a waiting chunk look stale (conftest.py)
@pytest.mark.parametrize("broker", ["redis", "filesystem"])
@override_settings(BALANCE_CHUNK_BATTLES=300)
def test_a_chunk_lost_with_a_killed_worker_is_redone_and_counted_once(setup_data, broker, tmp_path, monkeypatch):
    """Production's broker settings: Redis hands a lost message out again only after its 600 s visibility timeout,
    and the filesystem broker of `make run` never does. The watchdog brings the chunk back (rules/jobs/watchdog.py),
    so the job completes within a minute of the kill."""
    from conftest import start_worker, stop_worker
    from rules.tests import jobs_worker_settings

    database = connection.settings_dict["NAME"]
    # The watchdog's clock is shortened (a beat a second, stale after 6 s, a sweep a second) so the suite waits
    # seconds, not the production half-minute; the broker's visibility timeout stays production's 600 s, so a chunk
    # redone within a minute was redone by the watchdog.
    env = {
        "DJANGO_SETTINGS_MODULE": "rules.tests.jobs_worker_settings",
        "BALANCE_CHUNK_HEARTBEAT_SECONDS": "1",
        "BALANCE_CHUNK_STALE_SECONDS": "6",
        "BALANCE_WATCHDOG_SECONDS": "1",
    }
    # Only the doomed worker's chunks take 2 s more, so it is killed in the middle of one; the rescuer computes at
    # production speed.
    pause = {"doomed": "2", "rescuer": "0"}
    if broker == "redis":
        assert jobs_worker_settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] == 600

        def start(hostname):
            return start_worker(
                database,
                concurrency=1,
                hostname=hostname,
                extra_env={**env, "BALANCE_TEST_CHUNK_SLEEP": pause[hostname]},
                app_module="rules.tests.slow_chunks",
            )
    else:
        fs_env, fs_app = filesystem_broker(tmp_path / "broker")
        env.update(fs_env)
        # this process publishes the job's chunks to the same folders the workers read
        monkeypatch.setattr(
            services,
            "publish_chunks",
            lambda job_id, indexes: [fs_app.send_task(CHUNK_TASK, args=(job_id, i)) for i in indexes],
        )

        def start(hostname):
            return start_filesystem_worker(
                database, fs_app, hostname=hostname, extra_env={**env, "BALANCE_TEST_CHUNK_SLEEP": pause[hostname]}
            )

    doomed = start("doomed")
    rescuer = None
    try:
        blue, red = setup_data["rosters"]
        job = services.balance_job_submit_rosters(
            user=setup_data["user"], roster_a_id=blue.pk, roster_b_id=red.pk, battles=1200, seed=8
        )
        assert job.chunk_count == 4
        running = wait_for(
            lambda: JobChunk.objects.filter(job=job, status="pending", attempts__gte=1).first(),
            timeout=60,
            every=0.05,
            what="a chunk to start",
        )
        os.killpg(doomed.pid, signal.SIGKILL)  # the whole worker, main process and pool child, mid-chunk
        killed_at = time.monotonic()
        doomed.wait(timeout=10)
        assert JobChunk.objects.get(pk=running.pk).status == "pending"
        rescuer = start("rescuer")
        job = wait_for(lambda: finished(job.pk), timeout=120, what="the job to finish after the kill")
        took = time.monotonic() - killed_at
    finally:
        stop_worker(doomed, sig=signal.SIGKILL)
        if rescuer is not None:
            stop_worker(rescuer)

    print(f"{broker}: job finished {took:.1f} s after the kill")  # shown with -s: the figure the issue asks about
    assert took < 60, f"the job finished {took:.0f} s after the kill"
    assert job.status == "done", job.error
    chunks = list(JobChunk.objects.filter(job=job).order_by("index"))
    assert [c.status for c in chunks] == ["done"] * 4
    assert sum(c.battles for c in chunks) == 1200 == job.total_battles == job.battles_done == job.result["battles"]
    assert job.chunks_done == 4
    redone = next(c for c in chunks if c.pk == running.pk)
    assert redone.attempts >= 2
    assert redone.requeues == 1  # sent again once, by one watchdog
    assert redone.worker.startswith("rescuer")
    assert all(c.requeues == 0 for c in chunks if c.pk != running.pk)
    assert job.result == expected_result(job)
