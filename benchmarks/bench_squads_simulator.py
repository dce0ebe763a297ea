"""Speed of the «Отряды» simulator, as ratios measured in one run on this machine (CPU time of this process).

Two matches built from the official pack (squads-core.json) with typical builds:
  duel:    one squad against one (the "units" job: a point value per squad build)
  platoon: two squads a side (a "rosters" job)
For each: battles per second per core with the vectorised engine (at the jobs' default chunk of 20,000 battles)
                                                                                       target >= 10,000
and the same battles with the plain-Python loop of the same model: numpy's speed-up.   target >= 30x

Run: make bench ARGS=benchmarks/bench_squads_simulator.py   (or .venv/bin/python benchmarks/bench_squads_simulator.py)
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: numpy's own threads would blur "per core"
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from rules.systems.squads.simulate import SIMULATOR, simulate_reference  # noqa: E402

PACK = Path(__file__).resolve().parents[1] / "rules" / "systems" / "squads" / "data" / "squads-core.json"
CHUNK = 20_000  # settings.BALANCE_CHUNK_BATTLES: what one job task runs

RIFLES = {"armour": "light", "figures": [{"weapon": "assault_rifle", "count": 7}, {"weapon": "lmg", "count": 1}],
          "leader": {"level": "veteran", "weapon": "smg"}}  # fmt: skip
GUNNERS = {"armour": "medium", "figures": [{"weapon": "rifle", "count": 6}, {"weapon": "hmg", "count": 2}]}
SNIPERS = {"armour": "none", "figures": [{"weapon": "sniper_rifle", "count": 2}, {"weapon": "rifle", "count": 3}]}
ASSAULT = {"armour": "heavy", "figures": [{"weapon": "smg", "count": 4}, {"weapon": "flamethrower", "count": 1},
                                           {"weapon": "grenades", "count": 1}]}  # fmt: skip


def cpu(fn, *args):
    start = time.process_time()
    fn(*args)
    return time.process_time() - start


def best_of(runs: int, fn, *args) -> float:
    return min(cpu(fn, *args) for _ in range(runs))


def side(profiles: dict, builds: list[tuple[str, dict]]) -> dict:
    return {"entries": [{"key": f"e{i}", "profile": profiles[slug], "count": 1, "options": options}
                        for i, (slug, options) in enumerate(builds)]}  # fmt: skip


def load() -> str:
    """The machine is shared: other processes slow both sides of a ratio, not always alike."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(name: str, side_a: dict, side_b: dict, params: dict) -> None:
    prepared = SIMULATOR.prepare(side_a, side_b, params, {})
    SIMULATOR.run(prepared, 2_000, np.random.default_rng(0))  # warm up
    t_numpy = best_of(3, lambda: SIMULATOR.run(prepared, CHUNK, np.random.default_rng(1)))
    n_python = 2_000
    t_python = cpu(simulate_reference, prepared.model, n_python, 1)
    numpy_rate, python_rate = CHUNK / t_numpy, n_python / t_python
    result = SIMULATOR.run(prepared, CHUNK, np.random.default_rng(2))
    wins = [float(np.mean(result["winner"] == w)) for w in (0, 1, -1)]
    print(f"{name}: {len(prepared.model.squads)} squads, mean {result['rounds'].mean():.2f} turns, "
          f"A/B/draw {wins[0]:.1%}/{wins[1]:.1%}/{wins[2]:.1%}")  # fmt: skip
    print(f"   vectorised {numpy_rate:,.0f} battles/s per core (target >= 10,000)")
    print(
        f"   plain Python {python_rate:,.0f} battles/s: numpy is {numpy_rate / python_rate:.1f}x faster (target >= 30x)"
    )


def main() -> None:
    print(f"({load()} at start)")
    profiles = {p["slug"]: p for p in json.loads(PACK.read_text(encoding="utf-8"))["profiles"]}
    measure(
        '1. duel, regulars against veterans at 24"',
        side(profiles, [("squad-regular", RIFLES)]),
        side(profiles, [("squad-veteran", GUNNERS)]),
        {"distance": 24},
    )
    measure(
        '2. platoon, two squads a side at 30", side B in light cover',
        side(profiles, [("squad-regular", RIFLES), ("squad-elite", ASSAULT)]),
        side(profiles, [("squad-veteran", GUNNERS), ("squad-recruit", SNIPERS)]),
        {"distance": 30, "cover_b": "light"},
    )
    print(f"({load()} at the end)")


if __name__ == "__main__":
    main()
