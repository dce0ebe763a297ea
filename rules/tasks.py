"""Celery tasks of the rules app (autodiscovered). Thin: the work is in rules.jobs.services."""

from celery import shared_task
from celery.signals import worker_ready, worker_shutdown


@shared_task(
    bind=True,
    name="rules.balance_chunk",
    ignore_result=True,  # progress and results live in the database, not the result backend
    acks_late=True,  # a chunk lost with its worker is delivered again…
    reject_on_worker_lost=True,
)
def balance_chunk(self, job_id: int, index: int) -> str:
    """…and recorded once: the service skips a chunk that is already done."""
    from rules.jobs.services import balance_chunk_run

    return balance_chunk_run(job_id=job_id, index=index, worker=self.request.hostname or "")


# Every worker's main process watches for chunks whose worker died (rules/jobs/watchdog.py): celery beat is not
# needed, so `make run` has it too.
_watchdog = None


@worker_ready.connect
def _start_watchdog(sender=None, **kwargs):
    global _watchdog
    from rules.jobs.watchdog import Watchdog, watchdog_seconds

    if _watchdog is None and watchdog_seconds() > 0:
        _watchdog = Watchdog().start()


@worker_shutdown.connect
def _stop_watchdog(sender=None, **kwargs):
    global _watchdog
    if _watchdog is not None:
        _watchdog.stop()
        _watchdog = None
