"""Rollers: the one place a procedure of the rules gets its randomness.

A procedure (a shot, a status tick, the injuries after a scenario …) is written once against a roller:
- `LiveRoller` rolls through a dice source (server-seeded or typed in from the table; every die recorded);
- `BranchRoller` takes one branch of every random point, with its exact probability; `enumerate_runs` walks
  every branch of the procedure, so its exact odds are the procedure itself, run over all outcomes.

A d20 test branches on what the rules read from it: success, crit, and a `tag` of its face and result
(a natural 18–20 for stray shots, a natural 1 or 20 for the injury tests). Its class probabilities are exact
(core.joint_outcomes). Single dice branch on every face; dice totals on their exact distribution.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from rules import dice as dicelib
from rules.errors import RuleInputError
from rules.i18n import _
from rules.systems.enforcers import core
from rules.systems.enforcers.texts import T, quiet

TAGS: dict[str | None, Callable[[int, int], object]] = {
    None: lambda face, result: None,
    "stray_natural": lambda face, result: 18 <= face <= 20,  # L170 «кидает 18-20», A11
    "stray_result": lambda face, result: 18 <= result <= 20,
    "natural_1_or_20": lambda face, result: face in (1, 20),  # L258
}
MAX_RUNS = 50_000  # a guard: the procedures here have at most a few thousand branches


def _settings_key(settings: dict) -> tuple:
    return tuple(settings.get(k) for k in ("homerule_max_only", "homerule_cancel_first", "reroll_scope"))


@lru_cache(maxsize=4096)
def _test_classes(spec: core.RollSpec, tag: str | None, settings_key: tuple) -> tuple:
    settings = dict(zip(("homerule_max_only", "homerule_cancel_first", "reroll_scope"), settings_key, strict=True))
    classes: dict[tuple, Fraction] = {}
    classify = TAGS[tag]
    for (face, result, rerolled), p in core.joint_outcomes(spec, settings).items():
        key = (core.succeeds(spec, face, result), core.is_crit(spec, face, result), classify(face, result), rerolled)
        classes[key] = classes.get(key, Fraction(0)) + p
    # Successes first, so the first run of an enumeration is the "everything works" story.
    return tuple(sorted(classes.items(), key=lambda kv: (not kv[0][0], not kv[0][1], str(kv[0][2]), kv[0][3])))


def outcome_classes(spec: core.RollSpec, settings: dict, tag: str | None = None, key: tuple | None = None) -> tuple:
    """((success, crit, tag, re-rolled), probability) of one test, exact (`key`: the settings' key, if known)."""
    return _test_classes(spec, tag, key if key is not None else _settings_key(settings))


@lru_cache(maxsize=1024)
def _without_crit_effect(spec: core.RollSpec) -> core.RollSpec:
    return replace(spec, crit_effect=False)


def table_spec(spec: core.RollSpec, settings: dict) -> core.RollSpec:
    """The table's crit rule applies to every test (A3: a crit succeeds whatever the roll, unless switched off)."""
    if spec.crit_success and not settings.get("crit_auto_success", True):
        return replace(spec, crit_success=False)
    return spec


class LiveRoller:
    """Real dice: rolled by the server with a seed, or typed in from the table."""

    exact = False

    def __init__(self, dice, settings: dict):
        self.dice = dice
        self.settings = settings

    def test(self, spec: core.RollSpec, tag: str | None = None, *, crit_matters: bool = True) -> dict:
        record = core.roll_test(self.dice, table_spec(spec, self.settings), self.settings)
        record["tag"] = TAGS[tag](record["d20"], record["result"])
        return record

    def roll(self, faces: int, purpose: str) -> int:
        return self.dice.roll(faces, purpose)

    def total(self, count: int, faces: int, purpose: str) -> tuple[int, list[int]]:
        values = self.dice.roll_many(count, faces, purpose)
        return sum(values), values


class BranchRoller:
    """Follows a path of branch indexes; beyond it takes the first branch and notes how many there were."""

    exact = True

    def __init__(self, path: list[int], settings: dict):
        self.path = path
        self.settings = settings
        self.key = _settings_key(settings)
        self.taken: list[int] = []
        self.frontier: list[int] = []
        self.p = Fraction(1)

    def _choose(self, options: list[tuple[object, Fraction]]):
        options = [(v, p) for v, p in options if p > 0]
        position = len(self.taken)
        if position < len(self.path):
            index = self.path[position]
        else:
            index = 0
            self.frontier.append(len(options))
        value, p = options[index]
        self.taken.append(index)
        self.p *= p
        return value

    def test(self, spec: core.RollSpec, tag: str | None = None, *, crit_matters: bool = True) -> dict:
        """`crit_matters` False: the caller reads only whether the test passed (a TN test against a status, a WL
        test to keep aim), so a crit and a plain success are one branch (the same odds, fewer branches to walk)."""
        spec = table_spec(spec, self.settings)
        if not crit_matters and spec.crit_effect:
            spec = _without_crit_effect(spec)
        success, crit, tag_value, rerolled = self._choose(list(outcome_classes(spec, self.settings, tag, self.key)))
        return {
            "label": spec.label,
            "difficulty": spec.difficulty,
            "success": success,
            "crit": crit,
            "tag": tag_value,
            "rerolled": rerolled,
            "line": T(
                "{label} against {difficulty}: {verdict}.",
                label=spec.label,
                difficulty=spec.difficulty,
                verdict=core.verdict_text(success, crit),
            ),
        }

    def roll(self, faces: int, purpose: str) -> int:
        return self._choose([(v, Fraction(1, faces)) for v in range(1, faces + 1)])

    def total(self, count: int, faces: int, purpose: str) -> tuple[int, list[int]]:
        dist = dicelib.DiceExpr(count, faces).total_distribution()
        value = self._choose(sorted(dist.items()))
        return value, []


def enumerate_runs(run: Callable[[BranchRoller], object], settings: dict) -> list[tuple[Fraction, object]]:
    """Every branch of `run` with its exact probability (they sum to 1)."""
    with quiet():  # the branches' texts are never read: only their results
        return _walk(run, settings)


def _walk(run: Callable[[BranchRoller], object], settings: dict) -> list[tuple[Fraction, object]]:
    out: list[tuple[Fraction, object]] = []
    stack: list[list[int]] = [[]]
    while stack:
        path = stack.pop()
        roller = BranchRoller(path, settings)
        result = run(roller)
        out.append((roller.p, result))
        if len(out) > MAX_RUNS:
            raise RuleInputError(_("This situation has too many outcomes to count exactly."))
        for offset, count in enumerate(roller.frontier):
            position = len(path) + offset
            prefix = roller.taken[:position]
            stack.extend(prefix + [alt] for alt in range(1, count))
    return out


def distribution_of(runs: list[tuple[Fraction, object]], key: Callable[[object], object]) -> dict:
    out: dict = {}
    for p, result in runs:
        k = key(result)
        out[k] = out.get(k, Fraction(0)) + p
    return out


def probability_of(runs: list[tuple[Fraction, object]], predicate: Callable[[object], bool]) -> Fraction:
    return sum((p for p, result in runs if predicate(result)), Fraction(0))


def expectation_of(runs: list[tuple[Fraction, object]], value: Callable[[object], int]) -> Fraction:
    return sum((p * value(result) for p, result in runs), Fraction(0))
