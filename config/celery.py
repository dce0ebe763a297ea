"""The Celery app. Broker from REDIS_URL, or the filesystem transport under var/ (see settings)."""

import os
from pathlib import Path

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("armlist")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def _make_broker_folders(sender, **kwargs):
    """The filesystem transport needs its folders to exist before anyone publishes."""
    options = sender.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder"):
        if options.get(key):
            Path(options[key]).mkdir(parents=True, exist_ok=True)
    backend = sender.conf.result_backend or ""
    if backend.startswith("file://"):
        Path(backend.removeprefix("file://")).mkdir(parents=True, exist_ok=True)


@app.task(name="armlist.worker_check")
def worker_check() -> dict:
    """Proves a worker is alive and can reach the database; used by tests and operators."""
    import socket

    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        (one,) = cursor.fetchone()
    return {"hostname": socket.gethostname(), "pid": os.getpid(), "database": one == 1}
