"""The same battle model with plain Python loops, one battle at a time.

It mirrors engine.py step by step (same phases, same target policy, same lookup tables read as Python lists) and
exists for two reasons: tests hold the vectorised engine's outcome frequencies against it, and the benchmark
measures how much numpy gains over it. It rolls with `random.Random`, so the dice differ, not the model.
"""

from __future__ import annotations

import random

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
    PERSONAL,
    SOLDIER,
    SURVIVED,
    VEHICLE,
    Battle,
    _survival_table,
    blast_armour,
)


class _Static:
    """The compiled battle's arrays as Python lists (indexing numpy scalars one by one would be unfair)."""

    def __init__(self, bt: Battle):
        self.bt = bt
        for name in (
            "e_kind",
            "e_side",
            "e_worth",
            "e_keep",
            "e_gun_cost",
            "e_cost",
            "e_armour",
            "e_melee",
            "e_smax",
            "e_rof",
            "e_ammo",
            "e_flyer",
            "e_cover",
            "e_pilot",
            "e_crew",
            "e_pilot_of",
            "e_crew_of",
            "e_soldier_speed",
            "e_preach",
            "e_hold_reach",
            "e_ppd",
            "e_repair",
            "e_reach",
            "e_grenade_risk",
            "e_rm",
            "e_dormant",
            "e_twin",
            "w_rfaces",
            "w_rmod",
            "w_count",
            "w_faces",
            "w_per_die",
            "w_blast_steps",
            "w_blast_count",
            "w_blast_faces",
            "w_blast_per_die",
            "MWIN",
            "MFLAT",
            "MEXP",
            "MEXPF",
            "GHIT",
        ):
            setattr(self, name, getattr(bt, name).tolist())
        self.e_speed = bt.e_speed.tolist()
        self.HIT = bt.HIT.astype(np.float32).tolist()  # the engine scores with float32 tables
        self.VAL = bt.VAL32.tolist()
        self.units = [[m for m in row if m != bt.DUMMY] for row in bt.u_members.tolist()]
        self.slots = [
            [(int(m), int(w), int(k)) for m, w, k in zip(ms, ws, ks, strict=True) if m >= 0]
            for ms, ws, ks in zip(bt.slot_member.tolist(), bt.slot_weapon.tolist(), bt.slot_kind.tolist(), strict=True)
        ]
        self.surv = _survival_table(bt.sfaces, bt.panic).tolist()
        self.capture_cols = list(bt.capture_cols)
        self.cap_own = {c: v.tolist() for c, v in bt.cap_own.items()}
        self.cap_enemy = {c: v.tolist() for c, v in bt.cap_enemy.items()}


class _Game:
    def __init__(self, st: _Static, rnd: random.Random):
        bt = st.bt
        self.st, self.bt, self.r = st, bt, rnd.random
        n = bt.N
        self.adv = [0] * n
        self.alive = [not st.e_dormant[i] for i in range(n)]  # twins wait off the field (capture)
        self.pilot = st.e_pilot[:n]  # a vehicle's pilot of the moment
        self.pilot_of = st.e_pilot_of[:n]  # a soldier's vehicle of the moment
        self.strength = [0 if st.e_kind[i] == SOLDIER else st.e_smax[i] for i in range(n)]
        self.ammo = st.e_ammo[:n]
        self.refills = [int(bt.settings["ammo_refreshes"])] * n
        self.pstate, self.flying, self.aboard = [], [], []
        for i in range(n):
            kind = st.e_kind[i]
            has = (st.e_pilot[i] if kind == VEHICLE else st.e_crew[i]) != bt.DUMMY
            self.pstate.append(ABOARD if kind == SOLDIER or has else NO_PILOT)
            self.flying.append(bool(st.e_flyer[i] and has))
            self.aboard.append(kind == SOLDIER and st.e_pilot_of[i] != bt.DUMMY)
        self.act_from = [0] * n
        self.panicked = [False] * n
        self.fired = [0] * n

    def d(self, faces: int) -> int:
        return int(self.r() * faces) + 1

    # -- state helpers --
    def tstate(self, j: int) -> int:
        st = self.st
        if not self.alive[j]:
            return 0
        kind = st.e_kind[j]
        if kind == SOLDIER:
            if self.aboard[j]:
                return 0
            gun = st.e_crew_of[j]
            manning = gun != self.bt.DUMMY and self.alive[gun] and self.pstate[gun] == ABOARD
            return 2 if manning else 1
        if self.pstate[j] == ABOARD:
            return self.strength[j]
        if self.pstate[j] == DISMOUNTED and kind == VEHICLE:
            return self.bt.SM1 + self.strength[j]
        return 0

    def front(self, side: int) -> int:
        c0, c1 = self.bt.side_cols[side]
        best = -1
        for j in range(c0, c1):
            if not self.alive[j]:
                continue
            kind = self.st.e_kind[j]
            if (kind == SOLDIER and not self.aboard[j]) or (
                kind == VEHICLE and self.pstate[j] == ABOARD and not self.flying[j]
            ):
                best = max(best, self.adv[j])
        return best

    def can_act(self, el: int, rnd: int) -> bool:
        kind = self.st.e_kind[el]
        if not self.alive[el]:
            return False
        if kind == SOLDIER:
            return not self.aboard[el] and not (self.bt.panic_ends and self.panicked[el])
        if kind == VEHICLE:
            return self.pstate[el] == ABOARD and self.act_from[el] <= rnd
        return False

    def armour(self, j: int) -> int:
        return self.st.e_armour[j] if self.st.e_kind[j] == SOLDIER else self.strength[j]

    # -- damage --
    def kill(self, j: int) -> None:
        st, dummy = self.st, self.bt.DUMMY
        self.alive[j] = False
        gun = st.e_crew_of[j]
        if gun != dummy:
            self.pstate[gun] = NO_PILOT
        veh = self.pilot_of[j]
        if veh != dummy and self.pstate[veh] == DISMOUNTED:
            self.pstate[veh] = NO_PILOT

    def panic(self, j: int) -> None:
        st = self.st
        self.panicked[j] = True
        new = self.adv[j] - st.e_soldier_speed[j]
        self.adv[j] = max(new, 0)
        if st.e_crew_of[j] != self.bt.DUMMY and new >= 0:
            self.pstate[st.e_crew_of[j]] = NO_PILOT
        if new < 0:
            self.kill(j)

    def survival(self, armour: int) -> int:
        return self.st.surv[min(max(armour, 0), 20)][self.d(self.bt.sfaces)]

    def damage(self, j: int, dmg: int, cause: str) -> None:
        if dmg <= 0:
            return
        st, bt = self.st, self.bt
        if st.e_kind[j] == SOLDIER:
            if bt.infantry_test and cause != "melee":  # A24: shots, blasts and grenades; melee kills
                code = self.survival(st.e_armour[j])
                if code == PANICKED:
                    self.panic(j)
                elif code == KILLED:
                    self.kill(j)
            else:
                self.kill(j)
            return
        aboard = st.e_kind[j] == VEHICLE and self.pstate[j] == ABOARD
        pilot = self.pilot[j]
        after = max(0, self.strength[j] - dmg)
        code = -1
        if aboard:
            code = self.survival(st.e_armour[pilot])
            if code == KILLED and self.flying[j] and after > 0:
                after = max(0, after - self.d(tables.EMERGENCY_LANDING_FACES))
        self.strength[j] = after
        if code == KILLED:
            self.pstate[j] = NO_PILOT
            self.flying[j] = False
            self.kill(pilot)
        if code == PANICKED or (after == 0 and aboard and code == SURVIVED):
            self.aboard[pilot] = False
            self.adv[pilot] = self.adv[j]
            self.pstate[j] = DISMOUNTED if after > 0 else NO_PILOT
            if bt.panic_lands:
                self.flying[j] = False
            if code == PANICKED:
                self.panic(pilot)
        if after == 0:
            self.alive[j] = False
            self.pstate[j] = NO_PILOT
            self.flying[j] = False

    # -- a turn --
    def turn(self, u: int, side: int, rnd: int) -> None:
        st, bt, D = self.st, self.bt, self.bt.D
        members = st.units[u]
        front = self.front(1 - side)
        lim = D - max(front, 0)
        plan = []
        for el in members:
            acts = self.can_act(el, rnd)
            kind = st.e_kind[el]
            a0 = self.adv[el]
            flying = kind == VEHICLE and self.flying[el]
            gap = lim - a0
            contact = acts and not flying and front >= 0 and gap <= 0
            gun = st.e_crew_of[el]
            manning = gun != bt.DUMMY and self.alive[gun] and self.pstate[gun] == ABOARD
            spd = 0 if manning else st.e_speed[el][self.strength[el]]
            if flying:
                spd *= bt.flyer_moves
            if kind == SOLDIER and bt.obstacles and self.r() < bt.obstacles:  # Table 1, A9: the obstacle's SP
                spd = max(spd - bt.obstacle_sp, 0)
            repair = st.e_repair[el]  # §3.11: engine._repair
            platform = repair == tables.HELIX_REPAIR_AMOUNT
            if (
                acts
                and repair
                and not contact
                and self.strength[el] < st.e_smax[el]
                and (platform or (gap > st.e_reach[el] and st.e_rm[self.pilot[el]]))
            ):
                self.strength[el] = min(self.strength[el] + repair, st.e_smax[el])
                acts = platform  # a «Рм» pilot's repair is the vehicle's whole activation (p.43–44)
            free = acts and not contact
            charge = free and not flying and front >= 0 and spd >= gap and spd > 0
            holds = False
            if bt.hold:
                holds = free and st.e_hold_reach[el] >= gap
                charge = charge and not holds
            move = free and not charge and not holds
            new = min(a0 + spd, lim) if not flying else max(a0, min(a0 + spd, lim - 1))
            aimed = False
            if bt.aimed_on:
                reach = st.e_preach[el]
                gap_after = lim - new if move else gap
                aimed = (
                    (move or holds)
                    and kind == SOLDIER
                    and not manning
                    and front >= 0
                    and 0 < reach < gap_after
                    and 2 * reach >= gap
                )
                move = move and not aimed
            if move:
                self.adv[el] = new
            plan.append((el, acts and not contact, aimed, charge, contact, a0, spd))
        self.shoot(u, side, plan)
        attack = [p[4] for p in plan]
        if any(p[3] for p in plan):
            front2 = self.front(1 - side)
            lim2 = D - max(front2, 0)
            for i, (el, _s, _a, charge, _c, a0, spd) in enumerate(plan):
                if charge and self.alive[el]:
                    self.adv[el] = min(a0 + spd, lim2)
                    attack[i] = attack[i] or (self.adv[el] == lim2 and front2 >= 0)
        for i, (el, *_rest) in enumerate(plan):
            if attack[i]:
                self.melee(el, side)

    def shoot(self, u: int, side: int, plan) -> None:
        st, bt, D = self.st, self.bt, self.bt.D
        c0, c1 = bt.side_cols[1 - side]
        for m, w, kind in st.slots[u]:
            el, shooter, aimed = plan[m][0], plan[m][1], plan[m][2]
            if not shooter:
                continue
            gun = st.e_crew_of[el]
            plat = gun if kind == CREWED_GUN else el
            personal = kind in (PERSONAL, CREW_FALLBACK)
            fired = self.fired[plat]
            can = self.alive[plat] and (fired == 0 if personal else fired < st.e_rof[plat])
            if kind == CREWED_GUN and self.pstate[plat] != ABOARD:
                can = False
            if kind == CREW_FALLBACK and self.fired[gun] != 0:
                can = False
            cost = st.w_count[w]
            if bt.ammo_limited and not personal:
                short = self.ammo[plat] <= 0 or (bt.strict_ammo and self.ammo[plat] < cost)
                if short and self.refills[plat] > 0:
                    self.ammo[plat] = st.e_ammo[plat]
                    self.refills[plat] -= 1
                    short = False
                can = can and not short
            aim = personal and aimed
            pos = self.adv[el]
            hit_row = st.HIT[w + (bt.W if aim else 0)]
            val_w = st.VAL[w]
            best, top, best_d = -1, 0.0, 0
            gbest, gtop = -1, 0.0
            for j in range(c0, c1):
                d = min(max(abs(D - pos - self.adv[j]), 1), D)
                t = self.tstate(j)
                score = hit_row[d] * val_w[j][t]
                if score > top:
                    best, top, best_d = j, score, d
                if bt.grenades:
                    gs = st.GHIT[d] * st.VAL[bt.W][j][t]
                    if gs > gtop or gbest < 0:
                        gbest, gtop, gd = j, gs, d
            grenade = False
            if bt.grenades and personal and not aim and gbest >= 0:
                gtop -= st.e_grenade_risk[el]
                if gtop > top and gtop > 0:
                    grenade, best, top, best_d = True, gbest, gtop, gd
            if not (can and top > 0):
                continue
            self.fired[plat] += 1
            if bt.ammo_limited and not personal:
                self.ammo[plat] = max(0, self.ammo[plat] - cost)
            if not grenade:
                reach = self.d(st.w_rfaces[w]) + st.w_rmod[w]
                if aim:
                    reach *= 2
                if reach < best_d:
                    continue
                armour = self.armour(best) + st.e_cover[best]
                dmg = sum(1 for _ in range(st.w_count[w]) if self.d(st.w_faces[w]) + st.w_per_die[w] > armour)
                steps = st.w_blast_steps[w]
                if steps:  # §7.4 IV: engine/combat.py _blast
                    if bt.blast_hits_target:
                        t_arm = blast_armour(self.armour(best), st.e_cover[best], bt.blast_cover)
                        dmg += self.blast_damage(w, t_arm)
                    victims = self.blast_victims(best, steps)
                self.damage(best, dmg, "shot")
                if steps:
                    for j in victims:
                        if self.alive[j]:
                            arm = blast_armour(self.armour(j), st.e_cover[j], bt.blast_cover)
                            self.damage(j, self.blast_damage(w, arm), "blast")
            else:
                burst = self.d(tables.GRENADE_RANGE_FACES)
                n_g, f_g = tables.GRENADE_POWER
                t_arm = blast_armour(self.armour(best), st.e_cover[best], bt.blast_cover)
                s_arm = blast_armour(st.e_armour[el], st.e_cover[el], bt.blast_cover)
                dmg_t = sum(1 for _ in range(n_g) if self.d(f_g) > t_arm)
                dmg_s = sum(1 for _ in range(n_g) if self.d(f_g) > s_arm)
                if abs(burst - best_d) <= tables.GRENADE_BLAST_STEPS:
                    self.damage(best, dmg_t, "grenade")
                if burst <= tables.GRENADE_BLAST_STEPS:
                    self.damage(el, dmg_s, "grenade")

    def blast_victims(self, t: int, steps: int) -> list[int]:
        """Every other element on the field within `steps` of the target, by the model's distances."""
        st, D = self.st, self.bt.D
        side, pos = st.e_side[t], self.adv[t]
        out = []
        for j in range(self.bt.N):
            if j == t or not self.alive[j] or self.aboard[j]:
                continue
            dist = abs(self.adv[j] - pos) if st.e_side[j] == side else abs(D - self.adv[j] - pos)
            if dist <= steps:
                out.append(j)
        return out

    def blast_damage(self, w: int, armour: int) -> int:
        st = self.st
        faces, per_die = st.w_blast_faces[w], st.w_blast_per_die[w]
        return sum(1 for _ in range(st.w_blast_count[w]) if self.d(faces) + per_die > armour)

    def melee(self, el: int, side: int) -> None:
        st, bt = self.st, self.bt
        if not self.alive[el]:
            return
        akind = st.e_kind[el]
        if akind != SOLDIER and (self.pstate[el] != ABOARD or self.flying[el]):
            return
        c0, c1 = bt.side_cols[1 - side]
        pos = self.adv[el]
        bonus = self.strength[el] + st.e_melee[el] if akind == VEHICLE else st.e_melee[el]
        best, top, best_fixed, best_flat = -1, 0.0, 0, False
        for j in range(c0, c1):
            if bt.D - pos - self.adv[j] != 0 or self.tstate(j) <= 0 or self.flying[j]:
                continue
            kind = st.e_kind[j]
            s = self.strength[j]
            piloted = kind == VEHICLE and self.pstate[j] == ABOARD
            flat = kind != SOLDIER and not piloted
            fixed = st.e_armour[j] if kind == SOLDIER else (s + st.e_melee[j] if piloted else s)
            delta = min(max(bonus - fixed + bt.MOFF, 0), 2 * bt.MOFF)
            p_win = st.MFLAT[delta] if flat else st.MWIN[delta]
            if kind == SOLDIER:
                crewing = self.tstate(j) == 2
                value = p_win * (st.e_worth[j] + (st.e_gun_cost[j] if crewing else 0.0))
            else:
                per_point = st.e_cost[j] / st.e_smax[j]
                value = per_point * (st.MEXPF[delta] if flat else st.MEXP[delta])
                if piloted:
                    value += p_win * st.e_ppd[j] * per_point * s
            if value > top:
                best, top, best_fixed, best_flat = j, value, fixed, flat
        if best < 0:
            return
        die = self.d(tables.MELEE_FACES)
        surprise = bt.surprise and self.r() < bt.surprise
        if surprise:  # two d6, the higher (p.41); a piloted vehicle defends without its ББ (Рис.52)
            die = max(die, self.d(tables.MELEE_FACES))
            if st.e_kind[best] == VEHICLE and not best_flat:
                best_fixed -= st.e_melee[best]
        attack = die + bonus
        d_die = self.d(tables.MELEE_FACES)
        defence = best_fixed if best_flat else d_die + best_fixed
        if attack > defence:
            self.damage(best, 1 if st.e_kind[best] == SOLDIER else attack - defence, "melee")

    # -- capture (§3.12, p.42; A11): engine/capture.py --
    def able(self, cand: list[int], vehicle: int, enemy: bool) -> int | None:
        st, D = self.st, self.bt.D
        for s in cand:
            gun = st.e_crew_of[s]
            manning = gun != self.bt.DUMMY and self.alive[gun] and self.pstate[gun] == ABOARD
            steps = abs(D - self.adv[s] - self.adv[vehicle]) if enemy else abs(self.adv[s] - self.adv[vehicle])
            if self.alive[s] and not self.aboard[s] and not manning and steps <= st.e_soldier_speed[s]:
                return s
        return None

    def board(self, v: int, s: int, rnd: int) -> None:
        self.pilot[v], self.pilot_of[s], self.aboard[s], self.adv[s] = s, v, True, self.adv[v]
        self.pstate[v] = ABOARD
        self.act_from[v] = rnd + (1 if self.bt.captured_next else 0)
        self.flying[v] = bool(self.st.e_flyer[v])

    def capture(self, first: int, rnd: int) -> None:
        st = self.st
        for c in st.capture_cols:
            if not (self.alive[c] and self.pstate[c] == NO_PILOT):
                continue
            own = self.able(st.cap_own[c], c, False)
            enemy = self.able(st.cap_enemy[c], c, True)
            if own is not None and (first == st.e_side[c] or enemy is None):
                self.board(c, own, rnd)
            elif enemy is not None:
                t = st.e_twin[c]
                self.strength[t], self.ammo[t], self.refills[t] = self.strength[c], self.ammo[c], self.refills[c]
                self.adv[t] = self.bt.D - self.adv[c]
                self.alive[t], self.alive[c] = True, False
                self.board(t, enemy, rnd)

    def over(self) -> int | None:
        bt = self.bt
        a = any(self.alive[j] for j in bt.soldier_cols[0].tolist())
        b = any(self.alive[j] for j in bt.soldier_cols[1].tolist())
        if a and b:
            return None
        return OUTCOME_A if a else OUTCOME_B if b else OUTCOME_DRAW

    def surviving(self) -> tuple[float, float]:
        st, bt = self.st, self.bt
        out = [0.0, 0.0]
        for j in range(bt.N):
            if not self.alive[j]:
                continue
            kind = st.e_kind[j]
            if kind == SOLDIER:
                worth = st.e_keep[j]
            elif kind == VEHICLE and self.pstate[j] == NO_PILOT:
                worth = 0.0
            else:
                worth = st.e_cost[j] * self.strength[j] / st.e_smax[j]
            out[st.e_side[j]] += worth
        return out[0], out[1]

    def play(self) -> tuple[int, int]:
        st, bt = self.st, self.bt
        for rnd in range(1, bt.params.rounds + 1):
            self.fired = [0] * bt.N
            self.panicked = [False] * bt.N
            for p in bt.pilot_cols.tolist():
                v = self.pilot_of[p]
                if (
                    v != bt.DUMMY
                    and self.alive[p]
                    and not self.aboard[p]
                    and self.pstate[v] == DISMOUNTED
                    and self.alive[v]
                ):
                    self.aboard[p] = True
                    self.pstate[v] = ABOARD
                    self.act_from[v] = rnd + (1 if bt.captured_next else 0)
                    self.flying[v] = bool(st.e_flyer[v])
                    self.adv[p] = self.adv[v]
            if rnd == 1 and bt.params.initiative in ("a", "b"):
                first = 0 if bt.params.initiative == "a" else 1
            else:
                while True:
                    a, b = self.d(tables.INITIATIVE_FACES), self.d(tables.INITIATIVE_FACES)
                    if a != b:
                        first = int(b > a)
                        break
            self.capture(first, rnd)
            activated: set[int] = set()
            idle = 0
            for t in range(2 * bt.U + 2):
                side = first ^ (t & 1)
                u0, u1 = bt.u_range[side]
                unit = next(
                    (
                        u
                        for u in range(u0, u1)
                        if u not in activated and any(self.can_act(el, rnd) for el in st.units[u])
                    ),
                    None,
                )
                if unit is None:
                    idle += 1
                    if idle >= 2:
                        break
                    continue
                idle = 0
                activated.add(unit)
                self.turn(unit, side, rnd)
                result = self.over()
                if result is not None:
                    return result, rnd
        return OUTCOME_DRAW, bt.params.rounds


def run_reference(bt: Battle, n: int, seed: int) -> dict:
    st = _Static(bt)
    rnd = random.Random(seed)
    outcome, rounds, surv_a, surv_b = [], [], [], []
    for _ in range(n):
        game = _Game(st, rnd)
        result, played = game.play()
        a, b = game.surviving()
        outcome.append(result)
        rounds.append(played)
        surv_a.append(a)
        surv_b.append(b)
    return {
        "outcome": np.array(outcome, np.int8),
        "rounds": np.array(rounds, np.int16),
        "surviving_a": np.array(surv_a),
        "surviving_b": np.array(surv_b),
    }


Battle.reference_runner = staticmethod(run_reference)
