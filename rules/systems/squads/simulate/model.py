"""The simulator's compiled form: squads as lookup tables the engine and the reference loop both read.

A squad's figures are kept in the order their owner loses them (cheapest firepower first, the leader last), so the
live figures are always figures[casualties:] and the suppressed ones the first `suppressed` of those (the owner
suppresses the cheapest; a figure suppressed earlier may fall first, §5 B4). Everything a battle needs then comes
from (casualties, suppressed) by table lookup:
    dice[table][p, d, c]: fire dice of the figures figures[p:] at distance d, c = 0 cover counts, 1 ignores cover
    fail[k, j]: P(no save) of the j-th live figure, best armour first (the owner gives hits to his best armour)
    act_ok[s, die]: the activation roll succeeds with `s` suppressed figures
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rules.i18n import _
from rules.systems.squads import tables
from rules.systems.squads.army import ARMY, squad_figures
from rules.systems.squads.settings import full_settings

MODEL_VERSION = 1
WALK, AIMED = 0, 1  # dice tables: weapons a Walk may fire, and all weapons (aimed fire, On Guard)
OUTCOME_A, OUTCOME_B, OUTCOME_DRAW = 0, 1, -1
MIN_GAP = 1  # squads stop this far apart: melee is not simulated

# Settings the model reads; the others have no effect on a squad-against-squad firefight without terrain.
SIMULATED_SETTINGS = (
    "units",
    "suppression_cap_recruit",
    "suppression_cap_regular",
    "suppression_cap_veteran",
    "suppression_cap_elite",
    "save_allocation",
    "suppressed_then_casualty",
    "aimed_cap_order",
    "walk_fire",
    "hmg_infantry_crew",
    "on_guard_timing",
    "on_guard_until",
    "natural_one_six",
    "leader_lost",
)


@dataclass
class Squad:
    """One squad, compiled."""

    name: str
    side: int
    n: int  # figures
    worth: float
    expertise: int
    cap: int  # most suppressed figures (L31)
    dice: np.ndarray  # [2 tables, n + 1 prefixes, dmax + 1 distances, 2 cover kinds] int
    reach: np.ndarray  # [2 tables, n + 1]: the longest range still firing (−1: none)
    fail: np.ndarray  # [n + 1 casualties, n] P(unsaved) of each live figure, best armour first
    act_ok: np.ndarray  # [n + 1 suppressed, 7 die] bool
    weapons: list[str] = field(default_factory=list)


@dataclass
class Match:
    squads: list[Squad]
    dmax: int
    distance: int
    cover: tuple[int, int]  # the cover modifier each side stands in
    turns: int
    approach: str
    split: str
    moves: dict[str, int]
    settings: dict

    def hit_p(self, shooter: Squad, target_side: int, aimed: bool, ignores: bool) -> float:
        cover = 0 if ignores else self.cover[target_side]
        return float(tables.p_at_least(tables.hit_need(shooter.expertise, cover, aimed, self.settings)))


def loss_order(figures: list[dict]) -> list[dict]:
    """Cheapest firepower first (fewest fire points), the leader last; stable for equals."""
    return sorted(figures, key=lambda f: (f["leader"], tables.WEAPONS[f["weapon"]].dice))


def fire_tables(figures: list[dict], dmax: int, settings: dict) -> np.ndarray:
    n = len(figures)
    out = np.zeros((2, n + 1, dmax + 1, 2), dtype=np.int32)
    hmg_total = sum(1 for f in figures if f["weapon"] == "hmg")
    guns_total = max(1, hmg_total // 2) if hmg_total else 0
    walk_all = settings["walk_fire"] == "any_weapon"
    distances = np.arange(dmax + 1)
    for p in range(n + 1):
        active = figures[p:]
        crew = sum(1 for f in active if f["weapon"] == "hmg")
        guns = crew // 2 if settings["hmg_infantry_crew"] == "two_per_gun" else min(guns_total, crew)
        for f in active:
            if f["weapon"] == "hmg":
                continue
            w = tables.WEAPONS[f["weapon"]]
            dice = np.array([tables.fire_dice(w, d, settings) for d in distances])
            dice[distances > tables.weapon_range(w, settings)] = 0
            cover = int(w.ignores_cover)
            out[AIMED, p, :, cover] += dice
            if walk_all or w.table == "small_arms" or w.thrown:
                out[WALK, p, :, cover] += dice
        if guns:
            w = tables.WEAPONS["hmg"]
            dice = np.where(distances <= tables.weapon_range(w, settings), w.dice * guns, 0)
            out[AIMED, p, :, 0] += dice
            if walk_all:
                out[WALK, p, :, 0] += dice
    return out


def reach_table(dice: np.ndarray) -> np.ndarray:
    firing = dice.sum(axis=3) > 0  # [tables, prefixes, distances]
    last = firing.shape[2] - 1 - np.argmax(firing[:, :, ::-1], axis=2)
    return np.where(firing.any(axis=2), last, -1)


def fail_table(figures: list[dict], settings: dict) -> np.ndarray:
    n = len(figures)
    out = np.ones((n + 1, max(n, 1)))
    if settings["save_allocation"] == "majority_armour":
        counts: dict[str, int] = {}
        for f in figures:
            counts[f["armour"]] = counts.get(f["armour"], 0) + 1
        major = max(counts, key=counts.get) if counts else "none"
        saves = [tables.PERSONAL_ARMOUR[major].save] * n
    else:
        saves = [tables.PERSONAL_ARMOUR[f["armour"]].save for f in figures]
    for k in range(n + 1):
        live = sorted((s or 7) for s in saves[k:])  # best save (lowest number) first
        for j, save in enumerate(live):
            out[k, j] = 1 - float(tables.p_at_least(save))
    return out


def activation_table(figures: list[dict], level: str, settings: dict) -> np.ndarray:
    need = tables.TRAINING[level].activation
    leaders = [f for f in figures if f["leader"]]
    if leaders:  # the leader is lost last: he stands while the squad does (§5 B21 then never arises)
        need = min(need, tables.TRAINING[leaders[0]["level"]].activation)
    n = len(figures)
    ok = np.zeros((n + 1, 7), dtype=bool)
    for s in range(n + 1):
        for die in range(1, 7):
            if settings["natural_one_six"] and die in (1, 6):
                ok[s, die] = die == 6
            else:
                ok[s, die] = die - s >= need
    return ok


def compile_squad(entry: dict, side: int, dmax: int, settings: dict, copy: int = 1) -> Squad:
    profile = entry["profile"]
    options = entry.get("options") or ARMY.default_options(profile)
    figures = loss_order(squad_figures(profile, options))
    level = profile["data"]["level"]
    dice = fire_tables(figures, dmax, settings)
    cost = profile.get("cost") or 0
    name = profile.get("name", entry.get("key") or _("Squad")) + (f" #{copy}" if copy > 1 else "")
    return Squad(
        name=name,
        side=side,
        n=len(figures),
        worth=float(cost) if cost else float(len(figures)),  # no points in the book: a figure is worth 1
        expertise=tables.TRAINING[level].expertise,
        cap=tables.suppression_cap(level, settings),
        dice=dice,
        reach=reach_table(dice),
        fail=fail_table(figures, settings),
        act_ok=activation_table(figures, level, settings),
        weapons=[f["weapon"] for f in figures],
    )


def build_match(side_a: dict, side_b: dict, params: dict, settings: dict) -> tuple[Match, list[str], list[dict]]:
    """Compiles both sides. Vehicles and empty squads are left out with a warning."""
    settings = full_settings(settings)
    longest = max(tables.weapon_range(w, settings) for w in tables.WEAPONS.values())
    dmax = max(params["distance"], longest) + 1
    squads, warnings, forces = [], [], []
    for side, roster in enumerate((side_a, side_b)):
        listed = []
        for entry in roster.get("entries") or []:
            profile = entry.get("profile") or {}
            if profile.get("kind") != "squad":
                name = profile.get("name") or _("An entry")
                warnings.append(_("{name}: vehicles are not simulated; left out.").format(name=name))
                continue
            for copy in range(1, int(entry.get("count", 1) or 1) + 1):
                squad = compile_squad(entry, side, dmax, settings, copy)
                if squad.n:
                    squads.append(squad)
                    listed.append({"name": squad.name, "figures": squad.n, "weapons": squad.weapons})
        forces.append({"side": side, "squads": listed})
    moves = {
        "walk": tables.MOVES["walk"][tables.distance_units(settings)],
        "run": tables.MOVES["run"][tables.distance_units(settings)],
        "withdraw": tables.FAILED_WITHDRAWAL[tables.distance_units(settings)],
    }
    match = Match(
        squads=squads,
        dmax=dmax,
        distance=params["distance"],
        cover=(tables.COVER[params["cover_a"]], tables.COVER[params["cover_b"]]),
        turns=params["turns"],
        approach=params["approach"],
        split=params["split"],
        moves=moves,
        settings=settings,
    )
    return match, warnings, forces
