"""What the five at-the-roll benchmarks (bench_odds_at_roll_<system>.py) share: a free port, `make run`'s server
started on loopback and stopped, and a percentile."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, log_path: Path) -> subprocess.Popen:
    from config import lan

    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "ARMLIST_LOCAL_ONLY": "1",
        "DEBUG": "false",
        "LOG_LEVEL": "ERROR",
        "WEB_LOG_LEVEL": "warning",
    }
    env.update(lan.server_env(port, environ=env))
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(lan.server_command(), cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
    if not lan.wait_until_serving(port, timeout=60) or proc.poll() is not None:
        stop(proc)
        raise RuntimeError("the server did not start:\n" + log_path.read_text(errors="replace")[-3000:])
    return proc


def stop(proc: subprocess.Popen) -> None:
    from config import lan  # after the caller has put the project on sys.path

    lan.stop_server(proc)


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]
