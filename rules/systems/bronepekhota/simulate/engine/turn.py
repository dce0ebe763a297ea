"""One turn of the vectorised engine: unit `plan` of `side` activates in each battle of `b` (move, repair,
shoot, charge, melee)."""

from __future__ import annotations

import numpy as np

from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.simulate.engine.combat import _melee, _shoot
from rules.systems.bronepekhota.simulate.engine.state import _front, _refresh_machines, _State, side_extent
from rules.systems.bronepekhota.simulate.model import (
    ABOARD,
    Battle,
)


def _turn(bt: Battle, S: _State, rng, b: np.ndarray, plan, side: int) -> None:
    """Arrays here are [member, battle]; per-battle values ([battle]) broadcast over the members."""
    D = bt.D
    c0, c1 = plan.c0, plan.c1
    ecols = side_extent(bt, S, b, 1 - side)  # the enemy's columns, without his twins while none is on the field
    e0, e1 = ecols
    # Who acts is `ready`: alive and on foot (not panicked when that ends actions); a vehicle _can_act chose has
    # its pilot aboard and may act.
    acts = S.ready[c0:c1].take(b, axis=1)
    manning = None
    flying = None
    if plan.vehicle:
        spd = bt.e_speed[c0].take(S.strength[c0:c1].take(b, axis=1)).astype(np.int32)
        if plan.flyer:
            flying = S.flying[c0:c1].take(b, axis=1)
            spd = np.where(flying, spd * bt.flyer_moves, spd)
    else:
        spd = plan.speed[:, None]
        if bt.obstacles:  # a share of moves crosses an obstacle: Table 1's 2 SP (A9) come off the steps
            crossing = rng.random((c1 - c0, b.size)) < bt.obstacles
            spd = np.where(crossing, np.maximum(spd - bt.obstacle_sp, 0), spd)
        if plan.has_crew:  # a crew stays with a living, crewed gun
            g = plan.gun_of[:, None]
            manning = (g != bt.DUMMY) & S.alive[g, b] & (S.pstate[g, b] == ABOARD)
            spd = np.where(manning, 0, spd)
    a0 = S.adv[c0:c1].take(b, axis=1).astype(np.int32)
    eadv = S.adv[e0:e1].take(b, axis=1)  # the enemy's advances: the front now, and the shots' distances
    front = _front(bt, S, b, 1 - side, eadv, ecols)
    has_front = front >= 0
    lim = D - np.maximum(front, 0)
    gap = lim - a0
    if plan.repair:
        touching = has_front & (gap <= 0)
        acts = _repair(bt, S, b, plan, acts, touching if flying is None else touching & ~flying, gap)
    contact = acts & has_front & (gap <= 0)
    if flying is not None:
        contact &= ~flying
    free = acts & ~contact
    charge = free & has_front & (spd >= gap) & (spd > 0)
    if flying is not None:
        charge &= ~flying
    holds = None
    if bt.hold:
        holds = free & (plan.hold_reach[:, None] >= gap)
        charge &= ~holds
    move = free & ~charge
    if holds is not None:
        move &= ~holds
    new = np.minimum(a0 + spd, lim)
    if flying is not None:
        new = np.where(flying, np.maximum(a0, np.minimum(a0 + spd, lim - 1)), new)
    aimed = None
    if bt.aimed_on and not plan.vehicle:
        reach = plan.preach[:, None]
        stay = move if holds is None else move | holds
        gap_after = np.where(move, lim - new, gap)
        aimed = stay & has_front & (reach > 0) & (reach < gap_after) & (2 * reach >= gap)
        if manning is not None:
            aimed &= ~manning
        move &= ~aimed
    if move.any():
        S.adv[c0:c1, b] = np.where(move, new, a0)
    if plan.slots and free.any():
        _shoot(bt, S, rng, b, plan, free, aimed, side, eadv, ecols)
    attack = contact
    if charge.any():
        front2 = _front(bt, S, b, 1 - side, cols=ecols)
        lim2 = D - np.maximum(front2, 0)
        charging = charge & S.alive[c0:c1].take(b, axis=1)
        arrive = np.minimum(a0 + spd, lim2)
        S.adv[c0:c1, b] = np.where(charging, arrive, S.adv[c0:c1].take(b, axis=1))
        attack = attack | (charging & (arrive == lim2) & (front2 >= 0))
    if attack.any():
        _melee(bt, S, rng, b, plan, attack, side, ecols)


def _repair(bt: Battle, S: _State, b, plan, acts, touching, gap) -> np.ndarray:
    """§3.11 at the start of a vehicle's activation, when it is damaged and touches no enemy: the HELIX platform
    restores 2 instead of its shot (it has no gun) and acts on; a «Рм» pilot restores 1 from inside and the
    vehicle does nothing else (p.43–44), which it does only when no enemy stands within its weapons' reach.
    Never above the maximum (A32). Returns who still acts."""
    c0 = plan.c0
    strength = S.strength[c0].take(b)
    ok = acts[0] & ~touching[0] & (strength < plan.smax)
    if plan.repair == tables.INFANTRY_REPAIR_AMOUNT:
        ok &= (gap[0] > plan.reach) & bt.e_rm[S.pilot[c0].take(b)]  # the pilot of the moment has «Рм»
    if not ok.any():
        return acts
    br = b[ok]
    S.strength[c0, br] = np.minimum(strength[ok] + plan.repair, plan.smax)
    _refresh_machines(bt, S, br, np.full(br.size, c0))
    if plan.repair == tables.INFANTRY_REPAIR_AMOUNT:
        acts = acts & ~ok
    return acts
