"""A real Celery worker process, talking to the test Redis and the test PostgreSQL."""

import pytest


@pytest.mark.worker
def test_task_runs_through_a_real_worker(celery_worker):
    from config.celery import worker_check

    result = worker_check.delay().get(timeout=30)
    assert result["database"] is True
    assert result["pid"] != celery_worker.pid  # ran in a pool process of the worker, not here
