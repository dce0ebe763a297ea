"""The stand-up firefight model, compiled: two forces of figures as flat arrays the engines index.

Both engines (engine.py vectorised over battles, reference.py one battle at a time) read only this compiled form,
and every rule number comes from core.py / equipment.py / the shooting action, so the simulator, the resolver and
the exact odds share one text of each rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np

from rules.errors import RuleInputError
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.thw5150 import army, core, equipment
from rules.systems.thw5150.actions.shooting import hit_damage_distribution, rof_of
from rules.systems.thw5150.settings import full as full_settings

MODEL_VERSION = 1

# Conditions as small integers (order matters: 5 and 6 are casualties).
FINE, KD, DUCK, HUNKER, RUNAWAY, OOF, DEAD = range(7)
CONDITION_NAMES = ("fine", "knocked_down", "duck_back", "hunker_down", "runaway", "out_of_fight", "dead")
# Damage categories of one hit: 0 none, 1 knocked down, 2 out of the fight, 3 dead; as conditions:
DAMAGE_TO_CONDITION = np.array([FINE, KD, OOF, DEAD], dtype=np.int8)
FIGHTING = (FINE, KD, DUCK)  # can still act: a side with none of these has lost
MAX_DICE = 6

PARAMS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {  # titles and descriptions are msgids: the job form shows them in the reader's language
        "cover_a": {
            "type": "boolean",
            "default": False,
            "title": N_("Cover of side A"),
            "description": N_("Side A fights from cover"),
        },
        "cover_b": {
            "type": "boolean",
            "default": False,
            "title": N_("Cover of side B"),
            "description": N_("Side B fights from cover"),
        },
        "max_turns": {
            "type": "integer",
            "minimum": 1,
            "maximum": 200,
            "default": 40,
            "title": N_("Turns at most"),
            "description": N_("A battle still going after this many turns is decided by points (§5 A32)."),
        },
        "max_exchanges": {
            "type": "integer",
            "minimum": 1,
            "maximum": 20,
            "default": 6,
            "title": N_("Volleys per firefight"),
            "description": N_("Volleys of one firefight (fire → Received Fire → return fire …) before it breaks off"),
        },
    },
}


@dataclass
class Params:
    cover_a: bool = False
    cover_b: bool = False
    max_turns: int = 40
    max_exchanges: int = 6


def figures_of(side: dict, settings: dict) -> list[dict]:
    """Every figure of a roster snapshot: entries × count, with the options the army part reads."""
    out = []
    for e in side.get("entries") or []:
        profile = e.get("profile") or {}
        rep = (profile.get("data") or {}).get("rep")
        if not isinstance(rep, int):
            raise RuleInputError({"entries": tr("{name} has no Rep.").format(name=profile.get("name", e.get("key")))})
        options = army.options_of(e)
        for copy in range(army.count_of(e)):
            out.append(
                {
                    "name": f"{profile.get('name', e.get('key'))} #{copy + 1}",
                    "rep": rep,
                    "cost": army.figure_cost(profile, options),
                    "options": options,
                }
            )
    if not out:
        raise RuleInputError({"entries": "A side needs at least one figure."})
    return out


def volley_distribution(rep: int, mod: int, rof: int, two_gun: bool, situation: int, s: dict) -> list[float]:
    """P(hits = h, out of ammo = e) at index 2h + e for `rof` dice at one first target: situation 0 in the open,
    1 in the open and lying, 2 in cover. The Hit table, the lucky shot and §5 A40 as the shooting action reads
    them (core.hit, core.lucky_*)."""
    eff = rep + mod
    allowed, aim = core.lucky_shot_allowed(rep, eff, s), core.lucky_reroll_target(rep, eff, s)
    sit = {"cover": situation == 2, "concealed": False, "prone": situation == 1, "fast": False, "two_gun": two_gun}
    p_hit = []
    for d in range(1, 7):
        ok = core.hit(d + eff, index=1, **sit)[0]
        p_hit.append(1.0 if ok else (max(0, min(aim, 6)) / 6 if d == 6 and allowed else 0.0))
    states = {(0, 0, 0): 1.0}  # (hits by 2–6, hits by 1s, ones) -> probability
    for _ in range(rof):
        nxt: dict = {}
        for (h, h1, ones), p in states.items():
            for d in range(1, 7):
                q = p / 6
                for hit, w in ((True, p_hit[d - 1]), (False, 1 - p_hit[d - 1])):
                    if w == 0:
                        continue
                    key = (h + (hit and d > 1), h1 + (hit and d == 1), min(2, ones + (d == 1)))
                    nxt[key] = nxt.get(key, 0.0) + q * w
        states = nxt
    out = [0.0] * (2 * (MAX_DICE + 1))
    stops = s.get("out_of_ammo_volley") == "stops"
    for (h, h1, ones), p in states.items():
        empty = ones >= 2
        hits = h + (0 if (stops and empty) else h1)
        out[2 * hits + empty] += p
    return out


def level_distribution(rep: int, k: int, s: dict) -> list[float]:
    """A 2/1/0 test read with k dice: P(pass 0), P(pass 1), P(pass 2 without double 1s), P(double 1s)."""
    out = [0.0, 0.0, 0.0, 0.0]
    for roll in product(range(1, 7), repeat=k):
        if core.double_ones(roll) and s.get("hero_from_shared_roll") != "off":
            out[3] += 1 / 6**k
        else:
            out[core.pass_level(roll, rep)] += 1 / 6**k
    return out


RF_RESULTS = ("fire", "fire_minus_1", "duck_back", "prone", "hunker_down", "runaway")


def rf_result(level: int, cover: bool, outgunned: bool, s: dict) -> str:
    """«ОБСТРЕЛЯН» for a figure that did not move and was not fired on from the flank (core.received_fire_outcome)."""
    m = {"in_cover": cover, "outgunned": outgunned, "flank_or_rear": False, "moving": "none"}
    return core.received_fire_outcome(level, m, s)


def alias_tables(tables: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Walker's alias tables (Vose's construction) for each row of `tables` (probabilities over K outcomes):
    outcome j of table t is drawn as j = ⌊u·K⌋, kept when frac(u·K) < keep[t, j], else alias[t, j]."""
    count, k = tables.shape
    keep = np.ones((count, k))
    alias = np.tile(np.arange(k), (count, 1))
    for t in range(count):
        scaled = tables[t] * k / tables[t].sum()
        small = [j for j in range(k) if scaled[j] < 1.0]
        large = [j for j in range(k) if scaled[j] >= 1.0]
        while small and large:
            lo, hi = small.pop(), large.pop()
            keep[t, lo], alias[t, lo] = scaled[lo], hi
            scaled[hi] -= 1.0 - scaled[lo]
            (small if scaled[hi] < 1.0 else large).append(hi)
    return keep.ravel().astype(np.float32), alias.ravel(), k


class Battle:
    """Two compiled sides. Arrays have one row per figure, side A first."""

    def __init__(self, side_a: dict, side_b: dict, params: Params, settings: dict):
        self.settings = s = full_settings(settings)
        self.params = params
        figures = [figures_of(side_a, s), figures_of(side_b, s)]
        self.names = [f["name"] for side in figures for f in side]
        self.N = n = len(self.names)
        self.side = np.array([i for i, side in enumerate(figures) for _ in side], dtype=np.int8)
        flat = [f for side in figures for f in side]
        self.rep = np.array([f["rep"] for f in flat], dtype=np.int8)
        self.cost = np.array([f["cost"] for f in flat], dtype=np.int32)
        self.leader = np.array([bool(f["options"].get("leader")) for f in flat])
        self.hero0 = np.array([bool(f["options"].get("star")) and s.get("stars", True) for f in flat])
        weapons, seconds = [], []
        for f in flat:
            o = f["options"]
            w = equipment.RANGED.get(o.get("weapon") or "")
            second = equipment.RANGED.get(o.get("second_weapon") or "") if w else None
            if second is not None and not (w["slug"] in equipment.TWO_GUN_WEAPONS and second["slug"] in
                                           equipment.TWO_GUN_WEAPONS):  # fmt: skip
                second = None  # the army part reports it; the model fires the first weapon only
            weapons.append(w)
            seconds.append(second)
        self.rof = np.array([rof_of(w, sec, s) if w else 0 for w, sec in zip(weapons, seconds, strict=True)], np.int8)
        self.rof = np.minimum(self.rof, MAX_DICE)
        self.two_gun = np.array([sec is not None for sec in seconds])
        self.outgun = np.array([max(equipment.outgun(w), equipment.outgun(sec)) for w, sec in zip(weapons, seconds,
                                                                                                   strict=True)])  # fmt: skip
        self.armour = [f["options"].get("armour") or "none" for f in flat]
        # DMG[a, b] = P(damage category >= 1, 2, 3) of one hit of a's weapon on b (the exact distribution).
        self.dmg = np.zeros((n, n, 3))
        for a in range(n):
            for b in range(n):
                w = weapons[a]
                if w is None or self.side[a] == self.side[b]:
                    continue
                cell = equipment.ranged_impact(w, self.armour[b], s)
                dist = hit_damage_distribution(cell, equipment.special_fallback(w, s))
                ordered = [float(dist[k]) for k in core.DAMAGE_ORDER]  # none, KD, OOF, dead
                self.dmg[a, b] = [sum(ordered[1:]), sum(ordered[2:]), ordered[3]]
        # WORST[a, b, h] = P(the volley's result >= KD, OOF, dead) after h hits: every hit rolls damage and the
        # worst counts (errata §3.5), or only the first damaging hit counts (the spec's guard, setting off).
        h = np.arange(MAX_DICE + 1)[None, None, :, None]
        q = self.dmg[:, :, None, :]
        if s.get("damage_every_hit", True):
            self.worst = 1 - (1 - q) ** h
        else:
            any_damage = 1 - (1 - q[..., :1]) ** h
            self.worst = any_damage * np.divide(q, q[..., :1], out=np.zeros_like(q), where=q[..., :1] > 0)
        self.cover_of_side = np.array([params.cover_a, params.cover_b])
        # Groups: per side, in the order they activate (§3.1: highest activation Rep first, §5 A7).
        self.group_of = np.zeros(n, dtype=np.int16)
        self.groups: list[list[int]] = []
        self.group_side: list[int] = []
        for side_index, side in enumerate(figures):
            offset = 0 if side_index == 0 else len(figures[0])
            named: dict[str, list[int]] = {}
            for i, f in enumerate(side):
                named.setdefault(str(f["options"].get("group") or "1"), []).append(offset + i)
            ordered = sorted(named.values(), key=lambda members: -self._activation_rep(members))
            for members in ordered:
                for m in members:
                    self.group_of[m] = len(self.groups)
                self.groups.append(members)
                self.group_side.append(side_index)
        self.n_a = len(figures[0])
        self.enemies = [np.nonzero(self.side != side)[0] for side in (0, 1)]
        self.enemy_span = [(self.n_a, n), (0, self.n_a)]
        self.rank = np.arange(n, dtype=np.int16)
        self.side_cost = np.array([self.cost[self.side == 0].sum(), self.cost[self.side == 1].sum()], dtype=float)
        self.cover_of = self.cover_of_side[self.side]
        self._compile_tables(s)

    def _compile_tables(self, s: dict) -> None:
        """Exact outcome tables the engine samples from (Walker's alias method: one uniform, two lookups); the
        reference rolls the same dice one by one instead, which is how the tests check these tables.

        SHOT[a, mod, situation, b]: one volley of a at b, outcome 2·(worst damage 0–3) + (a out of ammo), for
        Rep modifier 0 / −1 and b in the open / lying / in cover.
        RF[b, outgunned]: b's «ОБСТРЕЛЯН» after a volley that did no damage, outcome 2·result + (double 1s)."""
        n = self.N
        shot = np.zeros((n, 2, 3, n, 8))
        ones, zeros = np.ones((n, MAX_DICE + 1, 1)), np.zeros((n, MAX_DICE + 1, 1))
        for a in range(n):
            at_least = np.concatenate([ones, self.worst[a], zeros], axis=2)  # (target, hits, 5)
            exactly = at_least[:, :, :4] - at_least[:, :, 1:]  # P(worst = c | h hits) for every target
            for mod in (0, 1):
                for situation in (0, 1, 2):
                    v = volley_distribution(int(self.rep[a]), -mod, int(self.rof[a]), bool(self.two_gun[a]),
                                            situation, s)  # fmt: skip
                    v = np.array(v).reshape(MAX_DICE + 1, 2)  # (hits, out of ammo)
                    shot[a, mod, situation] = np.einsum("bhc,he->bce", exactly, v).reshape(n, 8)
        self.shot_alias = alias_tables(shot.reshape(-1, 8))
        rf = np.zeros((n, 2, 2 * len(RF_RESULTS)))
        self.rf_hero = np.zeros((n, 2), dtype=np.int8)  # a Hero picks pass 2
        for t in range(n):
            levels = level_distribution(int(self.rep[t]), 3 if self.leader[t] else 2, s)
            for og in (0, 1):
                for level, p in enumerate(levels):
                    result = RF_RESULTS.index(rf_result(min(level, 2), bool(self.cover_of[t]), bool(og), s))
                    rf[t, og, 2 * result + (level == 3)] += p
                self.rf_hero[t, og] = RF_RESULTS.index(rf_result(2, bool(self.cover_of[t]), bool(og), s))
        with_hero = np.zeros((n, 2, 2, 2 * len(RF_RESULTS)))  # (target, outgunned, Hero): a Hero takes pass 2
        with_hero[:, :, 0] = rf
        with_hero[np.arange(n)[:, None], np.arange(2)[None, :], 1, 2 * self.rf_hero] = 1.0
        self.rf_alias = alias_tables(with_hero.reshape(-1, 2 * len(RF_RESULTS)))
        self.has_gun = self.rof > 0
        status = np.arange(64)  # a figure's byte in the engine: condition (bits 0–2), prone 8, loaded 16, Hero 32
        kd_lies = s.get("knocked_down_is_prone", True)
        self.lying = (((status & 8) > 0) | (((status & 7) == KD) & kd_lies)).astype(np.int64)
        self.own_outgun = np.where(self.rof > 0, self.outgun, 1)  # no gun: a melee weapon, ПД 1 (§3.13)
        # OUTGUNNED[a, b, loaded_b]: a's ПД above b's own (an empty weapon counts as unarmed, §5 A18).
        empty = self.own_outgun if s.get("own_outgun_weapon") == "best" else np.ones(n, dtype=int)
        own = np.stack([empty, self.own_outgun], axis=1)  # (b, loaded)
        self.outgunned = (self.outgun[:, None, None] > own[None, :, :]).astype(np.int64).ravel()
        self.level_cum = np.zeros((8, 4, 3))
        for rep in range(1, 8):
            for k in (2, 3):
                self.level_cum[rep, k] = np.cumsum(level_distribution(rep, k, s))[:3]

    def _activation_rep(self, members: list[int]) -> int:
        leaders = [int(self.rep[m]) for m in members if self.leader[m]]
        highest = max(int(self.rep[m]) for m in members)
        if self.settings.get("activation_rep") == "highest" or not leaders:
            return max([highest, *leaders])
        return leaders[0]

    def forces(self) -> list[dict]:
        return [
            {
                "side": side,
                "figures": int((self.side == side).sum()),
                "cost": int(self.side_cost[side]),
                "list": [self.names[i] for i in range(self.N) if self.side[i] == side],
            }
            for side in (0, 1)
        ]
