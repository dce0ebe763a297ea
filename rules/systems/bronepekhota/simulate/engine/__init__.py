"""The vectorised engine: many battles in lock-step, state arrays of shape [elements, battles].

The model is the package docstring. Loops run over rounds, turns, units, shot slots and squad members, never
over battles. A turn handles the battles in which the same unit activates, so its columns, weapons and slots are
static; the enemy's columns are gathered once per turn and refreshed only where something changed.

Why element-major: one element's cells over the battles are contiguous, so gathering a turn's battles copies whole
runs, and every choice among elements (the enemy front, target choice, which unit acts) is a reduction over the
first axis, which numpy runs as vector operations across rows (a reduction over a short last axis is many times
slower). Target choice reads Battle.score_keys: int64 keys that order like the scores and carry the enemy's rank,
so one max() gives both the best score and the first enemy holding it.
"""

from __future__ import annotations

import numpy as np

from rules.systems.bronepekhota.simulate.engine.capture import _capture
from rules.systems.bronepekhota.simulate.engine.combat import _best  # noqa: F401  (tests read it)
from rules.systems.bronepekhota.simulate.engine.damage import apply_damage
from rules.systems.bronepekhota.simulate.engine.state import _can_act, _refresh, _refresh_all, _State
from rules.systems.bronepekhota.simulate.engine.turn import _turn
from rules.systems.bronepekhota.simulate.model import (
    ABOARD,
    DISMOUNTED,
    KILLED,
    NO_PILOT,
    OUTCOME_A,
    OUTCOME_B,
    OUTCOME_DRAW,
    SOLDIER,
    VEHICLE,
    Battle,
    roll_initiative,
)


def _check_end(bt: Battle, S: _State, b: np.ndarray, rnd: int) -> None:
    """A side with no soldier on the field loses at once (§3.15); both at once is a draw."""
    alive_a = S.count[0].take(b) > 0
    alive_b = S.count[1].take(b) > 0
    over = ~(alive_a & alive_b)
    if not over.any():
        return
    bo = b[over]
    S.done[bo] = True
    S.rounds[bo] = rnd
    S.outcome[bo] = np.where(alive_a[over], OUTCOME_A, np.where(alive_b[over], OUTCOME_B, OUTCOME_DRAW))


def _round_start(bt: Battle, S: _State, rnd: int) -> None:
    S.fired.fill(0)
    S.rnd = rnd
    if bt.capture_cols:  # vehicles captured last round may act from this one (A11)
        k, rows = np.nonzero(S.act_from[bt.capture_col_array] == rnd)
        if k.size:
            _refresh(bt, S, rows, bt.capture_col_array[k])
    if not bt.panic:
        # Without the panic rule nobody panics or bails out of a vehicle that still stands, so nobody re-boards
        # and no derived state depends on the round: _refresh kept it all.
        return
    S.panicked.fill(False)
    _refresh_all(bt, S)  # panics end; re-boarded vehicles may act again
    if not bt.pilot_cols.size:
        return
    p = bt.pilot_cols
    v = S.pilot_of[p]  # [pilot, battle]: each one's vehicle of the moment
    cols = np.arange(S.done.size)
    back = S.alive[p] & ~S.aboard[p] & (S.pstate[v, cols] == DISMOUNTED) & S.alive[v, cols] & ~S.done
    if not back.any():
        return
    k, rows = np.nonzero(back)
    pk, vk = p[k], v[k, rows]
    S.aboard[pk, rows] = True
    S.pstate[vk, rows] = ABOARD
    S.act_from[vk, rows] = rnd + (1 if bt.captured_next else 0)
    S.flying[vk, rows] = bt.e_flyer[vk]
    S.adv[pk, rows] = S.adv[vk, rows]
    _refresh(bt, S, rows, pk)
    _refresh(bt, S, rows, vk)


def _battle(bt: Battle, S: _State, rng, emit) -> None:
    for rnd in range(1, bt.params.rounds + 1):
        done = S.done.sum()
        if 3 * done > S.done.size:  # drop finished battles once they are a third (copying costs a whole pass)
            emit(S, S.done)
            S.keep(np.flatnonzero(~S.done))
            done = 0
        elif done == S.done.size:
            break
        n = S.done.size
        if n == 0:
            return
        _round_start(bt, S, rnd)
        if rnd == 1 and bt.params.initiative in ("a", "b"):
            first = np.full(n, 0 if bt.params.initiative == "a" else 1, np.int8)
        elif done:
            first = np.zeros(n, np.int8)
            first[~S.done] = roll_initiative(rng, n - done)
        else:
            first = roll_initiative(rng, n)
        _capture(bt, S, rnd, first)
        activated = np.zeros((bt.U, n), bool)
        idle = 0
        for t in range(2 * bt.U + 2):
            acted = False
            for side in (0, 1):
                b = np.flatnonzero(((first ^ (t & 1)) == side) & ~S.done)
                if not b.size:
                    continue
                u0, u1 = bt.u_range[side]
                can = _can_act(bt, S, b, side) & ~activated[u0:u1].take(b, axis=1)
                has = can.any(0)
                if not has.all():
                    if not has.any():
                        continue
                    b, can = b[has], can[:, has]
                u = can.argmax(0) + u0  # the dearest unit that has not acted yet
                activated[u, b] = True
                counts = np.bincount(u - u0, minlength=u1 - u0)
                for unit in np.flatnonzero(counts) + u0:  # battles activating one unit run together
                    bu = b if counts[unit - u0] == b.size else b[u == unit]
                    _turn(bt, S, rng, bu, bt.plans[unit], side)
                _check_end(bt, S, b, rnd)
                acted = True
            idle = 0 if acted else idle + 1
            if idle >= 2:
                break
    S.rounds[~S.done] = bt.params.rounds  # finished battles still here keep their own outcome and rounds
    S.outcome[~S.done] = OUTCOME_DRAW
    emit(S, np.ones(S.done.size, bool))


def surviving_cost(bt: Battle, S: _State, rows) -> tuple[np.ndarray, np.ndarray]:
    """Squads pro rata of living soldiers; vehicles cost x strength/max while they have a living pilot; guns
    cost x strength/max while not destroyed."""
    kind = bt.e_kind[:, None]
    share = S.strength.take(rows, axis=1) / bt.e_smax[:, None]
    piloted = np.where(kind == VEHICLE, S.pstate.take(rows, axis=1) != NO_PILOT, True)
    worth = np.where(kind == SOLDIER, bt.e_keep[:, None], bt.e_cost[:, None] * share * piloted)
    worth = np.where(S.alive.take(rows, axis=1), worth, 0.0)
    return worth[: bt.nA].sum(0), worth[bt.nA : bt.N].sum(0)


def run_vectorised(bt: Battle, n: int, rng: np.random.Generator, *, batch: int = 32768) -> dict:
    out = {
        "outcome": np.zeros(n, np.int8),
        "rounds": np.zeros(n, np.int16),
        "surviving_a": np.zeros(n),
        "surviving_b": np.zeros(n),
    }

    def emit(S: _State, rows: np.ndarray) -> None:
        rows = np.flatnonzero(rows)
        if not rows.size:
            return
        idx = S.idx[rows]
        out["outcome"][idx] = S.outcome[rows]
        out["rounds"][idx] = S.rounds[rows]
        out["surviving_a"][idx], out["surviving_b"][idx] = surviving_cost(bt, S, rows)

    for start in range(0, n, batch):
        size = min(batch, n - start)
        _battle(bt, _State(bt, size, start), rng, emit)
    return out


__all__ = ["KILLED", "apply_damage", "run_vectorised"]


Battle.vectorised_runner = staticmethod(run_vectorised)
