"""Kept so older imports read on: the contract now lives in rules/contract/ and the errors in rules/errors.py."""

from rules.contract import (  # noqa: F401
    Action,
    ArmyPart,
    BattlePart,
    GameSystem,
    Issue,
    Outcome,
    RosterReport,
    Setting,
    distribution,
    exact,
    prob,
)
from rules.errors import ArmlistError, GameConflict, NotYours, RuleInputError  # noqa: F401
