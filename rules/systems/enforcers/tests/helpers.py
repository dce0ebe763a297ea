"""Agents and shortcuts shared by the tests of «Энфорсеры»."""

from __future__ import annotations

import itertools
from fractions import Fraction

from rules import dice as dicelib
from rules.contract.testing import dist as as_dist  # noqa: F401  (the suites import these from here)
from rules.contract.testing import frac  # noqa: F401
from rules.systems.enforcers.settings import full_settings
from rules.systems.enforcers.system import SYSTEM


def agent(name: str = "Agent", armour: str | None = None, **stats) -> dict:
    """An agent with every stat 10 unless given."""
    base = dict.fromkeys(("HL", "WS", "BS", "DX", "TN", "WL", "IT", "PR", "LD"), 10)
    extra = {k: stats.pop(k) for k in list(stats) if k not in base}
    base.update(stats)
    return {"name": name, "stats": base, "armour": armour, **extra}


def settings(**overrides) -> dict:
    return full_settings(SYSTEM.resolve_settings(overrides))


def resolve(action: str, inputs: dict, *, dice=None, seed=None, **overrides):
    return SYSTEM.action(action).resolve(inputs, settings(**overrides), dicelib.dice_source(seed=seed, dice=dice))


def odds(action: str, inputs: dict, **overrides) -> dict:
    return SYSTEM.action(action).odds(inputs, settings(**overrides))


def brute_force_test(difficulty, blessings=0, curses=0, modifier=0, crit_chance=2, max_only=False) -> Fraction:
    """P(success) by listing every face of every die: an independent check of core.py (no icepool)."""
    net = blessings - curses
    count = abs(net)
    hits = total = 0
    for face in range(1, 21):
        for extra in itertools.product(range(1, 7), repeat=count):
            kept = (max(extra) if extra else 0) if max_only else sum(extra)
            result = face + modifier + (kept if net < 0 else -kept)
            total += 1
            hits += result <= difficulty or face <= crit_chance
    return Fraction(hits, total)


def effects_of(outcome, kind: str, role: str | None = None) -> list[dict]:
    return [e for e in outcome.effects if e["kind"] == kind and (role is None or e["role"] == role)]
