"""The builder's page for «Энфорсеры» (rules/contract/army.py ENTRY_VIEW_DOC): how each entry of a crew is shown
and set, in the book's words, and the builder tool that hires an agent with rolled stats.

An agent's card sets everything the book lets a player choose (L21–59): its name, its nine stats typed in
(1–20, L29) or rolled, «+1 ко всем» (L53), whether it comes with its own gear (L55–57), its armour (the table
L327–350), perks (Prayer, L127), a med-kit (L117), spare magazines (L97), and its weapons, which the player writes
(the book has no weapon table: name, damage, reach, magazine, traits, REQ). A control names a key of the entry's
options and, for the stats and each weapon, a path inside it ("BS", "0.damage"). Armour and perks added from the catalogue
are given to an agent; a prayer's card says who may pray it.
"""

from __future__ import annotations

import secrets

from rules.contract import BuilderResult, BuilderTool, RosterReport
from rules.dice import SeededDice
from rules.errors import RuleInputError
from rules.i18n import N_, _
from rules.systems.enforcers import agents, tables, words
from rules.systems.enforcers.hiring import (
    CARD_KINDS,
    GIVEN_KINDS,
    HIRED_KINDS,
    agent_stats,
    crew,
    gear_spent,
    label_of,
)

STAT_LABELS = {
    "HL": N_("Health (HL)"),
    "WS": N_("Melee (WS)"),
    "BS": N_("Shooting (BS)"),
    "DX": N_("Dexterity (DX)"),
    "TN": N_("Toughness (TN)"),
    "WL": N_("Will (WL)"),
    "IT": N_("Intellect (IT)"),
    "PR": N_("Perception (PR)"),
    "LD": N_("Leadership (LD)"),
}
# Weapon traits as the book writes them: Latin for Kinetic, Punching and 2H (L337, L343–347), the statuses' names
# for the traits that inflict them (L228–230).
BOOK_LATIN = {"kinetic": "Kinetic", "punching": "Punching", "two_handed": "2H"}
TRAIT_LABELS = {
    "bleeding": N_("Bleeding"),
    "poisoned": N_("Poisoned"),
    "burning": N_("Burning"),
    "stunned": N_("Stunned"),
    "disoriented": N_("Disoriented"),
}
MAX_WEAPONS = 4  # weapons an agent's card offers (the options allow 8)
MAX_SEED = 2**53 - 1  # a seed a phone's number field keeps exactly
NEW_SEEDS = 1_000_000  # a new seed short enough to say across the table

ROLL_STATS = BuilderTool(
    key="roll-stats",
    label=N_("Hire an agent with rolled stats"),
    help=N_(
        "The book says to roll a character's stats (L23) but gives no dice for it: here each stat is a d20, 1 to "
        "20 as the book bounds them (L29). The seed and every die are shown; the same seed gives the same stats. "
        "Or type the stats in on an agent's card."
    ),
    fields=({"name": "seed", "label": N_("Seed (empty: a new one)"), "type": "int", "min": 0, "max": MAX_SEED},),
    input_schema={
        "type": "object",
        "additionalProperties": False,
        "properties": {"seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED}},
    },
)


# The tool ------------------------------------------------------------------------------------------------------
def roll_stats(seed: int) -> dict[str, int]:
    """A d20 per stat, in the book's order (L31–39), from the seed."""
    dice = SeededDice(seed)
    return {stat: dice.roll(20, stat) for stat in tables.STATS}


def said_roll(record: dict) -> str:
    dice = record.get("dice") or {}
    rolled = ", ".join(f"{s} {dice[s]}" for s in tables.STATS if s in dice)
    return _("Rolled with seed {seed}, a d20 each: {dice}.").format(seed=record.get("seed"), dice=rolled)


def roll_agent(roster: dict, profiles: list[dict], inputs: dict) -> BuilderResult:
    """A new agent of the pack's first archetype with a d20 for each of its nine stats."""
    archetype = next((p for p in profiles if p.get("kind") in HIRED_KINDS), None)
    if archetype is None:
        raise RuleInputError({"tool": _("This pack has no archetype to hire.")})
    seed = inputs["seed"] if "seed" in inputs else secrets.randbelow(NEW_SEEDS)
    stats = roll_stats(seed)
    record = {"seed": seed, "dice": dict(stats)}
    options = {"stat_bump": 0, "own_gear": True, "armour": None, "weapons": [], "perks": [], "stats": stats,
               "rolled": record}  # fmt: skip
    return BuilderResult(
        entries=[{"profile": archetype["slug"], "count": 1, "options": options}],
        lines=[_("{archetype} hired.").format(archetype=archetype.get("name")), said_roll(record)],
        result={"profile": archetype["slug"], **record},
    )


# Refusals ----------------------------------------------------------------------------------------------------------
OPTION_LABELS = {
    "name": N_("Agent's name"),
    "stat_bump": N_("+1 to all stats (10 REQ each)"),
    "own_gear": N_("With its own gear (pays half its allowance)"),
    "armour": N_("Armour"),
    "medkit": N_("Med-kit"),
    "spare_magazines": N_("Spare magazines"),
    "perks": N_("Perks"),
    "weapons": N_("Weapons"),
    "agent": N_("Worn by"),
}
WEAPON_LABELS = {
    "name": N_("Weapon {n}: name"),
    "damage": N_("Weapon {n}: damage"),
    "ranged": N_("Weapon {n}: shooting"),
    "reach_cm": N_("Weapon {n}: melee reach, cm"),
    "capacity": N_("Weapon {n}: magazine, shots"),
    "thrown": N_("Weapon {n}: thrown"),
    "traits": N_("Weapon {n}: traits"),
    "req": N_("Weapon {n}: REQ"),
}


def field_label(path: list[str]) -> str:
    """The control a path of the options belongs to, as the card labels it."""
    if path[:1] == ["stats"] and len(path) > 1 and path[1] in STAT_LABELS:
        return _(STAT_LABELS[path[1]])
    if path[:1] == ["weapons"] and len(path) > 2 and path[1].isdigit() and path[2] in WEAPON_LABELS:
        return _(WEAPON_LABELS[path[2]]).format(n=int(path[1]) + 1)
    if path and path[0] in OPTION_LABELS:
        return _(OPTION_LABELS[path[0]])
    return _("This value")


def refusal(path: list[str], err) -> str:
    """Why the builder refused a value, in the player's words: the control's label and what it takes."""
    label = field_label(path)
    schema = err.schema if isinstance(err.schema, dict) else {}
    low, high = schema.get("minimum"), schema.get("maximum")
    if err.validator in ("minimum", "maximum") and low is not None and high is not None:
        return _("{field}: a whole number from {low} to {high}.").format(field=label, low=low, high=high)
    if err.validator == "maxLength":
        return _("{field}: at most {n} characters.").format(field=label, n=err.validator_value)
    if err.validator in ("maxItems", "maxProperties"):
        return _("{field}: too many.").format(field=label)
    if err.validator == "additionalProperties":
        return _("{field}: this card has no such setting.").format(field=label)
    if err.validator == "type" and "integer" in str(err.validator_value):
        return _("{field}: a whole number is needed.").format(field=label)
    return _("{field}: not one of the values this card offers.").format(field=label)


# The catalogue ---------------------------------------------------------------------------------------------------
def profile_note(profile: dict) -> str:
    data = profile.get("data") or {}
    kind = profile.get("kind")
    if kind in HIRED_KINDS:
        return _("gear {req} REQ").format(req=data.get("gear_req", 0))
    if kind == "armour" and "ap" in data:
        return f"AP {data['ap']}"
    if kind == "prayer":
        return words.prayer_card(data)[0].split(" · ")[0]
    return ""


# Entry views -----------------------------------------------------------------------------------------------------
def _yes_no(value: bool) -> list[dict]:
    return [{"value": False, "label": _("no"), "selected": not value},
            {"value": True, "label": _("yes"), "selected": bool(value)}]  # fmt: skip


def _text(text: str) -> dict:
    return {"type": "text", "text": text}


def armour_label(slug: str) -> str:
    a = tables.ARMOUR[slug]
    return f"{a['name']} · AP {a['ap']} · {a['req']} REQ"


def _price_line(entry: dict, crew_options: dict, cost: int) -> str:
    """How the agent's REQ adds up (L51–57) and what its gear spends of its allowance (L55)."""
    options = entry.get("options") or {}
    data = entry["profile"].get("data") or {}
    bump = options.get("stat_bump", 0)
    parts = [_("hire {n}").format(n=tables.BASE_HIRE_REQ)]
    if bump:
        parts.append(_("+{bump} to all stats {n}").format(bump=bump, n=tables.STAT_BUMP_REQ * bump))
    spent = gear_spent(crew_options)
    if options.get("own_gear", True):
        allowance = data.get("gear_req", 0)
        parts.append(_("own gear {n} (half of {allowance}, L57)").format(n=-(-allowance // 2), allowance=allowance))
        gear = _("Gear: {spent} of {allowance} REQ spent.").format(spent=spent, allowance=allowance)
    else:
        if spent:
            parts.append(_("gear {n}").format(n=spent))
        gear = _("Gear at full price (no allowance of its own).")
    count = max(entry.get("count", 1), 1)
    return _("Price: {parts} = {cost} REQ. {gear}").format(parts=" + ".join(parts), cost=cost // count, gear=gear)


def _derived_line(profile: dict, crew_options: dict) -> str:
    stats = agent_stats(profile, crew_options)
    if stats is None:
        return ""
    sheet = {"stats": stats, "armour": crew_options.get("armour")}
    derived = agents.derived(sheet)
    return _("HP {hp} · AP {ap} · move {move} cm · carries {carry}").format(
        hp=agents.effective_stats(sheet)["HL"], ap=agents.max_ap(sheet), move=derived["move"], carry=derived["carry"]
    )


def _weapon_blocks(i: int, weapon: dict) -> list[dict]:
    n = i + 1
    traits = weapon.get("traits") or []
    return [
        _text(_("Weapon {n}").format(n=n)),
        {"type": "input", "option": "weapons", "path": f"{i}.name", "label": _("Weapon {n}: name").format(n=n),
         "value": weapon.get("name")},
        {"type": "number", "option": "weapons", "path": f"{i}.damage", "label": _("Weapon {n}: damage").format(n=n),
         "value": weapon.get("damage"), "min": 0, "max": 99},
        {"type": "choice", "option": "weapons", "path": f"{i}.ranged", "label": _("Weapon {n}: shooting").format(n=n), "resets": [],
         "choices": _yes_no(weapon.get("ranged"))},
        {"type": "number", "option": "weapons", "path": f"{i}.reach_cm", "label": _("Weapon {n}: melee reach, cm").format(n=n),
         "value": weapon.get("reach_cm"), "min": 0, "max": 50},
        {"type": "number", "option": "weapons", "path": f"{i}.capacity", "label": _("Weapon {n}: magazine, shots").format(n=n),
         "value": weapon.get("capacity"), "min": 1, "max": 999},
        {"type": "choice", "option": "weapons", "path": f"{i}.thrown", "label": _("Weapon {n}: thrown").format(n=n),
         "resets": [], "choices": _yes_no(weapon.get("thrown"))},
        {"type": "checks", "option": "weapons", "path": f"{i}.traits", "label": _("Weapon {n}: traits").format(n=n),
         "items": [{"value": t, "label": BOOK_LATIN.get(t) or _(TRAIT_LABELS[t]), "checked": t in traits}
                   for t in (*BOOK_LATIN, *TRAIT_LABELS)],
         "empty": ""},
        {"type": "number", "option": "weapons", "path": f"{i}.req", "label": _("Weapon {n}: REQ").format(n=n),
         "value": weapon.get("req"), "min": 0, "max": 500},
    ]  # fmt: skip


def _weapon_count_choices(weapons: list[dict]) -> list[dict]:
    out = []
    for n in range(0, max(MAX_WEAPONS, len(weapons)) + 1):
        kept = [dict(w) for w in weapons[:n]]
        kept += [{"name": _("Weapon {n}").format(n=i + 1)} for i in range(len(kept), n)]
        label = _("no weapons") if n == 0 else str(n)
        out.append({"value": kept, "label": label, "selected": n == len(weapons)})
    return out


def agent_view(entry: dict, crew_options: dict, cost: int) -> dict:
    profile, options = entry["profile"], entry.get("options") or {}
    stats = options.get("stats") or {}
    defaults = (profile.get("data") or {}).get("stats") or {}
    weapons = options.get("weapons") or []
    perks = options.get("perks") or []
    given_armour = [a for a in crew_options.get("given_armour") or [] if a in tables.ARMOUR]
    blocks = [_text(_price_line(entry, crew_options, cost))]
    derived = _derived_line(profile, crew_options)
    if derived:
        blocks.append(_text(derived))
    blocks.append({"type": "input", "option": "name", "label": _("Agent's name"), "value": options.get("name")})
    blocks.append(_text(_("Stats: type each in, 1 to 20 (L29), or roll them (L23).")))
    rolled = options.get("rolled")
    if isinstance(rolled, dict):
        blocks.append(_text(said_roll(rolled)))
    for stat in tables.STATS:
        value = stats.get(stat, defaults.get(stat) if not stats else None)
        blocks.append({"type": "number", "option": "stats", "path": stat, "label": _(STAT_LABELS[stat]), "value": value,
                       "min": tables.STAT_MIN, "max": tables.STAT_MAX})  # fmt: skip
    blocks += [
        {"type": "number", "option": "stat_bump", "label": _("+1 to all stats (10 REQ each)"),
         "value": options.get("stat_bump", 0), "min": 0, "max": 19},
        {"type": "choice", "option": "own_gear", "label": _("With its own gear (pays half its allowance)"),
         "resets": [], "choices": _yes_no(options.get("own_gear", True))},
    ]  # fmt: skip
    if given_armour and not options.get("armour"):
        blocks.append(_text(_("Armour: {armour} (its own entry).").format(armour=armour_label(given_armour[0]))))
    else:
        current = options.get("armour")
        choices = [{"value": None, "label": _("no armour"), "selected": current is None}]
        choices += [{"value": slug, "label": armour_label(slug), "selected": slug == current} for slug in tables.ARMOUR]
        blocks.append({"type": "choice", "option": "armour", "label": _("Armour"), "resets": [],
                       "choices": choices})  # fmt: skip
    offered = ["Prayer", *[p for p in perks if p != "Prayer"]]
    blocks.append({"type": "checks", "option": "perks", "label": _("Perks"), "empty": "",
                   "items": [{"value": p, "label": p, "checked": p in perks} for p in offered]})  # fmt: skip
    blocks += [
        {"type": "choice", "option": "medkit", "label": _("Med-kit"), "resets": [],
         "choices": _yes_no(options.get("medkit"))},
        {"type": "number", "option": "spare_magazines", "label": _("Spare magazines"),
         "value": options.get("spare_magazines", 0), "min": 0, "max": 9},
        {"type": "choice", "option": "weapons", "label": _("Weapons (the book has no weapon table: write your "
                                                            "group's)"), "resets": [],
         "choices": _weapon_count_choices(weapons)},
    ]  # fmt: skip
    for i, weapon in enumerate(weapons):
        blocks += _weapon_blocks(i, weapon)
    summary = agent_summary(entry, crew_options)
    lines = [summary] + ([said_roll(rolled)] if isinstance(rolled, dict) else [])
    return {"blocks": blocks, "card": [_text(summary)], "summary": summary, "lines": lines}


def agent_summary(entry: dict, crew_options: dict) -> str:
    profile, options = entry["profile"], entry.get("options") or {}
    stats = agent_stats(profile, crew_options)
    parts = [options["name"]] if options.get("name") else []
    parts.append(" ".join(f"{s} {stats[s]}" for s in tables.STATS) if stats else _("stats not given yet"))
    armour = crew_options.get("armour")
    if armour in tables.ARMOUR:
        parts.append(f"{tables.ARMOUR[armour]['name']} (AP {tables.ARMOUR[armour]['ap']})")
    for weapon in options.get("weapons") or []:
        name = weapon.get("name") or _("weapon")
        parts.append(_("{weapon}, damage {damage}").format(weapon=name, damage=weapon.get("damage", "?")))
    if crew_options.get("medkit"):
        parts.append(_("med-kit"))
    if crew_options.get("spare_magazines"):
        parts.append(_("spare magazines: {n}").format(n=crew_options["spare_magazines"]))
    parts += list(crew_options.get("perks") or [])
    return " · ".join(parts)


def _agents_choice(entry: dict, agents: dict[str, str], label: str) -> dict:
    current = (entry.get("options") or {}).get("agent")
    nobody = _("nobody yet") if agents else _("no agent in the crew yet: add an archetype")
    choices = [{"value": None, "label": nobody, "selected": current not in agents}]
    choices += [{"value": key, "label": name, "selected": key == current} for key, name in agents.items()]
    return {"type": "choice", "option": "agent", "label": label, "resets": [], "choices": choices}


def given_view(entry: dict, agents: dict[str, str], merged: dict[str, dict]) -> dict:
    profile = entry["profile"]
    data = profile.get("data") or {}
    holder = (entry.get("options") or {}).get("agent")
    if profile.get("kind") == "armour":
        about = f"AP {data.get('ap', '?')} · {profile.get('cost', 0)} REQ"
        if data.get("traits"):
            about += f" · {data['traits']}"
        blocks = [_text(about), _agents_choice(entry, agents, _("Worn by"))]
        if holder in merged:
            if merged[holder].get("own_gear", True):
                blocks.append(_text(_("Paid from {name}'s gear allowance (L57).").format(name=agents[holder])))
            else:
                blocks.append(_text(_("Paid in full: {name} came without its own gear.").format(name=agents[holder])))
    else:
        blocks = [_text(data["text"])] if data.get("text") else []
        blocks.append(_agents_choice(entry, agents, _("Agent")))
    label = _("Worn by") if profile.get("kind") == "armour" else _("Agent")
    summary = f"{label}: {agents.get(holder, _('nobody yet'))}"
    return {"blocks": blocks, "card": [_text(summary)], "summary": summary, "lines": [summary]}


def prayer_view(entry: dict, agents: dict[str, str], merged: dict[str, dict]) -> dict:
    data = entry["profile"].get("data") or {}
    about, effect = words.prayer_card(data)
    priests = [agents[k] for k, o in merged.items() if "prayer" in {p.lower() for p in o.get("perks") or []}]
    who = (_("May pray it: {names}.").format(names=", ".join(priests)) if priests
           else _("Nobody in the crew may pray it: tick the perk Prayer for an agent (L127)."))  # fmt: skip
    blocks = [_text(about), _text(effect), _text(who)]
    summary = f"{about}. {effect}"
    return {"blocks": blocks, "card": [_text(summary)], "summary": summary, "lines": [summary]}


def entry_views(roster: dict, report: RosterReport) -> dict[str, dict]:
    entries = [e for e in roster.get("entries") or [] if isinstance(e, dict) and isinstance(e.get("profile"), dict)]
    merged = crew(roster)
    agents = {e["key"]: label_of(e) for e in entries if e["key"] in merged}
    views = {}
    for e in entries:
        kind = e["profile"].get("kind")
        if kind in HIRED_KINDS:
            views[e["key"]] = agent_view(e, merged[e["key"]], report.entry_costs.get(e["key"], 0))
        elif kind in GIVEN_KINDS:
            views[e["key"]] = given_view(e, agents, merged)
        elif kind in CARD_KINDS:
            views[e["key"]] = prayer_view(e, agents, merged)
    return views
