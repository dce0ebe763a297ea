"""Dice as the books write them: notation, rolling with a record of every die, and exact distributions.

Notation (Cyrillic «Д»/«д», the Russian «к»/«К», Latin D/d; spaces anywhere):
    "Д6", "2Д12", "Д6+2", "1Д20", "D12", "3d6", "Д12 + 2", "6 Д20", "2к6", "Д20-1"
    melee weapons "ББ/2", "ББ2", "ББ 2" (also Latin "BB/2")
    "–", "-", "—", "" or None: no weapon (a dash in the Armlist)
Any die of 2..100 faces parses; a system restricts its dice with `faces=(6, 12, 20)`.

Rolling goes through a `DiceSource`: `SeededDice(seed)` (the server rolls) or `TableDice(values)` (the dice a
player rolled at the table, typed in). Every die used is recorded with its kind ("d12"), faces, value and purpose.

Exact distributions are `dict[int, Fraction]`, built with icepool (pinned) or plain fractions: exact, not sampled.
"""

from __future__ import annotations

import math
import random
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from fractions import Fraction
from itertools import combinations_with_replacement, product
from typing import Protocol

import icepool

from rules.errors import RuleInputError
from rules.i18n import _, ngettext

MIN_FACES = 2
MAX_FACES = 100
MAX_COUNT = 100
BOOK_FACES = (6, 12, 20)  # the dice of «Бронепехота»; other systems pass their own

_DASHES = {"", "-", "–", "—", "−"}
_DIE_LETTERS = str.maketrans({"Д": "d", "д": "d", "D": "d", "к": "d", "К": "d", "−": "-", "–": "-"})
_DICE_RE = re.compile(r"^(?P<count>\d*)d(?P<faces>\d*)(?:(?P<sign>[+-])(?P<mod>\d*))?$")
_MELEE_RE = re.compile(r"^(?:ББ|BB|бб|bb)\s*/?\s*(?P<value>\d+)$")


class DiceNotationError(RuleInputError):
    """Notation that cannot be read. The message names the bad part, e.g. "'Д7': a die must be d6, d12 or d20"."""

    def __init__(self, text, reason: str, field: str = "notation"):
        self.text = text
        self.reason = reason
        super().__init__({field: f"{text!r}: {reason}"})


class DiceInputError(RuleInputError):
    """Typed-in dice that do not fit the test: wrong count or a value out of a die's range."""

    def __init__(self, message: str):
        super().__init__({"dice": message})


@dataclass(frozen=True)
class DiceExpr:
    """`count` dice of `faces` plus `modifier`: "2Д12" -> (2, 12, 0), "Д6+2" -> (1, 6, 2)."""

    count: int
    faces: int
    modifier: int = 0

    def __str__(self) -> str:
        return self.notation()

    def notation(self, letter: str = "Д") -> str:
        count = "" if self.count == 1 else str(self.count)
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{count}{letter}{self.faces}{mod}"

    @property
    def kind(self) -> str:
        return f"d{self.faces}"

    def total_distribution(self) -> dict[int, Fraction]:
        """Exact distribution of the sum of the dice plus the modifier."""
        return to_fractions(self.count @ icepool.d(self.faces) + self.modifier)

    def as_dict(self) -> dict:
        return {"count": self.count, "faces": self.faces, "modifier": self.modifier, "notation": self.notation()}


@dataclass(frozen=True)
class MeleeValue:
    """A vehicle melee weapon «ББ/n»: adds n to the vehicle's melee value."""

    value: int

    def notation(self) -> str:
        return f"ББ/{self.value}"


def _faces_message(allowed: tuple[int, ...]) -> str:
    names = [f"d{f}" for f in allowed]
    joined = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]
    return f"a die must be {joined}"


def is_none(text) -> bool:
    """True for the Armlist dash (no weapon): None, "", "-", "–", "—"."""
    return text is None or (isinstance(text, str) and text.strip() in _DASHES)


def parse(
    text,
    *,
    faces: tuple[int, ...] | None = None,
    allow_modifier: bool = True,
    single_die: bool = False,
    field: str = "notation",
) -> DiceExpr | None:
    """Parses dice notation; returns None for a dash. Raises DiceNotationError naming the bad part.

    faces: the dice a system allows (e.g. (6, 12, 20)); None accepts any 2..100.
    single_die: a range cell holds one die ("Д6+2"), never "2Д6".
    """
    if is_none(text):
        return None
    if not isinstance(text, str):
        raise DiceNotationError(text, "dice notation must be text such as Д6, 2Д12 or Д6+2", field)
    compact = re.sub(r"\s+", "", text).translate(_DIE_LETTERS)
    match = _DICE_RE.match(compact.lower()) if compact.count("d") == 1 else None
    if not match:
        if _MELEE_RE.match(re.sub(r"\s+", "", text)):
            raise DiceNotationError(text, "this is a melee value (ББ/n), not dice", field)
        raise DiceNotationError(text, "not dice notation (expected e.g. Д6, 2Д12, Д6+2 or 3d6)", field)
    if not match["faces"]:
        raise DiceNotationError(text, "the number of faces is missing after Д (e.g. Д6)", field)
    count = int(match["count"]) if match["count"] else 1
    die_faces = int(match["faces"])
    if match["sign"] and not match["mod"]:
        raise DiceNotationError(text, f"the number after '{match['sign']}' is missing", field)
    modifier = int(match["mod"]) * (-1 if match["sign"] == "-" else 1) if match["sign"] else 0
    if count < 1:
        raise DiceNotationError(text, "the number of dice must be 1 or more", field)
    if count > MAX_COUNT:
        raise DiceNotationError(text, f"at most {MAX_COUNT} dice", field)
    if faces is not None and die_faces not in faces:
        raise DiceNotationError(text, _faces_message(tuple(faces)), field)
    if not MIN_FACES <= die_faces <= MAX_FACES:
        raise DiceNotationError(text, f"a die must have {MIN_FACES} to {MAX_FACES} faces", field)
    if single_die and count != 1:
        raise DiceNotationError(text, "a range is one die (e.g. Д6+2), not several", field)
    if modifier and not allow_modifier:
        raise DiceNotationError(text, "no modifier is allowed here", field)
    return DiceExpr(count, die_faces, modifier)


def parse_melee(text, *, field: str = "melee") -> int:
    """«ББ/2», «ББ2», «ББ 2» or a bare number -> the melee value. Raises DiceNotationError."""
    if isinstance(text, bool):
        raise DiceNotationError(text, "a melee value is a number such as ББ/2", field)
    if isinstance(text, int):
        if text < 0:
            raise DiceNotationError(text, "a melee value cannot be negative", field)
        return text
    if not isinstance(text, str):
        raise DiceNotationError(text, "a melee value is written ББ/2 or as a number", field)
    compact = re.sub(r"\s+", "", text)
    if compact.isdigit():
        return int(compact)
    match = _MELEE_RE.match(compact)
    if not match:
        raise DiceNotationError(text, "a melee weapon is written ББ/n, e.g. ББ/2", field)
    return int(match["value"])


def parse_cell(text, *, faces: tuple[int, ...] | None = None, field: str = "notation"):
    """A weapon table cell: dice (DiceExpr), a melee value (MeleeValue) or None for a dash."""
    if isinstance(text, str) and _MELEE_RE.match(re.sub(r"\s+", "", text)):
        return MeleeValue(parse_melee(text, field=field))
    return parse(text, faces=faces, field=field)


# Rolling -----------------------------------------------------------------------------------------------
_NUMBERED = re.compile(r"^(?P<what>.+?) (?P<i>\d+) of (?P<n>\d+)$")
_REROLLED = re.compile(r"^(?P<what>.+?) \(re-roll (?P<n>\d+)\)$")


def purpose_words(purpose: str) -> str:
    """A die's purpose in the reader's language. A purpose stored in English is worded when shown, so a battle
    written on an English phone reads in Russian on a Russian one: a msgid («range roll»), numbered («power die 2 of
    4»), naming what it is for after a colon («hit test: Автомат», «First Player roll: Синие»: the name stays as it
    is), or a re-roll («… (re-roll 1)»). Anything else (an older purpose stored already worded) comes back as it is."""
    if not purpose or not isinstance(purpose, str):
        return ""
    said = _(purpose)
    if said != purpose:
        return said
    if match := _REROLLED.match(purpose):
        return f"{purpose_words(match['what'])} " + _("(re-roll {n})").format(n=match["n"])
    if match := _NUMBERED.match(purpose):
        return _("{purpose} {i} of {n}").format(purpose=purpose_words(match["what"]), i=match["i"], n=match["n"])
    what, colon, who = purpose.partition(": ")
    if colon:
        return _("{what}: {who}").format(what=_(what), who=who)
    return purpose


@dataclass
class DieRoll:
    kind: str  # "d12"
    faces: int
    value: int
    purpose: str  # "range roll", "power die 2 of 4", "pilot survival test" …

    def as_dict(self) -> dict:
        return asdict(self)


class DiceSource(Protocol):
    """Where dice come from. Every die is recorded in `rolls`, in the order used."""

    rolls: list[DieRoll]

    def roll(self, faces: int, purpose: str) -> int: ...

    def roll_many(self, count: int, faces: int, purpose: str) -> list[int]: ...

    def finish(self) -> None:
        """Called when a resolution is done; TableDice complains about dice left over."""


class _Recorder:
    def __init__(self):
        self.rolls: list[DieRoll] = []

    def _record(self, faces: int, value: int, purpose: str) -> int:
        self.rolls.append(DieRoll(f"d{faces}", faces, value, purpose))
        return value

    def roll_many(self, count: int, faces: int, purpose: str) -> list[int]:
        """`count` dice; purposes are numbered "power die 1 of 3" …"""
        # "1 of 3" reads the same for any count in Russian («1 из 3»), so no plural form is needed here.
        return [self.roll(faces, _("{purpose} {i} of {count}").format(purpose=_(purpose), i=i, count=count))
                for i in range(1, count + 1)]  # fmt: skip

    def as_list(self) -> list[dict]:
        return [r.as_dict() for r in self.rolls]

    def finish(self) -> None:
        return None


class SeededDice(_Recorder):
    """The server rolls with a seeded generator: the same seed gives the same dice."""

    def __init__(self, seed: int | None = None):
        super().__init__()
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._random = random.Random(self.seed).random

    def roll(self, faces: int, purpose: str) -> int:
        return self._record(faces, int(self._random() * faces) + 1, purpose)


class ProbeDice(SeededDice):
    """The dice a test asks for, in order: the typed-in ones first (while they fit), then seeded ones standing for
    the dice still to be rolled at the table."""

    def __init__(self, typed: list, seed: int = 0):
        super().__init__(seed)
        self.typed = list(typed or [])

    def roll(self, faces: int, purpose: str) -> int:
        position = len(self.rolls)
        value = self.typed[position] if position < len(self.typed) else None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
            return super().roll(faces, purpose)
        return self._record(faces, value, purpose)


def dice_needed(resolve, typed: list, *, seeds: tuple[int, ...] = (0, 1, 2, 3)) -> list[dict]:
    """The dice `resolve(dice_source)` uses with these typed-in dice, in order, as data a program reads: runs of the
    same die and purpose as {"die", "faces", "count", "purpose"}. Past the typed-in dice the test may branch (a hit
    asks for its power dice): the longest of a few seeded runs is given."""
    longest: list = []
    for seed in seeds:
        probe = ProbeDice(typed if isinstance(typed, list) else [], seed)
        try:
            resolve(probe)
        except RuleInputError:
            pass
        if len(probe.rolls) > len(longest):
            longest = list(probe.rolls)
    runs: list[dict] = []
    for r in longest:
        purpose = purpose_words(r.purpose)
        if runs and runs[-1]["faces"] == r.faces and runs[-1]["purpose"] == purpose:
            runs[-1]["count"] += 1
        else:
            runs.append({"die": f"d{r.faces}", "faces": r.faces, "count": 1, "purpose": purpose})
    return runs


class TableDice(_Recorder):
    """Dice rolled at the table and typed in, used in order. Each value is checked against the die it is used
    for; running out or leaving some unused raises DiceInputError saying how many the test needed."""

    def __init__(self, values):
        super().__init__()
        if not isinstance(values, list | tuple):
            raise DiceInputError(_("Type the dice as a list of whole numbers, e.g. [4, 11, 2]."))
        for i, v in enumerate(values, start=1):
            if isinstance(v, bool) or not isinstance(v, int):
                raise DiceInputError(_("Die {i} ({value!r}) is not a whole number.").format(i=i, value=v))
        self.values = list(values)

    def roll(self, faces: int, purpose: str) -> int:
        position = len(self.rolls)
        if position >= len(self.values):
            given = len(self.values)
            raise DiceInputError(
                ngettext(
                    "Not enough dice: die {n} (a d{faces} for the {purpose}) is missing; {given} was typed in and "
                    "at least {n} are needed.",
                    "Not enough dice: die {n} (a d{faces} for the {purpose}) is missing; {given} were typed in and "
                    "at least {n} are needed.",
                    given,
                ).format(n=position + 1, faces=faces, purpose=purpose_words(purpose), given=given)
            )
        value = self.values[position]
        if not 1 <= value <= faces:
            raise DiceInputError(
                _("Die {n} is {value}, but it is a d{faces} ({purpose}): 1 to {faces}.").format(
                    n=position + 1, value=value, faces=faces, purpose=purpose_words(purpose)
                )
            )
        return self._record(faces, value, purpose)

    def finish(self) -> None:
        used, given = len(self.rolls), len(self.values)
        if given > used:
            used_dice = ", ".join(f"{r.kind} {purpose_words(r.purpose)}" for r in self.rolls) or _("none")
            raise DiceInputError(
                ngettext(
                    "Too many dice: {given} typed in, but this test used {used} ({dice}).",
                    "Too many dice: {given} typed in, but this test used {used} ({dice}).",
                    given,
                ).format(given=given, used=used, dice=used_dice)
            )


def dice_source(*, seed: int | None = None, dice: list | None = None) -> _Recorder:
    """Typed-in dice when given, else a seeded roller (a random seed when none is given)."""
    if dice is not None:
        return TableDice(dice)
    return SeededDice(seed)


# The work of one exact computation ----------------------------------------------------------------------
class OddsTooLarge(RuleInputError):
    """Exact odds that would enumerate more dice outcomes than one request may (400, with the limit as data)."""

    code = "odds_too_large"

    def __init__(self, needed: int, limit: int):
        self.needed, self.limit = needed, limit
        super().__init__(
            {
                "inputs": _(
                    "These odds are too large to work out exactly: they would go through {needed} dice outcomes, and "
                    "one request may go through {limit}. Use fewer dice, figures or opponents."
                ).format(needed=f"{needed:,}".replace(",", " "), limit=f"{limit:,}".replace(",", " "))
            }
        )


_BUDGET: ContextVar[list[int] | None] = ContextVar("odds_enumeration_budget", default=None)


@contextmanager
def enumeration_limit(limit: int):
    """Within this block, the rolls that exact odds go through one by one (`rolls`, `roll_multisets`, `charge`)
    count against `limit`; past it OddsTooLarge is raised before the work starts. The API sets it per request
    (settings.ODDS_ENUMERATION_LIMIT); simulations and tests run without one."""
    token = _BUDGET.set([limit, limit])
    try:
        yield
    finally:
        _BUDGET.reset(token)


def charge(outcomes: int) -> None:
    """Counts `outcomes` enumerated against the block's limit (nothing outside an `enumeration_limit` block)."""
    budget = _BUDGET.get()
    if budget is None:
        return
    budget[0] -= outcomes
    if budget[0] < 0:
        raise OddsTooLarge(budget[1] - budget[0], budget[1])


def rolls(faces: int, count: int):
    """Every ordered roll of `count` dice of `faces` (faces**count of them), charged before the first."""
    charge(faces**count)
    return product(range(1, faces + 1), repeat=count)


def roll_multisets(faces: int, count: int):
    """Every unordered roll of `count` dice of `faces` (as sorted tuples), charged before the first."""
    charge(math.comb(faces + count - 1, count))
    return combinations_with_replacement(range(1, faces + 1), count)


# Exact distributions ----------------------------------------------------------------------------------
def to_fractions(die: icepool.Die) -> dict:
    """An icepool die as {outcome: Fraction}."""
    denominator = die.denominator()
    return {outcome: Fraction(quantity, denominator) for outcome, quantity in die.items()}


def uniform(faces: int) -> dict[int, Fraction]:
    return {v: Fraction(1, faces) for v in range(1, faces + 1)}


def highest_of(count: int, faces: int) -> dict[int, Fraction]:
    """Roll `count` dice and keep the highest (e.g. a surprise attack: the higher of two d6)."""
    return to_fractions(icepool.d(faces).highest(count) if count > 1 else icepool.d(faces))


def combine(a: dict, b: dict, op) -> dict:
    """Distribution of op(x, y) for independent x ~ a, y ~ b."""
    out: dict = {}
    for x, px in a.items():
        for y, py in b.items():
            key = op(x, y)
            out[key] = out.get(key, Fraction(0)) + px * py
    return out


def probability(d: dict, predicate) -> Fraction:
    return sum((p for v, p in d.items() if predicate(v)), Fraction(0))


def expected(d: dict) -> Fraction:
    return sum((Fraction(v) * p for v, p in d.items()), Fraction(0))


def roll_under(target: int, faces: int = 20, *, modifier: int = 0) -> Fraction:
    """P(die + modifier <= target): the d20 roll-under tests of other systems."""
    return Fraction(sum(1 for r in range(1, faces + 1) if r + modifier <= target), faces)


def pool_successes(count: int, faces: int, success) -> dict[int, Fraction]:
    """Number of dice in a pool of `count` meeting `success(value)` (d6 pools of other systems)."""
    p = Fraction(sum(1 for v in range(1, faces + 1) if success(v)), faces)
    return to_fractions(count @ icepool.Die({1: p.numerator, 0: p.denominator - p.numerator}))
