"""How many threads and database connections one server process uses: read by config/gunicorn_conf.py (in gunicorn's
master), config/asgi.py and the settings (in each worker). Imports nothing from Django.

A worker process of `make run` (config/asgi.py) has:
- WEB_THREADS threads (default 16) for the short requests (a tap, a board, a page): each holds the database
  connection of its thread while it runs;
- WAIT_THREADS threads (default 4) in which the waiting requests (event streams, long polls) do their few moments of
  sync work (the access check, a board render); the wait itself is a coroutine and holds no thread;
- one watcher thread (battles/watch.py) reading the versions of the watched battles.
So at most WEB_THREADS + WAIT_THREADS + 1 connections at once, which is the size of its PostgreSQL pool: a thread
never waits for a connection, and the whole server stays under PostgreSQL's max_connections (gunicorn_conf.py).
"""

from __future__ import annotations

import os

WEB_THREADS = 16
WAIT_THREADS = 4
WATCHERS = 1  # battles/watch.py's thread
_TRUE = {"1", "true", "yes", "on"}


def _int(environ, name: str, default: int) -> int:
    raw = (environ if environ is not None else os.environ).get(name, "").strip()
    return max(1, int(raw)) if raw else default


def web_threads(environ=None) -> int:
    return _int(environ, "WEB_THREADS", WEB_THREADS)


def wait_threads(environ=None) -> int:
    return _int(environ, "WAIT_THREADS", WAIT_THREADS)


def connections_per_process(environ=None) -> int:
    """The most connections one server process opens at once: its pool's size."""
    return web_threads(environ) + wait_threads(environ) + WATCHERS


def pooled(environ=None) -> bool:
    """DB_POOL: PostgreSQL connections come from a pool (psycopg_pool through Django's OPTIONS["pool"]). gunicorn's
    configuration turns it on for the server; other processes (manage.py, Celery, the tests) keep Django's plain
    connections unless it is set."""
    return (environ if environ is not None else os.environ).get("DB_POOL", "").strip().lower() in _TRUE


# The cyclic garbage collector of a server process (issue «200 phones»): with Python's default thresholds
# (700, 10, 10) a full collection ran every few seconds in each busy worker and walked every object of Django and the
# five systems, 90–144 ms with 200 phones, during which the process answered nothing: that, not the CPU, was the
# tail of the event posts. After the warm-up the worker's objects are frozen (gc.freeze: never walked again, as for
# a forked server in Python's gc documentation), the young generations stay small (a middle collection walks at most
# about 12,000 objects) and a full one, which now walks only what was made since, comes seldom.
# Measured (benchmarks/bench_club_night.py, 200 phones, SQLite, a shared 2-core machine, runs in turn):
# - the default collector against the freeze with (5000, 20, 50): post p99 130–316 ms against 51–106 ms (3 pairs),
#   but middle collections of 20–40 ms remained;
# - (5000, 20, 50) against these: post p99 59–285 ms (median 145) against 30–245 ms (median 41), 5 pairs, 4 won.
GC_THRESHOLDS = (2000, 5, 100)


def settle_garbage_collector() -> None:
    """In a server worker, once its code is loaded: collect what start-up left, freeze the rest, space collections."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
