"""The vectorised engine's state: arrays of shape [elements, battles] and what is derived from them."""

from __future__ import annotations

import numpy as np

from rules.systems.bronepekhota.simulate.model import (
    ABOARD,
    DISMOUNTED,
    NO_PILOT,
    SOLDIER,
    VEHICLE,
    Battle,
)

# [elements, battles] arrays, then [battles] arrays
_GRID = (
    "adv",
    "alive",
    "strength",
    "ammo",
    "refills",
    "pstate",
    "flying",
    "act_from",
    "panicked",
    "aboard",
    "fired",
    "tkey",
    "block",
    "ready",
    "count",
    "pilot",
    "pilot_of",
    "twin_seen",
)
_ROW = ("idx", "done", "outcome", "rounds")


def _grid(column, battles: int) -> np.ndarray:
    """A per-element column repeated for every battle."""
    return np.repeat(np.asarray(column)[:, None], battles, axis=1)


class _State:
    """The dynamic state of a batch of battles, [element, battle]; `idx` maps battles back to battle numbers.

    Derived arrays kept up to date by `_refresh`: `tkey` (e_keyrow + the target state t x key_stride: where the
    element's row of the key tables starts; t = 0: not worth attacking),
    `block` (stands in the enemy's way: a soldier on foot or a piloted ground vehicle), `ready` (may act now) and
    `count` ([side, battle]: soldiers alive, for the victory check). `twin_seen` ([side, battle]): a twin of that
    side has come onto the field (capture); until then a turn leaves the side's twin columns out of its gathers
    (`enemy_cols`)."""

    def __init__(self, bt: Battle, B: int, first_index: int):
        # Every battle starts the same: build one battle's column, then repeat it.
        self._start(bt)
        for name in _GRID:
            setattr(self, name, np.repeat(getattr(self, name), B, axis=1))
        self.idx = np.arange(first_index, first_index + B)
        self.done = np.zeros(B, bool)
        self.outcome = np.zeros(B, np.int8)
        self.rounds = np.zeros(B, np.int16)

    def _start(self, bt: Battle) -> None:
        N1, B = bt.N + 1, 1
        kind = bt.e_kind
        self.adv = np.zeros((N1, B), np.int16)
        self.alive = _grid((np.arange(N1) != bt.DUMMY) & ~bt.e_dormant, B)  # twins wait off the field
        self.pilot = _grid(bt.e_pilot, B)  # a vehicle's pilot of the moment (capture changes it)
        self.pilot_of = _grid(bt.e_pilot_of, B)  # a soldier's vehicle of the moment
        self.strength = _grid(np.where(kind == SOLDIER, 0, bt.e_smax).astype(np.int16), B)
        self.ammo = _grid(bt.e_ammo, B)
        self.refills = np.full((N1, B), int(bt.settings["ammo_refreshes"]), np.int16)
        has = np.where(kind == VEHICLE, bt.e_pilot != bt.DUMMY, bt.e_crew != bt.DUMMY)
        self.pstate = _grid(np.where(kind == SOLDIER, ABOARD, np.where(has, ABOARD, NO_PILOT)).astype(np.int8), B)
        self.flying = _grid(bt.e_flyer & has, B)
        self.act_from = np.zeros((N1, B), np.int16)
        self.panicked = np.zeros((N1, B), bool)
        self.aboard = _grid((kind == SOLDIER) & (bt.e_pilot_of != bt.DUMMY), B)
        self.fired = np.zeros((N1, B), np.int16)
        self.tkey = np.zeros((N1, B), np.intp)
        self.block = np.zeros((N1, B), bool)
        self.ready = np.zeros((N1, B), bool)
        self.rnd = 1
        self.count = _grid(np.array([c.size for c in bt.soldier_cols], np.int16), B)
        self.twin_seen = np.zeros((2, B), bool)
        _refresh_all(bt, self)

    def keep(self, rows: np.ndarray) -> None:
        for name in _GRID:
            setattr(self, name, getattr(self, name).take(rows, axis=1))
        for name in _ROW:
            setattr(self, name, getattr(self, name)[rows])


def _refresh(bt: Battle, S: _State, b, j) -> None:
    """Recomputes the derived `tkey`, `block` and `ready` of elements j in battles b."""
    if not np.size(b):
        return
    kind = bt.e_kind[j]
    alive = S.alive[j, b]
    s = S.strength[j, b]
    ps = S.pstate[j, b]
    soldier_on_foot = (kind == SOLDIER) & ~S.aboard[j, b]
    gun = bt.e_crew_of[j]
    manning = (gun != bt.DUMMY) & S.alive[gun, b] & (S.pstate[gun, b] == ABOARD)
    soldier = np.where(soldier_on_foot, np.where(manning, 2, 1), 0)  # 2: a crew with a gun to fire
    machine = np.where(ps == ABOARD, s, np.where((ps == DISMOUNTED) & (kind == VEHICLE), bt.SM1 + s, 0))
    S.tkey[j, b] = bt.e_keyrow[j] + bt.key_stride * np.where(alive, np.where(kind == SOLDIER, soldier, machine), 0)
    S.block[j, b] = alive & (soldier_on_foot | ((kind == VEHICLE) & (ps == ABOARD) & ~S.flying[j, b]))
    soldier_ready = soldier_on_foot & ~S.panicked[j, b] if bt.panic_ends else soldier_on_foot
    vehicle_ready = (kind == VEHICLE) & (ps == ABOARD) & (S.act_from[j, b] <= S.rnd)
    S.ready[j, b] = alive & (soldier_ready | vehicle_ready)


def _refresh_all(bt: Battle, S: _State) -> None:
    """`_refresh` of every element of every battle, as whole-array operations."""
    n = bt.N
    kind = bt.e_kind[:n, None]
    alive, ps, s = S.alive[:n], S.pstate[:n], S.strength[:n]
    gun = bt.e_crew_of[:n]
    soldier_on_foot = (kind == SOLDIER) & ~S.aboard[:n]
    manning = (gun != bt.DUMMY)[:, None] & S.alive[gun] & (S.pstate[gun] == ABOARD)
    soldier = np.where(soldier_on_foot, np.where(manning, 2, 1), 0)
    machine = np.where(ps == ABOARD, s, np.where((ps == DISMOUNTED) & (kind == VEHICLE), bt.SM1 + s, 0))
    tstate = np.where(alive, np.where(kind == SOLDIER, soldier, machine), 0)
    S.tkey[:n] = bt.e_keyrow[:n, None] + bt.key_stride * tstate
    vehicle_aboard = (kind == VEHICLE) & (ps == ABOARD)
    S.block[:n] = alive & (soldier_on_foot | (vehicle_aboard & ~S.flying[:n]))
    soldier_ready = soldier_on_foot & ~S.panicked[:n] if bt.panic_ends else soldier_on_foot
    S.ready[:n] = alive & (soldier_ready | (vehicle_aboard & (S.act_from[:n] <= S.rnd)))


def _cells(j, b, battles: int) -> np.ndarray:
    """Flat indices of cells [j, b] of a [elements, battles] grid: one index computation for several grids."""
    return np.multiply(j, battles, dtype=np.intp) + b


def _refresh_machines(bt: Battle, S: _State, b, j) -> None:
    """`_refresh` of vehicles or guns j in battles b, and of the crews of those guns (a crew is worth more while
    manning)."""
    if not b.size:
        return
    cell = _cells(j, b, S.alive.shape[1])
    vehicle = bt.e_kind[j] == VEHICLE
    alive = S.alive.ravel().take(cell)
    s = S.strength.ravel().take(cell)
    ps = S.pstate.ravel().take(cell)
    aboard = alive & (ps == ABOARD)  # a vehicle piloted, a gun crewed
    tstate = np.where(aboard, s, np.where(alive & (ps == DISMOUNTED) & vehicle, bt.SM1 + s, 0))
    S.tkey.ravel()[cell] = bt.e_keyrow[j] + bt.key_stride * tstate
    piloted = aboard & vehicle
    S.block.ravel()[cell] = piloted & ~S.flying.ravel().take(cell)
    S.ready.ravel()[cell] = piloted & (S.act_from.ravel().take(cell) <= S.rnd)
    crew = bt.e_crew[j]
    c = crew != bt.DUMMY
    if c.any():
        _refresh(bt, S, b[c], crew[c])


def side_extent(bt: Battle, S: _State, b: np.ndarray, side: int) -> tuple[int, int]:
    """The columns of `side` worth looking at in battles b: all of them once one of its twins has come onto the
    field in one of those battles, else only its roster's (twins come last and are off the field: never a
    target, never in the way, never acting). Skipping them changes no result, only the work."""
    c0, c1 = bt.roster_cols[side]
    if c1 < bt.side_cols[side][1] and S.twin_seen[side].take(b).any():
        return bt.side_cols[side]
    return c0, c1


def _front(bt: Battle, S: _State, b: np.ndarray, side: int, adv: np.ndarray | None = None, cols=None) -> np.ndarray:
    """The most advanced element of `side` standing in the way, per battle (-1: none). Guns are held by their
    crew, who block; flyers block nobody. `adv`: the side's advances in battles b if already gathered, over
    `cols` (side_extent) when given."""
    c0, c1 = cols or bt.side_cols[side]
    if adv is None:
        adv = S.adv[c0:c1].take(b, axis=1)
    return ((adv + 1) * S.block[c0:c1].take(b, axis=1)).max(0).astype(np.int32) - 1


def _can_act(bt: Battle, S: _State, b: np.ndarray, side: int) -> np.ndarray:
    """[units of the side, battles]: the unit has an element able to act now (`ready`, kept by _refresh)."""
    u0, u1 = bt.u_range[side]
    if u1 == u0:  # guns only: nothing to activate
        return np.zeros((0, b.size), bool)
    ready = S.ready
    twins = bt.roster_cols[side][1] < bt.side_cols[side][1] and S.twin_seen[side].take(b).any()
    out = np.zeros((u1 - u0, b.size), bool)
    for r, p in enumerate(bt.plans[u0:u1]):
        if p.twin and not twins:  # off the field in every one of these battles
            continue
        out[r] = ready[p.c0].take(b) if p.c1 - p.c0 == 1 else ready[p.c0 : p.c1].take(b, axis=1).any(0)
    return out
