"""The compiled battle: static arrays and lookup tables shared by engine.py and reference.py."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from rules.errors import RuleInputError
from rules.i18n import _
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.simulate.model.capture import add_twins, compile_capture
from rules.systems.bronepekhota.simulate.model.forces import Force, Weapon
from rules.systems.bronepekhota.simulate.model.params import (
    CREW_FALLBACK,
    CREWED_GUN,
    PERSONAL,
    SOLDIER,
    VEHICLE,
    VEHICLE_GUN,
    BattleParams,
    resolve_settings,
)


# The compiled battle -------------------------------------------------------------------------------------
class Battle:
    """Two forces, the parameters and the settings, compiled into the static arrays and lookup tables the
    vectorised engine (`run`) and the plain-Python reference (`run_python`) share."""

    def __init__(
        self,
        side_a: list[dict],
        side_b: list[dict],
        params: BattleParams,
        settings: dict | None = None,
        *,
        stand_ins: bool = False,
    ):
        self.params = params.check()
        self.settings = resolve_settings(settings)
        st = self.settings
        self.forces = [
            Force(side_a, side=0, settings=st, stand_ins=stand_ins),
            Force(side_b, side=1, settings=st, stand_ins=stand_ins),
        ]
        self.warnings = [
            _("Side {side}: {warning}").format(side="AB"[f.side], warning=w) for f in self.forces for w in f.warnings
        ]
        self.cost = np.array([self.forces[0].cost, self.forces[1].cost])
        add_twins(self.forces)  # capture (§3.12): a vehicle the enemy could take has a copy on the enemy's side
        els_a, els_b = self.forces[0].elements(), self.forces[1].elements()
        if not els_a or not els_b:
            raise RuleInputError({"roster_a" if not els_a else "roster_b": _("This army has no units.")})
        # columns: every element of the engines, the twins of capture included; els: those of the rosters
        self.columns = els_a + els_b
        for i, el in enumerate(self.columns):
            el.index = i
        self.els = [el for el in self.columns if not el.dormant]
        self.nA, self.N = len(els_a), len(self.columns)
        self.DUMMY = self.N  # an always-dead column that pads member and link arrays
        self.units = self.forces[0].units + self.forces[1].units
        self.uA = len(self.forces[0].units)
        self._compile_elements()
        compile_capture(self)
        self._compile_units()
        self._compile_tables()
        self._compile_flags()

    # -- static element data --
    def _compile_elements(self) -> None:
        st, N1 = self.settings, self.N + 1
        covers = [
            tables.cover_bonus(c, exactly_half_bonus=int(st["cover_exactly_half"]))
            for c in (self.params.cover_a, self.params.cover_b)
        ]
        self.SM1 = max([e.strength_max for e in self.columns] + [1]) + 1
        z = np.zeros
        self.e_kind = z(N1, np.int8)
        self.e_side = z(N1, np.int8)
        self.e_worth = z(N1)  # worth as a target (soldiers: squad cost / soldiers; stand-ins: their machine)
        self.e_keep = z(N1)  # share of the surviving cost while alive (stand-ins: 0)
        self.e_gun_cost = z(N1)  # a crew soldier: the cost of his gun (worth more while he mans it)
        self.e_cost = z(N1)
        self.e_armour = z(N1, np.int16)
        self.e_melee = z(N1, np.int16)
        self.e_smax = np.ones(N1, np.int16)
        self.e_rof = z(N1, np.int16)
        self.e_ammo = z(N1, np.int16)
        self.e_flyer = z(N1, bool)
        self.e_cover = z(N1, np.int16)
        self.e_pilot = np.full(N1, self.DUMMY, np.int32)
        self.e_crew = np.full(N1, self.DUMMY, np.int32)
        self.e_pilot_of = np.full(N1, self.DUMMY, np.int32)
        self.e_crew_of = np.full(N1, self.DUMMY, np.int32)
        self.e_soldier_speed = z(N1, np.int16)
        self.e_preach = z(N1, np.int16)  # reach of the personal weapon (faces + modifier), 0 if none
        self.e_reach = z(N1, np.int16)  # best reach of any weapon the element fires
        self.e_speed = z((N1, self.SM1), np.int16)  # speed by current strength (soldiers: every column the same)
        self.e_ppd = z(N1)  # P(pilot killed) in one survival test
        # repair a vehicle makes on itself (§3.11): 2 with the HELIX platform, instead of its shot (p.48); 1 when
        # its pilot has «Рм», from inside, for its whole activation (p.43–44); 0: none
        self.e_repair = z(N1, np.int16)
        self.e_kind[self.DUMMY] = SOLDIER
        surv = None
        for el in self.columns:
            i = el.index
            self.e_kind[i], self.e_side[i] = el.kind, el.side
            self.e_cover[i] = covers[el.side]
            self.e_worth[i], self.e_cost[i] = el.worth, el.cost
            self.e_keep[i] = 0.0 if el.stand_in else el.worth
            if el.crew_of is not None:
                self.e_gun_cost[i] = el.crew_of.cost
            self.e_armour[i], self.e_melee[i] = el.armour, el.melee
            self.e_rof[i], self.e_ammo[i], self.e_flyer[i] = el.rof, el.ammo_max, el.flyer
            if el.kind == SOLDIER:
                self.e_soldier_speed[i] = el.speed
                self.e_speed[i, :] = el.speed
                self.e_preach[i] = el.personal.reach if el.personal else 0
                self.e_reach[i] = self.e_preach[i]
                if el.pilot_of is not None:
                    self.e_pilot_of[i] = el.pilot_of.index
                if el.crew_of is not None:
                    self.e_crew_of[i] = el.crew_of.index
                    self.e_reach[i] = max([self.e_reach[i]] + [w.reach for w in el.crew_of.weapons])
            else:
                self.e_smax[i] = el.strength_max
                self.e_reach[i] = max([w.reach for w in el.weapons] + [0])
                if el.kind == VEHICLE:
                    for s in range(self.SM1):
                        self.e_speed[i, s] = tables.speed_for_strength(el.sectors, s)
                    if el.platform:
                        self.e_repair[i] = tables.HELIX_REPAIR_AMOUNT
                    elif el.pilot is not None and el.pilot.repairs:
                        self.e_repair[i] = tables.INFANTRY_REPAIR_AMOUNT
                    if el.pilot is not None:
                        self.e_pilot[i] = el.pilot.index
                        surv = tables.survival_probabilities(
                            el.pilot.armour, int(st["survival_die"]), panic_rule=bool(st["panic"])
                        )
                        self.e_ppd[i] = float(surv[tables.KILLED])
                elif el.crew is not None:
                    self.e_crew[i] = el.crew.index
        self.soldier_cols = [
            np.flatnonzero((self.e_kind[: self.N] == SOLDIER) & (self.e_side[: self.N] == s)) for s in (0, 1)
        ]
        self.side_cols = [(0, self.nA), (self.nA, self.N)]

    # -- units and their shot slots --
    def _compile_units(self) -> None:
        U = len(self.units)
        self.U = U
        self.M = max([len(u.members) for u in self.units] + [1])
        self.u_side = np.array([u.side for u in self.units], np.int8)
        self.u_kind = np.array([u.kind for u in self.units], np.int8)
        self.u_members = np.full((U, self.M), self.DUMMY, np.int32)
        for k, u in enumerate(self.units):
            self.u_members[k, : len(u.members)] = [m.index for m in u.members]
        # a unit's members are adjacent columns, c0:c1 of its UnitPlan; a side's columns are its roster's units,
        # its guns, then its twins (Force.elements)
        self.u_range = [(0, self.uA), (self.uA, U)]
        self.weapons: list[Weapon] = []
        self._weapon_ids: dict[Weapon, int] = {}
        slots = []
        grenades = bool(self.settings["grenades"])
        per_barrel = self.settings["gun_rof_rule"] == "per_barrel"
        for u in self.units:
            row = []
            for m, el in enumerate(u.members):
                if el.kind == VEHICLE:
                    row += [(m, self._wid(w), VEHICLE_GUN) for w in el.weapons]
                    continue
                if el.crew_of is not None and el.crew_of.weapons:
                    gun = el.crew_of
                    shots = gun.weapons if per_barrel else [gun.weapons[k % len(gun.weapons)] for k in range(gun.rof)]
                    row += [(m, self._wid(w), CREWED_GUN) for w in shots[: gun.rof]]
                    if el.personal or grenades:
                        row.append((m, self._wid(el.personal), CREW_FALLBACK))
                elif el.personal or grenades:
                    row.append((m, self._wid(el.personal), PERSONAL))
            slots.append(row)
        self.S = max([len(r) for r in slots] + [1])
        self.slot_member = np.full((U, self.S), -1, np.int32)
        self.slot_weapon = np.zeros((U, self.S), np.int32)
        self.slot_kind = np.zeros((U, self.S), np.int8)
        for k, row in enumerate(slots):
            for s, (m, w, kind) in enumerate(row):
                self.slot_member[k, s], self.slot_weapon[k, s], self.slot_kind[k, s] = m, w, kind

    def _wid(self, w: Weapon | None) -> int:
        """Weapon id; 0 is 'no weapon' (a soldier who may only throw grenades)."""
        if not self.weapons:
            self.weapons.append(Weapon("none", 1, -(10**4), 0, 6, 0))
        if w is None:
            return 0
        if w not in self._weapon_ids:
            self._weapon_ids[w] = len(self.weapons)
            self.weapons.append(w)
        return self._weapon_ids[w]

    # -- lookup tables: hit chances by distance, target values by state, melee odds --
    def _compile_tables(self) -> None:
        st, D, N1, SM1 = self.settings, self.params.distance, self.N + 1, self.SM1
        if not self.weapons:
            self._wid(None)
        W = len(self.weapons)
        self.W, self.T, self.D = W, 2 * SM1, D
        self.w_rfaces = np.array([w.range_faces for w in self.weapons], np.int16)
        self.w_rmod = np.array([w.range_mod for w in self.weapons], np.int16)
        self.w_count = np.array([w.count for w in self.weapons], np.int16)
        self.w_faces = np.array([w.faces for w in self.weapons], np.int16)
        self.w_per_die = np.array([w.per_die for w in self.weapons], np.int16)
        for name in ("blast_steps", "blast_count", "blast_faces", "blast_per_die"):  # §7.4 IV (0: no blast)
            setattr(self, f"w_{name}", np.array([getattr(w, name) for w in self.weapons], np.int16))
        # HIT[aimed * W + w, d]: P(hit) at d steps (column 0 unused: distances start at 1)
        hit = np.zeros((2 * W, D + 1))
        for k, w in enumerate(self.weapons):
            if w.count:
                for d in range(1, D + 1):
                    hit[k, d] = _hit(w.range_faces, w.range_mod, d, False)
                    hit[W + k, d] = _hit(w.range_faces, w.range_mod, d, True)
        self.HIT = hit
        # The same by signed offset x = distance − advance_a − advance_b in [−D, D], stored at column x + D: the
        # distance is |x|, at least 1 (a flyer overhead), so a turn needs no abs() or clip() per target.
        offsets = np.abs(np.arange(-D, D + 1)).clip(1, D)
        self.HITX = hit[:, offsets]
        self.HITX32 = self.HITX.astype(np.float32)
        self.GHITX = np.zeros(0)
        # VAL[w, j, t]: expected cost removed by one hit of weapon w on element j in target state t
        infantry_test = st["virtual_infantry_damage"] == "survival_test"
        sfaces, panic = int(st["survival_die"]), bool(st["panic"])
        val = np.zeros((W + 1, N1, self.T))  # row W: the grenade (1Д20, cover only with blast_cover)
        specs = [(w.count, w.faces, w.per_die, True) for w in self.weapons]
        specs.append((tables.GRENADE_POWER[0], tables.GRENADE_POWER[1], 0, bool(st["blast_cover"])))
        for k, (count, faces, per_die, with_cover) in enumerate(specs):
            if not count:
                continue
            for el in self.columns:
                cover = int(self.e_cover[el.index]) if with_cover else 0
                if el.kind == SOLDIER:
                    pk = 1 - _miss_all(count, faces, per_die, el.armour + cover)
                    if infantry_test:
                        pk *= float(tables.survival_probabilities(el.armour, sfaces, panic_rule=panic)[tables.KILLED])
                    val[k, el.index, 1] = pk * el.worth
                    val[k, el.index, 2] = pk * (el.worth + self.e_gun_cost[el.index])  # manning his gun
                    continue
                for s in range(1, el.strength_max + 1):
                    exp_dmg, p_any = _damage_moments(count, faces, per_die, s + cover, s)
                    body = el.cost / el.strength_max * exp_dmg
                    if el.kind == VEHICLE:
                        pilot = p_any * self.e_ppd[el.index] * el.cost * s / el.strength_max
                        val[k, el.index, s] = body + pilot
                        val[k, el.index, SM1 + s] = body
                    else:
                        val[k, el.index, s] = body
        self.VAL = val
        # float32 copies: the engine's target keys and the reference score shots with these values
        self.VAL32 = val.astype(np.float32)
        # Grenade: the burst lands Д6 steps away; within 1 step of a target d steps away when |x - d| <= 1.
        g = np.zeros(D + 1)
        for d in range(1, D + 1):
            g[d] = sum(1 for x in range(1, 7) if abs(x - d) <= tables.GRENADE_BLAST_STEPS) / 6
        self.GHIT = g
        self.GHITX = g[np.abs(np.arange(-D, D + 1)).clip(1, D)]
        self_hit = sum(1 for x in range(1, 7) if x <= tables.GRENADE_BLAST_STEPS) / 6
        self.e_grenade_risk = np.zeros(N1)
        for el in self.columns:
            if el.kind == SOLDIER:
                cover = int(self.e_cover[el.index]) if st["blast_cover"] else 0
                self.e_grenade_risk[el.index] = self_hit * (1 - _miss_all(1, 20, 0, el.armour + cover)) * el.worth
        # Melee: P(win) and E[positive margin] by Δ (both roll) or by bonus − flat defence.
        self.MOFF = 64
        deltas = range(-self.MOFF, self.MOFF + 1)
        self.MWIN = np.array([float(tables.melee_win_probability(d)) for d in deltas])
        self.MFLAT = np.array([float(tables.melee_win_probability_flat(d, 0)) for d in deltas])
        attack = tables.melee_attack_die_distribution(surprise=False)
        self.MEXP = np.array(
            [sum(float(pa) / 6 * max(0, a + d - x) for a, pa in attack.items() for x in range(1, 7)) for d in deltas]
        )
        self.MEXPF = np.array([sum(float(pa) * max(0, a + d) for a, pa in attack.items()) for d in deltas])

    def _compile_flags(self) -> None:
        st = self.settings
        self.panic = bool(st["panic"])
        self.panic_ends = bool(st["panic_ends_actions"])
        self.panic_lands = bool(st["panic_flyer_lands_safely"])
        self.captured_next = bool(st["captured_acts_next_round"])
        self.sfaces = int(st["survival_die"])
        self.infantry_test = st["virtual_infantry_damage"] == "survival_test"
        self.flyer_moves = 2 if st["flyer_full_speed_each_move"] else 1
        self.ammo_limited = bool(st["ammo_limited"])
        self.strict_ammo = st["ammo_short_shot"] == "strict"
        self.grenades = bool(st["grenades"])
        self.blast_cover = bool(st["blast_cover"])
        self.blast_hits_target = bool(st["blast_hits_target"])  # A6: the target takes the blast pool too
        self.aimed_on = bool(st["aimed_fire"])
        self.hold = self.params.approach == "hold"
        self.surprise = self.params.surprise / 100
        self.obstacles = self.params.obstacles / 100
        # Table 1: an obstacle of half a step to a step costs 2 SP on top of the step (A9), or 1 SP more
        self.obstacle_sp = 2 if st["obstacle_cost_additive"] else 1
        self.has_slots = bool((self.slot_member >= 0).any())
        # "can already reach the nearest enemy": the best weapon's top result (aimed: the personal one doubled)
        self.e_hold_reach = np.maximum(self.e_reach, 2 * self.e_preach if self.aimed_on else 0)
        self.pilot_cols = np.flatnonzero(self.e_may_pilot[: self.N])  # who may board a vehicle (capture too)
        # a soldier who is neither a pilot nor a crew: killing him changes nothing but his own state. A soldier who
        # may capture a vehicle can pilot it later; only with the panic rule can he then stand on foot beside his
        # vehicle (killing him leaves it pilotless), so only then is he not plain.
        self.e_plain = (self.e_kind == SOLDIER) & (self.e_pilot_of == self.DUMMY) & (self.e_crew_of == self.DUMMY)
        if self.panic:
            self.e_plain &= ~self.e_may_pilot
        # the columns of a side without its twins (they come last): all a turn needs to look at while no twin of
        # that side is on the field in any of its battles (S.twin_seen)
        self.roster_cols = [(c0, c0 + int((~self.e_dormant[c0:c1]).sum())) for c0, c1 in self.side_cols]
        self.machine_cols = [np.flatnonzero(self.e_kind[c0:c1] != SOLDIER) for c0, c1 in self.side_cols]
        # Target keys: low bits that hold an enemy's rank within his side (see score_keys)
        most = max(c1 - c0 for c0, c1 in self.side_cols)
        self.key_mask = (1 << max(1, (most - 1).bit_length())) - 1
        self._keys: dict[tuple, np.ndarray] = {}
        self.melee_bonus_min = int(self.e_melee.min())  # Д6 + ББ, a vehicle Д6 + Броня + ББ
        self.melee_bonus_max = int(self.SM1 - 1 + self.e_melee.max())
        # Key tables are [enemy j, target state t, key_stride] (shots: the signed-offset column; melee: the attack
        # bonus), so the engine keeps e_keyrow[j] + t x key_stride per element and adds the shooter's column.
        self.key_stride = max(2 * self.D + 1, self.melee_bonus_max - self.melee_bonus_min + 1)
        self.e_keyrow = np.zeros(self.N + 1, np.intp)
        for c0, c1 in self.side_cols:
            self.e_keyrow[c0:c1] = np.arange(c1 - c0) * self.T * self.key_stride
        self.side_flyers = [bool(self.e_flyer[c0:c1].any()) for c0, c1 in self.side_cols]
        self.plans = [UnitPlan(self, k) for k in range(self.U)]

    def _keys_of(self, score: np.ndarray) -> np.ndarray:
        """Scores [enemy j, target state t, column] (non-negative float64) as int64 keys: the float's bits, which
        order like the scores, with the lowest bits replaced by key_mask − j; columns padded to key_stride."""
        padded = np.zeros(score.shape[:2] + (self.key_stride,))
        padded[:, :, : score.shape[2]] = score
        keys = padded.view(np.int64) & ~np.int64(self.key_mask)
        keys |= (self.key_mask - np.arange(score.shape[0], dtype=np.int64))[:, None, None]
        return keys.ravel()

    def melee_keys(self, enemy_side: int) -> np.ndarray:
        """The engine's melee target-choice table against `enemy_side`, flattened from [enemy j, target state t,
        attack bonus − melee_bonus_min]: P(win) x expected cost removed, as the reference scores it (a soldier:
        P(win) x his worth, with his gun while he mans it; a vehicle or gun: cost per point x E[margin], plus
        P(win) x P(pilot killed) x its remaining worth while piloted), as keys like score_keys."""
        cache_key = ("melee", enemy_side)
        if cache_key not in self._keys:
            e0, e1 = self.side_cols[enemy_side]
            bonus = np.arange(self.melee_bonus_min, self.melee_bonus_max + 1)
            score = np.zeros((e1 - e0, self.T, bonus.size))
            for r, j in enumerate(range(e0, e1)):
                if self.e_kind[j] == SOLDIER:
                    p_win = self.MWIN[np.clip(bonus - self.e_armour[j] + self.MOFF, 0, 2 * self.MOFF)]
                    score[r, 1] = p_win * self.e_worth[j]
                    score[r, 2] = p_win * (self.e_worth[j] + self.e_gun_cost[j])
                    continue
                per_point = self.e_cost[j] / self.e_smax[j]
                for s in range(1, int(self.e_smax[j]) + 1):
                    # state s: aboard (a vehicle piloted, a gun crewed, both defend with Броня); SM1 + s: dismounted
                    for t, piloted in ((s, self.e_kind[j] == VEHICLE), (self.SM1 + s, False)):
                        fixed = s + int(self.e_melee[j]) if piloted else s
                        delta = np.clip(bonus - fixed + self.MOFF, 0, 2 * self.MOFF)
                        if piloted:
                            pilot = self.MWIN[delta] * self.e_ppd[j] * per_point * s
                            score[r, t] = per_point * self.MEXP[delta] + pilot
                        else:
                            score[r, t] = per_point * self.MEXPF[delta]
            self._keys[cache_key] = self._keys_of(score)
        return self._keys[cache_key]

    def score_keys(self, enemy_side: int, w: int, aimed: bool = False) -> np.ndarray:
        """The engine's target-choice table for weapon `w` (row W: the grenade) against `enemy_side`, flattened
        from [enemy j, target state t, signed offset column x]: the score P(hit) x value, computed as the engine
        always has (a weapon: float32 tables multiplied in float32; the grenade in float64), kept as the bits of
        that non-negative float64 with its lowest bits replaced by key_mask − j (a float32 score widened to float64
        has 29 zero bits there, so it stays exact). Keys then order like scores and a tie goes to the first enemy,
        so one max() over the enemies gives both the best score and its holder (the reference's strict `>`)."""
        cache_key = (enemy_side, w, aimed)
        if cache_key not in self._keys:
            e0, e1 = self.side_cols[enemy_side]
            if w == self.W:
                score = self.VAL[w, e0:e1][:, :, None] * self.GHITX[None, None, :]
            else:
                hit = self.HITX32[w + (self.W if aimed else 0)]
                score = (self.VAL32[w, e0:e1][:, :, None] * hit[None, None, :]).astype(np.float64)
            self._keys[cache_key] = self._keys_of(score)
        return self._keys[cache_key]

    # -- public API --
    # The two ways of running the model live in engine.py (numpy) and reference.py (plain Python); each module
    # installs itself here when imported (the package's __init__ imports both), so the model imports neither.
    vectorised_runner = None
    reference_runner = None

    def run(self, n: int, rng: np.random.Generator, *, batch: int = 32768) -> dict:
        """Simulates `n` battles with numpy; returns per-battle arrays (outcome, rounds, surviving cost)."""
        return type(self).vectorised_runner(self, n, rng, batch=batch)

    def run_python(self, n: int, seed: int) -> dict:
        """The same model with plain Python loops, one battle at a time (reference and benchmark baseline)."""
        return type(self).reference_runner(self, n, seed)

    def describe(self) -> dict:
        return {
            "sides": [
                {
                    "cost": f.cost,
                    "units": [
                        {"name": u.name, "cost": u.cost, "members": len(u.members)} for u in f.units if not u.captured
                    ],
                    "guns": [g.name for g in f.guns],
                    "pilots": [
                        {"vehicle": m.name, "pilot": m.pilot.name if m.pilot else None}
                        for u in f.units
                        for m in u.members
                        if m.kind == VEHICLE and not u.captured
                    ],
                }
                for f in self.forces
            ],
            "warnings": self.warnings,
        }


class UnitPlan:
    """What never changes about one unit's activation: its element columns, speeds, reaches and shot slots
    (each with its weapon's target keys, Battle.score_keys), so a turn works on slices and scalars."""

    def __init__(self, bt: Battle, k: int):
        u = bt.units[k]
        self.index = k
        self.side = u.side
        self.c0 = u.members[0].index
        self.c1 = u.members[-1].index + 1
        cols = np.arange(self.c0, self.c1)
        self.vehicle = u.kind == VEHICLE
        self.twin = u.captured  # capture's copy of an enemy vehicle: off the field until taken
        self.flyer = bool(bt.e_flyer[cols].any())
        self.speed = bt.e_speed[cols, 0].astype(np.int32)  # soldiers; a vehicle reads its sector table
        self.gun_of = bt.e_crew_of[cols]
        self.has_crew = bool((self.gun_of != bt.DUMMY).any())
        self.has_pilots = bool((bt.e_pilot_of[cols] != bt.DUMMY).any())
        self.preach = bt.e_preach[cols].astype(np.int32)
        self.hold_reach = bt.e_hold_reach[cols].astype(np.int32)
        self.melee = bt.e_melee[cols].astype(np.int32)
        self.repair = int(bt.e_repair[self.c0]) if self.vehicle else 0
        self.smax = int(bt.e_smax[self.c0])
        self.reach = int(bt.e_reach[self.c0])
        self.slots = []
        for s in range(bt.S):
            m = int(bt.slot_member[k, s])
            if m < 0:
                break
            w, kind = int(bt.slot_weapon[k, s]), int(bt.slot_kind[k, s])
            el = self.c0 + m
            plat = int(bt.e_crew_of[el]) if kind == CREWED_GUN else el
            self.slots.append(
                {
                    "m": m,
                    "el": el,
                    "w": w,
                    "kind": kind,
                    "plat": plat,
                    "gun": int(bt.e_crew_of[el]),
                    "personal": kind in (PERSONAL, CREW_FALLBACK),
                    "cost": int(bt.w_count[w]),
                    "rof": int(bt.e_rof[plat]),
                    "ammo_max": int(bt.e_ammo[plat]),
                    "keys": bt.score_keys(1 - self.side, w),
                    "keys_aimed": bt.score_keys(1 - self.side, w, True) if bt.aimed_on else None,
                    "grenade_keys": bt.score_keys(1 - self.side, bt.W) if bt.grenades else None,
                    "rfaces": int(bt.w_rfaces[w]),
                    "rmod": int(bt.w_rmod[w]),
                    "count": int(bt.w_count[w]),
                    "faces": int(bt.w_faces[w]),
                    "per_die": int(bt.w_per_die[w]),
                    # §7.4 IV: (radius in steps, count, faces, per-die modifier) of the weapon's blast, or None
                    "blast": (
                        (
                            int(bt.w_blast_steps[w]),
                            int(bt.w_blast_count[w]),
                            int(bt.w_blast_faces[w]),
                            int(bt.w_blast_per_die[w]),
                        )
                        if bt.w_blast_steps[w]
                        else None
                    ),
                }
            )


@lru_cache(maxsize=4096)
def _hit(faces: int, mod: int, steps: int, aimed: bool) -> float:
    return float(tables.hit_probability(faces, mod, steps, aimed=aimed))


@lru_cache(maxsize=4096)
def _pen(faces: int, per_die: int, armour: int) -> float:
    return float(tables.penetration_probability(faces, armour, per_die_modifier=per_die))


@lru_cache(maxsize=8192)
def _miss_all(count: int, faces: int, per_die: int, armour: int) -> float:
    return (1 - _pen(faces, per_die, armour)) ** count


@lru_cache(maxsize=65536)
def _damage_moments(count: int, faces: int, per_die: int, armour: int, cap: int) -> tuple[float, float]:
    """E[min(damage, cap)] and P(damage >= 1) for `count` dice against `armour`."""
    p = _pen(faces, per_die, armour)
    exp = sum(min(k, cap) * math.comb(count, k) * p**k * (1 - p) ** (count - k) for k in range(count + 1))
    return exp, 1 - (1 - p) ** count
