"""The frame every action of «Звездный Десант» shares: raw inputs are validated (schema, then rules), dice come from
a DiceSource (seeded or typed in, each D20 recorded with its purpose), and odds are exact fractions.

Schemas bound every number, so junk can neither loop nor run long: at most MAX_FIGURES figures in a unit, MAX_SKR
dice per figure, MAX_UNITS units in an activation order or a melee.
"""

from __future__ import annotations

from abc import abstractmethod
from fractions import Fraction
from math import comb

from rules.contract import Action, Outcome, RuleInputError, distribution, exact, prob
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.settings import full_settings

MAX_FIGURES = 50
MAX_SKR = 10
MAX_UNITS = 24
MAX_ROLLOFF_ROUNDS = 100  # 100 ties in a row: probability 20**-100

REF = {"description": "Anything that identifies the unit or figure for the caller; echoed in effects."}
ORDER = {"enum": list(tables.ORDERS), "description": "Движение (move), Оборона (defence) or Атака (attack)"}
ORDER_OR_NONE = {"enum": [*tables.ORDERS, None], "description": "The unit's order; null: no order card"}
SHOOTER_ORDER = {"enum": ["defence", "attack"], "description": "Only «Оборона» and «Атака» may shoot (L352)"}
KIND = {"enum": list(tables.KINDS), "default": "infantry"}
COVER = {"enum": list(tables.COVERS)}
ARMOUR = {"type": "string", "maxLength": 4, "description": "A–E, Latin or Cyrillic (А, В, С, D, Е)"}
HRK = {
    "anyOf": [
        {"type": "string", "minLength": 1, "maxLength": 60},
        {
            "type": "object",
            "minProperties": 1,
            "maxProperties": 5,
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 40},
        },
    ],
    "description": '«В12», «A10 В12 С16» or {"B": 12}: the wound-test roll per armour class',
}
WEAPON = {
    "type": "object",
    "additionalProperties": False,
    "required": ["hrk"],
    "properties": {
        "name": {"type": "string", "maxLength": 80},
        "dln": {"type": "integer", "minimum": 0, "maximum": 200, "description": "Длн, steps"},
        "skr": {"type": "integer", "minimum": 1, "maximum": MAX_SKR, "default": 1, "description": "Скр"},
        "msch": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1, "description": "Мщ"},
        "hrk": HRK,
    },
}
PLAYERS = {
    "type": "array",
    "minItems": 2,
    "maxItems": 2,
    "items": {"type": "string", "minLength": 1, "maxLength": 60},
    "default": ["Игрок 1", "Игрок 2"],
    "description": "The two players' names",
}


def err(field: str, message: str) -> RuleInputError:
    return RuleInputError({field: message})


def roll_tests(dice, count: int, need: int | None, purpose: str) -> list[int]:
    """`count` D20 rolled for one kind of test, each recorded as "<purpose> i of n"."""
    return dice.roll_many(count, tables.D20, purpose) if count > 0 else []


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    """Exact number of successes of `n` independent tests passing with probability `p`."""
    if p == 0 or n == 0:
        return {0: Fraction(1)}
    if p == 1:
        return {n: Fraction(1)}
    q = 1 - p
    return {k: comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)}


def convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


def scaled(d: dict[int, Fraction], factor: int) -> dict[int, Fraction]:
    return {k * factor: v for k, v in d.items()}


def mapped(d: dict, fn) -> dict:
    out: dict = {}
    for k, v in d.items():
        key = fn(k)
        out[key] = out.get(key, Fraction(0)) + v
    return out


def mean(d: dict[int, Fraction]) -> Fraction:
    return sum((Fraction(k) * v for k, v in d.items()), Fraction(0))


def exact_mean(d: dict[int, Fraction]) -> dict:
    """The expected value, exact."""
    return exact(mean(d))


def dist(d: dict) -> list[dict]:
    return distribution(d)


def roll_off(dice, players: list[str], settings: dict, purpose: str, *, previous: int | None = None) -> dict:
    """Both players roll D20; the higher wins (L156, L774). A tie re-rolls (A6), or keeps last turn's First
    Player when the setting says so and there is one."""
    rounds = []
    for n in range(MAX_ROLLOFF_ROUNDS):
        suffix = f" (re-roll {n})" if n else ""
        rolls = [dice.roll(tables.D20, f"{purpose}: {p}{suffix}") for p in players]
        rounds.append(rolls)
        if rolls[0] != rolls[1]:
            return {"winner": 0 if rolls[0] > rolls[1] else 1, "rounds": rounds, "kept": False}
        if settings["rolloff_ties"] == "keep_previous" and previous is not None:
            return {"winner": previous, "rounds": rounds, "kept": True}
    raise err("dice", "The roll-off tied every time; roll again.")


class ZdAction(Action):
    """resolve() and odds() take RAW inputs and validate them (schema, then check_inputs()) themselves.
    Subclasses implement resolve_clean(clean, settings, dice) and odds_clean(clean, settings)."""

    def check(self, inputs: dict, settings: dict) -> dict:
        return self.check_inputs(self.with_defaults(inputs), settings)

    def check_inputs(self, inputs: dict, settings: dict) -> dict:
        return inputs

    def with_defaults(self, inputs: dict) -> dict:
        """Top-level schema defaults filled in."""
        out = dict(inputs)
        for key, prop in (self.input_schema.get("properties") or {}).items():
            if key not in out and isinstance(prop, dict) and "default" in prop:
                out[key] = prop["default"]
        return out

    def resolve(self, inputs: dict, settings: dict, dice) -> Outcome:
        settings = full_settings(settings)
        clean = self.validate(inputs, settings)
        outcome = self.resolve_clean(clean, settings, dice)
        dice.finish()
        outcome.dice = [r.as_dict() for r in dice.rolls]
        return outcome

    def odds(self, inputs: dict, settings: dict) -> dict:
        settings = full_settings(settings)
        return self.odds_clean(self.validate(inputs, settings), settings)

    @abstractmethod
    def resolve_clean(self, clean: dict, settings: dict, dice) -> Outcome: ...

    @abstractmethod
    def odds_clean(self, clean: dict, settings: dict) -> dict: ...

    def outcome(self, summary: str, result: dict, effects: list[dict], steps: list[str]) -> Outcome:
        return Outcome(action=self.key, summary=summary, result=result, dice=[], effects=effects, steps=steps)


class RuleAction(ZdAction):
    """A procedure with no dice (activation order, movement, cover, victory points…): resolve() gives the ruling,
    odds() the same ruling with probability 1, so the «three forms» still agree."""

    @abstractmethod
    def rule(self, clean: dict, settings: dict) -> tuple[str, dict, list[dict], list[str]]: ...

    def resolve_clean(self, clean, settings, dice):
        return self.outcome(*self.rule(clean, settings))

    def odds_clean(self, clean, settings):
        summary, result, _, _ = self.rule(clean, settings)
        return {"deterministic": True, "p": prob(1), "summary": summary, "result": result}


__all__ = ["MAX_FIGURES", "RuleAction", "ZdAction", "binomial", "convolve", "dist", "err", "mean", "prob"]
