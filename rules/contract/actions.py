"""The books' tests: an Action validates its inputs, resolves with dice (seeded or typed in) and gives exact odds."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

import jsonschema

from rules.contract.schema import schema_errors
from rules.contract.settings import SettingsCatalogue
from rules.errors import RuleInputError
from rules.i18n import _


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


def convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    """The exact distribution of the sum of two independent counts, each given as {value: probability}."""
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


class Action(ABC):
    """One of the books' tests. Subclasses set the class attributes and implement resolve() and odds()."""

    key: str = ""
    label: str = ""
    spec_ref: str = ""
    description: str = ""
    input_schema: dict = {"type": "object"}
    #: Readable words for the keys odds() answers ({"p_hit": N_("Hit")}), translated in describe(); a key left out
    #: is shown as its words ("p_hit" → "hit"), never as the raw code.
    result_labels: dict = {}

    def validate(self, inputs: dict, settings: dict) -> dict:
        """Schema check, then the rule checks of `check()`. Raises RuleInputError naming each bad field."""
        validator = self.__dict__.get("_validator")
        if validator is None:  # built once per action: compiling a schema costs more than checking inputs
            validator = self.__dict__["_validator"] = jsonschema.Draft202012Validator(self.input_schema)
        if not isinstance(inputs, dict):
            raise RuleInputError({"inputs": _("must be an object")})
        errors = schema_errors(validator, inputs)
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
            "result_labels": {key: _(label) for key, label in self.result_labels.items()},
        }


class CleanAction(Action):
    """The base a system's actions start from, like Django's BaseDatabaseOperations: every shared step is here, and
    what a system must fill in raises NotImplementedError naming it.

    resolve() and odds() take the RAW inputs and the settings as given: the system's defaults fill in what is left
    out (`settings_catalogue`), validate() checks the schema, then check() (the system's checks of every action) and
    check_inputs() (the action's own), and resolve_clean() or odds_clean() work on the clean inputs. resolve()
    closes the dice (a typed-in die left over is an error) and records every die rolled in the outcome.
    """

    #: The system's SettingsCatalogue (rules/contract/settings.py): its defaults fill in the settings left out.
    settings_catalogue: SettingsCatalogue | None = None

    def full_settings(self, settings: dict | None) -> dict:
        """The system's defaults under the given (already checked) settings, so a rule never misses a key."""
        if self.settings_catalogue is None:
            raise NotImplementedError(f"{type(self).__name__} must set settings_catalogue (the system's settings).")
        return self.settings_catalogue.full(settings)

    def check(self, inputs: dict, settings: dict) -> dict:
        """The checks every action of the system makes (none here; a system's base overrides this and ends with
        check_inputs()), then the action's own."""
        return self.check_inputs(inputs, settings)

    def check_inputs(self, inputs: dict, settings: dict) -> dict:
        """The action's own rule checks beyond the schema; returns the cleaned inputs. Override where needed."""
        return inputs

    def resolve(self, inputs: dict, settings: dict, dice) -> Outcome:
        settings = self.full_settings(settings)
        clean = self.validate(inputs, settings)
        first = len(dice.rolls)  # the outcome shows its own rolls (a source of dice may serve many resolutions)
        outcome = self.resolve_clean(clean, settings, dice)
        dice.finish()
        outcome.dice = [r.as_dict() for r in dice.rolls[first:]]
        return outcome

    def odds(self, inputs: dict, settings: dict) -> dict:
        settings = self.full_settings(settings)
        return self.odds_clean(self.validate(inputs, settings), settings)

    @abstractmethod
    def resolve_clean(self, clean: dict, settings: dict, dice) -> Outcome:
        """The action with dice on validated inputs and full settings."""
        raise NotImplementedError(f"{type(self).__name__} must provide a resolve_clean() method.")

    @abstractmethod
    def odds_clean(self, clean: dict, settings: dict) -> dict:
        """The exact odds on validated inputs and full settings."""
        raise NotImplementedError(f"{type(self).__name__} must provide an odds_clean() method.")

    def outcome(self, summary: str, result: dict, effects: list[dict], steps: list[str]) -> Outcome:
        """An Outcome of this action; resolve() fills in its dice."""
        return Outcome(action=self.key, summary=summary, result=result, dice=[], effects=effects, steps=steps)
