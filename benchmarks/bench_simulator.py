"""Speed of the balance simulator, as ratios measured in one run on this machine (CPU time of this process).

1. One shot type (Д12 / 3Д20 against armour 7 at 6 steps, the simulator's own dice primitives): dice consumed per
   second, against how fast numpy's generator draws the same dice.                      target >= 0.5
2. Whole battles of two 300-point «Бронепехота» armies built from the official pack: battles per second per
   core with the vectorised engine.                                                     target >= 10,000
3. The same battles with the plain-Python loop of the same model: numpy's speed-up.     target >= 30x

Run: make bench ARGS=benchmarks/bench_simulator.py
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: numpy's own threads would blur "per core"
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402

from rules.systems.bronepekhota.simulate import Battle, BattleParams  # noqa: E402
from rules.systems.bronepekhota.simulate.model import roll_power_damage, roll_range  # noqa: E402

PACK = Path(__file__).resolve().parents[1] / "rules" / "systems" / "bronepekhota" / "data" / "tehnolog-classic.json"
ARMY_A = ["protectorate_kiberspetsnaz", "trex", "salamander", "protectorate_regulyary_planety_velian"]  # 300
ARMY_B = ["polaris_lineynaya_klon_pehota", "polaris_lyogkiy_shturmovoy_desant", "hunter", "thunder"]  # 300


def cpu(fn, *args):
    start = time.process_time()
    fn(*args)
    return time.process_time() - start


def best_of(runs: int, fn, *args) -> float:
    return min(cpu(fn, *args) for _ in range(runs))


def bench_dice(n: int = 4_000_000) -> tuple[float, float]:
    rng = np.random.default_rng(1)
    steps = np.full(n, 6, np.int16)
    armour = np.full(n, 7, np.int16)

    def shots():
        _, hit = roll_range(rng, 12, 0, steps, False)
        return roll_power_damage(rng, 3, 20, 0, armour) * hit

    def draw_only():
        rng.integers(1, 13, size=n, dtype=np.int16)
        rng.integers(1, 21, size=(n, 3), dtype=np.int16)

    dice = 4 * n  # one range die and three power dice per shot
    shot_rate = dice / best_of(5, shots)
    draw_rate = dice / best_of(5, draw_only)
    return shot_rate, draw_rate


def armies():
    profiles = {p["slug"]: p for p in json.loads(PACK.read_text(encoding="utf-8"))["profiles"]}

    def side(slugs):
        return [{"key": s, "profile": profiles[s], "count": 1, "loadout": {}, "pilot": []} for s in slugs]

    return side(ARMY_A), side(ARMY_B)


def load() -> str:
    """The machine is shared: other processes slow both sides of a ratio, not always alike."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    print(f"({load()} at start)")
    shot_rate, draw_rate = bench_dice()
    print(f"1. one shot type: {shot_rate / 1e6:.1f} M dice/s consumed; numpy draws {draw_rate / 1e6:.1f} M dice/s")
    print(f"   ratio {shot_rate / draw_rate:.2f} (target >= 0.5)")

    side_a, side_b = armies()
    battle = Battle(side_a, side_b, BattleParams(), {})
    assert battle.cost.tolist() == [300, 300], battle.cost
    n_numpy, n_python = 131_072, 3_000
    battle.run(8192, np.random.default_rng(0), batch=8192)  # warm up
    # 65,536 battles a batch: fewer and the per-call overhead shows, more and the arrays fall out of cache
    t_numpy = best_of(2, lambda: battle.run(n_numpy, np.random.default_rng(1), batch=65_536))
    t_python = cpu(battle.run_python, n_python, 1)
    numpy_rate, python_rate = n_numpy / t_numpy, n_python / t_python
    rounds = battle.run(20_000, np.random.default_rng(2))["rounds"]
    print(f"2. 300 v 300 points, {battle.N} elements, mean {rounds.mean():.2f} rounds a battle:")
    print(f"   vectorised {numpy_rate:,.0f} battles/s per core (target >= 10,000)")
    print(
        f"3. plain Python {python_rate:,.0f} battles/s: numpy is {numpy_rate / python_rate:.1f}x faster (target >= 30x)"
    )
    print(f"({load()} at the end)")


if __name__ == "__main__":
    main()
