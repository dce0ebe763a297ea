"""The suite runs in parallel (scripts/test.sh, pytest-xdist): each test process has its own Redis database, which
the Celery app and the workers the tests start use, so a worker never takes another process's tasks."""

import os

from django.conf import settings

from config.celery import app


def test_the_celery_app_and_the_started_workers_use_this_process_redis_database():
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    assert os.environ.get("REDIS_URL", "") == settings.REDIS_URL
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw") and settings.REDIS_URL:
        assert settings.REDIS_URL.rsplit("/", 1)[1] == str(int(worker[2:]) + 1)
        assert settings.CACHES["ratelimit"]["LOCATION"] == settings.REDIS_URL
