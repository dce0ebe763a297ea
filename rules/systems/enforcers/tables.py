"""The book's numbers: stats, the armour and prayer tables (read from the official pack, built from the book's
text by data/build_core_pack.py), hiring prices, modifier tables and injury dice. Pure data and small functions.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

PACK_PATH = Path(__file__).resolve().parent / "data" / "enforcers-core.json"
PACK = json.loads(PACK_PATH.read_text(encoding="utf-8"))

# L29–39: nine primary stats, each 1..20.
STATS = ("HL", "WS", "BS", "DX", "TN", "WL", "IT", "PR", "LD")
STAT_MIN, STAT_MAX = 1, 20
# L43: every stat starts with crit chance 2.
DEFAULT_CRIT_CHANCE = 2
# L69: two actions per activation (perks may add more).
ACTIONS_PER_ACTIVATION = 2

# Hiring (L51–57): 20 REQ, +10 per +1 to all stats, plus half the archetype's gear allowance rounded up.
BASE_HIRE_REQ = 20
STAT_BUMP_REQ = 10

ARMOUR: dict[str, dict] = {
    p["slug"]: {"name": p["name"], "req": p["cost"], **p["data"]} for p in PACK["profiles"] if p["kind"] == "armour"
}
PRAYERS: dict[str, dict] = {
    p["data"]["key"]: {"name": p["name"], **p["data"]} for p in PACK["profiles"] if p["kind"] == "prayer"
}

# Shooting modifiers (L150–162): (blessings, curses). The L159 repeat of the height row is an OCR artefact.
COVER_CURSES = {"none": 0, "partial": 1, "full": 2}
RANGE_BAND = {"short": (1, 0), "medium": (0, 0), "long": (0, 1)}
FIRE_MODE_BLESSINGS = {"single": 0, "burst": 1, "auto": 2}
SHOOTER_HIGHER_CM = 5  # L158–159: at least 5 cm higher
MELEE_HIGHER_CM = 1  # L200: at least 1 cm higher
PARRY_STEP = 5  # L210: a curse per 5 points of the opponent's WS

# Thrown weapons (L174): range 1.5 x TN; scatter 2d6, a double hits, else 2 x the higher die in cm.
SCATTER_DICE = 2
SCATTER_MULTIPLIER = 2

# Statuses (L293–325)
BLEEDING_DAMAGE = 2
POISON_DAMAGE = 1
POISON_SPEED_CM = 2
BURNING_DAMAGE = 2
BURNING_TURNS = 3
DISORIENTED_TURNS = 2
DYING_TURNS = 3
ENCUMBRANCE_CM = 2  # L49: −2 cm per item over the carrying capacity

# Medical aid (L119–121)
HEAL_SUCCESS, HEAL_FAILURE = 6, 2
REVIVE_HP = 1
REVIVE_FAILURE_HEAL, REVIVE_FAILURE_CAP = 2, 0
STABILIZE_HP = 0

# Injuries (L250–256): tier -> number of d6 of downtime days.
INJURY_DICE = {"light": 1, "medium": 2, "critical": 3}
INJURY_STATS = ("HL", "WS", "BS", "DX", "TN")  # L256 ends in a truncated «T», read as TN
INJURY_WL_FACES = (1, 20)  # L258: a natural 1 or 20 on the TN test costs 1 WL
REPAIR_FAIL_DICE = 2  # L268: 2d6 days

FEAR_ACTIONS = {1: "fight", 2: "flee", 3: "freeze"}  # L287–291, one chosen at random (a d3)


def hire_cost(stat_bump: int, own_gear: bool, gear_req: int) -> int:
    """L51–57: the REQ to hire an archetype; its own gear costs half its allowance, rounded up (the one exception
    to «always round down», L13)."""
    cost = BASE_HIRE_REQ + STAT_BUMP_REQ * stat_bump
    if own_gear:
        cost += math.ceil(gear_req / 2)
    return cost


def armour(slug: str | None) -> dict | None:
    return ARMOUR.get(slug) if slug else None


def immunities(slug: str | None) -> set[str]:
    entry = armour(slug)
    return set(entry["immune"]) if entry else set()
