"""The contract every game system implements. Pure Python: no Django, no web code.

A system (one package under rules/systems/<slug>/) gives:
- `settings`: options, house rules and every ambiguity of its spec, each a `Setting` with a default and a source;
- `profile_schema`: JSON Schema of a unit profile in a data pack (custom units are checked against it);
- `cost_roster()`: totals and validation issues for a roster;
- `actions`: the books' tests; each validates its inputs, resolves with dice (seeded or typed in) and gives exact odds;
- `initial_unit_state()` / `apply_effect()`: the tracker's unit state and how an action's effects change it;
- optionally a vectorised simulator for balance jobs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

import jsonschema


class RuleInputError(ValueError):
    """Inputs that break a rule or a schema. `errors` maps a field path (dots) to a readable message."""

    def __init__(self, errors: dict[str, str] | str):
        if isinstance(errors, str):
            errors = {"non_field_errors": errors}
        self.errors = errors
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))


@dataclass(frozen=True)
class Setting:
    key: str
    label: str
    default: Any
    kind: str = "bool"  # "bool" | "choice" | "int"
    choices: tuple = ()
    source: str = ""  # spec section it comes from, e.g. "§5 A7"
    category: str = "ambiguity"  # "option" (the book's optional rules) | "house" | "ambiguity" | "interpretation"
    help: str = ""

    def check(self, value: Any) -> Any:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RuleInputError({f"settings.{self.key}": "must be true or false"})
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RuleInputError({f"settings.{self.key}": "must be a whole number of 0 or more"})
        elif self.kind == "choice" and (
            value not in self.choices
            or (isinstance(value, bool) and not any(isinstance(c, bool) for c in self.choices))
        ):
            options = ", ".join(map(str, self.choices))
            raise RuleInputError({f"settings.{self.key}": f"must be one of: {options}"})
        return value

    def describe(self) -> dict:
        data = asdict(self)
        data["choices"] = list(self.choices)
        return data


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


@dataclass
class Outcome:
    """What a resolution answers: a summary, structured result, every die, and effects for the tracker.

    Effects name their subject by the role it has in the inputs ("shooter", "target", "attacker", "defender",
    "thrower", "blast.0" …); the battle tracker maps roles to its units and records each effect as an event.
    """

    action: str
    summary: str
    result: dict
    dice: list[dict]
    effects: list[dict]
    steps: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


def prob(p: Fraction | int) -> dict:
    """An exact probability as JSON: the fraction and its float."""
    p = Fraction(p)
    return {"exact": f"{p.numerator}/{p.denominator}", "p": float(p)}


def exact(x: Fraction | int) -> dict:
    """An exact number that is not a probability (e.g. an expected value): the fraction and its float."""
    x = Fraction(x)
    return {"exact": f"{x.numerator}/{x.denominator}", "value": float(x)}


def distribution(d: dict[Any, Fraction]) -> list[dict]:
    """An exact distribution as a sorted JSON list of {value, exact, p}."""
    return [{"value": k, **prob(v)} for k, v in sorted(d.items(), key=lambda kv: kv[0])]


_TYPE_NAMES = {
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "string": "text",
    "object": "an object",
    "array": "a list",
    "null": "null",
}


def _readable(err) -> str:
    """A schema error as a person would say it (jsonschema's own wording is for programmers)."""
    if err.validator == "minimum":
        return f"must be {err.validator_value} or more (got {err.instance})"
    if err.validator == "maximum":
        return f"must be {err.validator_value} or less (got {err.instance})"
    if err.validator == "type":
        wanted = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        return "must be " + " or ".join(_TYPE_NAMES.get(t, t) for t in wanted)
    if err.validator == "enum":
        return "must be one of: " + ", ".join(str(v) for v in err.validator_value)
    if err.validator in ("maxItems", "maxLength"):
        return f"is too long (at most {err.validator_value})"
    if err.validator in ("minItems", "minLength"):
        return f"is too short (at least {err.validator_value})"
    return err.message


class Action(ABC):
    """One of the books' tests. Subclasses set the class attributes and implement resolve() and odds()."""

    key: str = ""
    label: str = ""
    spec_ref: str = ""
    description: str = ""
    input_schema: dict = {"type": "object"}

    def validate(self, inputs: dict, settings: dict) -> dict:
        """Schema check, then the rule checks of `check()`. Raises RuleInputError naming each bad field."""
        validator = self.__dict__.get("_validator")
        if validator is None:  # built once per action: compiling a schema costs more than checking inputs
            validator = self.__dict__["_validator"] = jsonschema.Draft202012Validator(self.input_schema)
        if not isinstance(inputs, dict):
            raise RuleInputError({"inputs": "must be an object"})
        errors = {}
        for err in sorted(validator.iter_errors(inputs), key=lambda e: [str(p) for p in e.path]):
            path = ".".join(str(p) for p in err.path) or "non_field_errors"
            if err.validator == "required":
                missing = err.message.split("'")[1]
                path = f"{path}.{missing}" if path != "non_field_errors" else missing
                errors.setdefault(path, "This field is required.")
            elif err.validator == "additionalProperties":
                errors.setdefault(path, f"Unknown field: {err.message}")
            else:
                errors.setdefault(path, _readable(err))
        if errors:
            raise RuleInputError(errors)
        return self.check(dict(inputs), settings)

    def check(self, inputs: dict, settings: dict) -> dict:
        """Rule checks beyond the schema; returns the cleaned inputs. Override where needed."""
        return inputs

    @abstractmethod
    def resolve(self, inputs: dict, settings: dict, dice) -> Outcome: ...

    @abstractmethod
    def odds(self, inputs: dict, settings: dict) -> dict: ...

    def describe(self) -> dict:
        return {
            "key": self.key,
            "label": self.label,
            "spec_ref": self.spec_ref,
            "description": self.description,
            "input_schema": self.input_schema,
        }


class GameSystem(ABC):
    slug: str = ""
    name: str = ""
    dice: str = ""
    settings: tuple[Setting, ...] = ()
    actions: dict[str, Action] = {}
    profile_schema: dict = {"type": "object"}

    def default_settings(self) -> dict:
        return {s.key: s.default for s in self.settings}

    def resolve_settings(self, overrides: dict | None) -> dict:
        """Defaults with the given overrides; unknown keys and bad values raise RuleInputError."""
        known = {s.key: s for s in self.settings}
        result = self.default_settings()
        for key, value in (overrides or {}).items():
            if key not in known:
                raise RuleInputError({f"settings.{key}": "unknown setting"})
            result[key] = known[key].check(value)
        return result

    def action(self, key: str) -> Action:
        try:
            return self.actions[key]
        except KeyError:
            raise RuleInputError({"action": f"{self.name} has no action {key!r}"}) from None

    def validate_profile(self, profile: dict) -> None:
        validator = jsonschema.Draft202012Validator(self.profile_schema)
        errors = {}
        for err in validator.iter_errors(profile):
            errors.setdefault(".".join(str(p) for p in err.path) or "profile", err.message)
        if errors:
            raise RuleInputError(errors)

    # Army building ---------------------------------------------------------------------------------
    @abstractmethod
    def cost_roster(self, roster: dict) -> RosterReport:
        """`roster` = {"faction", "points_limit", "opponent_total"?, "entries": [{"key", "profile", "count",
        "loadout", "pilot"}]} with each profile as stored in the pack. Answers totals and issues."""
        ...

    # Tracker -----------------------------------------------------------------------------------------
    @abstractmethod
    def initial_unit_state(self, profile: dict, entry: dict) -> dict: ...

    @abstractmethod
    def apply_effect(self, state: dict, effect: dict) -> dict:
        """Returns a new unit state with one effect applied (never mutates `state`)."""
        ...

    def describe(self) -> dict:
        return {
            "slug": self.slug,
            "name": self.name,
            "dice": self.dice,
            "settings": [s.describe() for s in self.settings],
            "actions": [a.describe() for a in self.actions.values()],
            "profile_schema": self.profile_schema,
        }
