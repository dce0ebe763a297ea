"""The bridge from armies to the rules engine: profile schemas, roster costing and a system's army helpers.

Costing goes through the registry (`get_system(slug).cost_roster`); a system's optional army module
(rules/systems/<slug>/army.py) adds builder helpers such as default loadouts and upgrade diffs.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType

import jsonschema

from rules.registry import get_system
from rules.systems.base import RosterReport, RuleInputError


def army_module(system: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"rules.systems.{system.replace('-', '_')}.army")
    except ModuleNotFoundError:
        return None


def system_name(system: str) -> str:
    try:
        return get_system(system).name or system
    except RuleInputError:
        return system


def known_system(system: str) -> bool:
    try:
        get_system(system)
    except RuleInputError:
        return False
    return True


@functools.cache
def _validator(system: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(get_system(system).profile_schema)


def profile_errors(system: str, profile: dict) -> dict[str, str]:
    """Readable schema errors of one profile, keyed by field path ({} when valid)."""
    validator = _validator(system)
    errors: dict[str, str] = {}
    for err in sorted(validator.iter_errors(profile), key=lambda e: [str(p) for p in e.absolute_path]):
        path = ".".join(str(p) for p in err.absolute_path) or "profile"
        if err.validator == "required":  # one line per missing field, named by its own path
            missing = err.message.split(chr(39))[1]
            path = missing if path == "profile" else f"{path}.{missing}"
            errors.setdefault(path, "this field is required")
            continue
        errors.setdefault(path, _readable(err, path))
    return errors


def _readable(err, path: str) -> str:
    if err.validator == "anyOf" and err.context:
        # "null or a dice string": report why the non-null option failed, not that it is not null.
        detail = next((e for e in err.context if e.validator != "type"), None)
        return _readable(detail, path) if detail is not None else f"{err.instance!r} is not a valid value here"
    if err.validator == "pattern":
        message = f"{err.instance!r} is not in the expected format"
        if "range" in path or "power" in path:
            message += " (dice as on the cards, e.g. Д6+2 for range, 3Д20 for power)"
        return message
    if err.validator == "enum":
        return f"{err.instance!r} is not one of: {', '.join(map(str, err.validator_value))}"
    if err.validator == "required":
        return f"missing field: {err.message.split(chr(39))[1]}"
    if err.validator == "additionalProperties":
        return f"unknown field: {err.message}"
    return err.message


def cost_roster(system: str, roster: dict) -> RosterReport:
    return get_system(system).cost_roster(roster)


def default_loadout(system: str, profile: dict) -> dict:
    module = army_module(system)
    return module.default_loadout(profile) if module and hasattr(module, "default_loadout") else {}


def upgrade_changes(system: str, entry: dict, new_profile: dict | None) -> tuple[list[str], dict | None]:
    module = army_module(system)
    if module and hasattr(module, "upgrade_changes"):
        return module.upgrade_changes(entry, new_profile)
    if new_profile is None:
        return [f"{entry['profile']['name']} is no longer in the pack and will be removed."], None
    lines = []
    if new_profile.get("cost") != entry["profile"].get("cost"):
        lines.append(f"{entry['profile']['name']}: cost {entry['profile'].get('cost')} → {new_profile.get('cost')}.")
    return lines, entry.get("loadout") or {}
