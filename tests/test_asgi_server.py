"""The server holds a tournament (issue «200 phones on one laptop or on PostgreSQL»): an open event stream or long
poll holds neither a thread nor a database connection (config/asgi.py, battles/watch.py), and on PostgreSQL the
server's connections come from pools sized under the server's limit (config/serving.py, config/gunicorn_conf.py).

Every server here is the one `make run` starts (tests/club_server.py), on its own database, over loopback.
"""

from __future__ import annotations

import asyncio

import pytest

from config import serving as sizes
from tests.club_server import (
    connections_to,
    phones,
    serving,
    thread_count,
    worker_pids,
)
from tests.loopback_http import LoopbackClient

WORKERS = 2


def test_every_middleware_is_async_capable(settings):
    """A sync-only middleware would make Django run a waiting request's coroutine view through a thread that waits
    for it: the thread per stream config/asgi.py removes."""
    from django.utils.module_loading import import_string

    sync_only = [path for path in settings.MIDDLEWARE if not getattr(import_string(path), "async_capable", False)]
    assert sync_only == []


def test_the_server_serves_the_asgi_app_with_uvicorns_worker():
    from config import gunicorn_conf, lan

    assert lan.server_command()[-1] == "config.asgi:application"
    assert gunicorn_conf.wsgi_app == "config.asgi:application"
    assert gunicorn_conf.worker_class == "config.gunicorn_worker.Worker"


async def _wait_all(clients: list[dict], port: int, *, long_polls: int):
    """Opens a stream for every phone and a long poll for the first `long_polls`; answers when every stream has
    said its first version: (streams, their event iterators, pending long-poll tasks)."""
    streams = [LoopbackClient(port, session=c["session"]) for c in clients]
    opened = await asyncio.gather(*(p.open_stream(f"/battles/{c['battle']}/stream") for p, c in zip(streams, clients)))
    assert {status for status, _ in opened} == {200}
    events = [it for _, it in opened]
    firsts = await asyncio.gather(*(anext(it) for it in events))
    assert all(first["event"] == "version" for first in firsts)
    polls = []
    for c, first in zip(clients[:long_polls], firsts):
        phone = LoopbackClient(port, session=c["session"])
        path = f"/battles/{c['battle']}/board?wait=15&notify=1"
        polls.append(asyncio.create_task(phone.request("GET", path, headers={"If-None-Match": f'"v{first["data"]}"'})))
    await asyncio.sleep(1.5)  # the long polls are in and waiting
    assert not any(task.done() for task in polls), [task.result()[0] for task in polls if task.done()]
    return streams, events, firsts, polls


@pytest.mark.serial  # loads the machine on purpose (conftest.py)
def test_open_streams_and_long_polls_hold_no_thread(migrated_sqlite, tmp_path):
    """200 phones with their event stream open and 100 long polls waiting: each worker still runs only its fixed
    threads (WEB_THREADS, WAIT_THREADS, the watcher, the loop), not one per waiting request. Then a write reaches
    the streams and the long polls of its battle at once, and the other phones' streams stay quiet."""
    with serving(migrated_sqlite, tmp_path, WEB_WORKERS=str(WORKERS)) as server:
        clients = phones(server, 200)
        workers = worker_pids(server)
        assert len(workers) == WORKERS
        fixed = sizes.web_threads() + sizes.wait_threads() + sizes.WATCHERS + 1  # + the event loop's

        async def night():
            streams, events, firsts, polls = await _wait_all(clients, server.port, long_polls=100)
            threads = [thread_count(pid) for pid in workers]
            writer = LoopbackClient(server.port, token=clients[0]["token"])
            version = int(firsts[0]["data"])
            status, headers, _ = await writer.request(
                "POST",
                f"/api/v1/battles/{clients[0]['battle']}/commands/adjust/",
                body={"unit": clients[0]["unit"], "changes": {"ammo": 3}},
                headers={"If-Match": f'"v{version}"', "Idempotency-Key": "one-write"},
            )
            assert status == 201
            heard = await asyncio.wait_for(asyncio.gather(anext(events[0]), anext(events[1])), 10)
            woken = await asyncio.wait_for(asyncio.gather(polls[0], polls[1]), 10)
            others = [task for task in polls[2:] if task.done()]
            stale = await LoopbackClient(server.port, session=clients[3]["session"]).request(
                "GET", f"/battles/{clients[3]['battle']}/board?wait=15", headers={"If-None-Match": '"v0"'}
            )  # a long poll on an old version: the board at once, drawn in a waiting request's thread
            for phone in streams:
                phone.close()
            for task in polls:
                task.cancel()
            return threads, heard, woken, others, version, stale

        threads, heard, woken, others, version, stale = asyncio.run(night())
    assert all(count <= fixed + 2 for count in threads), (threads, fixed)  # a thread per stream: over 150 each
    assert [h["data"] for h in heard] == [str(version + 1)] * 2  # both phones of the battle hear the write
    assert [status for status, _, _ in woken] == [204, 204]
    assert [headers["etag"] for _, headers, _ in woken] == [f'"v{version + 1}"'] * 2
    assert others == []  # the other battles' long polls still wait
    assert stale[0] == 200
    assert b"battle-data" in stale[2], stale[2][:300]  # the board fragment


@pytest.mark.serial  # loads the machine on purpose (conftest.py)
def test_waiting_phones_hold_no_database_connection(migrated_postgres, tmp_path):
    """On PostgreSQL, with pools of 4 connections per worker (2 threads for short requests, 1 for the waiting ones'
    moments of work, the watcher), 100 open streams and 100 waiting long polls all get in and wait: had a waiting
    phone held a connection, the fifth one of a worker would have waited for the pool (DB_POOL_TIMEOUT) and
    failed. The server never holds more than the pools."""
    small = {"WEB_WORKERS": str(WORKERS), "WEB_THREADS": "2", "WAIT_THREADS": "1", "DB_POOL_TIMEOUT": "5"}
    url = migrated_postgres
    with serving(url, tmp_path, **small) as server:
        clients = phones(server, 100)
        pools = WORKERS * sizes.connections_per_process(server.env)

        async def night():
            streams, _, _, polls = await _wait_all(clients, server.port, long_polls=100)
            held = connections_to(url)
            for phone in streams:
                phone.close()
            for task in polls:
                task.cancel()
            return held

        held = asyncio.run(night())  # every stream said its version, every long poll still waits
        log = server.log.read_text(errors="replace")
    assert pools == 8
    assert held <= pools, held  # 200 phones wait; a connection each would be 200 (or refusals)
    assert "PoolTimeout" not in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]


def test_only_streams_and_long_polls_take_the_coroutine_path():
    from config.asgi import waits

    def scope(path, query=b""):
        return {"type": "http", "path": path, "query_string": query}

    assert waits(scope("/battles/7/stream"))
    assert waits(scope("/battles/7/board", b"wait=15&notify=1"))
    assert not waits(scope("/battles/7/board"))  # a board fetch is a short request
    assert not waits(scope("/battles/7/"))
    assert not waits(scope("/api/v1/battles/7/"))
    assert not waits(scope("/no/such/page/"))


def test_the_workers_pools_are_fitted_under_postgresqls_limit(monkeypatch):
    """gunicorn's master reads max_connections: when the workers' pools and the other clients would not fit, each
    worker gets fewer threads (its pool shrinks with them), so no thread waits for a connection."""
    from config import gunicorn_conf

    class Log:
        def __init__(self):
            self.lines = []

        def warning(self, *args):
            self.lines.append(args[0] % args[1:])

        error = warning

    monkeypatch.setenv("WEB_THREADS", "16")
    monkeypatch.setenv("DB_POOL", "")
    monkeypatch.setattr(gunicorn_conf, "workers", 4)
    monkeypatch.setattr(gunicorn_conf, "_postgres_budget", lambda log: 85)  # max_connections 100 - 3 - 12
    gunicorn_conf.on_starting(type("Server", (), {"log": Log()})())
    assert sizes.web_threads() == 16  # 4 x (16 + 4 + 1) = 84 fit
    log = Log()
    monkeypatch.setattr(gunicorn_conf, "_postgres_budget", lambda log: 40)
    gunicorn_conf.on_starting(type("Server", (), {"log": log})())
    assert sizes.web_threads() == 5  # 40 // 4 = 10 a worker: 5 + 4 + the watcher
    assert 4 * sizes.connections_per_process() <= 40
    assert "5 threads per worker" in log.lines[0]
    import os

    assert sizes.pooled(os.environ) is False  # an explicit DB_POOL stands


def test_uvicorns_server_ends_once_its_worker_is_told_to_stop():
    """A SIGTERM that comes after the warm-up but before uvicorn has put in its own handlers is taken by the worker's
    handler (config/gunicorn_conf.py), which sets `worker.alive` false: the server's loop ends at its next tick, not
    at the arbiter's SIGKILL after the graceful timeout."""
    from types import SimpleNamespace

    from uvicorn.config import Config

    from config.gunicorn_worker import _Server

    async def app(scope, receive, send):  # pragma: no cover - never called: no request comes
        raise AssertionError

    worker = SimpleNamespace(alive=True)
    server = _Server(Config(app=app), worker=worker)

    async def main():
        serving = asyncio.create_task(server.main_loop())
        await asyncio.sleep(0.3)
        assert not serving.done()  # the worker alive: the server serves on
        worker.alive = False
        await asyncio.wait_for(serving, timeout=2.0)

    asyncio.run(main())
    assert not server.should_exit  # it was the worker's flag, not uvicorn's own handler, that ended it
