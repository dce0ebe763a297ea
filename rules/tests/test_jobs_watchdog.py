"""The watchdog of balance jobs without a worker (rules/jobs/watchdog.py): which chunks it sends again, that it
sends each once, that a broker outage leaves the chunk for the next sweep, that a running chunk's heartbeat beats,
and that a late duplicate of a resent chunk is not counted. The kill itself is in test_jobs_worker.py."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from rules.jobs import services, watchdog
from rules.jobs.broker import BrokerUnavailable
from rules.models import BalanceJob, JobChunk
from rules.tests.jobs_support import ARMY_A, ARMY_B, make_roster, make_user, official_pack, purge_queue, wait_for


@pytest.fixture(autouse=True)
def _clean_queue():
    yield
    purge_queue()


@pytest.fixture
def job(db):
    user = make_user("watched")
    pack = official_pack()
    blue = make_roster(user, pack, "Blue", "protectorate", ARMY_A)
    red = make_roster(user, pack, "Red", "polaris", ARMY_B)
    with override_settings(BALANCE_CHUNK_BATTLES=100):
        job = services.balance_job_submit_rosters(user=user, roster_a_id=blue.pk, roster_b_id=red.pk, battles=400)
    purge_queue()  # these tests send chunks themselves
    return job


def beat(job, index, *, seconds_ago: float | None, **fields) -> JobChunk:
    heartbeat_at = None if seconds_ago is None else timezone.now() - timedelta(seconds=seconds_ago)
    JobChunk.objects.filter(job=job, index=index).update(heartbeat_at=heartbeat_at, **fields)
    return JobChunk.objects.get(job=job, index=index)


class Sent(list):
    def __call__(self, job_id, index):
        self.append((job_id, index))


@pytest.mark.django_db
def test_only_a_pending_chunk_silent_past_the_limit_is_sent_again_and_only_once(job):
    beat(job, 0, seconds_ago=31, attempts=1)  # its worker died
    beat(job, 1, seconds_ago=5, attempts=1)  # running, beating
    beat(job, 2, seconds_ago=None)  # queued, never started
    beat(job, 3, seconds_ago=300, attempts=1, status=JobChunk.Status.DONE)  # finished long ago
    sent = Sent()

    assert watchdog.requeue_stale_chunks(publish=sent) == [(job.pk, 0)]
    assert sent == [(job.pk, 0)]
    chunk = JobChunk.objects.get(job=job, index=0)
    assert chunk.heartbeat_at is None  # waits in the queue: not stale again until a worker starts it
    assert chunk.requeues == 1
    assert watchdog.requeue_stale_chunks(publish=sent) == []  # a second sweep (another worker) sends nothing
    assert len(sent) == 1


@pytest.mark.django_db
def test_the_limit_is_the_setting_and_a_finished_job_is_left_alone(job):
    beat(job, 0, seconds_ago=12, attempts=1)
    sent = Sent()
    assert watchdog.requeue_stale_chunks(publish=sent) == []
    with override_settings(BALANCE_CHUNK_STALE_SECONDS=10):
        BalanceJob.objects.filter(pk=job.pk).update(status=BalanceJob.Status.CANCELLED)
        assert watchdog.requeue_stale_chunks(publish=sent) == []
        BalanceJob.objects.filter(pk=job.pk).update(status=BalanceJob.Status.RUNNING)
        assert watchdog.requeue_stale_chunks(publish=sent) == [(job.pk, 0)]


@pytest.mark.django_db
def test_a_broker_outage_keeps_the_chunk_stale_for_the_next_sweep(job):
    stale = beat(job, 0, seconds_ago=60, attempts=1)

    def down(job_id, index):
        raise BrokerUnavailable()

    assert watchdog.requeue_stale_chunks(publish=down) == []
    chunk = JobChunk.objects.get(pk=stale.pk)
    assert (chunk.heartbeat_at, chunk.requeues) == (stale.heartbeat_at, 0)  # the claim rolled back
    sent = Sent()
    assert watchdog.requeue_stale_chunks(publish=sent) == [(job.pk, 0)]


@pytest.mark.django_db
def test_the_real_publish_puts_one_message_on_the_queue(job):
    from config.celery import app

    beat(job, 2, seconds_ago=45, attempts=1)
    assert watchdog.requeue_stale_chunks() == [(job.pk, 2)]
    with app.connection_for_write() as conn:
        assert conn.default_channel.client.llen("celery") == 1


@pytest.mark.django_db
def test_a_late_duplicate_of_a_resent_chunk_is_not_counted(job):
    beat(job, 0, seconds_ago=60, attempts=1)
    assert watchdog.requeue_stale_chunks(publish=Sent()) == [(job.pk, 0)]
    assert services.balance_chunk_run(job_id=job.pk, index=0, worker="rescuer") == "done"
    # the broker hands out the dead worker's message at last (Redis: after its visibility timeout)
    assert services.balance_chunk_run(job_id=job.pk, index=0, worker="late") == "skipped"
    job.refresh_from_db()
    assert (job.chunks_done, job.battles_done) == (1, 100)
    chunk = JobChunk.objects.get(job=job, index=0)
    assert (chunk.attempts, chunk.worker, chunk.requeues) == (2, "rescuer", 1)


@pytest.mark.django_db(transaction=True)
@override_settings(BALANCE_CHUNK_HEARTBEAT_SECONDS=0.1)
def test_a_running_chunk_beats(job):
    chunk = beat(job, 1, seconds_ago=100, attempts=1)
    with watchdog.heartbeat(chunk.pk):
        fresh = wait_for(
            lambda: JobChunk.objects.filter(
                pk=chunk.pk, heartbeat_at__gt=timezone.now() - timedelta(seconds=2)
            ).first(),
            timeout=5,
            every=0.05,
            what="a heartbeat",
        )
    time.sleep(0.3)
    after = JobChunk.objects.get(pk=chunk.pk).heartbeat_at
    assert after == JobChunk.objects.get(pk=chunk.pk).heartbeat_at >= fresh.heartbeat_at
    time.sleep(0.3)
    assert JobChunk.objects.get(pk=chunk.pk).heartbeat_at == after  # the beat stopped with the block


@pytest.mark.django_db(transaction=True)
@override_settings(BALANCE_CHUNK_STALE_SECONDS=1)
def test_the_worker_thread_sweeps_by_itself(job, monkeypatch):
    sent = Sent()
    monkeypatch.setattr(watchdog, "publish_chunk", sent)
    beat(job, 3, seconds_ago=5, attempts=1)
    dog = watchdog.Watchdog(every=0.1).start()
    try:
        wait_for(lambda: sent, timeout=5, every=0.05, what="the watchdog to send the chunk")
    finally:
        dog.stop()
    assert sent == [(job.pk, 3)]
    assert not dog._thread.is_alive()
