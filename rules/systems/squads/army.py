"""Army building for «Отряды» (spec §2): the book has no points (L2: forces follow the balance the players agree),
so the roster is checked for structure: training level, weapons, armour and crews. Points come only from the
suggested pack (data/squads-suggested.json, pricing "simulated"): ready-made builds priced by unit-against-unit
balance jobs (rules/jobs/pricing.py); an entry keeps its build's points while its options are that build.

Profiles (data/squads-core.json) are templates: a squad per training level and a vehicle per armour class. What
the player builds is the entry's options (a profile's data may carry a ready-made build, "figures", "armour" and
"leader", which is then the entry's default):
    squad:   {"armour": personal armour, "figures": [{"weapon", "count", "armour"?}], "leader": {"level", "weapon"} | null}
    vehicle: {"crew_level": level, "weapons": [{"weapon", "count"}], "passengers": [squad entry keys]}
An infantry HMG is two figures with "hmg" per gun (L64); the leader is one more figure with his own weapon (L13).
"""

from __future__ import annotations

from rules.contract import ArmyPart, Issue, RosterReport, RuleInputError
from rules.i18n import N_, _, ngettext
from rules.systems.squads import entries, names, tables

LEVEL = {"enum": list(tables.LEVELS)}
PERSONAL_ARMOUR = {"enum": list(tables.PERSONAL_ARMOUR)}
WEAPON = {"enum": list(tables.WEAPONS)}
MAX_FIGURES = 30
CANNONS = ("light_cannon", "heavy_cannon")  # «танковые пушки» (L65)
# Points suggested by simulation (data/squads-suggested.json, written by manage.py suggest_points): the book has none.
SUGGESTED = {
    "type": "object",
    "required": ["points", "low", "high", "job"],
    "properties": {
        "points": {"type": "integer", "minimum": 0},
        "low": {"type": "number"},
        "high": {"type": "number"},
        "strength": {"type": "number"},
        "job": {"type": "object", "required": ["battles", "seed"]},
    },
}

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
                            "suggested": SUGGESTED,
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
            "maxItems": MAX_FIGURES,  # one item a figure, as the builder's slots write them
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
        for _n in range(group["count"]):
            figures.append({"weapon": group["weapon"], "armour": group.get("armour", armour),
                            "level": data["level"], "leader": False})  # fmt: skip
    leader = options.get("leader")
    if leader:
        figures.append({"weapon": leader["weapon"], "armour": armour, "level": leader["level"], "leader": True})
    return figures


def vehicle_weapons(options: dict) -> list[str]:
    return [w["weapon"] for w in options.get("weapons") or [] for _ in range(w["count"])]


def _build(profile: dict, options: dict) -> list[tuple]:
    return sorted((f["weapon"], f["armour"], f["level"], f["leader"]) for f in squad_figures(profile, options))


def suggested(entry: dict) -> dict | None:
    """The simulated points of a squad entry ({"points", "low", "high", "job"}) while its options are still the
    build the job priced; None otherwise."""
    profile = entry.get("profile") or {}
    found = (profile.get("data") or {}).get("suggested")
    if profile.get("kind") != "squad" or not isinstance(found, dict):
        return None
    options = entry.get("options") or ARMY.default_options(profile)
    try:
        same = _build(profile, options) == _build(profile, ARMY.default_options(profile))
    except (KeyError, TypeError):
        return None
    return found if same else None


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def suggested_block(found: dict) -> dict:
    job = found["job"]
    note = _("95 % interval {low}–{high}; from {battles} duels a pair, seed {seed}").format(
        low=_number(found["low"]), high=_number(found["high"]), battles=job["battles"], seed=job["seed"]
    )
    label = _("Suggested points (simulated): {points}").format(points=found["points"])
    return {"type": "job", "label": label, "note": note, "job": job}


class SquadsArmy(ArmyPart):
    pricing = "simulated"
    currency = N_("pts")
    profile_schema = PROFILE_SCHEMA
    profile_kinds = {"squad": N_("Squad"), "vehicle": N_("Transport vehicle")}  # msgids: the book's words in locale/ru
    kind_groups = {"squad": N_("Squads"), "vehicle": N_("Transport vehicles")}

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

    def entry_views(self, roster: dict) -> dict[str, dict]:
        """A squad: its armour, figures and leader, and its suggested points with the job's link; a vehicle: its
        crew, weapons and passengers (entries.py: a control for each)."""
        views = {}
        squads = entries.squad_names(roster)
        for entry in roster.get("entries") or []:
            profile = entry.get("profile") or {}
            options = entry.get("options") or self.default_options(profile)
            kind = profile.get("kind")
            figures = []
            if kind == "vehicle":
                blocks = entries.vehicle_blocks(options, {k: n for k, n in squads.items() if k != entry.get("key")})
            else:
                blocks = entries.squad_blocks(options)
                try:
                    figures = squad_figures(profile, options)
                except (KeyError, TypeError):
                    figures = []
            summary = entries.summary(kind, options, figures, squads)
            found = suggested(entry)
            card = [{"type": "text", "text": summary}] if summary else []
            if found:
                block = suggested_block(found)
                blocks.append(block)
                card.append({"type": "text", "text": f"{block['label']} ({block['note']})"})
            elif isinstance((profile.get("data") or {}).get("suggested"), dict):
                blocks.append({"type": "text", "text": _("A changed build has no suggested points (simulated).")})
            views[entry.get("key")] = {"blocks": blocks, "card": card, "summary": summary,
                                       "lines": [t["text"] for t in card]}  # fmt: skip
        return views

    def cost_roster(self, roster: dict) -> RosterReport:
        entries = [e for e in roster.get("entries") or [] if isinstance(e, dict) and isinstance(e.get("profile"), dict)]
        costs = {}
        for entry in entries:
            found = suggested(entry)
            costs[entry.get("key")] = found["points"] * int(entry.get("count") or 1) if found else 0
        if any(costs.values()):
            issues = [Issue("info", "suggested_points", _("Points suggested by simulation, not the book's (L2): "
                                                          "each comes from a balance job of duels."))]  # fmt: skip
        else:
            issues = [Issue("info", "no_points",
                            _("The book gives no points: agree the balance of forces before the game (L2)."))]  # fmt: skip
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
                issues.append(
                    Issue(
                        "error",
                        "unknown_kind",
                        _("{name}: not a squad or a vehicle.").format(name=profile.get("name")),
                        key,
                    )
                )
                continue
            try:
                self.validate_options(profile, options)
            except RuleInputError as exc:
                for path, message in exc.errors.items():
                    issues.append(
                        Issue(
                            "error",
                            "bad_options",
                            "{name}: {field} {message}".format(name=profile.get("name"), field=path, message=message),
                            key,
                        )
                    )
                continue
            if kind == "squad":
                issues += self._check_squad(key, profile, options)
            else:
                issues += self._check_vehicle(key, profile, options, squads, carried)
        for entry in entries:
            if not costs.get(entry.get("key")) and isinstance(
                (entry["profile"].get("data") or {}).get("suggested"), dict
            ):
                issues.append(Issue("info", "changed_build",
                                    _("{name}: the build differs from the one simulated, so it has no suggested "
                                      "points.").format(name=entry["profile"].get("name")), entry.get("key")))  # fmt: skip
        return RosterReport(total=sum(costs.values()), entry_costs=costs, issues=issues)

    def _check_squad(self, key, profile, options) -> list[Issue]:
        name = profile.get("name", key)
        level = (profile.get("data") or {}).get("level")
        issues = []
        if level not in tables.TRAINING:
            return [
                Issue("error", "no_level", _("{name}: the squad needs a training level (L3–8).").format(name=name), key)
            ]
        figures = squad_figures(profile, options)
        if not figures:
            issues.append(
                Issue("error", "no_figures", _("{name}: a squad needs at least one figure.").format(name=name), key)
            )
        if len(figures) > MAX_FIGURES:
            issues.append(
                Issue(
                    "error",
                    "too_many",
                    _("{name}: at most {n} figures in a squad.").format(name=name, n=MAX_FIGURES),
                    key,
                )
            )
        gunners = sum(1 for f in figures if f["weapon"] == "hmg")
        if gunners % 2:
            issues.append(Issue("error", "hmg_crew",
                                ngettext("{name}: an infantry heavy machine gun needs a crew of two (L64); {n} figure "
                                         "carries one, give two per gun.",
                                         "{name}: an infantry heavy machine gun needs a crew of two (L64); {n} figures "
                                         "carry one, give two per gun.", gunners).format(name=name, n=gunners), key))  # fmt: skip
        leader = options.get("leader")
        if leader and tables.TRAINING[leader["level"]].activation >= tables.TRAINING[level].activation:
            issues.append(Issue("warning", "leader_level",
                                _("{name}: a leader of level {level} is no better than the unit's level; only a "
                                  "leader of a higher level changes its activation (L13).").format(
                                    name=name, level=names.level(leader["level"])), key))  # fmt: skip
        for cannon in {f["weapon"] for f in figures} & set(CANNONS):
            issues.append(Issue("warning", "tank_gun",
                                _("{name}: {weapon} is a tank gun (L65); infantry rarely carries one.").format(
                                    name=name, weapon=names.weapon(cannon)), key))  # fmt: skip
        return issues

    def _check_vehicle(self, key, profile, options, squads, carried) -> list[Issue]:
        name = profile.get("name", key)
        issues = []
        if (profile.get("data") or {}).get("armour") not in tables.VEHICLE_ARMOUR:
            return [
                Issue(
                    "error",
                    "no_armour",
                    _("{name}: the vehicle needs an armour class (L78–83).").format(name=name),
                    key,
                )
            ]
        if not options.get("weapons"):
            issues.append(
                Issue(
                    "info", "unarmed", _("{name}: no weapons; it moves and carries troops only.").format(name=name), key
                )
            )
        for passenger in options.get("passengers") or []:
            if passenger not in squads:
                issues.append(
                    Issue(
                        "error",
                        "bad_passenger",
                        _("{name}: passenger «{passenger}» is not a squad of this roster.").format(
                            name=name, passenger=passenger
                        ),
                        key,
                    )
                )
            elif passenger in carried and carried[passenger] != key:
                issues.append(
                    Issue(
                        "error",
                        "carried_twice",
                        _("{name}: that squad already rides in another vehicle.").format(name=name),
                        key,
                    )
                )
            else:
                carried[passenger] = key
        return issues


ARMY = SquadsArmy()
