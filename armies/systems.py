"""The bridge from armies to the rules engine: every game-specific answer comes from the registry
(rules.registry, the systems listed in settings.RULES_SYSTEMS) and the system's army part (rules/contract/army.py).
Nothing here, or anywhere in armies, imports a system's package.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jsonschema
from django.utils.translation import gettext as _

from rules.contract import ArmyPart, BuilderResult, RosterReport
from rules.errors import RuleInputError
from rules.registry import all_systems, get_system, known


def army(system: str) -> ArmyPart | None:
    """The army part of a registered system (None: unknown system, or one without an army builder)."""
    return get_system(system).army if known(system) else None


def require_army(system: str) -> ArmyPart:
    part = army(system)
    if part is None:
        what = "unknown game system" if not known(system) else "a game system without an army builder"
        raise RuleInputError({"system": _("{system!r} is {what}").format(system=system, what=what)})
    return part


def army_systems() -> list[tuple[str, str]]:
    """(slug, name) of every registered system with an army builder, in settings order."""
    return [(s.slug, s.name or s.slug) for s in all_systems() if s.army is not None]


def system_name(system: str) -> str:
    return (get_system(system).name or system) if known(system) else system


def known_system(system: str) -> bool:
    return army(system) is not None


def official_pack_paths() -> list[Path]:
    """The JSON files in the `data/` folder beside each registered system with an army builder."""
    paths: list[Path] = []
    for system in all_systems():
        module = sys.modules.get(type(system).__module__)
        if system.army is not None and getattr(module, "__file__", None):
            paths += sorted((Path(module.__file__).parent / "data").glob("*.json"))
    return paths


def currency(system: str) -> str:
    part = army(system)
    return _(part.currency) if part and part.currency else ""  # the book's word in the reader's language


# Profiles ----------------------------------------------------------------------------------------------------
_validators: dict[tuple[str, int], jsonschema.Draft202012Validator] = {}


def _validator(system: str) -> jsonschema.Draft202012Validator:
    schema = require_army(system).profile_schema
    key = (system, id(schema))
    if key not in _validators:
        _validators[key] = jsonschema.Draft202012Validator(schema)
    return _validators[key]


def profile_errors(system: str, profile: dict) -> dict[str, str]:
    """Readable errors of one profile (its schema, and a kind the system allows), keyed by field path ({}: valid)."""
    errors = schema_errors(_validator(system), profile, root="profile")
    kind, kinds = profile.get("kind") if isinstance(profile, dict) else None, kind_labels(system)
    if "kind" not in errors and kinds and kind not in kinds:
        errors["kind"] = f"{kind!r} is not one of: {', '.join(kinds)}"
    elif "kind" not in errors and not (isinstance(kind, str) and 0 < len(kind) <= 40):
        errors["kind"] = "a short word of 1 to 40 characters"
    return errors


def schema_errors(validator, instance, *, root: str, prefix: str = "") -> dict[str, str]:
    """A validator's errors on `instance` as {"field.path": readable message}, one per field; a missing or unknown
    field is named by its own path; `prefix` goes before every path ("options.")."""
    errors: dict[str, str] = {}

    def name(*parts) -> str:
        path = ".".join(str(p) for p in parts)
        return prefix + path if path else (prefix.rstrip(".") or root)

    for err in sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path]):
        for detail in _details(err):
            path = list(detail.absolute_path)
            if detail.validator == "required":
                for missing in set(detail.validator_value) - set(detail.instance or {}):
                    errors.setdefault(name(*path, missing), "this field is required")
            elif detail.validator == "additionalProperties" and isinstance(detail.instance, dict):
                allowed = set((detail.schema or {}).get("properties") or {})
                for extra in sorted(set(detail.instance) - allowed):
                    errors.setdefault(name(*path, extra), "unknown field")
            else:
                errors.setdefault(name(*path), _readable(detail))
    return errors


def _details(err) -> list:
    """For "null or a dice string", why the non-null choice failed (each with its own, deeper path)."""
    if err.validator in ("anyOf", "oneOf") and err.context:
        found = [e for e in err.context if e.validator != "type"]
        if found:
            return [d for e in found for d in _details(e)]
    return [err]


def _readable(err) -> str:
    if err.validator in ("anyOf", "oneOf"):
        return f"{err.instance!r} is not a valid value here"
    if err.validator == "pattern":
        hint = err.schema.get("description") if isinstance(err.schema, dict) else None
        return f"{err.instance!r} is not in the expected format" + (f" ({hint})" if hint else "")
    if err.validator == "enum":
        return f"{err.instance!r} is not one of: {', '.join(map(str, err.validator_value))}"
    return err.message


def kind_labels(system: str) -> dict[str, str]:
    """{kind: label} of the profiles the system allows (empty: any kind), in the reader's language where the system
    gives msgids (a label without one reads as it is)."""
    part = army(system)
    return {k: _(v) for k, v in part.profile_kinds.items()} if part else {}


def kind_groups(system: str) -> dict[str, str]:
    """{kind: heading} of the catalogue and the text export, in order."""
    part = army(system)
    if part is None:
        return {}
    return {k: _(v) for k, v in (dict(part.kind_groups) or dict(part.profile_kinds)).items()}


def profile_note(system: str, profile: dict) -> str:
    part = army(system)
    return part.profile_note(profile) if part else ""


def profile_editor(system: str) -> dict | None:
    """The system's structured custom-unit editor (pure data), or None: armies derives one from the schema."""
    part = army(system)
    return part.profile_editor if part else None


def profile_schema(system: str) -> dict:
    return require_army(system).profile_schema


# Entries and rosters -----------------------------------------------------------------------------------------
def cost_roster(system: str, roster: dict) -> RosterReport:
    return require_army(system).cost_roster(roster)


def options_schema(system: str, profile: dict) -> dict:
    return require_army(system).options_schema(profile)


def default_options(system: str, profile: dict) -> dict:
    return dict(require_army(system).default_options(profile) or {})


def validate_options(system: str, profile: dict, options) -> dict:
    """The options cleaned by the system; RuleInputError naming each bad field ("options.weapons.0") otherwise."""
    part = require_army(system)
    if not isinstance(options, dict):
        raise RuleInputError({"options": _("must be a JSON object")})
    try:
        return part.validate_options(profile, options)
    except jsonschema.SchemaError as exc:  # the system's schema itself is broken: say so, not a 500
        raise RuleInputError(
            {"options": _("the system's options schema is invalid: {message}").format(message=exc.message)}
        ) from None
    except RuleInputError as exc:  # the same errors in the words of profile_errors, where the schema explains them
        if part.words_option_errors:
            raise  # the system words its errors itself (in the reader's language)
        validator = jsonschema.Draft202012Validator(part.options_schema(profile))
        readable = schema_errors(validator, options, root="options", prefix="options.")
        raise RuleInputError(readable or exc.errors) from None


def words_option_errors(system: str) -> bool:
    """Whether the system words its option errors itself (each names its field in the reader's words)."""
    part = army(system)
    return bool(part and part.words_option_errors)


def upgrade_changes(system: str, entry: dict, new_profile: dict | None) -> tuple[list[str], dict | None]:
    return require_army(system).upgrade_changes(entry, new_profile)


def copy_options(system: str, entry: dict) -> dict:
    return require_army(system).copy_options(entry)


def options_without(system: str, entry: dict, removed: set[str]) -> dict:
    return require_army(system).options_without(entry, removed)


def entry_views(system: str, roster: dict) -> dict[str, dict]:
    part = army(system)
    return dict(part.entry_views(roster) or {}) if part else {}


# The system's own builder buttons (rules/contract/army.py BuilderTool) -------------------------------------
def builder_tools(system: str) -> list[dict]:
    """The system's builder tools with their labels, help and fields in the reader's language."""
    part = army(system)
    tools = []
    for tool in part.builder_tools if part else ():
        fields = []
        for f in tool.fields:
            f = dict(f)
            f["label"] = _(f.get("label", f.get("name", "")))
            if f.get("help"):
                f["help"] = _(f["help"])
            if f.get("choices"):
                f["choices"] = [[value, _(label)] for value, label in f["choices"]]
            fields.append(f)
        tools.append({"key": tool.key, "label": _(tool.label), "help": _(tool.help), "fields": fields})
    return tools


def run_builder_tool(system: str, key: str, roster: dict, profiles: list[dict], inputs) -> BuilderResult:
    """Checks the inputs against the tool's schema (400 naming the field) and runs it."""
    part = require_army(system)
    tool = next((t for t in part.builder_tools if t.key == key), None)
    if tool is None:
        raise RuleInputError({"tool": _("There is no builder tool {key!r} here.").format(key=key)})
    if not isinstance(inputs, dict):
        raise RuleInputError({"inputs": _("must be a JSON object")})
    errors = schema_errors(jsonschema.Draft202012Validator(tool.input_schema), inputs, root="inputs", prefix="inputs.")
    if errors:
        raise RuleInputError(errors)
    return part.run_builder_tool(key, roster, profiles, inputs)
