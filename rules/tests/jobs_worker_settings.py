"""Settings of the test workers that get killed (DJANGO_SETTINGS_MODULE of those worker processes only).

Their Celery app is rules/tests/slow_chunks.py, which makes every chunk take a while, so a test can kill the worker
in the middle of one. Everything else is production's: the broker's visibility timeout stays at 600 s, so a chunk redone within a minute
of the kill was redone by the watchdog (rules/jobs/watchdog.py), not by the broker.
"""

import os

from config.settings.base import *  # noqa: F403

# The filesystem broker of `make run` (REDIS_URL empty), in the test's own folder rather than the shared var/.
_BROKER_DIR = os.environ.get("ARMLIST_TEST_BROKER_DIR")
if _BROKER_DIR:
    CELERY_BROKER_URL = "filesystem://"
    CELERY_RESULT_BACKEND = f"file://{_BROKER_DIR}/results"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": f"{_BROKER_DIR}/queue",
        "data_folder_out": f"{_BROKER_DIR}/queue",
        "processed_folder": f"{_BROKER_DIR}/processed",
        "control_folder": f"{_BROKER_DIR}/control",
        "store_processed": False,
        # kombu looks into the folders every second; every 0.1 s here, so the test waits less for each chunk and
        # ping. What a lost message does (nothing: only the watchdog brings its chunk back) is the same.
        "polling_interval": 0.1,
    }
