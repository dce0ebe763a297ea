"""Speed of the «Звездный Десант» simulator, as ratios measured in one run on this machine (CPU time of this process).

Three matches:
  example:   the example rosters of the demo pack (two 5-figure units a side, 500 points each), a firefight
  skirmish:  two 500-point armies typed from ЛБХ-like cards (four units a side, mixed weapons), a firefight
  melee:     the same armies in one multi-sided melee
For each: battles per second per core with the vectorised engine (at the jobs' default chunk of 20,000 battles)
                                                                                       target >= 10,000
and the same battles with the plain-Python loop of the same model: numpy's speed-up.   target >= 30x

Run: make bench ARGS=benchmarks/bench_zvezdny_desant_simulator.py
     (or .venv/bin/python benchmarks/bench_zvezdny_desant_simulator.py)
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

from rules.systems.zvezdny_desant.army import ARMY  # noqa: E402
from rules.systems.zvezdny_desant.simulate import SIMULATOR  # noqa: E402
from rules.systems.zvezdny_desant.simulate.reference import simulate_reference  # noqa: E402

PACK = Path(__file__).resolve().parents[1] / "rules" / "systems" / "zvezdny_desant" / "data" / "demo-examples.json"
CHUNK = 20_000  # settings.BALANCE_CHUNK_BATTLES: what one job task runs


def card(slug: str, faction: str, figure: dict, weapons: list[dict], strikes: int = 1) -> dict:
    return {"slug": slug, "name": slug, "faction": faction, "kind": "infantry", "cost": 0,
            "data": {"strikes_per_figure": strikes, "figures": [{"key": "f", "name": slug, "min": 1, "max": 10,
                                                                 "weapons": [w["key"] for w in weapons], **figure}],
                     "weapons": weapons}}  # fmt: skip


RIFLE = {"key": "rifle", "name": "Автомат", "dln": 30, "skr": 2, "msch": 1, "hrk": "A8 В12 С16", "cost": 0}
MG = {"key": "mg", "name": "Пулемет", "dln": 40, "skr": 4, "msch": 1, "hrk": "A6 В10 С14", "cost": 10}
BLADE = {"key": "blade", "name": "Штурмовик", "dln": 15, "skr": 2, "msch": 2, "hrk": "В10 С13", "cost": 5}
TROOPERS = card("troopers", "humans", {"pdv": 6, "stk": 1, "kbr": "В", "bsp": 7, "cost": 10}, [RIFLE, MG])
ASSAULT = card("assault", "forcers", {"pdv": 7, "stk": 2, "kbr": "С", "bsp": 10, "cost": 18}, [BLADE], strikes=2)


def side(*builds) -> dict:
    return {"entries": [{"key": f"e{i}", "profile": p, "count": 1, "options": {"loadout": loadout}}
                        for i, (p, loadout) in enumerate(builds)]}  # fmt: skip


SQUAD = [{"figure": "f", "weapon": "rifle", "count": 8}, {"figure": "f", "weapon": "mg", "count": 2}]
HUMANS = side(*[(TROOPERS, SQUAD)] * 4)  # 4 × (10 × 10 + 2 × 10) = 480
FORCERS = side(*[(ASSAULT, [{"figure": "f", "weapon": "blade", "count": 5}])] * 4)  # 4 × 5 × 23 = 460


def cpu(fn, *args):
    start = time.process_time()
    fn(*args)
    return time.process_time() - start


def best_of(runs: int, fn, *args) -> float:
    return min(cpu(fn, *args) for _ in range(runs))


def load() -> str:
    """The machine is shared: other processes slow both sides of a ratio, not always alike."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(name: str, side_a: dict, side_b: dict, params: dict) -> tuple[float, float]:
    prepared = SIMULATOR.prepare(side_a, side_b, SIMULATOR.check_params(params), SIMULATOR.check_settings({}))
    SIMULATOR.run(prepared, 2_000, np.random.default_rng(0))  # warm up
    t_numpy = best_of(3, lambda: SIMULATOR.run(prepared, CHUNK, np.random.default_rng(1)))
    n_python = 1_000
    t_python = best_of(2, simulate_reference, prepared.model, n_python, 1)
    numpy_rate, python_rate = CHUNK / t_numpy, n_python / t_python
    result = SIMULATOR.run(prepared, CHUNK, np.random.default_rng(2))
    wins = [float(np.mean(result["winner"] == w)) for w in (0, 1, -1)]
    print(f"{name}: {prepared.model.units} units, {prepared.cost[0]:.0f} v {prepared.cost[1]:.0f} points, mean "
          f"{result['rounds'].mean():.2f} turns, A/B/draw {wins[0]:.1%}/{wins[1]:.1%}/{wins[2]:.1%}")  # fmt: skip
    print(f"   vectorised {numpy_rate:,.0f} battles/s per core (target >= 10,000)")
    print(
        f"   plain Python {python_rate:,.0f} battles/s: numpy is {numpy_rate / python_rate:.1f}x faster (target >= 30x)"
    )
    return numpy_rate, numpy_rate / python_rate


def main() -> None:
    print(f"({load()} at start)")
    profiles = json.loads(PACK.read_text(encoding="utf-8"))["profiles"]
    examples = [ARMY.example_roster(profiles, s) for s in (0, 1)]
    measure("example (demo pack, firefight)", examples[0], examples[1], {})
    measure("skirmish (4 v 4 units, firefight)", HUMANS, FORCERS, {"distance": 14})
    measure("skirmish (4 v 4 units, melee)", HUMANS, FORCERS, {"mode": "melee"})
    print(f"({load()} at end)")


if __name__ == "__main__":
    main()
