"""Army building for «Отряды» (spec §2): the book has no points (L2: forces follow the balance the players agree),
so pricing is "none" and the roster is checked for structure only: training level, weapons, armour and crews.

Profiles (data/squads-core.json) are templates: a squad per training level and a vehicle per armour class. What
the player builds is the entry's options (a profile's data may carry a ready-made build, "figures", "armour" and
"leader", which is then the entry's default):
    squad:   {"armour": personal armour, "figures": [{"weapon", "count", "armour"?}], "leader": {"level", "weapon"} | null}
    vehicle: {"crew_level": level, "weapons": [{"weapon", "count"}], "passengers": [squad entry keys]}
An infantry HMG is two figures with "hmg" per gun (L64); the leader is one more figure with his own weapon (L13).
"""

from __future__ import annotations

from rules.contract import ArmyPart, Issue, RosterReport, RuleInputError
from rules.systems.squads import tables

LEVEL = {"enum": list(tables.LEVELS)}
PERSONAL_ARMOUR = {"enum": list(tables.PERSONAL_ARMOUR)}
WEAPON = {"enum": list(tables.WEAPONS)}
MAX_FIGURES = 30
CANNONS = ("light_cannon", "heavy_cannon")  # «танковые пушки» (L65)

PROFILE_SCHEMA = {
    "type": "object",
    "required": ["slug", "name", "kind", "data"],
    "properties": {
        "slug": {"type": "string", "minLength": 1, "maxLength": 80},
        "name": {"type": "string", "minLength": 1, "maxLength": 120},
        "faction": {"type": "string", "maxLength": 80},
        "kind": {"enum": ["squad", "vehicle"]},
        "cost": {"type": ["number", "null"], "minimum": 0},
        "notes": {"type": "string", "maxLength": 2000},
        "data": {"type": "object"},
    },
    "allOf": [
        {
            "if": {"properties": {"kind": {"const": "squad"}}},
            "then": {
                "properties": {
                    "data": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["level"],
                        "properties": {
                            "level": LEVEL,
                            "armour": PERSONAL_ARMOUR,
                            "figures": {"type": "array"},
                            "leader": {"type": ["object", "null"]},
                        },
                    }
                }
            },
        },
        {
            "if": {"properties": {"kind": {"const": "vehicle"}}},
            "then": {
                "properties": {
                    "data": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["armour"],
                        "properties": {"armour": {"enum": list(tables.VEHICLE_ARMOUR)}, "crew_level": LEVEL},
                    }
                }
            },
        },
    ],
}

SQUAD_OPTIONS = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "armour": {**PERSONAL_ARMOUR, "description": "The unit's personal armour («Личная броня»)"},
        "figures": {
            "type": "array",
            "minItems": 1,
            "maxItems": 20,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["weapon", "count"],
                "properties": {
                    "weapon": WEAPON,
                    "count": {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES},
                    "armour": {**PERSONAL_ARMOUR, "description": "Other armour than the unit's"},
                },
            },
        },
        "leader": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["level", "weapon"],
                    "properties": {"level": LEVEL, "weapon": WEAPON},
                },
            ]
        },
    },
}
VEHICLE_OPTIONS = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "crew_level": {**LEVEL, "description": "The crew's training level (§5 B14)"},
        "weapons": {
            "type": "array",
            "maxItems": 10,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["weapon", "count"],
                "properties": {"weapon": WEAPON, "count": {"type": "integer", "minimum": 1, "maximum": 6}},
            },
        },
        "passengers": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 6},
    },
}


def squad_figures(profile: dict, options: dict) -> list[dict]:
    """Every figure of a squad entry: {"weapon", "armour", "level", "leader"} (the leader last)."""
    data = profile.get("data") or {}
    armour = options.get("armour", data.get("armour", "none"))
    figures = []
    for group in options.get("figures") or []:
        for _ in range(group["count"]):
            figures.append({"weapon": group["weapon"], "armour": group.get("armour", armour),
                            "level": data["level"], "leader": False})  # fmt: skip
    leader = options.get("leader")
    if leader:
        figures.append({"weapon": leader["weapon"], "armour": armour, "level": leader["level"], "leader": True})
    return figures


def vehicle_weapons(options: dict) -> list[str]:
    return [w["weapon"] for w in options.get("weapons") or [] for _ in range(w["count"])]


class SquadsArmy(ArmyPart):
    pricing = "none"
    currency = ""
    profile_schema = PROFILE_SCHEMA
    profile_kinds = {"squad": "Отряд", "vehicle": "Транспортное средство"}

    def options_schema(self, profile: dict) -> dict:
        return VEHICLE_OPTIONS if profile.get("kind") == "vehicle" else SQUAD_OPTIONS

    def default_options(self, profile: dict) -> dict:
        data = profile.get("data") or {}
        if profile.get("kind") == "vehicle":
            return {"crew_level": data.get("crew_level", "regular"), "weapons": [], "passengers": []}
        # A profile may carry a ready-made build (a custom unit); else the book sets no squad size and a new
        # squad starts with one rifleman for the player to build on.
        figures = data.get("figures") or [{"weapon": "rifle", "count": 1}]
        return {"armour": data.get("armour", "none"), "figures": figures, "leader": data.get("leader")}

    def example_roster(self, profiles: list[dict], side: int) -> dict:
        """Two squads a side for demos and the contract suite: riflemen of two levels; side 1 wears no armour."""
        by_slug = {p["slug"]: p for p in profiles}
        builds = (
            [("squad-regular", "light", 4), ("squad-veteran", "none", 3)]
            if side == 0
            else [("squad-regular", "none", 4), ("squad-recruit", "none", 5)]
        )
        entries = [
            {"key": f"e{i + 1}", "profile": by_slug[slug], "count": 1,
             "options": {"armour": armour, "figures": [{"weapon": "rifle", "count": n}], "leader": None}}
            for i, (slug, armour, n) in enumerate(builds)
            if slug in by_slug
        ]  # fmt: skip
        return {
            "faction": "any",
            "points_limit": None,
            "entries": entries or super().example_roster(profiles, side)["entries"],
        }

    def cost_roster(self, roster: dict) -> RosterReport:
        entries = [e for e in roster.get("entries") or [] if isinstance(e, dict) and isinstance(e.get("profile"), dict)]
        issues = [
            Issue("info", "no_points", "The book gives no points: agree the balance of forces before the game (L2).")
        ]
        carried: dict[str, str] = {}
        squads = {e.get("key") for e in entries if e["profile"].get("kind") == "squad"}
        for entry in entries:
            key = entry.get("key")
            profile = entry["profile"]
            options = entry.get("options")
            if options is None:
                options = self.default_options(profile)
            kind = profile.get("kind")
            if kind not in self.profile_kinds:
                issues.append(Issue("error", "unknown_kind", f"{profile.get('name')}: not a squad or a vehicle.", key))
                continue
            try:
                self.validate_options(profile, options)
            except RuleInputError as exc:
                for path, message in exc.errors.items():
                    issues.append(Issue("error", "bad_options", f"{profile.get('name')}: {path} {message}", key))
                continue
            if kind == "squad":
                issues += self._check_squad(key, profile, options)
            else:
                issues += self._check_vehicle(key, profile, options, squads, carried)
        return RosterReport(total=0, entry_costs={e.get("key"): 0 for e in entries}, issues=issues)

    def _check_squad(self, key, profile, options) -> list[Issue]:
        name = profile.get("name", key)
        level = (profile.get("data") or {}).get("level")
        issues = []
        if level not in tables.TRAINING:
            return [Issue("error", "no_level", f"{name}: the squad needs a training level (L3–8).", key)]
        figures = squad_figures(profile, options)
        if not figures:
            issues.append(Issue("error", "no_figures", f"{name}: a squad needs at least one figure.", key))
        if len(figures) > MAX_FIGURES:
            issues.append(Issue("error", "too_many", f"{name}: at most {MAX_FIGURES} figures in a squad.", key))
        gunners = sum(1 for f in figures if f["weapon"] == "hmg")
        if gunners % 2:
            issues.append(Issue("error", "hmg_crew",
                                f"{name}: an infantry heavy machine gun needs a crew of two (L64); {gunners} figure(s) "
                                "carry one, give two per gun.", key))  # fmt: skip
        leader = options.get("leader")
        if leader and tables.TRAINING[leader["level"]].activation >= tables.TRAINING[level].activation:
            issues.append(Issue("warning", "leader_level",
                                f"{name}: a {tables.TRAINING[leader['level']].name} leader is no better than the "
                                f"unit's level; only a leader of a higher level changes its activation (L13).", key))  # fmt: skip
        for cannon in {f["weapon"] for f in figures} & set(CANNONS):
            issues.append(Issue("warning", "tank_gun",
                                f"{name}: {tables.WEAPONS[cannon].name} is a tank gun (L65); infantry rarely carries "
                                "one.", key))  # fmt: skip
        return issues

    def _check_vehicle(self, key, profile, options, squads, carried) -> list[Issue]:
        name = profile.get("name", key)
        issues = []
        if (profile.get("data") or {}).get("armour") not in tables.VEHICLE_ARMOUR:
            return [Issue("error", "no_armour", f"{name}: the vehicle needs an armour class (L78–83).", key)]
        if not options.get("weapons"):
            issues.append(Issue("info", "unarmed", f"{name}: no weapons; it moves and carries troops only.", key))
        for passenger in options.get("passengers") or []:
            if passenger not in squads:
                issues.append(
                    Issue(
                        "error", "bad_passenger", f"{name}: passenger {passenger!r} is not a squad of this roster.", key
                    )
                )
            elif passenger in carried and carried[passenger] != key:
                issues.append(
                    Issue("error", "carried_twice", f"{name}: that squad already rides in another vehicle.", key)
                )
            else:
                carried[passenger] = key
        return issues


ARMY = SquadsArmy()
