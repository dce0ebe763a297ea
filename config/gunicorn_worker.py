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
        server = _Server(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
