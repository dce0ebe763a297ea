"""Hiring a crew for «Энфорсеры» (spec §2.3–§2.5, book L21–59, L327–350): requisition pricing by formula.

A profile is an archetype (stats, equipment allowance in REQ, perk count, default kit), or one of the tables the
book gives (armour, prayers, the perk Prayer) or that a group writes itself (weapons, perks). Only archetypes
are hired; a roster entry's options say how:

    {"name": "Kate", "stat_bump": 1, "stats": {...typed in or rolled, L23...}, "rolled": {...the roll...},
     "own_gear": true, "armour": "enforcer-gear", "weapons": [{"name", "damage", "reach_cm", "traits", "ranged",
     "capacity", "req"}], "medkit": true, "spare_magazines": 1, "items": [{"name": "гранаты", "req": 0}],
     "perks": ["Prayer"], "campaign": {...carried over...}}

The other tables of the pack can be added to a crew too (the builder offers every profile with «+»): a piece of
armour or a perk is given to one of the crew's agents (options {"agent": entry key}); it is then worn or held by
that agent as if chosen in its own options, and its REQ comes out of that agent's allowance. A prayer is a card of
the crew's: the four prayers are what an agent with the perk Prayer may pray (L127), so it only tells who can.

Price (L51–57): 20 REQ, +10 for each +1 to all stats, + half the archetype's equipment allowance rounded up
when it comes with its own gear; it then spends that allowance on gear (armour REQ from the table). Without its
own gear the character brings nothing, and gear bought for it costs full price (the book's «за полцены» read
the other way round; an info issue says so).
"""

from __future__ import annotations

import jsonschema

from rules.contract import ArmyPart, BuilderResult, Issue, RosterReport
from rules.errors import RuleInputError
from rules.i18n import N_, _
from rules.systems.enforcers import builder, tables
from rules.systems.enforcers.actions.common import TRAITS
from rules.systems.enforcers.hiring import (  # noqa: F401 (the crew's model, read from here by the other parts)
    CARD_KINDS,
    GIVEN_KINDS,
    HIRED_KINDS,
    agent_stats,
    base_stats,
    count_of,
    crew,
    entry_cost,
    gear_spent,
    given_cost,
    label_of,
    missing_stats,
)

STATS_OBJECT = {
    "type": "object",
    "additionalProperties": False,
    "required": list(tables.STATS),
    "properties": {
        s: {"type": "integer", "minimum": tables.STAT_MIN, "maximum": tables.STAT_MAX} for s in tables.STATS
    },
}
# An entry's stats are typed in one at a time on the builder page: any of them may still be missing (an issue says
# which); the hired agent needs all nine.
STATS_TYPED = {**STATS_OBJECT, "required": []}
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

# A weapon of an entry: the book has no weapon table, so the player writes each weapon; its damage may still be
# missing while it is being written (an issue asks for it).
WEAPON_OPTION = {**WEAPON_DATA, "required": []}
ROLLED = {
    "type": "object",
    "additionalProperties": False,
    "required": ["seed", "dice"],
    "properties": {
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**53 - 1},
        "dice": {"type": "object", "additionalProperties": False,
                 "properties": dict.fromkeys(tables.STATS, {"type": "integer", "minimum": 1, "maximum": 20})},
    },
}  # fmt: skip


def _issue(issues: list, severity: str, code: str, message: str, entry: str | None = None) -> None:
    issues.append(Issue(severity=severity, code=code, message=message, entry=entry))


class EnforcersArmy(ArmyPart):
    pricing = "formula"
    currency = "REQ"
    profile_schema = PROFILE_SCHEMA
    # msgids: the book's words are their Russian (glossary.py), read in the reader's language where shown
    profile_kinds = {"archetype": N_("Archetype"), "weapon": N_("Weapon"), "armour": N_("Armour"), "perk": N_("Perk"),
                     "prayer": N_("Prayer")}  # fmt: skip
    kind_groups = {"archetype": N_("Archetypes"), "armour": N_("Armour"), "perk": N_("Perks"),
                   "prayer": N_("Prayers"), "weapon": N_("Weapons")}  # fmt: skip

    def options_schema(self, profile: dict) -> dict:
        kind = profile.get("kind")
        if kind in GIVEN_KINDS:
            return {"type": "object", "additionalProperties": False,
                    "properties": {"agent": {"type": ["string", "null"], "maxLength": 80,
                                             "description": "The agent it is given to (its entry's key)"}}}  # fmt: skip
        if kind not in HIRED_KINDS:
            return {"type": "object", "maxProperties": 0}
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "maxLength": 120, "description": "The agent's name"},
                "stat_bump": {"type": "integer", "minimum": 0, "maximum": 19, "description": "+1 to all stats each"},
                "stats": STATS_TYPED,
                "rolled": ROLLED,
                "own_gear": {"type": "boolean", "description": "Hired with its own equipment allowance (L55–57)"},
                "armour": {"enum": [None, *tables.ARMOUR]},
                "weapons": {"type": "array", "items": WEAPON_OPTION, "maxItems": 8},
                "medkit": {"type": "boolean", "description": "Carries a med-kit (L117)"},
                "spare_magazines": {"type": "integer", "minimum": 0, "maximum": 9, "description": "L97"},
                "items": {"type": "array", "items": ITEM, "maxItems": 20},
                "perks": {"type": "array", "items": {"type": "string", "maxLength": 60}, "maxItems": 5},
                "campaign": CAMPAIGN,
            },
        }

    words_option_errors = True  # validate_options says each refusal in the player's words

    def validate_options(self, profile: dict, options: dict) -> dict:
        """The schema's check, each refusal worded for the player in the builder's own words (builder.py)."""
        validator = jsonschema.Draft202012Validator(self.options_schema(profile))
        errors: dict[str, str] = {}
        for err in sorted(validator.iter_errors(options), key=lambda e: [str(p) for p in e.absolute_path]):
            path = [str(p) for p in err.absolute_path]
            errors.setdefault(".".join(["options", *path]), builder.refusal(path, err))
        if errors:
            raise RuleInputError(errors)
        return options

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

    def copy_options(self, entry: dict) -> dict:
        """A copy of a piece of armour or a perk is given to nobody yet (one agent wears one armour)."""
        options = dict(entry.get("options") or {})
        if entry["profile"].get("kind") in GIVEN_KINDS:
            options.pop("agent", None)
        return options

    def options_without(self, entry: dict, removed: set[str]) -> dict:
        options = dict(entry.get("options") or {})
        if options.get("agent") in removed:
            del options["agent"]
        return options

    def profile_note(self, profile: dict) -> str:
        return builder.profile_note(profile)

    def entry_views(self, roster: dict) -> dict[str, dict]:
        return builder.entry_views(roster, self.cost_roster(roster))

    builder_tools = (builder.ROLL_STATS,)

    def run_builder_tool(self, key: str, roster: dict, profiles: list[dict], inputs: dict) -> BuilderResult:
        if key != builder.ROLL_STATS.key:
            return super().run_builder_tool(key, roster, profiles, inputs)
        return builder.roll_agent(roster, profiles, inputs)

    def example_roster(self, profiles: list[dict], side: int) -> dict:
        """A legal crew of one Apprentice for a demo or the contract suite. The book prints no stats, weapons or
        gear list, so the example's stats and weapon are made up for it (and say so); its armour is the book's."""
        apprentice = next((p for p in profiles if p.get("kind") == "archetype"), None)
        if apprentice is None:
            return super().example_roster(profiles, side)
        stats = dict.fromkeys(tables.STATS, 10)
        if side % 2 == 0:
            # The names a player would write, in the language of whoever makes the example (a demo club in Russian).
            options = {"name": _("Kate (example)"), "stats": {**stats, "BS": 12}, "stat_bump": 1, "own_gear": True,
                       "armour": "enforcer-gear", "perks": ["Prayer"],
                       "weapons": [{"name": _("Autogun (example)"), "damage": 4, "ranged": True, "capacity": 6,
                                    "range_bands_cm": {"short": 10, "medium": 25, "long": 50}}],
                       "items": [{"name": "сменный магазин"}, {"name": "мед.кит"}]}  # fmt: skip
        else:
            options = {"name": _("Thug (example)"), "stats": {**stats, "WS": 13}, "own_gear": True,
                       "armour": "police-riot-gear",
                       "weapons": [{"name": _("Blade (example)"), "damage": 5, "reach_cm": 2,
                                    "traits": ["kinetic"]}]}  # fmt: skip
        entry = {"key": f"agent{side + 1}", "profile": apprentice, "count": 1, "options": options}
        return {"faction": apprentice.get("faction", ""), "points_limit": None, "entries": [entry]}

    def demo_rosters(self, profiles: list[dict]) -> list[dict]:
        """The demo club's two crews, named as their players would (every system's demo has names of its own)."""
        names = (_("Demo: Kate's crew"), _("Demo: the Thugs"))
        return [{**self.example_roster(profiles, side), "name": names[side]} for side in (0, 1)]

    def cost_roster(self, roster: dict) -> RosterReport:
        issues: list[Issue] = []
        costs: dict[str, int] = {}
        merged = crew(roster)
        for entry in roster.get("entries") or []:
            costs[entry["key"]] = self._entry(entry, merged, roster, issues)
        total = sum(costs.values())
        limit = roster.get("points_limit")
        if limit is not None and total > limit:
            _issue(
                issues,
                "error",
                "over_budget",
                _("The crew costs {total} REQ, over the {limit} REQ available.").format(total=total, limit=limit),
            )
        if not merged:
            _issue(issues, "info", "no_agents", _("No agent hired yet: add an archetype."))
        return RosterReport(total=total, entry_costs=costs, issues=issues)

    def _entry(self, entry: dict, merged: dict[str, dict], roster: dict, issues: list) -> int:
        profile, key = entry["profile"], entry["key"]
        kind = profile.get("kind")
        if kind in GIVEN_KINDS:
            self._given(entry, merged, issues)
            return given_cost(entry, merged)
        if kind in CARD_KINDS:
            if not any("prayer" in {p.lower() for p in o.get("perks") or []} for o in merged.values()):
                _issue(issues, "warning", "nobody_prays", _("{name}: only an agent with the perk Prayer may pray "
                                                            "(L127): tick Prayer in one agent's perks.").format(
                    name=profile.get("name", "?")), key)  # fmt: skip
            return 0
        if kind not in HIRED_KINDS:
            word = _(self.profile_kinds[kind]) if kind in self.profile_kinds else kind
            _issue(issues, "error", "not_hired", _("{name} ({word}) is not an agent: choose it in an agent's options instead "
                                                   "of hiring it.").format(name=profile.get("name", "?"), word=word), key)  # fmt: skip
            return 0
        options = entry.get("options") or {}
        crew_options = merged.get(key, options)
        data = profile.get("data") or {}
        count = count_of(entry)
        name = profile.get("name", "?")
        label = label_of(entry)
        missing = missing_stats(profile, options)
        if missing:
            _issue(issues, "error", "no_stats", _("{label}: type in its stats {stats} (each from 1 to 20, L29), or hire "
                                                  "an agent with rolled stats (L23).").format(label=label,
                                                                                            stats=", ".join(missing)),
                   key)  # fmt: skip
        stats = base_stats(profile, options) or {}
        bump = options.get("stat_bump", 0)
        over = [s for s in tables.STATS if s in stats and stats[s] + bump > tables.STAT_MAX]
        if over:
            _issue(issues, "error", "stat_over_20", _("{label}: +{bump} to all stats takes {stats} above 20; stats run "
                                                      "from 1 to 20 (L29): lower the bump or those stats.").format(
                label=label, bump=bump, stats=", ".join(over)), key)  # fmt: skip
        for i, weapon in enumerate(options.get("weapons") or [], start=1):
            if "damage" not in weapon:
                _issue(issues, "error", "weapon_damage", _("{label}, weapon {n}: type in its damage (the book has no "
                                                           "weapon table, L146).").format(label=label, n=i), key)  # fmt: skip
        perks = crew_options.get("perks") or []
        allowed = data.get("perks_allowed")
        if allowed is not None and len(perks) > allowed:
            _issue(issues, "error", "too_many_perks", _("{label} may have {allowed} perk(s), not {count} (L25): untick "
                                                        "one.").format(label=label, allowed=allowed, count=len(perks)),
                   key)  # fmt: skip
        elif allowed is None and perks:
            _issue(issues, "info", "perk_count_unknown", _("The book gives no perk count for {name} (1 or 2, L25).").format(
                name=name), key)  # fmt: skip
        given = crew_options.get("given_armour") or []
        worn = [a for a in [options.get("armour"), *given] if a]
        if len(worn) > 1:
            names = [tables.ARMOUR.get(a, {}).get("name", a) for a in worn]
            _issue(issues, "error", "two_armours", _("{label} wears {armours}: one armour at a time; keep one.").format(
                label=label, armours=" + ".join(names)), key)  # fmt: skip
        spent = gear_spent(crew_options)
        own = options.get("own_gear", True)
        if own and spent > data.get("gear_req", 0):
            _issue(issues, "error", "over_allowance", _("{label} spends {spent} REQ on gear; {name}'s allowance is "
                                                        "{allowance} REQ (L55): take cheaper gear, or hire it without "
                                                        "its own gear.").format(label=label, spent=spent, name=name,
                                                                               allowance=data.get("gear_req", 0)),
                   key)  # fmt: skip
        if not own and spent:
            _issue(issues, "info", "gear_full_price", _("{label} came without its own gear: its {spent} REQ of gear is paid in "
                                                        "full (own gear costs half, L57).").format(label=label,
                                                                                                  spent=spent), key)  # fmt: skip
        campaign = options.get("campaign") or {}
        if campaign.get("dead"):
            _issue(issues, "error", "dead", _("{label} died in a scenario: remove it from the crew.").format(label=label),
                   key)  # fmt: skip
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

    def _given(self, entry: dict, merged: dict[str, dict], issues: list) -> None:
        """A piece of armour or a perk: it must be given to one of the crew's agents, one each."""
        profile, key = entry["profile"], entry["key"]
        name = profile.get("name", "?")
        armour = profile.get("kind") == "armour"
        if (entry.get("options") or {}).get("agent") not in merged:
            message = (_("{name}: choose the agent who wears it («Worn by»), or remove it.") if armour else
                       _("{name}: choose the agent who has it («Agent»), or remove it."))  # fmt: skip
            _issue(issues, "error", "not_given", message.format(name=name), key)
        if count_of(entry) > 1:
            _issue(issues, "error", "given_count", _("{name}: one for one agent; keep ×1 and add another for another "
                                                     "agent.").format(name=name), key)  # fmt: skip
        if armour and profile.get("slug") not in tables.ARMOUR:
            _issue(issues, "warning", "armour_unknown", _("{name} is not in the book's armour table (L327–350): the "
                                                          "battle tracks no AP for it.").format(name=name), key)  # fmt: skip


ARMY = EnforcersArmy()
