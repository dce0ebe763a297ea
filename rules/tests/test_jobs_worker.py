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


@override_settings(BALANCE_CHUNK_BATTLES=300)
def test_a_chunk_lost_with_a_killed_worker_is_redone_and_counted_once(setup_data):
    from conftest import start_worker, stop_worker

    database = connection.settings_dict["NAME"]
    env = {"DJANGO_SETTINGS_MODULE": "rules.tests.jobs_worker_settings", "BALANCE_TEST_CHUNK_SLEEP": "2"}
    doomed = start_worker(database, concurrency=1, hostname="doomed", extra_env=env)
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
        doomed.wait(timeout=10)
        assert JobChunk.objects.get(pk=running.pk).status == "pending"
        time.sleep(4)  # past the test workers' 3 s visibility timeout: the message is up for grabs again
        rescuer = start_worker(database, concurrency=1, hostname="rescuer", extra_env=env)
        job = wait_for(lambda: finished(job.pk), timeout=180, what="the job to finish after the kill")
    finally:
        stop_worker(doomed, sig=signal.SIGKILL)
        if rescuer is not None:
            stop_worker(rescuer)

    assert job.status == "done", job.error
    chunks = list(JobChunk.objects.filter(job=job).order_by("index"))
    assert [c.status for c in chunks] == ["done"] * 4
    assert sum(c.battles for c in chunks) == 1200 == job.battles_done == job.result["battles"]
    assert job.chunks_done == 4
    redone = next(c for c in chunks if c.pk == running.pk)
    assert redone.attempts >= 2
    assert redone.worker.startswith("rescuer")
    assert job.result == expected_result(job)
