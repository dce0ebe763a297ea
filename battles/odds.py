"""The odds and the rule at the moment of the roll, on the board (issue #31): reads only.

A command's form asks, as the player fills it, what its roll can do: the system's `at_roll` part maps the board's
state and the form's inputs to one of its actions and that action's inputs (rules/contract/at_roll.py); the exact
odds come from the action's own `odds`, the very code behind `/api/v1/systems/<system>/actions/<action>/odds/`, under
the same per-request limit. The state is the viewer's: what the other side keeps secret is removed first, so the
odds never tell it. The generic board knows no game: it draws whatever the action answers.
"""

from __future__ import annotations

import copy

from django.conf import settings as django_settings
from django.utils.translation import gettext as _

from battles import rows
from battles.models import Battle
from rules import dice as dicelib
from rules.contract import GameState, RuleInputError, UnitRecord
from rules.registry import get_system

MAX_COMPARED = 12  # the values of one field a "which …?" view ranks at once


def viewer_state(battle: Battle, sides: frozenset[int]) -> GameState:
    """The battle's state as these sides may see it: the game dict with the others' secrets removed."""
    part = get_system(battle.system).battle
    units = rows.units(battle.pk)
    return GameState(
        game=part.redact_game(copy.deepcopy(battle.state or {}), sides),
        units={key: UnitRecord(key, side, profile, st, name, kind) for key, side, profile, st, name, kind in units},
        settings=battle.settings,
    )


def _at_roll(battle: Battle):
    system = get_system(battle.system)
    if system.at_roll is None:
        raise RuleInputError({"command": _("This game shows no odds on the board.")})
    return system, system.at_roll


def _odds_of(system, battle: Battle, state: GameState, command: str, inputs: dict, sides: frozenset[int]):
    found = system.at_roll.roll_odds(state, command, inputs, sides)
    if found is None:
        raise RuleInputError({"command": _("This command rolls no dice: there are no odds to show.")})
    action = system.action(found.action)
    with dicelib.enumeration_limit(django_settings.ODDS_ENUMERATION_LIMIT):
        odds = action.odds(found.inputs, (battle.settings or {}).get("system") or system.default_settings())
    return found, action, odds


def command_odds(battle: Battle, sides: frozenset[int], command: str, inputs: dict, compare: dict | None = None):
    """The exact odds a command's form shows for these inputs, as this viewer may see the battle:
    {"action", "odds", "result_labels", "value_labels", "headline": {"key", "label", "exact", "p"} | None,
    "place": [odds key, outcome key] | None, "ranking": [...]}. With `compare` ({"field", "values"}), each value of
    that field in turn, ranked by the headline chance ("which target?", "which weapon?"); a value the command would
    refuse is listed with why, never with odds. Raises RuleInputError when the inputs are missing or refused."""
    system, part = _at_roll(battle)
    state = viewer_state(battle, sides)
    found, action, odds = _odds_of(system, battle, state, command, inputs, sides)
    described = action.describe()
    answer = {
        "action": action.key,
        "odds": odds,
        "result_labels": described.get("result_labels", {}),
        "value_labels": described.get("value_labels", {}),
        "headline": _headline(found, odds),
        "place": list(found.place) if found.place else None,
        "ranking": [],
    }
    if compare:
        answer["ranking"] = _ranking(system, battle, state, command, inputs, sides, compare)
    return answer


def _headline(found, odds: dict) -> dict | None:
    value = odds.get(found.headline) if found.headline else None
    if not isinstance(value, dict) or "p" not in value:
        return None
    return {"key": found.headline, "label": _(found.headline_label) if found.headline_label else "", **value}


def _ranking(system, battle, state, command: str, inputs: dict, sides, compare: dict) -> list[dict]:
    field = compare.get("field")
    values = compare.get("values")
    allowed = system.at_roll.compare_fields.get(command, ())
    if field not in allowed or not isinstance(values, list):
        raise RuleInputError({"compare": _("This form cannot compare that field.")})
    rows_out = []
    for value in values[:MAX_COMPARED]:
        if not isinstance(value, str | int) or isinstance(value, bool):
            continue
        try:
            found, _action, odds = _odds_of(system, battle, state, command, {**inputs, field: value}, sides)
        except RuleInputError as exc:
            rows_out.append({"value": value, "p": None, "why": exc.message})
            continue
        headline = _headline(found, odds)
        rows_out.append(
            {"value": value, "p": headline["p"] if headline else None, "exact": (headline or {}).get("exact")}
        )
    return sorted(rows_out, key=lambda r: (r["p"] is None, -(r["p"] or 0)))


def rule_at_hand(battle: Battle, key: str) -> dict | None:
    """A command's or a status's rule in the reader's language, with its source and, where the book is ambiguous,
    the house rule this battle plays: the setting's label and the value chosen."""
    system = get_system(battle.system)
    if system.at_roll is None:
        return None
    rule = system.at_roll.rule(key)
    if rule is None:
        return None
    answer = {"key": key, "title": _(rule.title), "text": _(rule.text), "source": rule.source, "setting": None}
    if rule.setting:
        setting = next((s for s in system.settings if s.key == rule.setting), None)
        if setting is not None:
            described = setting.describe()
            chosen = ((battle.settings or {}).get("system") or {}).get(setting.key, setting.default)
            labels = {str(value): label for value, label in described.get("choice_labels") or []}
            if setting.kind == "bool":
                value = _("yes") if chosen else _("no")
            else:
                value = labels.get(str(chosen), str(chosen))
            answer["setting"] = {
                "label": described.get("label") or setting.key,
                "value": value,
                "default": chosen == setting.default,
            }
    return answer
