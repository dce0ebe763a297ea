"""The compiled form of a match for the simulator: both sides' units as flat numpy arrays, and the numbers the rules
give for the parameters (hit numbers per side, wound numbers per weapon and target, victory points).

Shared by the vectorised engine and the plain-Python reference loop, so both run the SAME model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from rules.contract import RuleInputError
from rules.i18n import _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.army import cost_entry
from rules.systems.zvezdny_desant.profile import compile_unit

MODEL_VERSION = 1
MAX_UNITS = 24


@dataclass
class Match:
    """Everything a battle needs, per unit u (side A's units first) and weapon group g."""

    names: list[str]
    side: np.ndarray  # [U] 0 = side A, 1 = side B
    start: np.ndarray  # [U] figures at the start
    stk: np.ndarray  # [U]
    bsp: np.ndarray  # [U]
    strikes: np.ndarray  # [U] strikes per figure in melee
    wounds_per_strike: np.ndarray  # [U]
    cost: np.ndarray  # [U] full cost (VP for a destroyed unit)
    g_count: np.ndarray  # [U, G] figures with this weapon (0: no group)
    g_offset: np.ndarray  # [U, G] figures of the groups before it (casualties leave the last group first)
    g_dice: np.ndarray  # [U, G] Скр
    g_msch: np.ndarray  # [U, G] Мщ
    g_in_range: np.ndarray  # [U, G] Длн reaches the distance
    p_wound: np.ndarray  # [U, G, U] P(wound test passes) of group g of u against unit t
    w_need: np.ndarray  # [U, G, U] the roll that wound test needs (21: cannot wound, A8)
    p_hit: np.ndarray  # [2] P(hit) of side s shooting at the other side
    hit_need: list[int]  # [2]
    hit_need_arr: np.ndarray  # [2] the same, as an array
    mode: str
    turns: int
    settings: dict
    params: dict = field(default_factory=dict)
    kbr: list[str] = field(default_factory=list)
    groups: list[list[dict]] = field(default_factory=list)

    @property
    def split(self) -> int:
        """Side A's units are 0 … split−1, side B's split … U−1."""
        return int((self.side == 0).sum())

    @property
    def units(self) -> int:
        return len(self.names)

    def units_of(self, side: int) -> np.ndarray:
        return np.flatnonzero(self.side == side)

    def melee_p(self, bsp_eff: np.ndarray) -> np.ndarray:
        """P(strike hits) for an effective БСП (cap 20 and the A19 floor applied by the caller)."""
        return np.clip(tables.D20 + 1 - bsp_eff, 0, tables.D20) / tables.D20


def side_units(side: dict, settings: dict) -> tuple[list[dict], list[str]]:
    """Every unit of a roster (entries × count) compiled, with its cost per unit; warnings in plain words."""
    units, warnings = [], []
    for entry in side.get("entries") or []:
        count = int(entry.get("count", 1) or 1)
        cost, issues = cost_entry({**entry, "count": 1}, settings)
        unknown = [i.message for i in issues if i.code == "cost_unknown"]
        if unknown:  # victory points are costs (L794–796): a cost taken as 0 would make every battle a draw
            raise RuleInputError({"sides": unknown[0]})
        warnings += [i.message for i in issues if i.severity != "info"]
        unit = compile_unit(entry, settings)
        if unit["figures"] == 0:
            warnings.append(_("{name}: no figures, left out.").format(name=unit["name"]))
            continue
        if not unit["groups"]:
            warnings.append(_("{name}: no ranged weapon, it never shoots.").format(name=unit["name"]))
        units += [{**unit, "cost": cost} for _i in range(count)]
    return units, warnings


def build_match(side_a: dict, side_b: dict, params: dict, settings: dict) -> tuple[Match, list[str], list[dict]]:
    a, warn_a = side_units(side_a, settings)
    b, warn_b = side_units(side_b, settings)
    if not a or not b:
        raise RuleInputError({"sides": _("Each side needs at least one unit with figures.")})
    if len(a) + len(b) > MAX_UNITS:
        raise RuleInputError(
            {"sides": _("At most {max_units} units in one simulated battle.").format(max_units=MAX_UNITS)}
        )
    units = a + b
    side = np.array([0] * len(a) + [1] * len(b))
    g_max = max(1, max(len(u["groups"]) for u in units))
    shape = (len(units), g_max)
    g_count, g_offset, g_dice, g_msch = (np.zeros(shape, dtype=np.int64) for _i in range(4))
    g_in_range = np.zeros(shape, dtype=bool)
    p_wound = np.zeros((len(units), g_max, len(units)))
    w_need = np.full((len(units), g_max, len(units)), tables.D20 + 1, dtype=np.int64)
    for u, unit in enumerate(units):
        offset = 0
        for g, group in enumerate(unit["groups"]):
            g_count[u, g], g_offset[u, g] = group["count"], offset
            g_dice[u, g], g_msch[u, g] = group["skr"], group["msch"]
            g_in_range[u, g] = group["dln"] >= params["distance"]
            offset += group["count"]
            for t, target in enumerate(units):
                need = tables.wound_need(group["hrk"], target["kbr"], settings)
                if need is not None:
                    p_wound[u, g, t] = float(tables.p_pass(need))
                    w_need[u, g, t] = need
    orders = (params["order_a"], params["order_b"])
    covers = (params["cover_a"], params["cover_b"])
    hit_need = [
        tables.hit_need(shooter_order=orders[s], target_order=orders[1 - s], target_kind="infantry",
                        cover=covers[1 - s], extra=0, settings=settings)[1]
        for s in (0, 1)
    ]  # fmt: skip
    match = Match(
        names=[u["name"] for u in units],
        side=side,
        start=np.array([u["figures"] for u in units]),
        stk=np.array([u["stk"] for u in units]),
        bsp=np.array([u["bsp"] for u in units]),
        strikes=np.array([u["strikes_per_figure"] for u in units]),
        wounds_per_strike=np.array([u["wounds_per_strike"] for u in units]),
        cost=np.array([float(u["cost"]) for u in units]),
        g_count=g_count,
        g_offset=g_offset,
        g_dice=g_dice,
        g_msch=g_msch,
        g_in_range=g_in_range,
        p_wound=p_wound,
        w_need=w_need,
        p_hit=np.array([float(tables.p_pass(n)) for n in hit_need]),
        hit_need=hit_need,
        hit_need_arr=np.array(hit_need),
        mode=params["mode"],
        turns=params.get("turns") or settings["max_turns"],
        settings=settings,
        params=dict(params),
        kbr=[u["kbr"] for u in units],
        groups=[u["groups"] for u in units],
    )
    forces = [
        {"side": s, "units": [{"name": u["name"], "figures": u["figures"], "cost": u["cost"]} for u in side_list]}
        for s, side_list in ((0, a), (1, b))
    ]
    return match, warn_a + warn_b, forces


def unit_vp(match: Match, u: int, alive: int) -> float:
    """VP the enemy scores for unit u with `alive` figures left (§3.15, A23), as in the victory_points action."""
    return float(tables.unit_victory_points(int(match.cost[u]), int(match.start[u]), alive, match.settings))


def vp_table(match: Match) -> np.ndarray:
    """[U, max figures + 1]: the VP for each unit at each number of living figures (looked up by the engine)."""
    width = int(match.start.max()) + 1
    out = np.zeros((match.units, width))
    for u in range(match.units):
        for alive in range(int(match.start[u]) + 1):
            out[u, alive] = unit_vp(match, u, alive)
    return out


def exact_hit(match: Match, side: int) -> Fraction:
    return tables.p_pass(match.hit_need[side])
