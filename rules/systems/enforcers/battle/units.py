"""Agents on the table (spec §4): built from the roster entries, and turned into the sheets the actions take.

A unit's state is an agent sheet (agents.py) plus what the tracker keeps for the battle:
    weapons [{name, damage, reach_cm, ranged, thrown, traits, capacity, range_bands_cm, drawn, ammo}],
    spare_magazines, medkit, perks, activated, actions_left, moves_this_activation, moves_last_activation,
    free_swap_used, switches, prayed_this_round, benediction_rounds, intercession_rounds, entry, copy, archetype.
"""

from __future__ import annotations

from rules.systems.enforcers import agents, tables
from rules.systems.enforcers.hiring import HIRED_KINDS, agent_stats, crew
from rules.systems.enforcers.statuses import incapacitated
from rules.systems.enforcers.texts import T
from rules.systems.enforcers.wounds import DEAD

FISTS = {"name": "fists", "damage": 1, "reach_cm": 0, "traits": []}  # the book gives no unarmed blow; 1 damage
MAGAZINE_WORDS = ("магазин", "magazine")
MEDKIT_WORDS = ("мед.кит", "медкит", "med-kit", "medkit")
AGENT_KEYS = tuple(agents.AGENT["properties"])


def _has_word(name: str, words) -> bool:
    name = name.lower()
    return any(w in name for w in words)


def unit_state(entry: dict, copy_no: int) -> dict | None:
    """The state of one agent at the start of a scenario, or None when it cannot take part (dead, injured)."""
    profile, options = entry["profile"], entry.get("options") or {}
    campaign = options.get("campaign") or {}
    if campaign.get("dead") or campaign.get("injury_days"):
        return None
    stats = agent_stats(profile, options)
    if stats is None:
        return None
    armour = options.get("armour")
    if campaign.get("armour_broken") or campaign.get("armour_unusable_days"):
        armour = None
    items = options.get("items") or []
    weapons = []
    for w in options.get("weapons") or []:
        if "damage" in w:  # a weapon still being written in the builder stays at home
            weapons.append({**w, "drawn": not weapons, "ammo": w.get("capacity")})
    sheet = {"stats": stats, "armour": armour}
    name = options.get("name") or profile.get("name", "Agent")
    if entry.get("count", 1) > 1:
        name = f"{name} {copy_no}"
    entry_armour = tables.armour(armour)
    return {
        "entry": entry["key"],
        "copy": copy_no,
        "name": name,
        "archetype": profile.get("name", ""),
        "stats": stats,
        "crit": dict((profile.get("data") or {}).get("crit") or {}),
        "armour": armour,
        "hp": agents.effective_stats(sheet)["HL"],
        "ap": campaign.get("armour_ap", entry_armour["ap"]) if entry_armour else 0,
        "statuses": {},
        "flags": {},
        "aim": 0,
        "took_cover": False,
        "overwatch": False,
        "counter_used": False,
        "rerolls": 0,
        "benediction": False,
        "benediction_rounds": 0,
        "intercession_rounds": 0,
        "weapons": weapons,
        "spare_magazines": options.get("spare_magazines", 0)
        + sum(1 for i in items if _has_word(i.get("name", ""), MAGAZINE_WORDS)),
        "medkit": bool(options.get("medkit")) or any(_has_word(i.get("name", ""), MEDKIT_WORDS) for i in items),
        "items": len(items) + len(weapons) + int(bool(options.get("medkit"))) + options.get("spare_magazines", 0),
        "weapons_carried": len(weapons),
        "perks": list(options.get("perks") or []),
        "activated": False,
        "actions_left": 0,
        "moves_this_activation": 0,
        "moves_last_activation": 0,
        "free_swap_used": False,
        "switches": 0,
        "prayed_this_round": False,
    }


def build_units(side_index: int, roster: dict) -> tuple[list[dict], list]:
    """Every agent of a roster (count copies each) with the armour and perks other entries give it, and a note
    (a text, texts.py) on each left at home."""
    units, notes = [], []
    merged = crew(roster)
    for entry in roster.get("entries") or []:
        profile = entry.get("profile") or {}
        if profile.get("kind") not in HIRED_KINDS:
            continue
        entry = {**entry, "options": merged.get(entry["key"], entry.get("options") or {})}
        for copy_no in range(1, max(1, entry.get("count", 1)) + 1):
            state = unit_state(entry, copy_no)
            label = (entry.get("options") or {}).get("name") or profile.get("name")
            if state is None:
                notes.append(T("{name} stays at home (dead, injured or without stats).", name=label))
                continue
            key = f"s{side_index}-{entry['key']}" + (f"-{copy_no}" if entry.get("count", 1) > 1 else "")
            units.append({"key": key, "name": state["name"], "kind": "agent", "profile": profile, "entry": entry,
                          "state": state})  # fmt: skip
    return units, notes


def sheet(state, key: str, *, friendly_ld: int | None = None) -> dict:
    """The agent sheet the actions take, from a unit's state (ref = the unit key)."""
    unit = state.units[key]
    out = {k: unit.state[k] for k in AGENT_KEYS if k in unit.state}
    out["ref"] = key
    out["name"] = unit.name or unit.state.get("name", key)
    if friendly_ld:
        out["friendly_ld"] = friendly_ld
    return out


def best_friendly_ld(state, key: str) -> int | None:
    """The best LD of another agent of the same side still standing (line of sight is the table's call)."""
    side = state.units[key].side
    values = [
        agents.effective_stats(u.state).get("LD", 0)
        for k, u in state.units.items()
        if k != key and u.side == side and not incapacitated(u.state) and DEAD not in u.state["statuses"]
    ]
    return max(values, default=None)


def weapon_of(state, key: str, index: int, field: str = "weapon") -> dict:
    from rules.errors import RuleInputError

    weapons = state.units[key].state["weapons"]
    if not isinstance(index, int) or not 0 <= index < len(weapons):
        from rules.i18n import _

        raise RuleInputError(
            {field: _("{name} has no weapon {index}.").format(name=state.units[key].name, index=index)}
        )
    return weapons[index]


def action_weapon(weapon: dict) -> dict:
    """The weapon as an action takes it."""
    out = {k: weapon[k] for k in ("name", "damage", "traits", "reach_cm", "ammo", "capacity") if k in weapon}
    out["drawn"] = weapon.get("drawn", False)
    return out


def defence_weapon(state, key: str) -> dict:
    """The defender's drawn melee weapon with the longest reach, else its fists."""
    drawn = [w for w in state.units[key].state["weapons"] if w.get("drawn") and w.get("reach_cm") is not None
             and not w.get("ranged")]  # fmt: skip
    best = max(drawn, key=lambda w: (w.get("reach_cm", 0), w.get("damage", 0)), default=FISTS)
    return {**action_weapon(best), "reach_cm": best.get("reach_cm", 0), "drawn": True}


def standing(unit) -> bool:
    return DEAD not in unit.state["statuses"]


def map_effects(effects: list[dict], roles: dict[str, str], **extra_by_kind) -> list[dict]:
    """Action effects (by role) as battle effects (by unit key); roles with no unit are dropped."""
    out = []
    for effect in effects:
        key = roles.get(effect.get("role"))
        if key is None:
            continue
        mapped = {k: v for k, v in effect.items() if k not in ("role", "ref")}
        mapped.update(extra_by_kind.get(effect["kind"], {}))
        out.append({"unit": key, **mapped})
    return out
