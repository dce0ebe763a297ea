"""Compiling a roster side into the one agent that fights the duel, and the duel's parameters.

A side is a roster snapshot ({"faction", "entries": [...]}) as the army part sees it. Its first hired agent
fights (a duel is agent against agent); its price is the army part's formula price of that one agent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import RuleInputError
from rules.systems.enforcers import agents, tables
from rules.systems.enforcers.army import HIRED_KINDS, agent_stats, entry_cost

PARAMS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "distance_cm": {"type": "integer", "minimum": 0, "maximum": 200, "default": 24,
                        "description": "How far apart the two agents start, in cm"},
        "rounds": {"type": "integer", "minimum": 1, "maximum": 50, "default": 12,
                   "description": "Rounds before the duel is called a draw"},
        "cover": {"enum": list(tables.COVER_CURSES), "default": "none", "description": "Both agents' cover"},
        "default_band": {"enum": list(tables.RANGE_BAND), "default": "medium",
                         "description": "Range band of a weapon with no bands given (the book's table is missing)"},
        "unarmed_damage": {"type": "integer", "minimum": 0, "maximum": 10, "default": 1,
                           "description": "Damage of a blow without a melee weapon (not in the book)"},
        "initiative": {"enum": ["last_picks_itself", "random"], "default": "last_picks_itself",
                       "description": "Popcorn: the agent that went last picks itself first next round, or a coin"},
    },
}  # fmt: skip
BANDS = ("short", "medium", "long")


@dataclass
class Weapon:
    name: str
    damage: int
    kinetic: bool
    reach: int = 0  # melee
    bands: dict[str, int] = field(default_factory=dict)  # ranged: upper bound of each band, cm

    def max_range(self) -> float:
        return float(max(self.bands.values())) if self.bands else float("inf")

    def band(self, distance: float, default: str) -> str | None:
        """The band a distance falls in (None: out of range)."""
        if not self.bands:
            return default
        for band in BANDS:
            if band in self.bands and distance <= self.bands[band]:
                return band
        return None


@dataclass
class Fighter:
    name: str
    price: int
    hp: int
    ap: int
    kinetic_reduction: int
    bs: int
    ws: int
    move: int
    crit_bs: int
    crit_ws: int
    melee: Weapon
    ranged: Weapon | None

    def describe(self) -> str:
        gun = f"{self.ranged.name} {self.ranged.damage}" if self.ranged else "no gun"
        return (f"{self.name}: BS {self.bs}, WS {self.ws}, move {self.move} cm, HP {self.hp}, AP {self.ap}; "
                f"{gun}; {self.melee.name} {self.melee.damage} (reach {self.melee.reach}); {self.price} REQ")  # fmt: skip


def _weapon(w: dict, default_name: str) -> Weapon:
    return Weapon(
        name=w.get("name") or default_name,
        damage=w.get("damage", 0),
        kinetic="kinetic" in (w.get("traits") or ()),
        reach=w.get("reach_cm", 0),
        bands={k: v for k, v in (w.get("range_bands_cm") or {}).items() if k in BANDS},
    )


def compile_side(side: dict, params: dict, settings: dict, label: str) -> tuple[Fighter, list[str]]:
    warnings: list[str] = []
    hired = [e for e in side.get("entries") or [] if (e.get("profile") or {}).get("kind") in HIRED_KINDS]
    if not hired:
        raise RuleInputError({label: "This side hires no agent: a duel needs one archetype entry."})
    if len(hired) > 1 or hired[0].get("count", 1) != 1:
        warnings.append(f"{label}: only the first agent fights the duel.")
    entry = hired[0]
    profile, options = entry["profile"], dict(entry.get("options") or {})
    stats = agent_stats(profile, options)
    if stats is None:
        raise RuleInputError({label: f"{profile.get('name')} has no stats (the book gives none): set them first."})
    armour = options.get("armour") if not (options.get("campaign") or {}).get("armour_broken") else None
    sheet = {"stats": stats, "armour": armour, "items": len(options.get("weapons") or []) + len(options.get("items") or []),
             "crit": (profile.get("data") or {}).get("crit") or {}}  # fmt: skip
    eff = agents.effective_stats(sheet)
    weapons = options.get("weapons") or []
    ranged = [w for w in weapons if w.get("ranged") or w.get("range_bands_cm")]
    melee = [w for w in weapons if w.get("reach_cm") and not w.get("ranged")]
    best_melee = (
        _weapon(max(melee, key=lambda w: w.get("damage", 0)), "melee weapon")
        if melee
        else Weapon("fists", params["unarmed_damage"], False, 0)
    )
    best_ranged = _weapon(max(ranged, key=lambda w: w.get("damage", 0)), "gun") if ranged else None
    if not weapons:
        warnings.append(f"{label}: no weapons; it fights with its fists ({params['unarmed_damage']} damage).")
    entry_armour = tables.armour(armour)
    fighter = Fighter(
        name=options.get("name") or profile.get("name", label),
        price=entry_cost(profile, options),
        hp=eff["HL"],
        ap=entry_armour["ap"] if entry_armour else 0,
        kinetic_reduction=entry_armour["kinetic_reduction"] if entry_armour else 0,
        bs=eff["BS"],
        ws=eff["WS"],
        move=agents.max_move(sheet, settings),
        crit_bs=agents.crit_chance(sheet, "BS"),
        crit_ws=agents.crit_chance(sheet, "WS"),
        melee=best_melee,
        ranged=best_ranged,
    )
    return fighter, warnings


def action_choice(me: Fighter, distance: float) -> str:
    """The duel's policy, the same in both engines: fight when in reach and the blow is at least as hard as the
    shot; else shoot when in range; else move toward the enemy."""
    in_reach = distance <= me.melee.reach
    if in_reach and (me.ranged is None or me.melee.damage >= me.ranged.damage):
        return "melee"
    if me.ranged is not None and distance <= me.ranged.max_range():
        return "shoot"
    return "move"


def move_goal(me: Fighter) -> float:
    """Where a move stops: in reach of its blow if that is its best attack, else in range of its gun."""
    if me.ranged is None or me.melee.damage >= me.ranged.damage:
        return float(me.melee.reach)
    return me.ranged.max_range() if me.ranged.bands else float(me.melee.reach)
