"""gunicorn settings of the server (`make run`, started by `python -m config.lan serve`; docker-compose's web).

uvicorn's workers (config/gunicorn_worker.py) serving config/asgi.py: one event loop per process holds every
connection, an open event stream or long poll is a coroutine (no thread, no database connection), and the short
requests run in WEB_THREADS threads per process. Environment: ARMLIST_BIND (space-separated addresses, from
config/lan.py), WEB_WORKERS, WEB_THREADS, WAIT_THREADS (config/serving.py), WEB_TIMEOUT, WEB_ACCESS_LOG=1 for a line
per request, DB_POOL (on here: PostgreSQL connections come from a pool per process, sized by config/serving.py).
"""

import os
import resource
import sys
from pathlib import Path

if str(Path(__file__).resolve().parent.parent) not in sys.path:  # a bare `gunicorn --config …` reads this first
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from config import serving  # noqa: E402

wsgi_app = "config.asgi:application"
bind = os.environ.get("ARMLIST_BIND", "127.0.0.1:8000").split()
worker_class = "config.gunicorn_worker.Worker"
# Two processes per core (at most 4): one event loop and its threads share an interpreter (the GIL), so a tap waits
# less behind a board render when the phones are spread over more processes (issue #11: 4 processes rather than 2
# brought the post p99 from 91-116 ms to 44-62 ms). SQLite takes one writer at a time anyway.
workers = int(os.environ.get("WEB_WORKERS") or min(4, 2 * (os.cpu_count() or 1)))
# Threads for the short requests only: a phone's open stream or long poll no longer holds one (config/asgi.py).
threads = serving.web_threads()
# A request that runs this long is stuck: its worker is restarted. SQLite's busy wait (SQLITE_TIMEOUT) is far shorter.
timeout = int(os.environ.get("WEB_TIMEOUT") or 30)
graceful_timeout = 10  # on Ctrl-C / SIGTERM, requests in flight get this long to finish
keepalive = 5  # phones poll every second or so over the same connection
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # heartbeat files off the disk  # noqa: S108
accesslog = "-" if os.environ.get("WEB_ACCESS_LOG", "").lower() in {"1", "true", "yes", "on"} else None
errorlog = "-"
loglevel = os.environ.get("WEB_LOG_LEVEL", "info")
proc_name = "armlist-web"
# No runtime control socket (gunicornc): one fixed path per user would be shared by every server on the machine.
control_socket_disable = True

# Every phone holds two or three connections (its stream, the API, the board): a tournament hall's phones would pass
# the usual limit of 1024 open files per process. The soft limit goes up to the hard one.
_soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if _hard == resource.RLIM_INFINITY or _soft < _hard:
    resource.setrlimit(resource.RLIMIT_NOFILE, (_hard if _hard != resource.RLIM_INFINITY else 65536, _hard))


def on_starting(server):
    """In the master, before any worker: on PostgreSQL, fit the connections under the server's limit. Each worker
    opens at most WEB_THREADS + WAIT_THREADS + 1 (its pool's size, config/serving.py); all of them together must
    leave room for the Celery worker, manage.py and the superuser's reserve. When they would not, the workers get
    fewer threads (so that a thread still never waits for a connection), and the log says so."""
    os.environ.setdefault("DB_POOL", "true")  # the workers, forked from here, pool their PostgreSQL connections
    budget = _postgres_budget(server.log)
    if budget is None:
        return
    per_worker = budget // workers
    fitted = per_worker - serving.wait_threads() - serving.WATCHERS
    if fitted < threads:
        if fitted < 1:
            server.log.error(
                "PostgreSQL allows %s more connections, too few for %s workers: lower WEB_WORKERS", budget, workers
            )
            return
        server.log.warning(
            "PostgreSQL allows %s connections for the server: %s threads per worker instead of %s",
            budget,
            fitted,
            threads,
        )
        os.environ["WEB_THREADS"] = str(fitted)  # read by config/asgi.py and the settings' pool size in each worker


OTHER_CLIENTS = 12  # connections kept for the Celery worker (its processes and watchdog), manage.py and psql


def _postgres_budget(log) -> int | None:
    """How many connections PostgreSQL leaves for this server (None: not PostgreSQL, or not reachable now)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as conn:
            limit = int(conn.execute("SHOW max_connections").fetchone()[0])
            reserved = int(conn.execute("SHOW superuser_reserved_connections").fetchone()[0])
    except Exception as exc:  # the database may start after the server: the defaults stand
        log.warning("Could not read PostgreSQL's max_connections (%s): the pool keeps its default size", exc)
        return None
    return max(0, limit - reserved - OTHER_CLIENTS)


def post_worker_init(worker):
    """Warm each worker before it takes requests: the URLconf and the game systems are otherwise loaded by the first
    requests, several at once in a threaded worker (and the registry of systems is not safe to fill concurrently)."""
    _end_streams_on_stop(worker)
    if not worker.alive:  # stopped while loading the app: run() ends at once, no need to warm
        return
    try:
        from django.urls import get_resolver

        from rules import registry

        get_resolver().url_patterns  # noqa: B018 - imports every app's urls, views and APIs
        registry.all_systems()
    except Exception:  # a broken import shows on the first request as well; never keep the worker from starting
        worker.log.exception("Warming the worker up failed")
    serving.settle_garbage_collector()  # the code loaded above is never walked by the collector again


def _end_streams_on_stop(worker):
    """On a graceful stop (SIGTERM, as `make run`'s Ctrl-C sends), the phones' event streams end at once: the worker
    waits for requests in flight, and a stream would otherwise hold it for the whole graceful timeout.

    The handler runs in the main thread between two bytecodes, maybe in the middle of an import (the worker is still
    warming up) and maybe twice (`make run` signals the process group and the arbiter signals its workers again). So
    it imports nothing and acts once: an import there could meet its own module half-initialised and raise, and a
    second run would wait on the lock the first one holds (or raise again in the interpreter's exit); each kept the
    worker alive until SIGKILL or printed a traceback.

    Under uvicorn's worker this handler stands while the worker warms up; once it serves, uvicorn's own handler
    takes over (config/gunicorn_worker.py ends the streams there), and at its end uvicorn restores this one and
    raises the signal again, which this handler then takes as the stop it is. A stop this handler takes between the
    warm-up and uvicorn's handlers sets `worker.alive` false, and the worker's server ends at its next tick."""
    import signal

    from config.lifecycle import stop_now

    graceful = worker.handle_exit
    stopping = []

    def handle_exit(sig, frame):
        if stopping:
            return
        stopping.append(sig)
        graceful(sig, frame)  # first: the worker takes no more requests (run() ends) whatever follows
        if not worker.booted:  # still warming up (post_worker_init), serving nobody: leave now, not after the imports
            raise SystemExit(0)
        stop_now()  # every waiting stream wakes and ends (battles registers it: config/lifecycle.py)

    signal.signal(signal.SIGTERM, handle_exit)


def worker_exit(server, worker):
    """A worker that stopped cleanly leaves without the interpreter's teardown (collecting every module and object
    of the app), which took seconds on a busy laptop and kept `make run`'s Ctrl-C waiting: its requests are done,
    its pool closed (config/asgi.py, lifespan), and SQLite needs no goodbye. Called in the worker's `finally`, so
    the SystemExit on its way says how it ends; any other end keeps its code and its teardown."""
    import sys

    ending = sys.exc_info()[1]
    if isinstance(ending, SystemExit) and ending.code in (0, None):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
