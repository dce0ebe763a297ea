"""The plain-Python reference loop of the SAME model as engine.py: one battle at a time, one D20 at a time, each
compared with the number the rules ask for. Slow on purpose: tests hold the vectorised engine against it, and the
benchmark measures the engine's speed-up over it."""

from __future__ import annotations

import random

import numpy as np

from rules.systems.zvezdny_desant.simulate.model import Match, unit_vp

D20 = 20


def _d20(rnd: random.Random) -> int:
    return rnd.randint(1, D20)


def _first_alive_enemy(match: Match, alive: list[int], side: int) -> int | None:
    return next((t for t in range(match.units) if match.side[t] != side and alive[t] > 0), None)


def _take_wounds(match: Match, alive: list[int], markers: list[int], t: int, wounds: int) -> None:
    stk = int(match.stk[t])
    total = markers[t] + wounds
    killed = min(total // stk, alive[t])
    alive[t] -= killed
    markers[t] = 0 if alive[t] == 0 else total - killed * stk


def _volley(match: Match, rnd, alive, markers, u: int) -> None:
    side = int(match.side[u])
    t = _first_alive_enemy(match, alive, side)
    if t is None:
        return
    wounds = 0
    for g in range(match.g_count.shape[1]):
        count, offset = int(match.g_count[u, g]), int(match.g_offset[u, g])
        if count == 0 or not match.g_in_range[u, g]:
            continue
        figures = min(max(alive[u] - offset, 0), count)
        for _ in range(figures * int(match.g_dice[u, g])):
            if _d20(rnd) >= match.hit_need[side] and _d20(rnd) >= match.w_need[u, g, t]:
                wounds += int(match.g_msch[u, g])
    _take_wounds(match, alive, markers, t, wounds)


def _melee_round(match: Match, rnd, alive, markers) -> None:
    figures = [sum(alive[u] for u in range(match.units) if match.side[u] == s) for s in (0, 1)]
    bonus = [3 if figures[s] > figures[1 - s] else 0 for s in (0, 1)]
    wounds = [0] * match.units
    for u in range(match.units):
        if alive[u] == 0:
            continue
        side = int(match.side[u])
        t = _first_alive_enemy(match, alive, side)
        if t is None:
            continue
        need = max(min(int(match.bsp[t]) + bonus[1 - side], 20), match.settings["bsp_floor"])
        for _ in range(alive[u] * int(match.strikes[u])):
            if _d20(rnd) >= need:
                wounds[t] += int(match.wounds_per_strike[u])
    for t in range(match.units):
        _take_wounds(match, alive, markers, t, wounds[t])


def _sequence(match: Match, alive: list[int], first: int) -> list[int]:
    """All living units tie: First Player's first, alternating, the longer list ends the turn (L266)."""
    own = [[u for u in range(match.units) if match.side[u] == s and alive[u] > 0] for s in (0, 1)]
    order, turn = [], first
    while own[0] or own[1]:
        if own[turn]:
            order.append(own[turn].pop(0))
        if own[1 - turn]:
            turn = 1 - turn
    return order


def simulate_reference(match: Match, n: int, seed: int) -> dict:
    rnd = random.Random(seed)
    out = {k: [] for k in ("winner", "rounds", "left_a", "left_b", "vp_a", "vp_b")}
    for _ in range(n):
        alive = [int(x) for x in match.start]
        markers = [0] * match.units
        rounds = 0
        for _turn in range(match.turns):
            if not all(any(alive[u] for u in range(match.units) if match.side[u] == s) for s in (0, 1)):
                break
            rounds += 1
            if match.mode == "melee":
                _melee_round(match, rnd, alive, markers)
                continue
            while True:  # First Player roll-off, ties re-rolled (A6)
                a, b = _d20(rnd), _d20(rnd)
                if a != b:
                    break
            for u in _sequence(match, alive, 0 if a > b else 1):
                if alive[u] > 0:  # killed before its turn: skipped (L272)
                    _volley(match, rnd, alive, markers, u)
        vp = [sum(unit_vp(match, u, alive[u]) for u in range(match.units) if match.side[u] != s) for s in (0, 1)]
        left = [sum(float(match.cost[u]) * alive[u] / int(match.start[u]) for u in range(match.units)
                    if match.side[u] == s) for s in (0, 1)]  # fmt: skip
        out["winner"].append(0 if vp[0] > vp[1] else 1 if vp[1] > vp[0] else -1)
        out["rounds"].append(rounds)
        out["left_a"].append(left[0])
        out["left_b"].append(left[1])
        out["vp_a"].append(vp[0])
        out["vp_b"].append(vp[1])
    return {k: np.array(v) for k, v in out.items()}
