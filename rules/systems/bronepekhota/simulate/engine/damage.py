"""Damage and its consequences (§7.4 II–III, Table 7, §3.4.1 panic, §3.10 pilots) in the vectorised engine."""

from __future__ import annotations

import numpy as np

from rules.systems.bronepekhota.simulate.engine.state import _cells, _refresh, _refresh_machines, _State
from rules.systems.bronepekhota.simulate.model import (
    ABOARD,
    DISMOUNTED,
    KILLED,
    NO_PILOT,
    PANICKED,
    SOLDIER,
    SURVIVED,
    VEHICLE,
    Battle,
    resolve_damage,
    roll_survival,
)


def _kill(bt: Battle, S: _State, b: np.ndarray, j: np.ndarray) -> None:
    """Soldiers removed (killed or deserted): a crew's gun falls silent, an outside pilot's vehicle is lost."""
    was = S.alive[j, b]
    b, j = b[was], j[was]
    if not b.size:
        return
    _kill_plain(bt, S, b, j)
    gun = bt.e_crew_of[j]
    g = gun != bt.DUMMY
    if g.any():
        S.pstate[gun[g], b[g]] = NO_PILOT
        _refresh_machines(bt, S, b[g], gun[g])
    veh = S.pilot_of[j, b]
    v = (veh != bt.DUMMY) & (S.pstate[veh, b] == DISMOUNTED)
    if v.any():
        S.pstate[veh[v], b[v]] = NO_PILOT
        _refresh(bt, S, b[v], veh[v])


def _kill_plain(bt: Battle, S: _State, b: np.ndarray, j: np.ndarray) -> None:
    """_kill for soldiers who pilot and crew nothing (one per battle, all alive: they were just attacked)."""
    B = S.alive.shape[1]
    cell = _cells(j, b, B)
    S.alive.ravel()[cell] = False
    S.tkey.ravel()[cell] = bt.e_keyrow[j]
    S.block.ravel()[cell] = False
    S.ready.ravel()[cell] = False
    S.count.ravel()[_cells(bt.e_side[j], b, B)] -= 1


def _panic(bt: Battle, S: _State, b: np.ndarray, j: np.ndarray) -> None:
    """§3.4.1: the soldier flees «Ск» steps toward his own edge; past his deployment line he deserts."""
    if not b.size:
        return
    S.panicked[j, b] = True
    if bt.panic_ends:
        S.ready[j, b] = False
    new = S.adv[j, b] - bt.e_soldier_speed[j]
    gone = new < 0
    S.adv[j, b] = np.maximum(new, 0)
    gun = bt.e_crew_of[j]
    g = (gun != bt.DUMMY) & ~gone
    if g.any():  # a fleeing crew leaves his gun for good (simplification)
        S.pstate[gun[g], b[g]] = NO_PILOT
        _refresh_machines(bt, S, b[g], gun[g])
    _kill(bt, S, b[gone], j[gone])


def apply_damage(bt: Battle, S: _State, rng, b, j, damage, *, cause: str) -> np.ndarray:
    """§7.4 II–III and Table 7 on elements j of battles b (one event per battle). Returns the mask of events that
    did damage (their battles' enemy columns may have changed)."""
    hit = damage > 0
    if not hit.any():
        return hit
    b, j, damage = b[hit], j[hit], damage[hit]
    # A24 house rule: an infantryman hit by a shot, a blast or a grenade tests survival; melee kills (as the
    # resolver's damage_to_element)
    tested = bt.infantry_test and cause != "melee"
    if not tested:
        plain = bt.e_plain[j]
        if plain.all():  # the common case: plain soldiers die, nothing else changes
            _kill_plain(bt, S, b, j)
            return hit
        if plain.any():
            _kill_plain(bt, S, b[plain], j[plain])
            b, j, damage = b[~plain], j[~plain], damage[~plain]
    soldier = bt.e_kind[j] == SOLDIER
    if soldier.any():
        bs, js = b[soldier], j[soldier]
        if tested:
            code = roll_survival(rng, bt.e_armour[js], bt.sfaces, bt.panic)
            _panic(bt, S, bs[code == PANICKED], js[code == PANICKED])
            _kill(bt, S, bs[code == KILLED], js[code == KILLED])
        else:
            _kill(bt, S, bs, js)
    machine = ~soldier
    if not machine.any():
        return hit
    b, j, damage = b[machine], j[machine], damage[machine]
    aboard = (bt.e_kind[j] == VEHICLE) & (S.pstate[j, b] == ABOARD)
    pilot = S.pilot[j, b]
    res = resolve_damage(rng, S.strength[j, b], damage, aboard, bt.e_armour[pilot], S.flying[j, b], bt.settings)
    after, code = res["strength"], res["pilot"]
    S.strength[j, b] = after
    destroyed = after == 0
    killed = code == KILLED
    if killed.any():
        S.pstate[j[killed], b[killed]] = NO_PILOT
        S.flying[j[killed], b[killed]] = False  # landed (emergency landing already in `after`) or destroyed
        _kill(bt, S, b[killed], pilot[killed])
    out = (code == PANICKED) | (destroyed & aboard & (code == SURVIVED))
    if out.any():  # the pilot is on foot where his vehicle is
        bo, jo, po = b[out], j[out], pilot[out]
        S.aboard[po, bo] = False
        S.adv[po, bo] = S.adv[jo, bo]
        S.pstate[jo, bo] = np.where(after[out] > 0, DISMOUNTED, NO_PILOT)
        if bt.panic_lands:
            S.flying[jo, bo] = False
        _refresh(bt, S, bo, po)
        panicked = code[out] == PANICKED
        _panic(bt, S, bo[panicked], po[panicked])
    if destroyed.any():
        S.alive[j[destroyed], b[destroyed]] = False
        S.pstate[j[destroyed], b[destroyed]] = NO_PILOT
        S.flying[j[destroyed], b[destroyed]] = False
    _refresh_machines(bt, S, b, j)
    return hit
