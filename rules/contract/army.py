"""The army part: what a unit profile holds, what a player chooses for a roster entry, what it costs, and what
is wrong with a roster. Called by `armies` only through this protocol.

The roster the army part sees (built by armies.selectors.roster_for_rules, and snapshotted into battles and jobs):

    {"system": slug, "faction": slug, "points_limit": int | None, "opponent_total": int | None,
     "entries": [{"key": "e1", "profile": {"slug", "name", "faction", "kind", "cost", "data"},
                  "count": 1, "options": {...}}]}

`options` is what the player chose for that entry (weapons, pilot, archetype, upgrades…), shaped by
`options_schema(profile)`. A system that needs no choices answers the empty schema.

Optional, for the builder's pages (pure data, no web code; `armies` draws it and falls back to the schemas):

- `profile_editor`: the structured custom-unit form, per kind (see PROFILE_EDITOR_DOC below);
- `entry_views(roster)`: how each entry of a roster is shown and edited (see ENTRY_VIEW_DOC below);
- `kind_groups`, `profile_note(profile)`: headings of the catalogue and a short note on each unit;
- `copy_options(entry)`, `options_without(entry, removed)`: an entry's options when it is duplicated, and once
  other entries have left the roster (references to them dropped).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import jsonschema

from rules.errors import RuleInputError
from rules.i18n import N_, _

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
class BuilderTool:
    """A system's own button in the builder that adds entries made by its rules (e.g. «roll a random figure» on
    the book's tables). `fields` draw its small form: [{"name", "label", "type": "int" | "check" | "select",
    "choices": [[value, label]], "min", "max", "help"}] (labels marked N_(), translated where drawn);
    `input_schema` checks what is sent (400 naming the field otherwise)."""

    key: str
    label: str
    help: str = ""
    fields: tuple = ()
    input_schema: dict = field(default_factory=lambda: {"type": "object"})


@dataclass
class BuilderResult:
    """What a builder tool made: the entries to add ({"profile": slug, "count", "options"}), the lines the player
    reads about how they were made (the seed, every die), and the same as data for the API."""

    entries: list[dict]
    lines: list[str] = field(default_factory=list)
    result: dict = field(default_factory=dict)


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
    currency: str = N_("pts")
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

    #: True when validate_options words its errors itself (in the reader's language); else `armies` says the
    #: schema's errors in its own words.
    words_option_errors: bool = False

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

    # Optional parts for the builder's pages ----------------------------------------------------------------
    #: Headings of the groups the catalogue and the text export sort units into, by kind, in order
    #: (e.g. {"squad": "Squads"}). Empty: the labels of profile_kinds.
    kind_groups: dict[str, str] = {}
    #: The structured custom-unit editor (PROFILE_EDITOR_DOC). None: armies derives a plain form from the
    #: profile schema.
    profile_editor: dict | None = None

    def profile_note(self, profile: dict) -> str:
        """A short note on a unit, shown after its kind and cost (e.g. "rank 2"). Default: none."""
        return ""

    def entry_views(self, roster: dict) -> dict[str, dict]:
        """How each entry of `roster` is shown and edited: {entry key: view} (ENTRY_VIEW_DOC). An entry left out
        is drawn from its options schema."""
        return {}

    def copy_options(self, entry: dict) -> dict:
        """The options of a copy of `entry` placed next to it. Default: the same options."""
        return dict(entry.get("options") or {})

    def options_without(self, entry: dict, removed: set[str]) -> dict:
        """`entry`'s options once the entries whose keys are in `removed` have left the roster. Default: unchanged."""
        return dict(entry.get("options") or {})

    #: The system's own builder buttons (BuilderTool), drawn on the roster page for writers. Empty: none.
    builder_tools: tuple = ()

    def run_builder_tool(self, key: str, roster: dict, profiles: list[dict], inputs: dict) -> BuilderResult:
        """Runs builder tool `key` for `roster` (the army part's shape) with the roster's pack `profiles` and the
        inputs already checked against its schema; answers the entries to add. Raises RuleInputError (400)."""
        raise RuleInputError({"tool": _("There is no builder tool {key!r} here.").format(key=key)})

    def example_roster(self, profiles: list[dict], side: int) -> dict:
        """A small legal roster of these profiles (the system's official pack) for side `side` of a demo or of
        the contract test suite: {"faction", "points_limit", "entries"}. Default: the first two profiles of one
        faction (side 0 the first faction, side 1 the next), with their default options."""
        factions = sorted({p.get("faction", "") for p in profiles})
        faction = factions[side % len(factions)] if factions else ""
        chosen = [p for p in profiles if p.get("faction", "") == faction][:2] or profiles[:2]
        entries = [
            {"key": f"e{i + 1}", "profile": p, "count": 1, "options": self.default_options(p)}
            for i, p in enumerate(chosen)
        ]
        return {"faction": faction, "points_limit": None, "entries": entries}

    def demo_rosters(self, profiles: list[dict]) -> list[dict]:
        """The armies `make run`'s demo club gets (armies/management/commands/setup_demo.py): each as
        example_roster() answers it, with a "name" a player reads where the system has one (else the demo names it
        after the system). Default: the two example rosters."""
        return [self.example_roster(profiles, side) for side in (0, 1)]

    def describe(self) -> dict:
        return {
            "pricing": self.pricing,
            "currency": self.currency,
            "profile_kinds": dict(self.profile_kinds),
            "profile_schema": self.profile_schema,
        }


ENTRY_VIEW_DOC = """An entry view: {"blocks": [block], "card": [block], "summary": str, "lines": [str]}.

- blocks: drawn in the builder under the entry's name; card: on its printed card; summary: one line of the
  compact printed list; lines: the lines under the entry in the plain-text export.
- Display blocks: {"type": "text", "text"}; {"type": "list", "items": [{"label", "note", "title"}]};
  {"type": "table", "columns": [{"label", "title"}], "rows": [{"cells": [str], "mark": bool}], "summary": str}
  (a table with a summary is folded under it).
  {"type": "job", "label", "note", "job": {"battles", "seed", "params", "settings"}}: a link to the unit-against-unit
  balance job of the roster's pack with that recipe (suggested points, pricing "simulated"; rules/jobs/pricing.py).
- Control blocks, each writing one key of the entry's options (`option`); read-only viewers see the choice made:
  {"type": "choice", "option", "label", "choices": [{"value", "label", "selected", "disabled"}], "resets": [keys]}
  (sets options[option] to the chosen value and drops the keys in `resets`);
  {"type": "checks", "option", "label", "items": [{"value", "label", "note", "title", "checked", "disabled",
  "muted"}], "empty": str} (the list of checked values);
  {"type": "slots", "option", "label", "placeholder", "slots": [{"choices": [{"value", "label", "selected",
  "disabled"}]}]} (the list of every slot's chosen value, empty slots left out);
  {"type": "number" | "input" | "json", "option", "label", "value", "min"?, "max"?, "path"?} (a number, a text, or
  any value typed as JSON text; empty drops the key). With "path" (dotted keys, e.g. "figures.rifleman") the
  control writes that key inside the option's object instead (objects made as needed; empty drops the key there
  and the objects it leaves empty), so several fields can fill one option; a number in the path steps into a list
  the option holds ("0.damage"). A "choice" or "checks" block takes a "path" too;
  {"type": "counts", "option", "label", "key"?, "items": [{"value", "label", "note", "count", "min", "max"}]} (a
  number per item: the list of the items' values, each with its number under `key` (default "count"); items left
  empty or at 0 are dropped; values are objects).
  Values are any JSON values.
"""

PROFILE_EDITOR_DOC = """The structured custom-unit editor: {"help": [str], "reference": [str], "kinds": {kind: form}}.

- help: lines under the form; reference: lines beside the JSON box (`x` is shown as code, **x** in bold).
- form: {"label", "template": data of a new unit, "fields": [field], "sections": [section]}; fields edit `data`,
  sections edit lists of objects in `data`: {"name", "key": data key, "label": row label, "legend", "title",
  "min": rows at least, "fields": [field]}.
- field: {"name", "label", "type"} with type int (required), opt_int (empty: null), short / text (a short or wide
  text; "nullable": empty is null), check, select ("choices": [[value, label]]), json (kept as JSON text), and:
  "path": dotted path in the object (default: name; parents left empty are dropped), "omit_empty": leave the
  key out when empty, "hidden", "placeholder", "code" (no spell-check, capitals), "hint" (said when the value is
  not in the expected format), "auto": "number" (the row's number, no input) or "slug:<field>" (made from that
  field, unique in the list), and for a list at `path`: "member" (a check adding that value), "prefix" (the value
  is stored as prefix + value), "rest" (the other values, comma-separated).
"""
