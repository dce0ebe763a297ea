"""A server worker freezes what it loaded and spaces its garbage collections (config/serving.py GC_THRESHOLDS): a full
collection that walked all of Django and the five systems paused a busy worker for up to 144 ms with 200 phones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from config import serving

ROOT = Path(__file__).resolve().parents[1]

# gunicorn loads the app (config.asgi), then calls post_worker_init in the worker: so does this script.
WORKER = """
import gc, json
import config.asgi  # noqa: F401 - the app, as gunicorn loads it before post_worker_init
from config import gunicorn_conf

class Log:
    def exception(self, *args):
        raise SystemExit("warming failed")

class Worker:
    alive = True
    log = Log()
    def handle_exit(self, sig, frame):
        pass

before = {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}
gunicorn_conf.post_worker_init(Worker())
print(json.dumps({"before": before, "after": {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}}))
"""


def test_a_warmed_worker_freezes_its_objects_and_spaces_its_collections():
    done = subprocess.run(
        [sys.executable, "-c", WORKER], cwd=ROOT, env=os.environ.copy(), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["before"]["frozen"] == 0
    assert tuple(seen["before"]["threshold"]) != serving.GC_THRESHOLDS
    assert tuple(seen["after"]["threshold"]) == serving.GC_THRESHOLDS
    assert seen["after"]["frozen"] > 50_000  # Django, DRF and the systems: far more than a few stray objects
