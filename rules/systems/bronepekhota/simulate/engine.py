"""The vectorised engine: many battles in lock-step, state arrays of shape [battles, elements].

The model is the package docstring. Loops run over rounds, turns, units, shot slots and squad members, never
over battles. A turn handles the battles in which the same unit activates, so its columns, weapons and slots are
static; the enemy's rows are gathered once per turn and refreshed only where something changed.
"""

from __future__ import annotations

import numpy as np

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
    resolve_damage,
    roll_dice,
    roll_initiative,
    roll_melee,
    roll_power_damage,
    roll_range,
    roll_survival,
)
from rules.systems.bronepekhota.tables import GRENADE_BLAST_STEPS, GRENADE_POWER, GRENADE_RANGE_FACES

_FIELDS = (
    "idx",
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
    "tstate",
    "block",
    "ready",
    "count",
    "done",
    "outcome",
    "rounds",
)


class _State:
    """The dynamic state of a batch of battles; `idx` maps rows back to battle numbers.

    Derived arrays kept up to date by `_refresh`: `tstate` (row of the value table: 0 = not worth attacking),
    `block` (stands in the enemy's way: a soldier on foot or a piloted ground vehicle) and `count` (soldiers
    alive per side, for the victory check)."""

    def __init__(self, bt: Battle, B: int, first_index: int):
        N1 = bt.N + 1
        kind = bt.e_kind
        self.idx = np.arange(first_index, first_index + B)
        self.adv = np.zeros((B, N1), np.int16)
        self.alive = np.ones((B, N1), bool)
        self.alive[:, bt.DUMMY] = False
        self.strength = np.tile(np.where(kind == SOLDIER, 0, bt.e_smax).astype(np.int16), (B, 1))
        self.ammo = np.tile(bt.e_ammo, (B, 1))
        self.refills = np.full((B, N1), int(bt.settings["ammo_refreshes"]), np.int16)
        has = np.where(kind == VEHICLE, bt.e_pilot != bt.DUMMY, bt.e_crew != bt.DUMMY)
        self.pstate = np.tile(
            np.where(kind == SOLDIER, ABOARD, np.where(has, ABOARD, NO_PILOT)).astype(np.int8), (B, 1)
        )
        self.flying = np.tile(bt.e_flyer & has, (B, 1))
        self.act_from = np.zeros((B, N1), np.int16)
        self.panicked = np.zeros((B, N1), bool)
        self.aboard = np.tile((kind == SOLDIER) & (bt.e_pilot_of != bt.DUMMY), (B, 1))
        self.fired = np.zeros((B, N1), np.int16)
        self.tstate = np.zeros((B, N1), np.int16)
        self.block = np.zeros((B, N1), bool)
        self.ready = np.zeros((B, N1), bool)
        self.rnd = 1
        self.count = np.tile(np.array([c.size for c in bt.soldier_cols], np.int16), (B, 1))
        self.done = np.zeros(B, bool)
        self.outcome = np.zeros(B, np.int8)
        self.rounds = np.zeros(B, np.int16)
        _refresh_all(bt, self)

    def keep(self, rows: np.ndarray) -> None:
        for name in _FIELDS:
            setattr(self, name, getattr(self, name)[rows])


def _refresh(bt: Battle, S: _State, b, j) -> None:
    """Recomputes the derived `tstate` and `block` of elements j in battles b."""
    if not np.size(b):
        return
    kind = bt.e_kind[j]
    alive = S.alive[b, j]
    s = S.strength[b, j]
    ps = S.pstate[b, j]
    soldier_on_foot = (kind == SOLDIER) & ~S.aboard[b, j]
    gun = bt.e_crew_of[j]
    manning = (gun != bt.DUMMY) & S.alive[b, gun] & (S.pstate[b, gun] == ABOARD)
    soldier = np.where(soldier_on_foot, np.where(manning, 2, 1), 0)  # 2: a crew with a gun to fire
    machine = np.where(ps == ABOARD, s, np.where((ps == DISMOUNTED) & (kind == VEHICLE), bt.SM1 + s, 0))
    S.tstate[b, j] = np.where(alive, np.where(kind == SOLDIER, soldier, machine), 0)
    S.block[b, j] = alive & (soldier_on_foot | ((kind == VEHICLE) & (ps == ABOARD) & ~S.flying[b, j]))
    soldier_ready = soldier_on_foot & ~S.panicked[b, j] if bt.panic_ends else soldier_on_foot
    vehicle_ready = (kind == VEHICLE) & (ps == ABOARD) & (S.act_from[b, j] <= S.rnd)
    S.ready[b, j] = alive & (soldier_ready | vehicle_ready)


def _refresh_all(bt: Battle, S: _State) -> None:
    """`_refresh` of every element of every battle, as whole-array operations."""
    kind, n = bt.e_kind, bt.N
    alive, ps = S.alive[:, :n], S.pstate[:, :n]
    gun = bt.e_crew_of[:n]
    soldier_on_foot = (kind[:n] == SOLDIER) & ~S.aboard[:, :n]
    manning = (gun != bt.DUMMY) & S.alive[:, gun] & (S.pstate[:, gun] == ABOARD)
    soldier = np.where(soldier_on_foot, np.where(manning, 2, 1), 0)
    s = S.strength[:, :n]
    machine = np.where(ps == ABOARD, s, np.where((ps == DISMOUNTED) & (kind[:n] == VEHICLE), bt.SM1 + s, 0))
    S.tstate[:, :n] = np.where(alive, np.where(kind[:n] == SOLDIER, soldier, machine), 0)
    vehicle_aboard = (kind[:n] == VEHICLE) & (ps == ABOARD)
    S.block[:, :n] = alive & (soldier_on_foot | (vehicle_aboard & ~S.flying[:, :n]))
    soldier_ready = soldier_on_foot & ~S.panicked[:, :n] if bt.panic_ends else soldier_on_foot
    S.ready[:, :n] = alive & (soldier_ready | (vehicle_aboard & (S.act_from[:, :n] <= S.rnd)))


def _refresh_machines(bt: Battle, S: _State, b, j) -> None:
    """After vehicles or guns changed: them, and the crews of those guns (a crew is worth more while manning)."""
    _refresh(bt, S, b, j)
    crew = bt.e_crew[j]
    c = crew != bt.DUMMY
    if c.any():
        _refresh(bt, S, b[c], crew[c])


def _front(bt: Battle, S: _State, b: np.ndarray, side: int) -> np.ndarray:
    """The most advanced element of `side` standing in the way, per battle (-1: none). Guns are held by their
    crew, who block; flyers block nobody."""
    c0, c1 = bt.side_cols[side]
    return np.where(S.block[b, c0:c1], S.adv[b, c0:c1], -1).max(1).astype(np.int32)


def _can_act(bt: Battle, S: _State, b: np.ndarray, side: int) -> np.ndarray:
    """[battles, units of the side]: the unit has an element able to act now (`ready`, kept by _refresh)."""
    c0, cu = bt.side_cols[side][0], bt.u_end_col[side]
    u0, u1 = bt.u_range[side]
    if u1 == u0:  # guns only: nothing to activate
        return np.zeros((b.size, 0), bool)
    return np.logical_or.reduceat(S.ready[b, c0:cu], bt.u_start[u0:u1] - c0, axis=1)


# Damage and its consequences ----------------------------------------------------------------------------
def _kill(bt: Battle, S: _State, b: np.ndarray, j: np.ndarray) -> None:
    """Soldiers removed (killed or deserted): a crew's gun falls silent, an outside pilot's vehicle is lost."""
    was = S.alive[b, j]
    b, j = b[was], j[was]
    if not b.size:
        return
    S.alive[b, j] = False
    S.tstate[b, j] = 0
    S.block[b, j] = False
    S.ready[b, j] = False
    S.count[b, bt.e_side[j]] -= 1
    gun = bt.e_crew_of[j]
    g = gun != bt.DUMMY
    if g.any():
        S.pstate[b[g], gun[g]] = NO_PILOT
        _refresh_machines(bt, S, b[g], gun[g])
    veh = bt.e_pilot_of[j]
    v = (veh != bt.DUMMY) & (S.pstate[b, veh] == DISMOUNTED)
    if v.any():
        S.pstate[b[v], veh[v]] = NO_PILOT
        _refresh(bt, S, b[v], veh[v])


def _kill_plain(bt: Battle, S: _State, b: np.ndarray, j: np.ndarray) -> None:
    """_kill for soldiers who pilot and crew nothing (one per battle, all alive: they were just attacked)."""
    S.alive[b, j] = False
    S.tstate[b, j] = 0
    S.block[b, j] = False
    S.ready[b, j] = False
    S.count[b, bt.e_side[j]] -= 1


def _panic(bt: Battle, S: _State, b: np.ndarray, j: np.ndarray) -> None:
    """§3.4.1: the soldier flees «Ск» steps toward his own edge; past his deployment line he deserts."""
    if not b.size:
        return
    S.panicked[b, j] = True
    if bt.panic_ends:
        S.ready[b, j] = False
    new = S.adv[b, j] - bt.e_soldier_speed[j]
    gone = new < 0
    S.adv[b, j] = np.maximum(new, 0)
    gun = bt.e_crew_of[j]
    g = (gun != bt.DUMMY) & ~gone
    if g.any():  # a fleeing crew leaves his gun for good (simplification)
        S.pstate[b[g], gun[g]] = NO_PILOT
        _refresh_machines(bt, S, b[g], gun[g])
    _kill(bt, S, b[gone], j[gone])


def apply_damage(bt: Battle, S: _State, rng, b, j, damage, *, cause: str) -> np.ndarray:
    """§7.4 II–III and Table 7 on elements j of battles b (one event per battle). Returns the mask of events that
    did damage (their battles' enemy rows may have changed)."""
    hit = damage > 0
    if not hit.any():
        return hit
    b, j, damage = b[hit], j[hit], damage[hit]
    if cause != "shot" or not bt.infantry_test:
        plain = bt.e_plain[j]
        if plain.all():  # the common case: plain soldiers die, nothing else changes
            _kill_plain(bt, S, b, j)
            return hit
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
    aboard = (bt.e_kind[j] == VEHICLE) & (S.pstate[b, j] == ABOARD)
    pilot = bt.e_pilot[j]
    res = resolve_damage(rng, S.strength[b, j], damage, aboard, bt.e_armour[pilot], S.flying[b, j], bt.settings)
    after, code = res["strength"], res["pilot"]
    S.strength[b, j] = after
    destroyed = after == 0
    killed = code == KILLED
    if killed.any():
        S.pstate[b[killed], j[killed]] = NO_PILOT
        S.flying[b[killed], j[killed]] = False  # landed (emergency landing already in `after`) or destroyed
        _kill(bt, S, b[killed], pilot[killed])
    out = (code == PANICKED) | (destroyed & aboard & (code == SURVIVED))
    if out.any():  # the pilot is on foot where his vehicle is
        bo, jo, po = b[out], j[out], pilot[out]
        S.aboard[bo, po] = False
        S.adv[bo, po] = S.adv[bo, jo]
        S.pstate[bo, jo] = np.where(after[out] > 0, DISMOUNTED, NO_PILOT)
        if bt.panic_lands:
            S.flying[bo, jo] = False
        _refresh(bt, S, bo, po)
        panicked = code[out] == PANICKED
        _panic(bt, S, bo[panicked], po[panicked])
    if destroyed.any():
        S.alive[b[destroyed], j[destroyed]] = False
        S.pstate[b[destroyed], j[destroyed]] = NO_PILOT
        S.flying[b[destroyed], j[destroyed]] = False
    _refresh_machines(bt, S, b, j)
    return hit


# One turn: unit `plan` of `side` activates in each battle of `b` ------------------------------------------
def _turn(bt: Battle, S: _State, rng, b: np.ndarray, plan, side: int, rnd: int) -> None:
    D = bt.D
    c0, c1 = plan.c0, plan.c1
    alive = S.alive[b, c0:c1]
    manning = None
    if plan.vehicle:  # _can_act chose it, so its pilot is aboard and it may act
        acts = alive
        flying = S.flying[b, c0:c1]
        spd = bt.e_speed[c0][S.strength[b, c0:c1]].astype(np.int32)
        spd = np.where(flying, spd * bt.flyer_moves, spd)
    else:
        acts = alive & ~S.aboard[b, c0:c1] if plan.has_pilots else alive
        if bt.panic_ends:
            acts = acts & ~S.panicked[b, c0:c1]
        flying = None
        spd = np.broadcast_to(plan.speed, acts.shape)
        if plan.has_crew:  # a crew stays with a living, crewed gun
            g = plan.gun_of
            manning = (g != bt.DUMMY) & S.alive[b[:, None], g] & (S.pstate[b[:, None], g] == ABOARD)
            spd = np.where(manning, 0, spd)
    a0 = S.adv[b, c0:c1].astype(np.int32)
    front = _front(bt, S, b, 1 - side)
    has_front = (front >= 0)[:, None]
    lim = (D - np.maximum(front, 0))[:, None]
    gap = lim - a0
    contact = acts & has_front & (gap <= 0)
    if flying is not None:
        contact &= ~flying
    free = acts & ~contact
    charge = free & has_front & (spd >= gap) & (spd > 0)
    if flying is not None:
        charge &= ~flying
    holds = None
    if bt.hold:
        holds = free & (plan.hold_reach >= gap)
        charge &= ~holds
    move = free & ~charge
    if holds is not None:
        move &= ~holds
    new = np.minimum(a0 + spd, lim)
    if flying is not None:
        new = np.where(flying, np.maximum(a0, np.minimum(a0 + spd, lim - 1)), new)
    aimed = None
    if bt.aimed_on and not plan.vehicle:
        reach = plan.preach
        stay = move if holds is None else move | holds
        gap_after = np.where(move, lim - new, gap)
        aimed = stay & has_front & (reach > 0) & (reach < gap_after) & (2 * reach >= gap)
        if manning is not None:
            aimed &= ~manning
        move &= ~aimed
    if move.any():
        S.adv[b, c0:c1] = np.where(move, new, a0)
    if plan.slots and free.any():
        _shoot(bt, S, rng, b, plan, free, aimed, side)
    attack = contact
    if charge.any():
        front2 = _front(bt, S, b, 1 - side)
        lim2 = (D - np.maximum(front2, 0))[:, None]
        charging = charge & S.alive[b, c0:c1]
        arrive = np.minimum(a0 + spd, lim2)
        S.adv[b, c0:c1] = np.where(charging, arrive, S.adv[b, c0:c1])
        attack = attack | (charging & (arrive == lim2) & (front2 >= 0)[:, None])
    if attack.any():
        _melee(bt, S, rng, b, plan, attack, side)


def _shoot(bt: Battle, S: _State, rng, b, plan, shooter, aimed, side: int) -> None:
    D = bt.D
    e0, e1 = bt.side_cols[1 - side]
    col_t = bt.col_T[e0:e1]
    k = b.size
    eadv = S.adv[b, e0:e1]  # the enemy's rows for this turn, refreshed where a shot did something
    ets = S.tstate[b, e0:e1]
    eval_idx = (col_t + ets).astype(np.int32)  # where each enemy's value sits in a weapon's value row
    for sl in plan.slots:
        m = sl["m"]
        idx = np.flatnonzero(shooter[:, m])
        if not idx.size:
            continue
        whole = idx.size == k
        bk = b if whole else b[idx]
        el, plat, personal = sl["el"], sl["plat"], sl["personal"]
        if personal:
            can = S.alive[bk, el] & (S.fired[bk, el] == 0)
            if sl["kind"] == CREW_FALLBACK:
                can &= S.fired[bk, sl["gun"]] == 0
        else:
            can = S.alive[bk, plat] & (S.fired[bk, plat] < sl["rof"])
            if sl["kind"] == CREWED_GUN:
                can &= S.pstate[bk, plat] == ABOARD
            if bt.ammo_limited:
                ammo = S.ammo[bk, plat]
                short = ammo <= 0
                if bt.strict_ammo:
                    short |= ammo < sl["cost"]
                refill = short & (S.refills[bk, plat] > 0)
                if refill.any():
                    S.ammo[bk[refill], plat] = sl["ammo_max"]
                    S.refills[bk[refill], plat] -= 1
                can &= ~short | refill
        if not can.all():
            if not can.any():
                continue
            idx, bk, whole = idx[can], bk[can], False
        aim = aimed[idx, m] if (aimed is not None and personal) else None
        pos = S.adv[bk, el].astype(np.int32)
        x = (2 * D - pos)[:, None] - (eadv if whole else eadv[idx])  # column of the signed-offset hit tables
        val = sl["val"].take(eval_idx if whole else eval_idx[idx])
        hit = sl["hit"].take(x)
        if aim is not None and aim.any():
            hit = np.where(aim[:, None], sl["hit_aimed"].take(x), hit)
        score = hit * val
        best = score.argmax(1)
        ar = np.arange(idx.size)
        top = score[ar, best]
        grenade = None
        if bt.grenades and personal:
            gscore = bt.GHITX.take(x) * bt.VAL_grenade.take(eval_idx if whole else eval_idx[idx])
            gbest = gscore.argmax(1)
            gtop = gscore[ar, gbest] - bt.e_grenade_risk[el]
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
        df = np.clip(np.abs(x[f, best[f]] - D), 1, D)  # the distance to the chosen target
        S.fired[bf, plat] += 1
        if bt.ammo_limited and not personal:
            S.ammo[bf, plat] = np.maximum(0, S.ammo[bf, plat] - sl["cost"])
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
            t_arm = _armour(bt, S, bg, tg) + (bt.e_cover[tg] if bt.blast_cover else 0)
            s_arm = np.full(bg.size, bt.e_armour[el] + (bt.e_cover[el] if bt.blast_cover else 0))
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
            eval_idx[rs, cs - e0] = bt.col_T[cs] + S.tstate[b[rs], cs]
            rows = rows[~simple]
            if rows.size:
                eadv[rows] = S.adv[b[rows], e0:e1]
                eval_idx[rows] = col_t + S.tstate[b[rows], e0:e1]


def _armour(bt: Battle, S: _State, b, j) -> np.ndarray:
    """Бр of a soldier; Броня (the current strength) of a vehicle or gun."""
    return np.where(bt.e_kind[j] == SOLDIER, bt.e_armour[j], S.strength[b, j]).astype(np.int32)


def _melee(bt: Battle, S: _State, rng, b, plan, attack, side: int) -> None:
    """Each attacking element picks the touching enemy with the highest P(win) x expected cost removed."""
    e0, e1 = bt.side_cols[1 - side]
    mc = bt.machine_cols[1 - side]  # enemy vehicles and guns, relative to e0
    sv = plan.melee_value[1 - side]  # [members, enemies]: static value of attacking each enemy soldier
    e_soldier = bt.e_kind[e0:e1] == SOLDIER
    mkind = bt.e_kind[e0:e1][mc]
    m_melee = bt.e_melee[e0:e1][mc]
    per_point = (bt.e_cost[e0:e1] / bt.e_smax[e0:e1])[mc]
    ppd = bt.e_ppd[e0:e1][mc]
    rows = np.flatnonzero(attack.any(1))
    b = b[rows]
    attack = attack[rows]
    eadv = S.adv[b, e0:e1]
    ets = S.tstate[b, e0:e1]
    ok_target = (ets > 0) & ~S.flying[b, e0:e1]
    for m in range(attack.shape[1]):
        k = np.flatnonzero(attack[:, m])
        if not k.size:
            continue
        el = plan.c0 + m
        bk = b[k]
        if plan.vehicle:
            live = (S.pstate[bk, el] == ABOARD) & ~S.flying[bk, el] & S.alive[bk, el]
            bonus = S.strength[bk, el].astype(np.int32) + plan.melee[m]  # Table 6: Д6 + Броня + ББ
        else:
            live = S.alive[bk, el]
            bonus = np.full(k.size, plan.melee[m])  # Table 6: Д6 + ББ
        k, bk, bonus = k[live], bk[live], bonus[live]
        if not k.size:
            continue
        pos = S.adv[bk, el].astype(np.int32)
        touching = ok_target[k] & (eadv[k] == (bt.D - pos)[:, None])
        if not touching.any():
            continue
        manning = ets[k] == 2
        if plan.vehicle:
            fixed_s = bt.e_armour[e0:e1][None, :]
            p_win = bt.MWIN[np.clip(bonus[:, None] - fixed_s + bt.MOFF, 0, 2 * bt.MOFF)]
            score = np.where(e_soldier, p_win, 0.0) * (bt.e_worth[e0:e1] + np.where(manning, bt.e_gun_cost[e0:e1], 0))
        else:
            score = np.where(manning, sv[1][m], sv[0][m])
        if mc.size and touching[:, mc].any():
            strength = S.strength[bk[:, None], mc + e0].astype(np.int32)
            piloted = (mkind == VEHICLE) & (S.pstate[bk[:, None], mc + e0] == ABOARD)
            fixed = np.where(piloted, strength + m_melee, strength)
            delta = np.clip(bonus[:, None] - fixed + bt.MOFF, 0, 2 * bt.MOFF)
            p_win = np.where(piloted, bt.MWIN[delta], bt.MFLAT[delta])
            margin = np.where(piloted, bt.MEXP[delta], bt.MEXPF[delta])
            score[:, mc] = per_point * margin + np.where(piloted, p_win * ppd * per_point * strength, 0)
        score = np.where(touching, score, 0)
        best = score.argmax(1)
        go = score[np.arange(k.size), best] > 0
        if not go.any():
            continue
        kg, bg, tb, bonus = k[go], bk[go], best[go], bonus[go]
        tgt = tb + e0
        soldier_t = bt.e_kind[tgt] == SOLDIER
        strength_t = S.strength[bg, tgt].astype(np.int32)
        piloted_t = (bt.e_kind[tgt] == VEHICLE) & (S.pstate[bg, tgt] == ABOARD)
        fixed_t = np.where(soldier_t, bt.e_armour[tgt], np.where(piloted_t, strength_t + bt.e_melee[tgt], strength_t))
        atk, dfc = roll_melee(rng, bonus, fixed_t, ~soldier_t & ~piloted_t)
        won = atk > dfc
        dmg = np.where(soldier_t, 1, atk - dfc).astype(np.int16)
        changed = apply_damage(bt, S, rng, bg[won], tgt[won], dmg[won], cause="melee")
        if changed.any():
            r, cols = kg[won][changed], tgt[won][changed]
            simple = bt.e_plain[cols]
            ets[r[simple], cols[simple] - e0] = 0
            ok_target[r[simple], cols[simple] - e0] = False
            r = r[~simple]
            if r.size:
                eadv[r] = S.adv[b[r], e0:e1]
                ets[r] = S.tstate[b[r], e0:e1]
                ok_target[r] = (ets[r] > 0) & ~S.flying[b[r], e0:e1]


def _check_end(bt: Battle, S: _State, b: np.ndarray, rnd: int) -> None:
    """A side with no soldier on the field loses at once (§3.15); both at once is a draw."""
    alive_a = S.count[b, 0] > 0
    alive_b = S.count[b, 1] > 0
    over = ~(alive_a & alive_b)
    if not over.any():
        return
    bo = b[over]
    S.done[bo] = True
    S.rounds[bo] = rnd
    S.outcome[bo] = np.where(alive_a[over], OUTCOME_A, np.where(alive_b[over], OUTCOME_B, OUTCOME_DRAW))


def _round_start(bt: Battle, S: _State, rnd: int) -> None:
    S.fired[:] = 0
    S.rnd = rnd
    S.panicked[:] = False
    if bt.panic or bt.pilot_cols.size:  # panics end; re-boarded vehicles may act again
        _refresh_all(bt, S)
    if not bt.pilot_cols.size:
        return
    p, v = bt.pilot_cols, bt.e_pilot_of[bt.pilot_cols]
    back = S.alive[:, p] & ~S.aboard[:, p] & (S.pstate[:, v] == DISMOUNTED) & S.alive[:, v]
    if not back.any():
        return
    rows, k = np.nonzero(back)
    pk, vk = p[k], v[k]
    S.aboard[rows, pk] = True
    S.pstate[rows, vk] = ABOARD
    S.act_from[rows, vk] = rnd + (1 if bt.captured_next else 0)
    S.flying[rows, vk] = bt.e_flyer[vk]
    S.adv[rows, pk] = S.adv[rows, vk]
    _refresh(bt, S, rows, pk)
    _refresh(bt, S, rows, vk)


def _battle(bt: Battle, S: _State, rng, emit) -> None:
    for rnd in range(1, bt.params.rounds + 1):
        if S.done.any():
            emit(S, S.done)
            S.keep(np.flatnonzero(~S.done))
        n = S.done.size
        if n == 0:
            return
        _round_start(bt, S, rnd)
        if rnd == 1 and bt.params.initiative in ("a", "b"):
            first = np.full(n, 0 if bt.params.initiative == "a" else 1, np.int8)
        else:
            first = roll_initiative(rng, n)
        activated = np.zeros((n, bt.U), bool)
        idle = 0
        for t in range(2 * bt.U + 2):
            acted = False
            for side in (0, 1):
                b = np.flatnonzero(((first ^ (t & 1)) == side) & ~S.done)
                if not b.size:
                    continue
                u0, u1 = bt.u_range[side]
                can = _can_act(bt, S, b, side) & ~activated[b, u0:u1]
                has = can.any(1)
                if not has.any():
                    continue
                b = b[has]
                u = can[has].argmax(1) + u0
                activated[b, u] = True
                for unit in np.unique(u):  # battles activating the same unit run together: static columns
                    _turn(bt, S, rng, b[u == unit], bt.plans[unit], side, rnd)
                _check_end(bt, S, b, rnd)
                acted = True
            idle = 0 if acted else idle + 1
            if idle >= 2:
                break
    S.rounds[~S.done] = bt.params.rounds
    S.outcome[~S.done] = OUTCOME_DRAW
    emit(S, np.ones(S.done.size, bool))


def surviving_cost(bt: Battle, S: _State, rows) -> tuple[np.ndarray, np.ndarray]:
    """Squads pro rata of living soldiers; vehicles cost x strength/max while they have a living pilot; guns
    cost x strength/max while not destroyed."""
    alive = S.alive[rows]
    kind = bt.e_kind
    share = S.strength[rows] / bt.e_smax
    worth = np.where(
        kind == SOLDIER,
        bt.e_keep,
        bt.e_cost * share * np.where(kind == VEHICLE, S.pstate[rows] != NO_PILOT, True),
    )
    worth = np.where(alive, worth, 0.0)
    return worth[:, : bt.nA].sum(1), worth[:, bt.nA : bt.N].sum(1)


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
