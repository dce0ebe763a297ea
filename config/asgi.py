"""The application the server serves (`make run` and docker-compose: gunicorn with uvicorn's worker,
config/gunicorn_conf.py). One event loop per worker process takes every connection; a request goes one of two ways:

- **A request that waits** (a battle's event stream, a board long poll): its view carries `async_view`, a coroutine
  view (and maybe `async_if`, a test of the query string), and Django's ASGI handler serves it with that coroutine.
  The wait is an await on the process's watcher (battles/watch.py): an open stream is a future, not a thread, so the
  number of phones a server holds is limited by its CPU, not by its threads (issue: 200 phones). The few moments of
  sync work (middleware, the access check, a board render) run in WAIT_THREADS threads shared by every waiting
  request; each request keeps to one of them (asgiref's thread-sensitive rule: one request's sync code in one
  thread), and a thread gives its pooled database connection back after each piece of work.
- **Every other request** is short (a tap, a board, a page): Django's WSGI handler in a pool of WEB_THREADS threads,
  as gunicorn's threaded workers ran it. The whole request (middleware and view) runs in one thread, once, and the
  thread keeps its SQLite connection from request to request (opening one costs milliseconds).

Every middleware is async-capable (tests/test_asgi_server.py checks it): a sync-only one would make Django run the
async view through a thread that waits for it, which is the thread per stream this module removes.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402 - after the settings module is named
from asgiref.sync import ThreadSensitiveContext  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402
from django.core.handlers.wsgi import WSGIHandler  # noqa: E402

from config import serving  # noqa: E402

django.setup(set_prefix=False)


def _release_connections() -> None:
    """After a piece of work in a shared thread: a pooled (PostgreSQL) connection goes back to the pool; an unpooled
    one (SQLite) stays with the thread until it grows old (CONN_MAX_AGE), as between two requests."""
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        if conn.in_atomic_block:
            continue
        if conn.settings_dict.get("OPTIONS", {}).get("pool"):
            conn.close()
        else:
            conn.close_if_unusable_or_obsolete()


def _then_release(fn, /, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    finally:
        _release_connections()


class Threads(ThreadPoolExecutor):
    """A fixed pool of threads whose every piece of work ends by giving back a pooled database connection."""

    def submit(self, fn, /, *args, **kwargs):
        return super().submit(_then_release, fn, *args, **kwargs)


# Waiting requests ---------------------------------------------------------------------------------------------------
class _WaitingHandler(ASGIHandler):
    """Django's ASGI handler, answering with a view's `async_view` (the view of the URL otherwise)."""

    def resolve_request(self, request):
        match = super().resolve_request(request)
        match.func = getattr(match.func, "async_view", match.func)
        return match


class _WaitThreads:
    """WAIT_THREADS one-thread executors: each waiting request is given one in turn, for all its sync code."""

    def __init__(self, count: int):
        self.executors = [Threads(max_workers=1, thread_name_prefix=f"wait-{i}") for i in range(count)]
        self._turn = itertools.cycle(self.executors)

    def next(self) -> Threads:
        return next(self._turn)


@functools.lru_cache(maxsize=4096)
def _async_view(path: str):
    """The view of `path` when it has a coroutine form (`async_view`), else None. Cached: paths repeat all night."""
    from django.urls import Resolver404, get_resolver

    try:
        view = get_resolver().resolve(path).func
    except Resolver404:
        return None
    return view if getattr(view, "async_view", None) is not None else None


def waits(scope) -> bool:
    """True for a request that the coroutine form of its view answers (it may wait)."""
    view = _async_view(scope["path"])
    if view is None:
        return False
    test = getattr(view, "async_if", None)
    return test is None or bool(test(scope.get("query_string", b"")))


# Short requests -----------------------------------------------------------------------------------------------------
def _environ(scope, body) -> dict:
    """The WSGI environ of an ASGI HTTP scope (PEP 3333: strings of latin-1 "bytes")."""
    client = scope.get("client") or ("", 0)
    server = scope.get("server") or ("localhost", 80)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode("utf-8").decode("latin-1"),
        "PATH_INFO": scope["path"].encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": str(client[0]),
        "REMOTE_PORT": str(client[1]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": _Errors(),
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        name = name if name in {"CONTENT_LENGTH", "CONTENT_TYPE"} else f"HTTP_{name}"
        value = raw_value.decode("latin-1")
        if name in environ:
            value = f"{environ[name]}{'; ' if name == 'HTTP_COOKIE' else ','}{value}"
        environ[name] = value
    return environ


class _Errors:
    def write(self, text):
        sys.stderr.write(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass


class _WsgiInThreads:
    """Django's WSGI handler run in a fixed pool of threads: the request body is read on the loop first, then the
    whole request (middleware, view, and the body of an ordinary response) runs in one thread in one go. A streaming
    answer (a file download) keeps its thread while it streams, as under a WSGI server."""

    def __init__(self, app, threads: int):
        self.app = app
        self.executor = Threads(max_workers=threads, thread_name_prefix="web")

    async def __call__(self, scope, receive, send):
        loop = asyncio.get_running_loop()
        body = await _read_body(receive)
        if body is None:
            return  # the phone went away before its request was whole
        environ = _environ(scope, body)
        started = {}

        def start_response(status, headers, exc_info=None):
            started["status"] = int(status.split(" ", 1)[0])
            started["headers"] = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]
            return lambda data: None  # the deprecated write() callable: Django never uses it

        def respond_in_thread():
            result = self.app(environ, start_response)
            if not getattr(result, "streaming", False):
                try:
                    return b"".join(result), None
                finally:
                    result.close()  # request_finished, in the thread that served the request
            return None, result

        try:
            content, streaming = await loop.run_in_executor(self.executor, respond_in_thread)
        except Exception:  # Django answers its own errors; this is a fault below it: a bare 500, logged by uvicorn
            await send({"type": "http.response.start", "status": 500, "headers": [(b"content-length", b"0")]})
            await send({"type": "http.response.body", "body": b""})
            raise
        finally:
            body.close()
        await send({"type": "http.response.start", "status": started["status"], "headers": started["headers"]})
        if streaming is None:
            await send({"type": "http.response.body", "body": content})
            return

        def stream_in_thread():
            try:
                for chunk in streaming:
                    if chunk:
                        asyncio.run_coroutine_threadsafe(
                            send({"type": "http.response.body", "body": chunk, "more_body": True}), loop
                        ).result()
            finally:
                streaming.close()

        await loop.run_in_executor(self.executor, stream_in_thread)
        await send({"type": "http.response.body", "body": b""})


async def _read_body(receive):
    from django.conf import settings

    body = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b")  # noqa: SIM115
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            body.close()
            return None
        body.write(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body.seek(0)
    return body


# The application ----------------------------------------------------------------------------------------------------
class Application:
    def __init__(self, *, web_threads: int, wait_threads: int):
        self.waiting = _WaitingHandler()
        self.wait_threads = _WaitThreads(wait_threads)
        self.short = _WsgiInThreads(WSGIHandler(), web_threads)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            if waits(scope):
                async with ThreadSensitiveContext(executor=self.wait_threads.next()):
                    await self.waiting(scope, receive, send)
            else:
                await self.short(scope, receive, send)
        elif scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        else:  # websocket: none here
            await send({"type": "websocket.close", "code": 1000})

    async def lifespan(self, receive, send):
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await asyncio.get_running_loop().run_in_executor(self.short.executor, _close_pools)
                await send({"type": "lifespan.shutdown.complete"})
                return


def _close_pools() -> None:
    """At the worker's end: the pool's connections are closed, not left for PostgreSQL to notice."""
    from django.db import connections

    for conn in connections.all():
        if conn.settings_dict.get("OPTIONS", {}).get("pool") and hasattr(conn, "close_pool"):
            conn.close()
            conn.close_pool()


application = Application(web_threads=serving.web_threads(), wait_threads=serving.wait_threads())
