"""What must end at once when the server stops: an app registers it when it is ready (the battles app: its waiting
event streams), and the server's hooks (config/gunicorn_conf.py, config/gunicorn_worker.py) run it without naming
any app, so config imports no app of the project."""

from __future__ import annotations

from collections.abc import Callable

_on_stop: list[Callable[[], None]] = []


def on_stop(hook: Callable[[], None]) -> None:
    """Runs `hook` (no arguments, quick, never blocking) when the server stops; registering twice runs it once."""
    if hook not in _on_stop:
        _on_stop.append(hook)


def stop_now() -> None:
    """Runs every registered hook; a signal handler may call it, so it imports nothing and allocates little."""
    for hook in tuple(_on_stop):
        hook()
