"""An agent as the rules see it (spec §2.1–§2.2, §4): the JSON an action takes for each model, and the values
derived from it. The same dict, a "sheet", is what the battle part keeps per agent.

    {"name", "ref", "stats": {"HL": 6, "BS": 12, …} (base stats, as written on the character sheet),
     "crit": {"BS": 4} (crit chances other than 2), "benediction": bool (+2 to every crit chance, L133),
     "armour": "police-riot-gear" | null, "hp", "ap", "statuses": {name: {"turns", "stacks", "by"}},
     "flags": {"half_hp", "seriously_wounded", "dying"} and "lowest_hp" (for the injuries after the scenario),
     "aim": stacks at the point the target stands on, "took_cover", "overwatch", "friendly_ld",
     "rerolls": Intercession re-rolls left this round, "counter_used", "items": items carried}

The armour's stat changes (Hero Exosuit +2 TN −2 DX …) are applied here: callers give base stats.
"""

from __future__ import annotations

from rules.errors import RuleInputError
from rules.i18n import _
from rules.systems.enforcers import tables

STAT_VALUE = {"type": "integer", "minimum": tables.STAT_MIN, "maximum": tables.STAT_MAX}
STATUS_NAMES = (
    "fear",
    "bleeding",
    "poisoned",
    "burning",
    "stunned",
    "disoriented",
    "pinned",
    "seriously_wounded",
    "dying",
    "dead",
)
STATUS_ENTRY = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "turns": {"type": ["integer", "null"], "minimum": 0, "maximum": 99, "description": "Turns left (or spent)"},
        "stacks": {"type": "integer", "minimum": 0, "maximum": 9, "description": "Stun stacks"},
        "by": {"type": ["string", "null"], "maxLength": 60, "description": "Who caused it (Pinned: the suppressor)"},
    },
}
STATUSES = {
    "type": "object",
    "additionalProperties": False,
    "properties": dict.fromkeys(STATUS_NAMES, STATUS_ENTRY),
    "description": "The agent's statuses: a key per status it has",
}
FLAGS = {
    "type": "object",
    "additionalProperties": False,
    "properties": {k: {"type": "boolean"} for k in ("half_hp", "seriously_wounded", "dying")},
}
AGENT = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "maxLength": 120},
        "ref": {"description": "Anything that identifies the agent for the caller; echoed in effects."},
        "stats": {
            "type": "object",
            "additionalProperties": False,
            "properties": dict.fromkeys(tables.STATS, STAT_VALUE),
            "description": "Base stats 1..20 (the armour's changes are applied by the rules)",
        },
        "crit": {
            "type": "object",
            "additionalProperties": False,
            "properties": {s: {"type": "integer", "minimum": 0, "maximum": 20} for s in tables.STATS},
            "description": "Crit chances other than the default 2",
        },
        "benediction": {"type": "boolean", "description": "Under Benediction: +2 to every crit chance"},
        "armour": {"enum": [None, *tables.ARMOUR]},
        "hp": {"type": "integer", "minimum": -99, "maximum": 40},
        "ap": {"type": "integer", "minimum": 0, "maximum": 40},
        "statuses": STATUSES,
        "flags": FLAGS,
        "lowest_hp": {
            "type": "integer",
            "minimum": -99,
            "maximum": 40,
            "description": "The lowest HP it had in the scenario (the tracker keeps it; the injury tests read it)",
        },
        "aim": {"type": "integer", "minimum": 0, "maximum": 20, "description": "Aim stacks at the target's point"},
        "took_cover": {"type": "boolean", "description": "Took cover this round (Залечь в укрытие)"},
        "overwatch": {"type": "boolean"},
        "friendly_ld": {
            "anyOf": [STAT_VALUE, {"type": "null"}],
            "description": "The best LD of a friendly model in line of sight (Fear tests may use it, L274)",
        },
        "rerolls": {"type": "integer", "minimum": 0, "maximum": 9, "description": "Intercession re-rolls left"},
        "counter_used": {"type": "boolean", "description": "Already made its counter-attack this turn"},
        "items": {"type": "integer", "minimum": 0, "maximum": 50, "description": "Items carried but worn armour (L49)"},
        "weapons_carried": {"type": "integer", "minimum": 0, "maximum": 50, "description": "How many are weapons"},
    },
}

STAT_WORDS = {
    "HL": "Здоровье",
    "WS": "Ближний бой",
    "BS": "Стрельба",
    "DX": "Ловкость",
    "TN": "Стойкость",
    "WL": "Воля",
    "IT": "Интеллект",
    "PR": "Внимательность",
    "LD": "Лидерство",
}


def effective_stats(agent: dict) -> dict[str, int]:
    """Base stats with the armour's changes (L343–349: exosuits +TN −DX)."""
    stats = dict(agent.get("stats") or {})
    armour = tables.armour(agent.get("armour"))
    for stat, change in (armour or {}).get("stat_changes", {}).items():
        if stat in stats:
            stats[stat] += change
    return stats


def stat(agent: dict, name: str, field: str) -> int:
    """One effective stat, or a RuleInputError naming the missing field."""
    stats = effective_stats(agent)
    if name not in stats:
        from rules.systems.enforcers.words import role

        who = agent.get("name") or role(field)
        raise RuleInputError(
            {
                f"{field}.stats.{name}": _("{who}'s {stat} ({word}) is needed for this.").format(
                    stat=name, word=STAT_WORDS[name], who=who
                )
            }
        )
    return stats[name]


def crit_chance(agent: dict, name: str) -> int:
    """L43: 2 unless raised; Benediction adds 2 to every stat's (L133)."""
    base = (agent.get("crit") or {}).get(name, tables.DEFAULT_CRIT_CHANCE)
    return base + (2 if agent.get("benediction") else 0)


def max_hp(agent: dict, field: str) -> int:
    return stat(agent, "HL", field)


def max_ap(agent: dict) -> int:
    armour = tables.armour(agent.get("armour"))
    return armour["ap"] if armour else 0


def current_hp(agent: dict, field: str) -> int:
    return agent["hp"] if "hp" in agent else max_hp(agent, field)


def current_ap(agent: dict) -> int:
    return agent["ap"] if "ap" in agent else max_ap(agent)


def sheet(agent: dict, field: str, *, needs: tuple[str, ...] = ()) -> dict:
    """The agent with its defaults filled in (HP = HL, AP = the armour's), its statuses copied, and the
    stats in `needs` checked. Raises RuleInputError naming the field."""
    for name in needs:
        stat(agent, name, field)
    out = dict(agent)
    out["statuses"] = {k: dict(v) for k, v in (agent.get("statuses") or {}).items()}
    out["flags"] = dict(agent.get("flags") or {})
    if "HL" in (agent.get("stats") or {}):
        out["hp"] = current_hp(agent, field)
        if out["hp"] > max_hp(agent, field):
            raise RuleInputError(
                {
                    f"{field}.hp": _("HP {hp} is above the maximum, HL {hl}.").format(
                        hp=out["hp"], hl=max_hp(agent, field)
                    )
                },
                data={"limits": {"hp_max": max_hp(agent, field)}},  # L47: healing never raises HP above HL
            )
    out["ap"] = current_ap(agent)
    if out["ap"] > max_ap(agent):
        raise RuleInputError(
            {
                f"{field}.ap": _("AP {ap} is above the armour's maximum {limit}.").format(
                    ap=out["ap"], limit=max_ap(agent)
                )
            },
            data={"limits": {"ap_max": max_ap(agent)}},  # L47: the armour sets the maximum
        )
    return out


def has(agent: dict, status: str) -> bool:
    return status in (agent.get("statuses") or {})


def stun_stacks(agent: dict) -> int:
    return (agent.get("statuses") or {}).get("stunned", {}).get("stacks", 0)


# Derived values (spec §2.2, vectors 2–4) -------------------------------------------------------------------
def derived(agent: dict, settings: dict | None = None) -> dict[str, int]:
    """Move, jumps, carrying capacity, throw range and safe fall height, all rounded down (L13)."""
    stats = effective_stats(agent)
    dx, tn = stats.get("DX", 0), stats.get("TN", 0)
    out = {
        "carry": tn // 2,  # L49
        "jump_horizontal": dx // 2,  # L85
        "jump_vertical": dx // 4,
        "throw_range": (3 * tn) // 2,  # L174: 1.5 x TN
        "safe_fall": dx // 2,  # L234
    }
    out["move"] = max_move(agent, settings or {})
    return out


def max_move(agent: dict, settings: dict) -> int:
    """§3.4: DX cm, −2 per item over capacity (L49), −2 if Poisoned (L299), halved if Burning (L303)."""
    stats = effective_stats(agent)
    dx, tn = stats.get("DX", 0), stats.get("TN", 0)
    penalty = tables.ENCUMBRANCE_CM * max(0, items_counted(agent, settings) - tn // 2)
    if has(agent, "poisoned"):
        penalty += tables.POISON_SPEED_CM
    burning = has(agent, "burning")
    if settings.get("move_penalty_order", "subtract_then_halve") == "subtract_then_halve":
        speed = max(0, dx - penalty)
        return speed // 2 if burning else speed
    speed = dx // 2 if burning else dx
    return max(0, speed - penalty)


def items_counted(agent: dict, settings: dict) -> int:
    """A24: which items count against the carrying capacity: all but the worn armour, or the weapons only."""
    if settings.get("encumbrance_counts", "all_but_worn_armour") == "weapons_only":
        return agent.get("weapons_carried", 0)
    return agent.get("items", 0)


def over_encumbered(agent: dict, settings: dict) -> bool:
    return items_counted(agent, settings) > effective_stats(agent).get("TN", 0) // 2
