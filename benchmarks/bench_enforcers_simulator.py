"""Speed of the «Энфорсеры» duel simulator, as ratios measured in one run on this machine (CPU time of this process).

1. Duels of two hired agents (a gunner with +1 stats and Enforcer Gear against a fencer in Police Riot Gear, 24 cm
   apart, 12 rounds at most): duels per second per core with the vectorised engine.        target >= 10,000
2. The same duels with the plain-Python loop of the same model: numpy's speed-up.          target >= 30x

Run: .venv/bin/python benchmarks/bench_enforcers_simulator.py (no database, no Django needed)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: numpy's own threads would blur "per core"
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from rules.systems.enforcers import tables  # noqa: E402
from rules.systems.enforcers.simulate import SIMULATOR, value_report  # noqa: E402

APPRENTICE = next(p for p in tables.PACK["profiles"] if p["slug"] == "apprentice")
STATS = dict.fromkeys(tables.STATS, 10)
GUN = {"name": "Autogun", "damage": 4, "ranged": True, "range_bands_cm": {"short": 10, "medium": 25, "long": 50}}
BLADE = {"name": "Power blade", "damage": 5, "reach_cm": 2, "traits": ["kinetic"]}


def side(stats: dict, **options) -> dict:
    entry = {"key": "e", "profile": APPRENTICE, "count": 1, "options": {"stats": {**STATS, **stats}, **options}}
    return {"faction": "enforcers", "entries": [entry]}


def cpu(fn, *args):
    start = time.process_time()
    fn(*args)
    return time.process_time() - start


def best_of(runs: int, fn, *args) -> float:
    return min(cpu(fn, *args) for _ in range(runs))


def load() -> str:
    """The machine is shared: other processes slow both sides of a ratio, not always alike."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    print(f"({load()} at start)")
    gunner = side({"BS": 12}, stat_bump=1, armour="enforcer-gear", weapons=[GUN])
    fencer = side({"WS": 13}, armour="police-riot-gear", weapons=[BLADE])
    prepared = SIMULATOR.prepare(gunner, fencer, {"distance_cm": 24, "rounds": 12}, SIMULATOR.check_settings({}))
    n_numpy, n_python = 131_072, 4_000
    SIMULATOR.run(prepared, 8192, np.random.default_rng(0))  # warm up
    t_numpy = best_of(3, lambda: SIMULATOR.run(prepared, n_numpy, np.random.default_rng(1)))
    t_python = best_of(2, lambda: SIMULATOR.run_reference(prepared, n_python, 1))
    numpy_rate, python_rate = n_numpy / t_numpy, n_python / t_python
    out = SIMULATOR.run(prepared, 50_000, np.random.default_rng(2))
    report = value_report(prepared, out)
    print(f"{prepared.forces[0]['text']}\n  against {prepared.forces[1]['text']}")
    print(f"  A wins {report['p_a']:.1%}, B {report['p_b']:.1%}, draws {report['p_draw']:.1%}; "
          f"mean {out['rounds'].mean():.2f} rounds; A is worth {report['req_value_a']:.0f} REQ against B "
          f"(price {report['price_a']:.0f})")  # fmt: skip
    print(f"1. vectorised {numpy_rate:,.0f} duels/s per core (target >= 10,000)")
    print(
        f"2. plain Python {python_rate:,.0f} duels/s: numpy is {numpy_rate / python_rate:.1f}x faster (target >= 30x)"
    )
    print(f"({load()} at the end)")


if __name__ == "__main__":
    main()
