"""Exact odds over the API, and the resolver's cost against a bare Python loop.

Run: make bench ARGS=benchmarks/bench_odds.py   (scripts/test.sh sets the environment)
Prints, for each action, the median and p95 time of POST .../odds/ through Django's test client (the whole
request: URL routing, DRF, validation, the exact computation, JSON), against a 50 ms target; then how many times
slower the virtual-shot resolver is than a plain loop with random.randint doing the same arithmetic.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402

from rules.dice import SeededDice  # noqa: E402
from rules.systems.bronepekhota.actions.common import full_settings  # noqa: E402
from rules.systems.bronepekhota.system import SYSTEM  # noqa: E402

REQUESTS = 60
TARGET_MS = 50.0
SHOT = {
    "shooter": {"kind": "vehicle", "rof": 2, "ammo": 12},
    "weapon": {"key": "heavy-rocket", "range": "Д12", "power": "4Д20", "special": {"blast_steps": 2}},
    "distance_cm": 33,
    "target": {"kind": "vehicle", "strength": 9, "flying": True, "pilot": {"armour": 3}},
    "cover": "over_half_visible",
    "blast": [{"kind": "infantry", "armour": 3}, {"kind": "vehicle", "strength": 11, "pilot": {"armour": 2}}],
}
CASES = {
    "virtual_shot": (SHOT, {"panic": True, "special_properties": True}),
    "real_shot": (
        {
            "shooter": {"kind": "vehicle", "rof": 1, "ammo": 9},
            "charge": "rocket",
            "hit": True,
            "fell": True,
            "target": {"kind": "vehicle", "strength": 12, "pilot": {"armour": 3}},
        },
        {"mode": "real", "panic": True},
    ),
    "melee": (
        {
            "attacker": {"kind": "vehicle", "strength": 9, "melee_weapons": ["ББ/2", "ББ/1"], "pilot": {"armour": 3}},
            "defender": {"kind": "vehicle", "strength": 8, "melee": 2, "pilot": {"armour": 3}},
            "surprise": True,
        },
        {"panic": True},
    ),
    "survival_test": ({"subject": {"armour": 3}}, {"panic": True}),
    "armour_test": ({"strength": 7, "die": 12, "pilot": {"armour": 3}}, {"mode": "real"}),
    "grenade": (
        {
            "thrower": {"kind": "infantry", "armour": 3},
            "victims": [
                {"kind": "infantry", "armour": 2, "bursts": [3, 4, 5]},
                {"kind": "vehicle", "strength": 6, "pilot": {"armour": 3}, "bursts": [5, 6]},
            ],
        },
        {"grenades": True, "panic": True},
    ),
    "initiative": ({"players": ["A", "B", "C", "D"]}, {}),
    "dispute": ({"players": ["A", "B"]}, {}),
    "emergency_landing": ({"strength": 4}, {}),
    "repair": (
        {
            "repairer": {"kind": "helix", "repair_platform": True},
            "target": {"kind": "vehicle", "strength": 5, "strength_max": 12},
        },
        {},
    ),  # fmt: skip
    "capture": ({"soldier": {"rank": 2}, "object": {"kind": "vehicle", "rank": 2, "pilot": None}}, {}),
    "towing": ({"op": "start", "helix": {"repair_platform": True}, "object": {"kind": "gun", "mobile": True}}, {}),
    "jump": ({"soldier": {"jump": 5}, "length_steps": 3, "rise_steps": 2}, {"jump_packs": True}),
    "panic": ({"soldier": {"speed": 4}, "reaches_edge": True}, {"panic": True}),
    "ammo_refresh": ({"element": {"ammo": 1, "ammo_max": 12}}, {"ammo_refreshes": 1}),
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def bench_api() -> bool:
    client = Client()
    ok = True
    print(
        f"POST /api/v1/systems/bronepekhota/actions/<action>/odds/  ({REQUESTS} requests each, target {TARGET_MS} ms)"
    )
    print(f"{'action':<20}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}  status")
    for action, (inputs, settings) in CASES.items():
        body = json.dumps({"inputs": inputs, "settings": settings})
        url = f"/api/v1/systems/bronepekhota/actions/{action}/odds/"
        response = client.post(url, body, content_type="application/json")  # warm-up, and check it answers
        if response.status_code != 200:
            print(f"{action:<20} FAILED: {response.status_code} {response.content[:200]!r}")
            ok = False
            continue
        times = []
        for _ in range(REQUESTS):
            start = time.perf_counter()
            client.post(url, body, content_type="application/json")
            times.append((time.perf_counter() - start) * 1000)
        median, p95 = statistics.median(times), percentile(times, 0.95)
        status = "ok" if p95 < TARGET_MS else "SLOW"
        ok = ok and p95 < TARGET_MS
        print(f"{action:<20}{median:>11.2f}{p95:>9.2f}{max(times):>9.2f}  {status}")
    return ok


def bare_virtual_shot(rng: random.Random, n: int) -> int:
    """The same arithmetic as the resolver for SHOT's target with a plain loop: range roll, 4 power dice
    against armour 9 + 1, pilot Д6 test, emergency landing D6. No records, no effects."""
    destroyed = 0
    for _ in range(n):
        if rng.randint(1, 12) < 7:  # 33 cm = 7 steps
            continue
        damage = sum(1 for _ in range(4) if rng.randint(1, 20) > 10)
        strength = max(0, 9 - damage)
        if damage and rng.randint(1, 6) > 3 and strength > 0:
            strength = max(0, strength - rng.randint(1, 6))
        destroyed += strength == 0
    return destroyed


def bench_resolver(n: int = 20_000) -> None:
    action = SYSTEM.action("virtual_shot")
    inputs = {k: v for k, v in SHOT.items() if k != "blast"}
    settings = full_settings({"panic": False})
    clean = action.validate(inputs, settings)

    start = time.perf_counter()
    bare_virtual_shot(random.Random(1), n)
    bare = time.perf_counter() - start

    dice = SeededDice(1)
    start = time.perf_counter()
    for _ in range(n):
        dice.rolls.clear()
        action.resolve_clean(clean, settings, dice)
    engine = time.perf_counter() - start

    few = n // 20
    start = time.perf_counter()
    for i in range(few):
        action.resolve(inputs, settings, SeededDice(i))
    full = (time.perf_counter() - start) * (n / few)

    print(f"\nvirtual_shot resolver vs a bare random.randint loop, {n} shots (same run):")
    print(f"  bare loop                     {bare * 1e6 / n:8.2f} µs/shot  (1.0×)")
    print(f"  resolver (validated once)     {engine * 1e6 / n:8.2f} µs/shot  ({engine / bare:.1f}× the bare loop)")
    print(f"  resolve() with validation     {full * 1e6 / n:8.2f} µs/shot  ({full / bare:.1f}× the bare loop)")


def main() -> int:
    ok = bench_api()
    bench_resolver()
    print("\nall odds requests under target" if ok else "\nSOME odds requests are over target")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
