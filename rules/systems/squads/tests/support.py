"""Helpers shared by the tests of «Отряды»: settings, typed-in and seeded resolution, refusals, 4-SE checks."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.contract import RuleInputError, testing
from rules.contract.testing import assert_matches, boolean, dist, frac  # noqa: F401  (the suites import them from here)
from rules.dice import TableDice
from rules.systems.squads.settings import full_settings
from rules.systems.squads.system import SYSTEM

BASE = SYSTEM.default_settings()


def settings(**over) -> dict:
    return SYSTEM.resolve_settings(over)


def run(action: str, inputs: dict, dice: list[int], **over):
    """Resolves with dice typed in from the table (all of them must be used)."""
    return SYSTEM.action(action).resolve(inputs, settings(**over), TableDice(dice))


def odds(action: str, inputs: dict, **over) -> dict:
    return SYSTEM.action(action).odds(inputs, settings(**over))


def refuse(action: str, inputs: dict, field: str, **over) -> str:
    with pytest.raises(RuleInputError) as exc:
        SYSTEM.action(action).validate(inputs, full_settings(settings(**over)))
    assert field in exc.value.errors, exc.value.errors
    return exc.value.errors[field]


def kinds(outcome) -> list[tuple[str, str]]:
    return [(e["kind"], e["role"]) for e in outcome.effects]


def effect(outcome, kind: str, role: str | None = None) -> dict | None:
    return next((e for e in outcome.effects if e["kind"] == kind and (role is None or e["role"] == role)), None)


def sample(action: str, inputs: dict, extractors: dict, n: int, seed: int, **over) -> dict[str, Counter]:
    """Resolves `n` times with seeded dice; counts what each extractor reads from the outcome."""
    return testing.sample(SYSTEM.action(action), inputs, extractors, n, seed, full_settings(settings(**over)))
