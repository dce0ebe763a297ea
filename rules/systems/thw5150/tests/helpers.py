"""Shared test helpers: resolve an action many times with seeded dice and hold the frequencies against the exact
odds (within 4 standard errors; exactly where p is 0 or 1)."""

from __future__ import annotations

from rules.contract.testing import assert_matches, frac, sample
from rules.dice import SeededDice, TableDice
from rules.systems.thw5150.settings import full
from rules.systems.thw5150.system import SYSTEM


def settings_with(**overrides) -> dict:
    return full(SYSTEM.resolve_settings(overrides))


def resolve(action: str, inputs: dict, dice: list[int] | None = None, seed: int = 1, **settings):
    source = TableDice(dice) if dice is not None else SeededDice(seed)
    return SYSTEM.action(action).resolve(inputs, settings_with(**settings), source)


def odds(action: str, inputs: dict, **settings) -> dict:
    return SYSTEM.action(action).odds(inputs, settings_with(**settings))


def check(action: str, inputs: dict, events: dict, *, n: int = 6000, seed: int = 7, **overrides) -> dict:
    """events: name -> (extractor(outcome), builder(odds) -> {value: Fraction})."""
    settings = settings_with(**overrides)
    answer = SYSTEM.action(action).odds(inputs, settings)
    # One run of n resolutions read by every extractor: the same seeded outcomes a run per event would give.
    counts = sample(SYSTEM.action(action), inputs, {name: extract for name, (extract, _) in events.items()}, n, seed,
                    settings)  # fmt: skip
    for name, (_, build) in events.items():
        assert_matches(name, build(answer), counts[name], n)
    return answer


def outcomes_of(member: int):
    """Extractor and builder for the outcome of the `member`-th tester of a group test."""

    def extract(o):
        return next(r["outcome"] for r in o.result["members"] if r["index"] == member)

    def build(a):
        row = next(r for r in a["members"] if r["index"] == member)
        return {k: frac(v) for k, v in row["outcomes"].items()}

    return extract, build


def hero_of(member: int):
    def extract(o):
        return any(e["kind"] == "hero" and e["role"] == f"members.{member}" for e in o.effects)

    def build(a):
        p = frac(next(r for r in a["members"] if r["index"] == member)["p_becomes_hero"])
        return {True: p, False: 1 - p}

    return extract, build
