"""gunicorn's worker for config/asgi.py: uvicorn's (the uvicorn-worker package), whose stop also ends the phones'
event streams.

On SIGTERM (`make run`'s Ctrl-C, or the arbiter passing it on) uvicorn stops accepting and waits for the requests in
flight, an open event stream among them, which would hold the worker until gunicorn's graceful timeout and its
SIGKILL. So the stop also stops the process's watcher (battles/watch.py): every waiting stream and long poll wakes,
sees the watcher stopped and ends at once. The signal handler runs in the event loop's own thread, between two
bytecodes, maybe while that thread holds the watcher's lock: it only schedules the stop on the loop
(`call_soon_threadsafe` appends to a queue and writes to the loop's wake-up pipe), it takes no lock and imports
nothing.
"""

from __future__ import annotations

import asyncio

from uvicorn.server import Server
from uvicorn_worker import UvicornWorker


class _Server(Server):
    """uvicorn's server, which also stops once its gunicorn worker is told to stop (`worker.alive` false).

    A SIGTERM that comes after the worker's warm-up but before uvicorn has put in its own signal handlers is taken
    by the worker's handler (config/gunicorn_conf.py `_end_streams_on_stop`), which tells the worker, not uvicorn:
    without this check the server started anyway and served on until the arbiter's SIGKILL at the graceful timeout
    (seen as a 10.1 s Ctrl-C on a busy machine, when that window is longer)."""

    def __init__(self, config, worker=None):
        super().__init__(config=config)
        self._worker = worker

    async def on_tick(self, counter: int) -> bool:
        stop = await super().on_tick(counter)
        return stop or (self._worker is not None and not self._worker.alive)

    def handle_exit(self, sig, frame):
        super().handle_exit(sig, frame)
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(_stop_waiting)

    _loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets=None):
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets=sockets)


def _stop_waiting() -> None:
    from config.lifecycle import stop_now

    stop_now()  # every waiting event stream ends (what the apps registered)


class Worker(UvicornWorker):
    """uvicorn's worker with the server above; httptools parses HTTP, the standard asyncio loop runs it."""

    CONFIG_KWARGS = {"loop": "asyncio", "http": "httptools", "lifespan": "on"}

    async def _serve(self) -> None:
        import sys

        from gunicorn.arbiter import Arbiter

        self.config.app = self.wsgi
        server = _Server(config=self.config, worker=self)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
