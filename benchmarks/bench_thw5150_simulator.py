"""Speed of the «5150» balance simulator, as ratios measured in one run on this machine (CPU time of this process).

1. Whole stand-up firefights between two 1000-point forces of Normals (the book's introductory game, L333) built
   from the official pack: battles per second per core with the vectorised engine.     target >= 10,000
2. The same battles with the plain-Python loop of the same model: numpy's speed-up.     target >= 30x

Run: .venv/bin/python benchmarks/bench_thw5150_simulator.py   (no database needed: the rules are pure Python)
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: numpy's own threads would blur "per core"
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from rules.systems.thw5150.army import cost_roster  # noqa: E402
from rules.systems.thw5150.simulate import SIMULATOR  # noqa: E402
from rules.systems.thw5150.simulate.reference import run_python  # noqa: E402

PACK = ROOT / "rules" / "systems" / "thw5150" / "data" / "normals.json"


def forces() -> tuple[dict, dict]:
    profiles = {p["slug"]: p for p in json.loads(PACK.read_text(encoding="utf-8"))["profiles"]}

    def entry(key, slug, count, **options):
        return {"key": key, "profile": profiles[slug], "count": count, "options": options}

    police = {"faction": "police", "points_limit": 1000, "entries": [
        entry("a", "police-u5", 1, weapon="assault_rifle", armour="light", leader=True),
        entry("b", "police-u4", 5, weapon="assault_rifle", armour="light"),
        entry("c", "police-u3", 3, weapon="smg", group="2", leader=False),
    ]}  # fmt: skip
    gang = {"faction": "criminals", "points_limit": 1000, "entries": [
        entry("a", "criminals-u5", 1, weapon="machine_gun", armour="light", leader=True),
        entry("b", "criminals-u4", 4, weapon="pump_shotgun", armour="light"),
        entry("c", "criminals-u3", 6, weapon="pistol", group="2"),
    ]}  # fmt: skip
    return police, gang


def cpu(fn, *args) -> float:
    start = time.process_time()
    fn(*args)
    return time.process_time() - start


def load() -> str:
    """The machine is shared: other processes slow both sides of a ratio, not always alike."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    print(f"({load()} at start)")
    side_a, side_b = forces()
    totals = [cost_roster(side_a).total, cost_roster(side_b).total]
    prepared = SIMULATOR.prepare(side_a, side_b, {}, {})
    n_numpy, n_python, batch = 524_288, 2_000, 262_144
    SIMULATOR.run(prepared, 4096, np.random.default_rng(0))  # warm up

    def numpy_battles():
        rng = np.random.default_rng(1)
        for _ in range(n_numpy // batch):  # 262,144 battles a call: the per-call costs of numpy fade
            SIMULATOR.run(prepared, batch, rng)

    t_numpy = min(cpu(numpy_battles) for _ in range(2))
    t_python = cpu(run_python, prepared.model, n_python, 1)
    numpy_rate, python_rate = n_numpy / t_numpy, n_python / t_python
    sample = SIMULATOR.run(prepared, 20_000, np.random.default_rng(2))
    wins = [float(np.mean(sample["winner"] == k)) for k in (0, 1, -1)]
    print(f"1. {totals[0]} v {totals[1]} points, {prepared.model.N} figures, mean {sample['rounds'].mean():.2f} turns "
          f"a battle (A {wins[0]:.0%}, B {wins[1]:.0%}, draw {wins[2]:.0%}):")  # fmt: skip
    print(f"   vectorised {numpy_rate:,.0f} battles/s per core (target >= 10,000)")
    print(
        f"2. plain Python {python_rate:,.0f} battles/s: numpy is {numpy_rate / python_rate:.1f}x faster (target >= 30x)"
    )
    print(f"({load()} at the end)")


if __name__ == "__main__":
    main()
