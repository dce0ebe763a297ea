"""gunicorn settings of the embedded default (`make run`, started by `python -m config.lan serve`).

Threaded workers (gthread): a phone's poll or tap is a short request, and a thread waiting on SQLite's lock does
not hold the others up. Environment: ARMLIST_BIND (space-separated addresses, from config/lan.py), WEB_WORKERS,
WEB_THREADS, WEB_TIMEOUT, WEB_ACCESS_LOG=1 for a line per request.
"""

import os

wsgi_app = "config.wsgi:application"
bind = os.environ.get("ARMLIST_BIND", "127.0.0.1:8000").split()
worker_class = "gthread"
# Two processes per core (at most 4: SQLite takes one writer at a time anyway), each with many threads: every phone
# showing a battle holds one thread with its event stream or long poll (battles/views.py), so workers x threads must
# stay well above the number of phones, or taps queue behind the streams. With 40 phones on 2 cores
# (benchmarks/bench_club_night.py), 2 x 8 threads made event posts wait up to 14 s; 2 x 48 kept them short. Within
# one process a tap waits for the interpreter (the GIL) while another request renders a board: 4 x 48 rather than
# 2 x 48 brought the post p99 from 91-116 ms to 44-62 ms in the same runs (issue #11).
workers = int(os.environ.get("WEB_WORKERS") or min(4, 2 * (os.cpu_count() or 1)))
threads = int(os.environ.get("WEB_THREADS") or 48)
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


def _end_streams_on_stop(worker):
    """On a graceful stop (SIGTERM, as `make run`'s Ctrl-C sends), the phones' event streams end at once: the worker
    waits for requests in flight, and a stream would otherwise hold it for the whole graceful timeout.

    The handler runs in the main thread between two bytecodes, maybe in the middle of an import (the worker is still
    warming up) and maybe twice (`make run` signals the process group and the arbiter signals its workers again). So
    it imports nothing and acts once: an import there could meet its own module half-initialised and raise, and a
    second run would wait on the lock the first one holds (or raise again in the interpreter's exit); each kept the
    worker alive until SIGKILL or printed a traceback."""
    import signal

    from battles.watch import WATCH

    graceful = worker.handle_exit
    stopping = []

    def handle_exit(sig, frame):
        if stopping:
            return
        stopping.append(sig)
        graceful(sig, frame)  # first: the worker takes no more requests (run() ends) whatever follows
        if not worker.booted:  # still warming up (post_worker_init), serving nobody: leave now, not after the imports
            raise SystemExit(0)
        WATCH.stop(timeout=0)  # every waiting stream wakes and ends (battles/views.py battle_stream)

    signal.signal(signal.SIGTERM, handle_exit)
