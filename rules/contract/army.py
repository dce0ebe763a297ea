"""The army part: what a unit profile holds, what a player chooses for a roster entry, what it costs, and what
is wrong with a roster. Called by `armies` only through this protocol.

The roster the army part sees (built by armies.selectors.roster_for_rules, and snapshotted into battles and jobs):

    {"system": slug, "faction": slug, "points_limit": int | None, "opponent_total": int | None,
     "entries": [{"key": "e1", "profile": {"slug", "name", "faction", "kind", "cost", "data"},
                  "count": 1, "options": {...}}]}

`options` is what the player chose for that entry (weapons, pilot, archetype, upgrades…), shaped by
`options_schema(profile)`. A system that needs no choices answers the empty schema.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import jsonschema

from rules.errors import RuleInputError

#: How a system prices units: its book's points, a formula (e.g. requisition), none at all, or points suggested
#: by simulation (a pack of suggested values made by balance jobs).
PRICING_KINDS = ("points", "formula", "none", "simulated")


@dataclass
class Issue:
    """A roster validation finding. `entry` is the key of the roster entry it concerns (None: whole roster)."""

    severity: str  # "error" | "warning" | "info"
    code: str
    message: str
    entry: str | None = None


@dataclass
class RosterReport:
    total: int
    entry_costs: dict[str, int]
    issues: list[Issue] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        return any(i.severity == "error" for i in self.issues)


class ArmyPart(ABC):
    """Profiles, entry options, pricing and validation of one system."""

    #: One of PRICING_KINDS.
    pricing: str = "points"
    #: The unit of cost as a person reads it ("pts", "REQ"); empty when the system has no price.
    currency: str = "pts"
    #: JSON Schema of a unit profile's `data` in a data pack (custom units are checked against it). It describes
    #: the whole profile {"slug", "name", "faction", "kind", "cost", "data"}.
    profile_schema: dict = {"type": "object"}
    #: The kinds a profile may have, with a label each (e.g. {"squad": "Отряд", "vehicle": "Техника"}).
    profile_kinds: dict[str, str] = {}

    def options_schema(self, profile: dict) -> dict:
        """JSON Schema of a roster entry's `options` for this profile. Default: no choices."""
        return {"type": "object", "maxProperties": 0}

    def default_options(self, profile: dict) -> dict:
        """The options a new entry of this profile starts with."""
        return {}

    def validate_options(self, profile: dict, options: dict) -> dict:
        """Schema check of an entry's options; rule checks that involve the whole roster belong to cost_roster."""
        validator = jsonschema.Draft202012Validator(self.options_schema(profile))
        errors = {}
        for err in validator.iter_errors(options):
            errors.setdefault(".".join(["options", *map(str, err.absolute_path)]), err.message)
        if errors:
            raise RuleInputError(errors)
        return options

    @abstractmethod
    def cost_roster(self, roster: dict) -> RosterReport:
        """Totals and validation issues of a roster (see the module docstring for its shape)."""

    def upgrade_changes(self, entry: dict, new_profile: dict | None) -> tuple[list[str], dict | None]:
        """What moving `entry` to `new_profile` (a newer pack's version of it; None: gone) changes, as lines a
        person reads, and the entry's options after the move (None: the entry is dropped)."""
        if new_profile is None:
            return [f"{entry['profile']['name']} is no longer in the pack and will be removed."], None
        lines = []
        if new_profile.get("cost") != entry["profile"].get("cost"):
            old, new = entry["profile"].get("cost"), new_profile.get("cost")
            lines.append(f"{entry['profile']['name']}: cost {old} → {new}.")
        return lines, dict(entry.get("options") or {})

    def describe(self) -> dict:
        return {
            "pricing": self.pricing,
            "currency": self.currency,
            "profile_kinds": dict(self.profile_kinds),
            "profile_schema": self.profile_schema,
        }
