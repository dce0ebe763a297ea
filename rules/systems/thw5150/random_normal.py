"""A random Normal from the book's tables (spec §2.4, §2.9): Rep (1d6), weapon (2d6 + law level + Leader) with
the laser check (2d6 = 12), armour (2d6 + the same modifiers) and, on 12+, the special armour table (2d6).

`roll_random_normal(seed=…)` rolls with the server's seeded dice; `dice=[…]` takes dice rolled at the table
(checked one by one). Either way the answer lists every die shown, with what it was for.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from rules import dice as dicelib
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.thw5150 import equipment
from rules.systems.thw5150.settings import full as full_settings

# §5 A35: the laser weapon a 12 turns each weapon into (no mapping in the book).
LASER = {
    "pistol": "laser_pistol",
    "kk_pistol": "laser_pistol",
    "smg": "rapid_fire_laser_pistol",
    "pump_shotgun": "laser_carbine",
    "semi_auto_rifle": "laser_carbine",
    "rifle": "laser_rifle",
    "assault_rifle": "laser_rifle",
}
LAW_MODIFIER = {"normal": 0, "lax": 1, "low": 2}  # «Вялый» +1, «Низкий» +2 (L1436–1437, §5 A36)


def _band(rows: list[dict], total: int, key: str) -> str:
    for row in rows:
        low, high = row["roll"]
        if low <= total <= high:
            return row[key]
    return rows[0][key] if total < rows[0]["roll"][0] else rows[-1][key]


def modifier(leader: bool, settings: dict) -> int:
    return LAW_MODIFIER[settings.get("law_level", "normal")] + (1 if leader else 0)


def weapon_dice(settings: dict) -> int:
    return 3 if settings.get("weapon_table_dice") == "3d6" else 2  # §5 A11


def roll_with(source, *, leader: bool = False, settings: dict | None = None) -> dict:
    """Rolls one Normal through a dice source (seeded or typed in)."""
    settings = full_settings(settings)
    tables = equipment.TABLES
    mod = modifier(leader, settings)
    rep_roll = source.roll(6, tr("Rep (1d6)"))
    rep = int(_band(tables["rep"], rep_roll, "rep"))
    w_dice = source.roll_many(weapon_dice(settings), 6, N_("weapon availability die"))
    weapon = _band(tables["weapon"]["rows"], sum(w_dice) + mod, "weapon")
    laser_dice = source.roll_many(2, 6, N_("laser check die"))
    if sum(laser_dice) == tables["weapon"]["laser_on"] and settings.get("laser_upgrade") != "off":
        weapon = LASER.get(weapon, weapon)
    a_dice = source.roll_many(2, 6, N_("armour availability die"))
    armour = _band(tables["armour"]["rows"], sum(a_dice) + mod, "armour")
    special_dice = []
    if armour == "special":
        special_dice = source.roll_many(2, 6, N_("special armour die"))
        armour = _band(tables["special_armour"]["rows"], sum(special_dice), "armour")
    source.finish()
    cost = equipment.REP_COST[rep] + equipment.RANGED[weapon]["cost"] + (equipment.ARMOUR[armour]["cost"] or 0)
    return {
        "rep": rep,
        "weapon": weapon,
        "weapon_name": equipment.RANGED[weapon]["name"],
        "armour": armour,
        "armour_name": equipment.ARMOUR[armour]["name"],
        "cost": cost,
        "modifier": mod,
        "rolls": {
            "rep": rep_roll,
            "weapon": w_dice,
            "laser_check": laser_dice,
            "armour": a_dice,
            "special_armour": special_dice,
        },
        "dice": [r.as_dict() for r in source.rolls],
    }


def roll_random_normal(*, seed: int | None = None, dice: list | None = None, leader=False, settings=None) -> dict:
    """A random Normal with a seed (server dice) or typed-in dice; answers the figure and every die shown."""
    source = dicelib.dice_source(seed=seed, dice=dice)
    out = roll_with(source, leader=leader, settings=settings)
    out["seed"] = getattr(source, "seed", None)
    return out


def _sum_distribution(n: int) -> dict[int, Fraction]:
    dist: dict[int, Fraction] = {}
    for roll in product(range(1, 7), repeat=n):
        dist[sum(roll)] = dist.get(sum(roll), Fraction(0)) + Fraction(1, 6**n)
    return dist


def distributions(*, leader: bool = False, settings: dict | None = None) -> dict[str, dict[str, Fraction]]:
    """Exact distributions of Rep, weapon and armour of a random Normal."""
    settings = full_settings(settings)
    tables = equipment.TABLES
    mod = modifier(leader, settings)
    rep = {}
    for r in range(1, 7):
        key = str(_band(tables["rep"], r, "rep"))
        rep[key] = rep.get(key, Fraction(0)) + Fraction(1, 6)
    p_laser = Fraction(1, 36) if settings.get("laser_upgrade") != "off" else Fraction(0)
    weapon: dict[str, Fraction] = {}
    for total, p in _sum_distribution(weapon_dice(settings)).items():
        w = _band(tables["weapon"]["rows"], total + mod, "weapon")
        for name, q in ((LASER.get(w, w), p_laser), (w, 1 - p_laser)):
            if q:
                weapon[name] = weapon.get(name, Fraction(0)) + p * q
    armour: dict[str, Fraction] = {}
    for total, p in _sum_distribution(2).items():
        a = _band(tables["armour"]["rows"], total + mod, "armour")
        if a != "special":
            armour[a] = armour.get(a, Fraction(0)) + p
            continue
        for total2, q in _sum_distribution(2).items():
            s = _band(tables["special_armour"]["rows"], total2, "armour")
            armour[s] = armour.get(s, Fraction(0)) + p * q
    return {"rep": rep, "weapon": weapon, "armour": armour}
