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

from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.simulate.model import (
    ABOARD,
    CREW_FALLBACK,
    CREWED_GUN,
    DISMOUNTED,
    KILLED,
    NO_PILOT,
    OUTCOME_A,
    OUTCOME_B,
    OUTCOME_DRAW,
    PANICKED,
    SOLDIER,
    SURVIVED,
    VEHICLE,
    Battle,
    blast_armour,
    resolve_damage,
    roll_dice,
    roll_initiative,
    roll_melee,
    roll_power_damage,
    roll_range,
    roll_survival,
)
from rules.systems.bronepekhota.tables import GRENADE_BLAST_STEPS, GRENADE_POWER, GRENADE_RANGE_FACES

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
    `count` ([side, battle]: soldiers alive, for the victory check)."""

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
        self.alive = _grid(np.arange(N1) != bt.DUMMY, B)
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


def _front(bt: Battle, S: _State, b: np.ndarray, side: int, adv: np.ndarray | None = None) -> np.ndarray:
    """The most advanced element of `side` standing in the way, per battle (-1: none). Guns are held by their
    crew, who block; flyers block nobody. `adv`: the side's advances in battles b if already gathered."""
    c0, c1 = bt.side_cols[side]
    if adv is None:
        adv = S.adv[c0:c1].take(b, axis=1)
    return ((adv + 1) * S.block[c0:c1].take(b, axis=1)).max(0).astype(np.int32) - 1


def _can_act(bt: Battle, S: _State, b: np.ndarray, side: int) -> np.ndarray:
    """[units of the side, battles]: the unit has an element able to act now (`ready`, kept by _refresh)."""
    u0, u1 = bt.u_range[side]
    if u1 == u0:  # guns only: nothing to activate
        return np.zeros((0, b.size), bool)
    ready = S.ready
    return np.stack(
        [
            ready[p.c0].take(b) if p.c1 - p.c0 == 1 else ready[p.c0 : p.c1].take(b, axis=1).any(0)
            for p in bt.plans[u0:u1]
        ]
    )


# Damage and its consequences ----------------------------------------------------------------------------
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
    veh = bt.e_pilot_of[j]
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
    if cause != "shot" or not bt.infantry_test:
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
        if bt.infantry_test and cause == "shot":
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
    pilot = bt.e_pilot[j]
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


# One turn: unit `plan` of `side` activates in each battle of `b` ------------------------------------------
def _turn(bt: Battle, S: _State, rng, b: np.ndarray, plan, side: int) -> None:
    """Arrays here are [member, battle]; per-battle values ([battle]) broadcast over the members."""
    D = bt.D
    c0, c1 = plan.c0, plan.c1
    e0, e1 = bt.side_cols[1 - side]
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
    front = _front(bt, S, b, 1 - side, eadv)
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
        _shoot(bt, S, rng, b, plan, free, aimed, side, eadv)
    attack = contact
    if charge.any():
        front2 = _front(bt, S, b, 1 - side)
        lim2 = D - np.maximum(front2, 0)
        charging = charge & S.alive[c0:c1].take(b, axis=1)
        arrive = np.minimum(a0 + spd, lim2)
        S.adv[c0:c1, b] = np.where(charging, arrive, S.adv[c0:c1].take(b, axis=1))
        attack = attack | (charging & (arrive == lim2) & (front2 >= 0))
    if attack.any():
        _melee(bt, S, rng, b, plan, attack, side)


def _repair(bt: Battle, S: _State, b, plan, acts, touching, gap) -> np.ndarray:
    """§3.11 at the start of a vehicle's activation, when it is damaged and touches no enemy: the HELIX platform
    restores 2 instead of its shot (it has no gun) and acts on; a «Рм» pilot restores 1 from inside and the
    vehicle does nothing else (p.43–44), which it does only when no enemy stands within its weapons' reach.
    Never above the maximum (A32). Returns who still acts."""
    c0 = plan.c0
    strength = S.strength[c0].take(b)
    ok = acts[0] & ~touching[0] & (strength < plan.smax)
    if plan.repair == tables.INFANTRY_REPAIR_AMOUNT:
        ok &= gap[0] > plan.reach
    if not ok.any():
        return acts
    br = b[ok]
    S.strength[c0, br] = np.minimum(strength[ok] + plan.repair, plan.smax)
    _refresh_machines(bt, S, br, np.full(br.size, c0))
    if plan.repair == tables.INFANTRY_REPAIR_AMOUNT:
        acts = acts & ~ok
    return acts


def _best(keys: np.ndarray, mask: int) -> tuple[np.ndarray, np.ndarray]:
    """Per battle: the enemy with the highest key ([enemy, battle] int64 keys, see Battle.score_keys) and his
    score (the key with its rank bits cleared, read back as the float64 it is)."""
    top = keys.max(0)
    return mask - (top & mask), (top & ~mask).view(np.float64)


def _shoot(bt: Battle, S: _State, rng, b, plan, shooter, aimed, side: int, eadv: np.ndarray) -> None:
    D = bt.D
    mask = bt.key_mask
    e0, e1 = bt.side_cols[1 - side]
    k = b.size
    # Where each enemy's key row sits for a shooter at advance 0 ([enemy, battle]); a shooter adds 2D − his
    # advance. Refreshed where a shot did something.
    base = S.tkey[e0:e1].take(b, axis=1) - eadv  # intp: take() needs no index conversion
    for sl in plan.slots:
        m = sl["m"]
        idx = np.flatnonzero(shooter[m])
        if not idx.size:
            continue
        whole = idx.size == k
        bk = b if whole else b[idx]
        el, plat, personal = sl["el"], sl["plat"], sl["personal"]
        if personal:
            can = S.alive[el].take(bk) & (S.fired[el].take(bk) == 0)
            if sl["kind"] == CREW_FALLBACK:
                can &= S.fired[sl["gun"]].take(bk) == 0
        else:
            can = S.alive[plat].take(bk) & (S.fired[plat].take(bk) < sl["rof"])
            if sl["kind"] == CREWED_GUN:
                can &= S.pstate[plat].take(bk) == ABOARD
            if bt.ammo_limited:
                ammo = S.ammo[plat].take(bk)
                short = ammo <= 0
                if bt.strict_ammo:
                    short |= ammo < sl["cost"]
                refill = short & (S.refills[plat].take(bk) > 0)
                if refill.any():
                    S.ammo[plat, bk[refill]] = sl["ammo_max"]
                    S.refills[plat, bk[refill]] -= 1
                can &= ~short | refill
        if not can.all():
            if not can.any():
                continue
            idx, bk, whole = idx[can], bk[can], False
        aim = aimed[m].take(idx) if (aimed is not None and personal) else None
        pos = S.adv[el].take(bk).astype(np.int32)
        at = (base if whole else base.take(idx, axis=1)) + (2 * D - pos)  # [enemy, battle] index into the keys
        keys = sl["keys"].take(at)
        if aim is not None and aim.any():
            keys = np.where(aim, sl["keys_aimed"].take(at), keys)
        best, top = _best(keys, mask)
        grenade = None
        if bt.grenades and personal:
            gbest, gtop = _best(sl["grenade_keys"].take(at), mask)
            gtop -= bt.e_grenade_risk[el]
            grenade = (gtop > top) & (gtop > 0)
            if aim is not None:
                grenade &= ~aim
            best = np.where(grenade, gbest, best)
            top = np.where(grenade, gtop, top)
        f = np.flatnonzero(top > 0)
        if not f.size:
            continue
        bf = bk[f]
        tgt = best[f] + e0
        df = np.clip(np.abs(D - pos[f] - eadv[best[f], idx[f]]), 1, D)  # the distance to the chosen target
        S.fired[plat, bf] += 1
        if bt.ammo_limited and not personal:
            S.ammo[plat, bf] = np.maximum(0, S.ammo[plat].take(bf) - sl["cost"])
        changed = np.zeros(f.size, bool)
        g = grenade[f] if grenade is not None else None
        o = np.ones(f.size, bool) if g is None else ~g
        if o.any():
            bo, to = bf[o], tgt[o]
            _, hit_ok = roll_range(rng, sl["rfaces"], sl["rmod"], df[o], False if aim is None else aim[f][o])
            armour = _armour(bt, S, bo, to) + bt.e_cover[to]
            dmg = roll_power_damage(rng, sl["count"], sl["faces"], sl["per_die"], armour) * hit_ok
            changed[o] = apply_damage(bt, S, rng, bo, to, dmg, cause="shot")
        if g is not None and g.any():
            bg, tg = bf[g], tgt[g]
            burst = roll_dice(rng, GRENADE_RANGE_FACES, bg.size)
            near = np.abs(burst - df[g]) <= GRENADE_BLAST_STEPS
            own = burst <= GRENADE_BLAST_STEPS  # the thrower is 1 step from a burst of 1 (G17)
            n_g, f_g = GRENADE_POWER
            t_arm = blast_armour(_armour(bt, S, bg, tg), bt.e_cover[tg], bt.blast_cover)
            s_arm = np.full(bg.size, blast_armour(int(bt.e_armour[el]), int(bt.e_cover[el]), bt.blast_cover))
            dmg_t = roll_power_damage(rng, n_g, f_g, 0, t_arm) * near
            dmg_s = roll_power_damage(rng, n_g, f_g, 0, s_arm) * own
            changed[g] = apply_damage(bt, S, rng, bg, tg, dmg_t, cause="grenade")
            apply_damage(bt, S, rng, bg, np.full(bg.size, el), dmg_s, cause="grenade")
        if changed.any():
            rows, cols = idx[f[changed]], tgt[changed]
            simple = bt.e_plain[cols]  # a plain soldier killed: only his own cell changed
            if bt.infantry_test:
                simple &= False
            rs, cs = rows[simple], cols[simple]
            base[cs - e0, rs] = bt.e_keyrow[cs] - eadv[cs - e0, rs]  # his key row at target state 0
            rows = rows[~simple]
            if rows.size:
                br = b[rows]
                eadv[:, rows] = S.adv[e0:e1].take(br, axis=1)
                base[:, rows] = S.tkey[e0:e1].take(br, axis=1) - eadv[:, rows]


def _armour(bt: Battle, S: _State, b, j) -> np.ndarray:
    """Бр of a soldier; Броня (the current strength) of a vehicle or gun."""
    return np.where(bt.e_kind[j] == SOLDIER, bt.e_armour[j], S.strength[j, b]).astype(np.int32)


def _melee(bt: Battle, S: _State, rng, b, plan, attack, side: int) -> None:
    """Each attacking element picks the touching enemy with the highest P(win) x expected cost removed (the keys
    of Battle.melee_keys, by enemy, his target state and the attack bonus)."""
    e0, e1 = bt.side_cols[1 - side]
    mask = bt.key_mask
    table = bt.melee_keys(1 - side)
    live_key = bt.e_keyrow[e0:e1, None] + bt.key_stride  # t >= 1: worth attacking
    cols = np.flatnonzero(attack.any(0))
    if cols.size < b.size:
        b = b[cols]
        attack = attack[:, cols]
    eadv = S.adv[e0:e1].take(b, axis=1)
    base = S.tkey[e0:e1].take(b, axis=1)
    ok_target = base >= live_key
    if bt.side_flyers[1 - side]:
        ok_target &= ~S.flying[e0:e1].take(b, axis=1)
    base -= bt.melee_bonus_min  # + the attack bonus: [enemy, battle] index into the keys
    for m in range(attack.shape[0]):
        k = np.flatnonzero(attack[m])
        if not k.size:
            continue
        el = plan.c0 + m
        bk = b[k]
        if plan.vehicle:
            live = (S.pstate[el].take(bk) == ABOARD) & ~S.flying[el].take(bk) & S.alive[el].take(bk)
            bonus = S.strength[el].take(bk).astype(np.intp) + plan.melee[m]  # Table 6: Д6 + Броня + ББ
        else:
            live = S.alive[el].take(bk)
            bonus = np.full(k.size, plan.melee[m], np.intp)  # Table 6: Д6 + ББ
        if not live.all():
            k, bk, bonus = k[live], bk[live], bonus[live]
            if not k.size:
                continue
        whole = k.size == b.size
        pos = S.adv[el].take(bk).astype(np.int32)
        touching = (ok_target if whole else ok_target.take(k, axis=1)) & (
            (eadv if whole else eadv.take(k, axis=1)) == bt.D - pos
        )
        if not touching.any():
            continue
        keys = table.take((base if whole else base.take(k, axis=1)) + bonus)
        keys *= touching
        best, top = _best(keys, mask)
        go = top > 0
        if not go.any():
            continue
        kg, bg, tb, bonus = k[go], bk[go], best[go], bonus[go]
        tgt = tb + e0
        soldier_t = bt.e_kind[tgt] == SOLDIER
        strength_t = S.strength[tgt, bg].astype(np.int32)
        piloted_t = (bt.e_kind[tgt] == VEHICLE) & (S.pstate[tgt, bg] == ABOARD)
        fixed_t = np.where(soldier_t, bt.e_armour[tgt], np.where(piloted_t, strength_t + bt.e_melee[tgt], strength_t))
        surprise = None
        if bt.surprise:  # a share of attacks come from outside the defender's view (p.41): no vehicle ББ then
            surprise = rng.random(kg.size) < bt.surprise
            fixed_t = np.where(surprise & piloted_t, fixed_t - bt.e_melee[tgt], fixed_t)
        atk, dfc = roll_melee(rng, bonus, fixed_t, ~soldier_t & ~piloted_t, surprise)
        won = atk > dfc
        dmg = np.where(soldier_t, 1, atk - dfc).astype(np.int16)
        changed = apply_damage(bt, S, rng, bg[won], tgt[won], dmg[won], cause="melee")
        if changed.any():
            r, cs = kg[won][changed], tgt[won][changed]
            simple = bt.e_plain[cs]  # a plain soldier killed: no longer a target, nothing else changed
            ok_target[cs[simple] - e0, r[simple]] = False
            r = r[~simple]
            if r.size:
                br = b[r]
                eadv[:, r] = S.adv[e0:e1].take(br, axis=1)
                tk = S.tkey[e0:e1].take(br, axis=1)
                ok_target[:, r] = (tk >= live_key) & ~S.flying[e0:e1].take(br, axis=1)
                base[:, r] = tk - bt.melee_bonus_min


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
    if not bt.panic:
        # Without the panic rule nobody panics or bails out of a vehicle that still stands, so nobody re-boards
        # and no derived state depends on the round: _refresh kept it all.
        return
    S.panicked.fill(False)
    _refresh_all(bt, S)  # panics end; re-boarded vehicles may act again
    if not bt.pilot_cols.size:
        return
    p, v = bt.pilot_cols, bt.e_pilot_of[bt.pilot_cols]
    back = S.alive[p] & ~S.aboard[p] & (S.pstate[v] == DISMOUNTED) & S.alive[v] & ~S.done
    if not back.any():
        return
    k, rows = np.nonzero(back)
    pk, vk = p[k], v[k]
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
