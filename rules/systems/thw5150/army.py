"""Army building for «5150» (spec §2.1–§2.9): a force of figures, each a Rep bought from the Normals list plus the
weapons, armour and grenades its player picks, in groups with Leaders.

A roster entry (see rules/contract/army.py) is one profile (У5/У4/У3 of a kind of Normals) × count, with options:
    {"weapon": ranged slug | null, "second_weapon": pistol/SMG slug | null (two-gun firing),
     "melee_weapon": melee slug | null (null: fights unarmed, free), "armour": armour slug,
     "grenades": n (14 points each, §5 A16), "group": name, "leader": bool, "star": bool}
Pricing is the book's «китайское меню» (L326–345): Rep + weapons + armour + grenades. The introductory game is
1000 points (L333); a roster's own limit replaces it. Going over is an error; the book's advice is a warning.
"""

from __future__ import annotations

import jsonschema

from rules.contract import ArmyPart, Issue, RosterReport
from rules.systems.thw5150 import equipment

INTRO_POINTS = 1000  # «Для вводной игры стоит начать с 1000 очков» (L333)
INTRO_FIGURES = 10  # «от 1 до 10» (L311–312), «10 будет хорошим числом для начинающих» (L122–123)
GRENADE_COST = equipment.GRENADES["cost"]
NOT_FOR_NORMALS = ("exo", "battle")  # «Они не могут иметь экзо-броню или Боевую Броню» (L1459–1460)
FACTION_NAMES = {f["slug"]: f["name"] for f in equipment.PACK["factions"]}
BUYABLE_RANGED = sorted(slug for slug in equipment.RANGED if slug != "grenades")

PROFILE_SCHEMA = {
    "type": "object",
    "required": ["slug", "name", "kind", "cost", "data"],
    "properties": {
        "slug": {"type": "string", "pattern": r"^[a-z0-9_-]+$", "maxLength": 80},
        "name": {"type": "string", "minLength": 1, "maxLength": 120},
        "faction": {"type": "string", "maxLength": 80},
        "kind": {"enum": ["figure"]},
        "cost": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "Points for the Rep"},
        "notes": {"type": "string", "maxLength": 1000},
        "data": {
            "type": "object",
            "required": ["rep"],
            "additionalProperties": False,
            "properties": {
                "rep": {"type": "integer", "minimum": 1, "maximum": 7, "description": "Умение"},
                "race": {"type": "string", "maxLength": 80},
                "random_roll": {"type": "array", "items": {"type": "integer"}, "maxItems": 2},
                "abilities": {"type": "array", "items": {"type": "string", "maxLength": 80}, "maxItems": 10},
            },
        },
    },
}

OPTIONS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "weapon": {"enum": [*BUYABLE_RANGED, None], "description": "Стрелковое оружие"},
        "second_weapon": {"enum": [*sorted(equipment.TWO_GUN_WEAPONS), None], "description": "Two-gun firing"},
        "melee_weapon": {"enum": [*sorted(equipment.MELEE), None], "description": "Оружие ближнего боя"},
        "armour": {"enum": sorted(equipment.ARMOUR), "description": "Персональная защита"},
        "grenades": {"type": "integer", "minimum": 0, "maximum": 20, "description": "Гранаты, 14 points each"},
        "group": {"type": "string", "minLength": 1, "maxLength": 40, "description": "The group it starts in"},
        "leader": {"type": "boolean", "description": "The group's Leader"},
        "star": {"type": "boolean", "description": "A Star: plays as a «Герой» from the start"},
    },
}
DEFAULT_OPTIONS = {
    "weapon": "pistol",
    "second_weapon": None,
    "melee_weapon": None,
    "armour": "none",
    "grenades": 0,
    "group": "1",
    "leader": False,
    "star": False,
}


def options_of(entry: dict) -> dict:
    options = entry.get("options")
    return {**DEFAULT_OPTIONS, **(options if isinstance(options, dict) else {})}


def count_of(entry: dict) -> int:
    count = entry.get("count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


def figure_cost(profile: dict, options: dict) -> int:
    """Rep + weapons + armour + grenades, as the spec's D14 adds them (У4 66 + assault rifle 41 + ЛБ 27 = 134)."""
    cost = int(profile.get("cost") or 0)
    for key in ("weapon", "second_weapon"):
        if options.get(key) in equipment.RANGED:
            cost += equipment.RANGED[options[key]]["cost"]
    if options.get("melee_weapon") in equipment.MELEE:
        cost += equipment.MELEE[options["melee_weapon"]]["cost"]
    cost += equipment.ARMOUR.get(options.get("armour"), {}).get("cost") or 0
    grenades = options.get("grenades") or 0
    return cost + GRENADE_COST * (grenades if isinstance(grenades, int) else 0)


def _issue(issues: list, severity: str, code: str, message: str, entry: str | None = None) -> None:
    issues.append(Issue(severity=severity, code=code, message=message, entry=entry))


def _check_entry(e: dict, options: dict, issues: list) -> None:
    key, profile = e["key"], e["profile"]
    name = profile.get("name", key)
    faction = profile.get("faction")
    errors = list(jsonschema.Draft202012Validator(OPTIONS_SCHEMA).iter_errors(e.get("options") or {}))
    if errors:
        _issue(issues, "error", "bad_options", f"{name}: the choices cannot be read ({errors[0].message}).", key)
        return
    for field in ("weapon", "second_weapon"):
        slug = options.get(field)
        if slug is None:
            continue
        w = equipment.RANGED[slug]
        if faction in FACTION_NAMES and faction not in w["available_to"]:
            who = ", ".join(FACTION_NAMES[f] for f in w["available_to"])
            _issue(issues, "error", "weapon_not_available", f"{name}: «{w['name']}» is only for {who} (L1511).", key)
    if options.get("second_weapon"):
        first = options.get("weapon")
        if first not in equipment.TWO_GUN_WEAPONS:
            _issue(
                issues,
                "error",
                "two_gun",
                f"{name}: firing two guns needs two pistols or two SMGs (L780–781); the first weapon is not one.",
                key,
            )
    if options.get("grenades") and faction in FACTION_NAMES and faction not in equipment.GRENADES["available_to"]:
        _issue(
            issues, "error", "grenades_not_available", f"{name}: only Police and Colonists have grenades (L1512).", key
        )
    if options.get("armour") in NOT_FOR_NORMALS:
        armour = equipment.ARMOUR[options["armour"]]["name"]
        _issue(issues, "error", "armour_not_available", f"{name}: Normals cannot wear «{armour}» (L1459–1460).", key)
    if options.get("weapon") is None and options.get("melee_weapon") is None:
        _issue(issues, "warning", "unarmed", f"{name} carries no weapon and can only fight unarmed.", key)


def cost_roster(roster: dict) -> RosterReport:
    entries = [e for e in roster.get("entries") or [] if isinstance(e, dict) and isinstance(e.get("profile"), dict)]
    issues: list[Issue] = []
    entry_costs: dict[str, int] = {}
    total = figures = stars = lasers = 0
    groups: dict[str, int] = {}  # group -> leaders in it
    kinds = set()
    for e in entries:
        count, options = count_of(e), options_of(e)
        if count == 0:
            _issue(issues, "error", "bad_count", "The count must be a whole number of 1 or more.", e["key"])
        _check_entry(e, options, issues)
        cost = figure_cost(e["profile"], options) * count
        entry_costs[e["key"]] = cost
        total += cost
        figures += count
        group = str(options.get("group") or "1")
        groups[group] = groups.get(group, 0) + (count if options.get("leader") else 0)
        stars += count if options.get("star") else 0
        lasers += count if equipment.RANGED.get(options.get("weapon") or "", {}).get("kind") == "beam" else 0
        kinds.add(e["profile"].get("faction"))
    for group, leaders in sorted(groups.items()):
        if leaders == 0:
            _issue(issues, "warning", "no_leader",
                   f"Group {group} has no Leader: every group has one (L264); without him the highest Rep only "
                   f"activates the group, with no 3d6 and no Leader Die (L289–294).")  # fmt: skip
        elif leaders > 1:
            _issue(issues, "warning", "many_leaders",
                   f"Group {group} has {leaders} Leaders: only one gives the Leader Die; split the group.")  # fmt: skip
    if len(kinds - {None}) > 1:
        names = ", ".join(FACTION_NAMES.get(k, str(k)) for k in sorted(k for k in kinds if k))
        _issue(issues, "info", "mixed_kinds", f"This force mixes kinds of Normals ({names}).")
    if stars:
        _issue(issues, "info", "stars",
               "The basic rules have no Star/Grunt split: a Star plays as a «Герой» from the start (setting "
               "«stars»).")  # fmt: skip
    if lasers:
        _issue(issues, "info", "lasers", "Normals have laser weapons «в очень ограниченных количествах» (L1445–1446).")
    if figures > INTRO_FIGURES:
        _issue(issues, "warning", "many_figures",
               f"{figures} figures: the book suggests 1 to 10 for an introductory game (L311–312).")  # fmt: skip
    limit = roster.get("points_limit") or INTRO_POINTS
    if total > limit:
        what = "its limit" if roster.get("points_limit") else "the introductory game's 1000 points (L333)"
        _issue(issues, "error", "over_limit", f"The force costs {total}, over {what} of {limit} by {total - limit}.")
    return RosterReport(total=total, entry_costs=entry_costs, issues=issues)


class Thw5150Army(ArmyPart):
    """Figures priced by the book's points: Rep from the Normals list, weapons, armour and grenades."""

    pricing = "points"
    currency = "pts"
    profile_schema = PROFILE_SCHEMA
    profile_kinds = {"figure": "Фигурка"}

    def options_schema(self, profile: dict) -> dict:
        return OPTIONS_SCHEMA

    def default_options(self, profile: dict) -> dict:
        return dict(DEFAULT_OPTIONS)

    def cost_roster(self, roster: dict) -> RosterReport:
        return cost_roster(roster)


ARMY = Thw5150Army()
