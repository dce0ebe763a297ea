"""Shooting (§3.7, §7.4 I–III, grenades) and melee (§3.9, Tables 6–7) in the vectorised engine."""

from __future__ import annotations

import numpy as np

from rules.systems.bronepekhota.simulate.engine.damage import apply_damage
from rules.systems.bronepekhota.simulate.engine.state import _State
from rules.systems.bronepekhota.simulate.model import (
    ABOARD,
    CREW_FALLBACK,
    CREWED_GUN,
    SOLDIER,
    VEHICLE,
    Battle,
    blast_armour,
    roll_dice,
    roll_melee,
    roll_power_damage,
    roll_range,
)
from rules.systems.bronepekhota.tables import GRENADE_BLAST_STEPS, GRENADE_POWER, GRENADE_RANGE_FACES


def _best(keys: np.ndarray, mask: int) -> tuple[np.ndarray, np.ndarray]:
    """Per battle: the enemy with the highest key ([enemy, battle] int64 keys, see Battle.score_keys) and his
    score (the key with its rank bits cleared, read back as the float64 it is)."""
    top = keys.max(0)
    return mask - (top & mask), (top & ~mask).view(np.float64)


def _shoot(bt: Battle, S: _State, rng, b, plan, shooter, aimed, side: int, eadv: np.ndarray, ecols) -> None:
    """`eadv`: the enemy's advances over his columns `ecols` (state.side_extent) in battles b."""
    D = bt.D
    mask = bt.key_mask
    e0, e1 = ecols
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
        wide = None  # shots whose blast may have changed any column: their battles are gathered again
        g = grenade[f] if grenade is not None else None
        o = np.ones(f.size, bool) if g is None else ~g
        if o.any():
            bo, to = bf[o], tgt[o]
            _, hit_ok = roll_range(rng, sl["rfaces"], sl["rmod"], df[o], False if aim is None else aim[f][o])
            armour_t = _armour(bt, S, bo, to)
            armour = armour_t + bt.e_cover[to]
            dmg = roll_power_damage(rng, sl["count"], sl["faces"], sl["per_die"], armour) * hit_ok
            blast = sl["blast"] if hit_ok.any() else None
            if blast is not None:
                steps, n_b, f_b, m_b = blast
                if bt.blast_hits_target:  # A6 on: the blast's pool joins the shot's, one pilot test (p.33)
                    t_arm = blast_armour(armour_t, bt.e_cover[to], bt.blast_cover)
                    dmg = dmg + roll_power_damage(rng, n_b, f_b, m_b, t_arm) * hit_ok
                bh = np.flatnonzero(hit_ok)
                victims = _blast_victims(bt, S, bo[bh], to[bh], steps)  # where they stand when it explodes
            changed[o] = apply_damage(bt, S, rng, bo, to, dmg, cause="shot")
            if blast is not None:
                _blast(bt, S, rng, bo[bh], victims, blast)
                wide = np.zeros(f.size, bool)
                wide[np.flatnonzero(o)[bh]] = True
                changed |= wide
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
            if wide is not None:
                simple &= ~wide[changed]
            rs, cs = rows[simple], cols[simple]
            base[cs - e0, rs] = bt.e_keyrow[cs] - eadv[cs - e0, rs]  # his key row at target state 0
            rows = rows[~simple]
            if rows.size:
                br = b[rows]
                eadv[:, rows] = S.adv[e0:e1].take(br, axis=1)
                base[:, rows] = S.tkey[e0:e1].take(br, axis=1) - eadv[:, rows]


def _blast_victims(bt: Battle, S: _State, b: np.ndarray, t: np.ndarray, steps: int) -> np.ndarray:
    """§7.4 IV, A6: [column, battle] mask of the elements a blast on targets t (one per battle b) attacks: every
    other element on the field, of either side, the shooter too, within `steps` of the target by the model's
    distances (along the line between the deployment lines: no map says who stands beside whom)."""
    n = bt.N
    adv = S.adv[:n].take(b, axis=1).astype(np.int32)
    tadv = S.adv[t, b].astype(np.int32)
    same = bt.e_side[:n, None] == bt.e_side[t][None, :]
    dist = np.where(same, np.abs(adv - tadv), np.abs(bt.D - adv - tadv))
    mask = (dist <= steps) & S.alive[:n].take(b, axis=1) & ~S.aboard[:n].take(b, axis=1)  # pilots aboard: no
    mask[t, np.arange(b.size)] = False  # the target took the shot (and the blast's pool with A6 on)
    return mask


def _blast(bt: Battle, S: _State, rng, b: np.ndarray, victims: np.ndarray, blast: tuple) -> None:
    """Each victim, in column order, is attacked with the blast pool: §7.4 II–III of its own (one pilot test
    each), against its armour, with cover only under blast_cover (as the resolver, actions/virtual_shot.py)."""
    _steps, count, faces, per_die = blast
    for j in np.flatnonzero(victims.any(1)):
        bj = b[victims[j]]
        bj = bj[S.alive[j].take(bj)]
        if not bj.size:
            continue
        jj = np.full(bj.size, j)
        armour = blast_armour(_armour(bt, S, bj, jj), int(bt.e_cover[j]), bt.blast_cover)
        dmg = roll_power_damage(rng, count, faces, per_die, armour)
        apply_damage(bt, S, rng, bj, jj, dmg, cause="blast")


def _armour(bt: Battle, S: _State, b, j) -> np.ndarray:
    """Бр of a soldier; Броня (the current strength) of a vehicle or gun."""
    return np.where(bt.e_kind[j] == SOLDIER, bt.e_armour[j], S.strength[j, b]).astype(np.int32)


def _melee(bt: Battle, S: _State, rng, b, plan, attack, side: int, ecols) -> None:
    """Each attacking element picks the touching enemy with the highest P(win) x expected cost removed (the keys
    of Battle.melee_keys, by enemy, his target state and the attack bonus), among the enemy's columns `ecols`."""
    e0, e1 = ecols
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
