"""Hiring a crew for «Энфорсеры» (spec §2.3–§2.5, book L21–59, L327–350): requisition pricing by formula.

A profile is an archetype (stats, equipment allowance in REQ, perk count, default kit), or one of the tables the
book gives (armour, prayers, the perk Prayer) or that a group writes itself (weapons, perks). Only archetypes
are hired; a roster entry's options say how:

    {"name": "Kate", "stat_bump": 1, "stats": {...rolled stats, L23...}, "own_gear": true,
     "armour": "enforcer-gear", "weapons": [{"name", "damage", "reach_cm", "traits", "ranged", "capacity",
     "req"}], "items": [{"name": "мед.кит", "req": 0}], "perks": ["Prayer"], "campaign": {...carried over...}}

Price (L51–57): 20 REQ, +10 for each +1 to all stats, + half the archetype's equipment allowance rounded up
when it comes with its own gear; it then spends that allowance on gear (armour REQ from the table). Without its
own gear the character brings nothing, and gear bought for it costs full price (the book's «за полцены» read
the other way round; an info issue says so).
"""

from __future__ import annotations

from rules.contract import ArmyPart, Issue, RosterReport
from rules.i18n import _
from rules.systems.enforcers import tables
from rules.systems.enforcers.actions.common import TRAITS

STATS_OBJECT = {
    "type": "object",
    "additionalProperties": False,
    "required": list(tables.STATS),
    "properties": {
        s: {"type": "integer", "minimum": tables.STAT_MIN, "maximum": tables.STAT_MAX} for s in tables.STATS
    },
}
WEAPON_DATA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["damage"],
    "properties": {
        "name": {"type": "string", "maxLength": 120},
        "damage": {"type": "integer", "minimum": 0, "maximum": 99},
        "reach_cm": {"type": "integer", "minimum": 0, "maximum": 50, "description": "Melee reach (0: not melee)"},
        "ranged": {"type": "boolean"},
        "thrown": {"type": "boolean"},
        "traits": {"type": "array", "items": {"enum": list(TRAITS)}, "uniqueItems": True},
        "capacity": {"type": ["integer", "null"], "minimum": 1, "maximum": 999},
        "range_bands_cm": {
            "type": "object",
            "additionalProperties": False,
            "properties": {b: {"type": "integer", "minimum": 0, "maximum": 500} for b in ("short", "medium", "long")},
            "description": "Upper bound of each band in cm (the book's weapon table is missing)",
        },
        "req": {"type": "integer", "minimum": 0, "maximum": 500},
    },
}
ITEM = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "maxLength": 120},
        "req": {"type": "integer", "minimum": 0, "maximum": 500},
    },
}
CAMPAIGN = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "injury_days": {"type": "integer", "minimum": 0, "maximum": 999},
        "stat_losses": {"type": "object", "additionalProperties": False,
                        "properties": {s: {"type": "integer", "minimum": 0, "maximum": 19} for s in tables.STATS}},
        "armour_broken": {"type": "boolean"},
        "armour_unusable_days": {"type": "integer", "minimum": 0, "maximum": 999},
        "armour_ap": {"type": "integer", "minimum": 0, "maximum": 40, "description": "AP kept (A14 setting off)"},
        "scenarios": {"type": "integer", "minimum": 0, "maximum": 9999},
        "dead": {"type": "boolean"},
    },
}  # fmt: skip

_DATA_BY_KIND = {
    "archetype": {
        "type": "object",
        "additionalProperties": False,
        "required": ["gear_req"],
        "properties": {
            "stats": {"anyOf": [STATS_OBJECT, {"type": "null"}], "description": "Default stats (null: not given)"},
            "gear_req": {"type": "integer", "minimum": 0, "maximum": 500, "description": "Equipment allowance, REQ"},
            "perks_allowed": {"type": ["integer", "null"], "minimum": 0, "maximum": 5},
            "perks": {"type": "array", "items": {"type": "string", "maxLength": 60}, "maxItems": 5},
            "gear": {"type": "array", "items": {"type": "object"}, "maxItems": 30},
            "crit": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 20}},
        },
    },
    "weapon": WEAPON_DATA,
    "armour": {"type": "object", "required": ["ap"], "properties": {"ap": {"type": "integer", "minimum": 0, "maximum": 40}}},
    "perk": {"type": "object", "properties": {"text": {"type": "string"}, "extra_actions": {"type": "integer", "minimum": 0, "maximum": 2}}},
    "prayer": {"type": "object", "required": ["key"]},
}  # fmt: skip

PROFILE_SCHEMA = {
    "type": "object",
    "required": ["slug", "name", "kind", "cost", "data"],
    "properties": {
        "slug": {"type": "string", "minLength": 1, "maxLength": 80},
        "name": {"type": "string", "minLength": 1, "maxLength": 120},
        "faction": {"type": "string", "maxLength": 80},
        "kind": {"enum": list(_DATA_BY_KIND)},
        "cost": {"type": "integer", "minimum": 0, "maximum": 1000},
        "notes": {"type": "string"},
        "data": {"type": "object"},
    },
    "allOf": [
        {"if": {"properties": {"kind": {"const": kind}}}, "then": {"properties": {"data": schema}}}
        for kind, schema in _DATA_BY_KIND.items()
    ],
}

HIRED_KINDS = ("archetype",)


def _issue(issues: list, severity: str, code: str, message: str, entry: str | None = None) -> None:
    issues.append(Issue(severity=severity, code=code, message=message, entry=entry))


def _count(entry: dict) -> int:
    count = entry.get("count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


def base_stats(profile: dict, options: dict) -> dict | None:
    """The rolled stats of the entry, else the archetype's defaults (L23); None when neither is given."""
    stats = options.get("stats") or (profile.get("data") or {}).get("stats")
    return dict(stats) if stats else None


def agent_stats(profile: dict, options: dict) -> dict | None:
    """Stats as hired (+1 to all per bump, L53) minus what injuries took (L256, L258)."""
    stats = base_stats(profile, options)
    if stats is None:
        return None
    bump = options.get("stat_bump", 0)
    losses = (options.get("campaign") or {}).get("stat_losses") or {}
    return {s: max(tables.STAT_MIN, v + bump - losses.get(s, 0)) for s, v in stats.items()}


def gear_spent(options: dict) -> int:
    armour = tables.ARMOUR.get(options.get("armour") or "")
    spent = armour["req"] if armour else 0
    spent += sum(w.get("req", 0) for w in options.get("weapons") or [])
    spent += sum(i.get("req", 0) for i in options.get("items") or [])
    return spent


def entry_cost(profile: dict, options: dict) -> int:
    """REQ of one agent: the hire (L51–57) plus gear bought beyond what its own allowance covers."""
    data = profile.get("data") or {}
    own = options.get("own_gear", True)
    hire = tables.hire_cost(options.get("stat_bump", 0), own, data.get("gear_req", 0))
    if own:
        return hire  # its gear comes out of its own allowance (spending more is an error issue)
    return hire + gear_spent(options)


class EnforcersArmy(ArmyPart):
    pricing = "formula"
    currency = "REQ"
    profile_schema = PROFILE_SCHEMA
    profile_kinds = {"archetype": "Архетип", "weapon": "Оружие", "armour": "Броня", "perk": "Перк", "prayer": "Молитва"}

    def options_schema(self, profile: dict) -> dict:
        if profile.get("kind") not in HIRED_KINDS:
            return {"type": "object", "maxProperties": 0}
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "maxLength": 120, "description": "The agent's name"},
                "stat_bump": {"type": "integer", "minimum": 0, "maximum": 19, "description": "+1 to all stats each"},
                "stats": STATS_OBJECT,
                "own_gear": {"type": "boolean", "description": "Hired with its own equipment allowance (L55–57)"},
                "armour": {"enum": [None, *tables.ARMOUR]},
                "weapons": {"type": "array", "items": WEAPON_DATA, "maxItems": 8},
                "items": {"type": "array", "items": ITEM, "maxItems": 20},
                "perks": {"type": "array", "items": {"type": "string", "maxLength": 60}, "maxItems": 5},
                "campaign": CAMPAIGN,
            },
        }

    def default_options(self, profile: dict) -> dict:
        if profile.get("kind") not in HIRED_KINDS:
            return {}
        data = profile.get("data") or {}
        gear = data.get("gear") or []
        armour = next((g.get("armour") for g in gear if g.get("armour") in tables.ARMOUR), None)
        weapons = [
            {k: v for k, v in g.items() if k in WEAPON_DATA["properties"]} for g in gear if g.get("kind") == "weapon"
        ]
        return {"stat_bump": 0, "own_gear": True, "armour": armour, "weapons": weapons,
                "perks": list(data.get("perks") or [])}  # fmt: skip

    def example_roster(self, profiles: list[dict], side: int) -> dict:
        """A legal crew of one Apprentice for a demo or the contract suite. The book prints no stats, weapons or
        gear list, so the example's stats and weapon are made up for it (and say so); its armour is the book's."""
        apprentice = next((p for p in profiles if p.get("kind") == "archetype"), None)
        if apprentice is None:
            return super().example_roster(profiles, side)
        stats = dict.fromkeys(tables.STATS, 10)
        if side % 2 == 0:
            options = {"name": "Kate (example)", "stats": {**stats, "BS": 12}, "stat_bump": 1, "own_gear": True,
                       "armour": "enforcer-gear", "perks": ["Prayer"],
                       "weapons": [{"name": "Autogun (example)", "damage": 4, "ranged": True, "capacity": 6,
                                    "range_bands_cm": {"short": 10, "medium": 25, "long": 50}}],
                       "items": [{"name": "сменный магазин"}, {"name": "мед.кит"}]}  # fmt: skip
        else:
            options = {"name": "Thug (example)", "stats": {**stats, "WS": 13}, "own_gear": True,
                       "armour": "police-riot-gear",
                       "weapons": [{"name": "Blade (example)", "damage": 5, "reach_cm": 2, "traits": ["kinetic"]}]}  # fmt: skip
        entry = {"key": f"agent{side + 1}", "profile": apprentice, "count": 1, "options": options}
        return {"faction": apprentice.get("faction", ""), "points_limit": None, "entries": [entry]}

    def cost_roster(self, roster: dict) -> RosterReport:
        issues: list[Issue] = []
        costs: dict[str, int] = {}
        for entry in roster.get("entries") or []:
            costs[entry["key"]] = self._entry(entry, issues)
        total = sum(costs.values())
        limit = roster.get("points_limit")
        if limit is not None and total > limit:
            _issue(
                issues,
                "error",
                "over_budget",
                _("The crew costs {total} REQ, over the {limit} REQ available.").format(total=total, limit=limit),
            )
        if not any(e["profile"].get("kind") in HIRED_KINDS for e in roster.get("entries") or []):
            _issue(issues, "info", "no_agents", _("No agent hired yet: add an archetype."))
        return RosterReport(total=total, entry_costs=costs, issues=issues)

    def _entry(self, entry: dict, issues: list) -> int:
        profile, key = entry["profile"], entry["key"]
        name = profile.get("name", "?")
        kind = profile.get("kind")
        if kind not in HIRED_KINDS:
            word = self.profile_kinds.get(kind, kind)
            _issue(issues, "error", "not_hired", _("{name} ({word}) is not an agent: choose it in an agent's options instead "
                                                   "of hiring it.").format(name=name, word=word), key)  # fmt: skip
            return 0
        options = entry.get("options") or {}
        data = profile.get("data") or {}
        count = _count(entry)
        label = options.get("name") or name
        stats = base_stats(profile, options)
        if stats is None:
            _issue(issues, "error", "no_stats", _("{label}: the book gives {name} no stats. Roll them or write your "
                                                  "group's (L23) in the entry's stats.").format(label=label, name=name),
                   key)  # fmt: skip
        else:
            bump = options.get("stat_bump", 0)
            over = sorted(s for s, v in stats.items() if v + bump > tables.STAT_MAX)
            if over:
                _issue(issues, "error", "stat_over_20", _("{label}: +{bump} to all stats takes {stats} above 20; stats run "
                                                          "from 1 to 20 (L29).").format(label=label, bump=bump,
                                                                                        stats=", ".join(over)), key)  # fmt: skip
        perks = options.get("perks") or []
        allowed = data.get("perks_allowed")
        if allowed is not None and len(perks) > allowed:
            _issue(
                issues,
                "error",
                "too_many_perks",
                _("{label} may have {allowed} perk(s), not {count} (L25).").format(
                    label=label, allowed=allowed, count=len(perks)
                ),
                key,
            )
        elif allowed is None and perks:
            _issue(
                issues,
                "info",
                "perk_count_unknown",
                _("The book gives no perk count for {name} (1 or 2, L25).").format(name=name),
                key,
            )
        spent = gear_spent(options)
        own = options.get("own_gear", True)
        if own and spent > data.get("gear_req", 0):
            _issue(issues, "error", "over_allowance", _("{label} spends {spent} REQ on gear; {name}'s allowance is {allowance} REQ "
                                                        "(L55).").format(label=label, spent=spent, name=name,
                                                                         allowance=data.get("gear_req", 0)), key)  # fmt: skip
        if not own and spent:
            _issue(issues, "info", "gear_full_price", _("{label} came without its own gear: its {spent} REQ of gear is paid in "
                                                        "full (own gear costs half, L57).").format(label=label,
                                                                                                  spent=spent), key)  # fmt: skip
        campaign = options.get("campaign") or {}
        if campaign.get("dead"):
            _issue(issues, "error", "dead", _("{label} died in a scenario.").format(label=label), key)
        if campaign.get("injury_days"):
            _issue(issues, "warning", "injured", _("{label} is injured for {days} more days and cannot take part in "
                                                   "scenarios (L240).").format(label=label, days=campaign["injury_days"]),
                   key)  # fmt: skip
        if campaign.get("armour_broken") or campaign.get("armour_unusable_days"):
            days = campaign.get("armour_unusable_days")
            message = (_("{label}'s armour is unusable for {days} more days (L262–268).") if days else
                       _("{label}'s armour is unusable until repaired (L262–268)."))  # fmt: skip
            _issue(issues, "warning", "armour_broken", message.format(label=label, days=days), key)
        return count * entry_cost(profile, options)


ARMY = EnforcersArmy()
