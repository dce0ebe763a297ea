"""The Celery app of the test workers that get killed: every chunk takes BALANCE_TEST_CHUNK_SLEEP seconds more, so a
test can kill the worker in the middle of one. Test-only, so the production path has no pause in it: the slowness
is put around `compute_chunk` in each pool process this worker forks."""

import os
import time

from celery.signals import worker_process_init

from config.celery import app

__all__ = ["app"]


@worker_process_init.connect
def _slow_chunks(**_kwargs):
    from rules.jobs import services

    pause = float(os.environ.get("BALANCE_TEST_CHUNK_SLEEP", "0"))
    compute = services.compute_chunk

    def slow_compute(job, chunk):
        time.sleep(pause)
        return compute(job, chunk)

    services.compute_chunk = slow_compute
