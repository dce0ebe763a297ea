"""The vectorised engine: n battles at once, each step a numpy operation over the battles it concerns.

The primitives `first_player`, `volley`, `melee_round` and `take_wounds` are the only places a battle rolls;
`simulate_volley` and `simulate_melee_round` run exactly those once, so tests can hold them against the exact odds
of the `shooting` and `melee` actions.
"""

from __future__ import annotations

import numpy as np

from rules.systems.zvezdny_desant.simulate.model import Match, vp_table

D20 = 20


def _successes(rng: np.random.Generator, dice: np.ndarray, passing: np.ndarray, faces: int) -> np.ndarray:
    """Per row: how many of its `dice` rolls of a `faces`-sided die come up among the `passing` lowest faces.
    Only the dice actually thrown are rolled (no padding), then counted back to their rows."""
    total = int(dice.sum())
    if total == 0:
        return np.zeros(dice.shape, dtype=np.int64)
    owner = np.repeat(np.arange(dice.size), dice)
    rolls = rng.integers(0, faces, size=total, dtype=np.int16)
    return np.bincount(owner[rolls < passing[owner]], minlength=dice.size)


def successes(rng: np.random.Generator, dice: np.ndarray, need) -> np.ndarray:
    """How many of each row's `dice` D20 roll `need` or more (one need per row, L644): 21 − need faces pass."""
    passing = np.clip(D20 + 1 - np.broadcast_to(np.asarray(need), dice.shape), 0, D20)
    return _successes(rng, dice, passing, D20)


def hits_and_wounds(rng, dice: np.ndarray, hit_need, wound_need) -> np.ndarray:
    """Per row: dice that hit (D20 ≥ hit_need) and then wound (a second D20 ≥ wound_need). The two D20 are one roll
    of 400 equally likely pairs, of which (21 − hit_need) × (21 − wound_need) pass both tests."""
    hit = np.clip(D20 + 1 - np.broadcast_to(np.asarray(hit_need), dice.shape), 0, D20)
    wound = np.clip(D20 + 1 - np.broadcast_to(np.asarray(wound_need), dice.shape), 0, D20)
    return _successes(rng, dice, hit * wound, D20 * D20)


def first_player(rng: np.random.Generator, n: int) -> np.ndarray:
    """Both roll D20, ties re-rolled (A6); 0 when side A is First Player (L156)."""
    out = np.empty(n, dtype=np.int64)
    todo = np.arange(n)
    while todo.size:
        a = rng.integers(1, D20 + 1, todo.size)
        b = rng.integers(1, D20 + 1, todo.size)
        decided = a != b
        out[todo[decided]] = np.where(a[decided] > b[decided], 0, 1)
        todo = todo[~decided]
    return out


def take_wounds(match: Match, alive: np.ndarray, markers: np.ndarray, rows: np.ndarray, unit, wounds) -> None:
    """Markers pooled on the unit, one figure per СТК (L544); every figure can be killed in this model, so
    markers are discarded only when the unit is wiped out (L565). `unit`: one index or one per row."""
    assert alive.flags.c_contiguous
    assert markers.flags.c_contiguous
    stk = match.stk[unit]
    flat = rows * alive.shape[1] + unit
    now = alive.ravel()[flat]
    total = markers.ravel()[flat] + wounds
    left = np.maximum(now - total // stk, 0)
    markers.ravel()[flat] = np.where(left == 0, 0, total - (now - left) * stk)
    alive.ravel()[flat] = left


def first_alive_enemy(match: Match, alive: np.ndarray, rows: np.ndarray, sides) -> tuple:
    """The target policy: the first living enemy unit in roster order. `sides`: the acting side, one or per row.
    Returns (the rows that have a target, its unit index, which of the given rows have one). Side A's units come
    first, so each side's enemies are one slice of the columns."""
    sides = np.broadcast_to(np.asarray(sides), rows.shape)
    split = match.split
    targets = np.full(rows.size, -1, dtype=np.int64)
    for side, (lo, hi) in ((0, (split, match.units)), (1, (0, split))):
        mine = np.flatnonzero(sides == side)
        if mine.size:
            living = alive[rows[mine], lo:hi] > 0
            targets[mine] = np.where(living.any(axis=1), np.argmax(living, axis=1) + lo, -1)
    has = targets >= 0
    return rows[has], targets[has], has


def volley(match: Match, rng, alive, markers, rows: np.ndarray, actors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """In each battle of `rows` its unit `actors[i]` shoots the first living enemy unit (§3.8–§3.11): per weapon
    group the living figures carrying it (the last group loses figures first) roll Скр D20 each against their
    side's hit number; each hit a wound test against the target's class; Мщ wounds each. Returns (rows, targets)."""
    sides = match.side[actors]
    rows, targets, has = first_alive_enemy(match, alive, rows, sides)
    if rows.size == 0:
        return rows, targets
    actors, sides = actors[has], sides[has]
    hit_need = match.hit_need_arr[sides]
    figures_left = alive[rows, actors]
    wounds = np.zeros(rows.size, dtype=np.int64)
    for g in range(match.g_count.shape[1]):
        reach = match.g_count[actors, g] * match.g_in_range[actors, g]
        figures = np.clip(figures_left - match.g_offset[actors, g], 0, reach)
        passed = hits_and_wounds(rng, figures * match.g_dice[actors, g], hit_need, match.w_need[actors, g, targets])
        wounds += passed * match.g_msch[actors, g]
    take_wounds(match, alive, markers, rows, targets, wounds)
    return rows, targets


def melee_round(match: Match, rng, alive, markers) -> None:
    """Every living unit is in one multi-sided melee with every enemy unit, all figures in base contact (§3.13):
    +1 БСП to the side with more figures and +2 to the side with more in contact (here the same side: +3), capped at
    20; each unit strikes the first living enemy unit; wounds land simultaneously."""
    n = alive.shape[0]
    figures = np.stack([alive[:, match.units_of(s)].sum(axis=1) for s in (0, 1)])
    bonus = np.stack([np.where(figures[s] > figures[1 - s], 3, 0) for s in (0, 1)])
    floor = match.settings["bsp_floor"]
    wounds = np.zeros_like(alive)
    every = np.arange(n)
    for u in range(match.units):
        side = int(match.side[u])
        rows = every[alive[:, u] > 0]
        rows, targets, _ = first_alive_enemy(match, alive, rows, side)
        if rows.size == 0:
            continue
        bsp = np.maximum(np.minimum(match.bsp[targets] + bonus[1 - side, rows], 20), floor)
        hits = successes(rng, alive[rows, u] * match.strikes[u], np.minimum(bsp, D20 + 1))
        np.add.at(wounds, (rows, targets), hits * match.wounds_per_strike[u])
    for t in range(match.units):
        take_wounds(match, alive, markers, every, t, wounds[:, t])


def activation_positions(match: Match, alive: np.ndarray, first: np.ndarray) -> np.ndarray:
    """[n, U] the place each living unit acts in this turn, -1 for none (§3.4). Every living unit gets the same
    initiative (the model spreads the 10 command points evenly), so all tie: the First Player's first unit, then
    the other's, alternating; the side with more units ends the turn (L266)."""
    living = alive > 0
    count = np.stack([living[:, match.units_of(s)].sum(axis=1) for s in (0, 1)])
    pos = np.full(alive.shape, -1, dtype=np.int64)
    for s in (0, 1):
        units = match.units_of(s)
        rank = np.cumsum(living[:, units], axis=1) - 1
        other = count[1 - s][:, None]
        mine_first = (first == s)[:, None]
        place = np.where(rank < other, 2 * rank + np.where(mine_first, 0, 1), other + rank)
        pos[:, units] = np.where(living[:, units], place, -1)
    return pos


def simulate(match: Match, n: int, rng: np.random.Generator) -> dict:
    alive = np.tile(match.start, (n, 1)).astype(np.int64)
    markers = np.zeros_like(alive)
    rounds = np.zeros(n, dtype=np.int64)
    every = np.arange(n)
    for _turn in range(match.turns):
        going = every[(alive[:, match.side == 0].sum(axis=1) > 0) & (alive[:, match.side == 1].sum(axis=1) > 0)]
        if going.size == 0:
            break
        rounds[going] += 1
        if match.mode == "melee":
            sub_alive, sub_markers = alive[going], markers[going]
            melee_round(match, rng, sub_alive, sub_markers)
            alive[going], markers[going] = sub_alive, sub_markers
            continue
        first = first_player(rng, going.size)
        pos = activation_positions(match, alive[going], first)
        for place in range(int(pos.max()) + 1):
            here = pos == place  # at most one unit of each battle acts at this place
            found = here.any(axis=1)
            rows, actors = going[found], np.argmax(here[found], axis=1)
            still = alive[rows, actors] > 0  # killed before its turn: skipped (L272)
            if still.any():
                volley(match, rng, alive, markers, rows[still], actors[still])
    return outcome(match, alive, rounds)


def outcome(match: Match, alive: np.ndarray, rounds: np.ndarray) -> dict:
    """Victory points at the end (§3.15): each side scores the enemy's losses; more VP wins, equal is a draw."""
    table = vp_table(match)
    lost_vp = table[np.arange(match.units)[None, :], alive]
    vp_a = lost_vp[:, match.side == 1].sum(axis=1)
    vp_b = lost_vp[:, match.side == 0].sum(axis=1)
    winner = np.where(vp_a > vp_b, 0, np.where(vp_b > vp_a, 1, -1))
    standing = match.cost[None, :] * alive / match.start[None, :]
    return {
        "winner": winner,
        "rounds": rounds,
        "left_a": standing[:, match.side == 0].sum(axis=1),
        "left_b": standing[:, match.side == 1].sum(axis=1),
        "vp_a": vp_a,
        "vp_b": vp_b,
    }


def simulate_volley(match: Match, n: int, rng, u: int = 0, markers_before: int = 0) -> dict:
    """One activation of unit u at the first enemy unit, n times: what the target is left with."""
    alive = np.tile(match.start, (n, 1)).astype(np.int64)
    markers = np.zeros_like(alive)
    _, targets, _ = first_alive_enemy(match, alive, np.arange(n), int(match.side[u]))
    t = int(targets[0])
    markers[:, t] = markers_before
    volley(match, rng, alive, markers, np.arange(n), np.full(n, u))
    return {"target": t, "removed": match.start[t] - alive[:, t], "markers": markers[:, t]}


def simulate_melee_round(match: Match, n: int, rng) -> dict:
    alive = np.tile(match.start, (n, 1)).astype(np.int64)
    markers = np.zeros_like(alive)
    melee_round(match, rng, alive, markers)
    return {"removed": match.start[None, :] - alive, "markers": markers}
