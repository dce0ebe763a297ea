"""Helpers shared by the tests of «Звездный Десант»: settings, typed-in and seeded resolution, refusals, 4-SE
checks of sampled frequencies against exact odds."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.contract import RuleInputError, testing
from rules.contract.testing import assert_matches, boolean, dist, frac  # noqa: F401  (the suites import them from here)
from rules.dice import TableDice
from rules.systems.zvezdny_desant.settings import full_settings
from rules.systems.zvezdny_desant.system import SYSTEM


def settings(**over) -> dict:
    return SYSTEM.resolve_settings(over)


def run(action: str, inputs: dict, dice: list[int] | None = None, **over):
    """Resolves with dice typed in from the table (all of them must be used)."""
    return SYSTEM.action(action).resolve(inputs, settings(**over), TableDice(dice or []))


def odds(action: str, inputs: dict, **over) -> dict:
    return SYSTEM.action(action).odds(inputs, settings(**over))


def refuse(action: str, inputs: dict, field: str, **over) -> str:
    with pytest.raises(RuleInputError) as exc:
        SYSTEM.action(action).validate(inputs, full_settings(settings(**over)))
    assert field in exc.value.errors, exc.value.errors
    return exc.value.errors[field]


def effect(outcome, kind: str, role=None) -> dict | None:
    return next((e for e in outcome.effects if e["kind"] == kind and (role is None or e["role"] == role)), None)


def sample(action: str, inputs: dict, extractors: dict, n: int, seed: int, **over) -> dict[str, Counter]:
    """Resolves `n` times with seeded dice; counts what each extractor reads from the outcome."""
    return testing.sample(SYSTEM.action(action), inputs, extractors, n, seed, full_settings(settings(**over)))
