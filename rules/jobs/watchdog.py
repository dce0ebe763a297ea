"""A lost chunk is redone within a minute, not after the broker's ten (issue #18, "A killed worker stalls a job").

The chunk task is acks_late, so a worker that dies mid-chunk leaves its message unacknowledged: Redis hands it out
again only after the visibility timeout (600 s, config/settings/base.py), and kombu's filesystem transport (the
embedded `make run` broker) never does, since it deletes a message when it hands it out. So the database watches:

- a running chunk refreshes `JobChunk.heartbeat_at` every BALANCE_CHUNK_HEARTBEAT_SECONDS from a side thread
  (`heartbeat`), for as long as its worker process lives;
- every worker's main process runs a watchdog thread (started by rules/tasks.py on `worker_ready`) that every
  BALANCE_WATCHDOG_SECONDS sends again to the queue each pending chunk of an unfinished job whose heartbeat is older
  than BALANCE_CHUNK_STALE_SECONDS (`requeue_stale_chunks`). No celery beat needed: any live worker does it.

Counting once does not depend on the watchdog: a chunk's result is recorded under a row lock only while the chunk is
pending (services._record), so the late original (Redis after 600 s) or a run racing the resent one changes nothing.
A claim is a conditional UPDATE on the heartbeat it saw, in the same transaction as the publish, so two watchdogs
never both resend a chunk and a failed publish leaves the chunk stale for the next sweep.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings as django_settings
from django.db import connections, transaction
from django.db.models import F
from django.utils import timezone

from rules.jobs.broker import BrokerUnavailable, publish_chunks
from rules.models import BalanceJob, JobChunk

logger = logging.getLogger(__name__)

DEFAULT_HEARTBEAT_SECONDS = 5.0
DEFAULT_STALE_SECONDS = 30.0  # six missed heartbeats: a slow database is not a dead worker
DEFAULT_WATCHDOG_SECONDS = 5.0  # one small indexed query: a lost chunk is back within stale + 5 s
SWEEP_LIMIT = 200  # chunks resent per sweep; the next sweep takes the rest


def heartbeat_seconds() -> float:
    return float(getattr(django_settings, "BALANCE_CHUNK_HEARTBEAT_SECONDS", DEFAULT_HEARTBEAT_SECONDS))


def stale_seconds() -> float:
    return float(getattr(django_settings, "BALANCE_CHUNK_STALE_SECONDS", DEFAULT_STALE_SECONDS))


def watchdog_seconds() -> float:
    return float(getattr(django_settings, "BALANCE_WATCHDOG_SECONDS", DEFAULT_WATCHDOG_SECONDS))


# The running chunk's side -------------------------------------------------------------------------------------
@contextmanager
def heartbeat(chunk_pk: int):
    """Refreshes the chunk's heartbeat every few seconds while the block runs (the simulation itself)."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(heartbeat_seconds()):
                try:
                    JobChunk.objects.filter(pk=chunk_pk, status=JobChunk.Status.PENDING).update(
                        heartbeat_at=timezone.now()
                    )
                except Exception:  # the database blinked: the next beat tries again; the chunk runs on
                    logger.warning("chunk %s: heartbeat not recorded", chunk_pk, exc_info=True)
                    connections.close_all()
        finally:
            connections.close_all()  # this thread's own connection

    thread = threading.Thread(target=beat, name=f"chunk-heartbeat-{chunk_pk}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=10)


# Any worker's side ---------------------------------------------------------------------------------------------
def publish_chunk(job_id: int, index: int) -> None:
    publish_chunks(job_id, [index])


def requeue_stale_chunks(*, now=None, publish=None) -> list[tuple[int, int]]:
    """Sends again every chunk whose worker went silent; answers the (job, index) pairs it sent."""
    publish = publish_chunk if publish is None else publish
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=stale_seconds())
    stale = list(
        JobChunk.objects.filter(status=JobChunk.Status.PENDING, heartbeat_at__lt=cutoff)
        .exclude(job__status__in=BalanceJob.FINISHED)
        .order_by("heartbeat_at")
        .values_list("pk", "job_id", "index", "heartbeat_at", "worker")[:SWEEP_LIMIT]
    )
    sent = []
    for pk, job_id, index, beat, worker in stale:
        try:
            with transaction.atomic():
                claimed = JobChunk.objects.filter(pk=pk, status=JobChunk.Status.PENDING, heartbeat_at=beat).update(
                    heartbeat_at=None, requeues=F("requeues") + 1
                )
                if not claimed:  # another watchdog took it, or it beat or finished meanwhile
                    continue
                publish(job_id, index)  # raises: the claim rolls back and the next sweep tries again
        except BrokerUnavailable:
            logger.warning("watchdog: broker unreachable; chunk %s of job %s waits for the next sweep", index, job_id)
            break
        logger.warning(
            "watchdog: chunk %s of job %s went silent on %s (last heartbeat %s): sent again",
            index,
            job_id,
            worker or "?",
            beat.isoformat(),
        )
        sent.append((job_id, index))
    return sent


class Watchdog:
    """The thread a worker's main process runs: a sweep at start, then every BALANCE_WATCHDOG_SECONDS."""

    def __init__(self, every: float | None = None):
        self.every = watchdog_seconds() if every is None else every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="balance-watchdog", daemon=True)

    def start(self) -> Watchdog:
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                requeue_stale_chunks()
            except Exception:  # a database or broker outage must not end the thread: try again next time
                logger.warning("watchdog: sweep failed", exc_info=True)
            finally:
                # No connection held between sweeps: the prefork pool may fork a new child at any moment.
                connections.close_all()
            self._stop.wait(self.every)
