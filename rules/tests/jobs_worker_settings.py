"""Settings of the test workers that get killed (DJANGO_SETTINGS_MODULE of those worker processes only).

- BALANCE_TEST_CHUNK_SLEEP makes every chunk take a while, so a test can kill the worker in the middle of one.
- A short visibility timeout lets the next worker take back the killed worker's unacknowledged message within
  seconds instead of the production ten minutes.
"""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import CELERY_BROKER_TRANSPORT_OPTIONS

BALANCE_TEST_CHUNK_SLEEP = float(os.environ.get("BALANCE_TEST_CHUNK_SLEEP", "0"))
CELERY_BROKER_TRANSPORT_OPTIONS = {**CELERY_BROKER_TRANSPORT_OPTIONS, "visibility_timeout": 3}
