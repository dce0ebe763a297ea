"""JSON Schema checks with errors a person understands, shared by actions, commands and simulator parameters."""

from __future__ import annotations

import functools
import json

import jsonschema
import jsonschema_rs

from rules.errors import RuleInputError
from rules.i18n import N_, _

_TYPE_NAMES = {
    "integer": N_("a whole number"),
    "number": N_("a number"),
    "boolean": N_("true or false"),
    "string": N_("text"),
    "object": N_("an object"),
    "array": N_("a list"),
    "null": N_("null"),
}


def readable(err) -> str:
    """A schema error as a person would say it (jsonschema's own wording is for programmers)."""
    if err.validator == "minimum":
        return _("must be {minimum} or more (got {value})").format(minimum=err.validator_value, value=err.instance)
    if err.validator == "maximum":
        return _("must be {maximum} or less (got {value})").format(maximum=err.validator_value, value=err.instance)
    if err.validator == "type":
        wanted = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        return _("must be {kind}").format(kind=_(" or ").join(_(_TYPE_NAMES.get(t, t)) for t in wanted))
    if err.validator == "enum":
        return _("must be one of: {options}").format(options=", ".join(str(v) for v in err.validator_value))
    if err.validator in ("maxItems", "maxLength"):
        return _("is too long (at most {limit})").format(limit=err.validator_value)
    if err.validator in ("minItems", "minLength"):
        return _("is too short (at least {limit})").format(limit=err.validator_value)
    return err.message


@functools.lru_cache(maxsize=256)
def _validator(schema_json: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(schema_json))


@functools.lru_cache(maxsize=256)
def _quick_check(schema_json: str):
    """The same schema compiled by jsonschema-rs: it answers "valid?" about twenty times faster than the Python
    validator, which builds a sub-validator per property on every call (a tap's command spent a millisecond there).
    The Python validator still words every error."""
    return jsonschema_rs.Draft202012Validator(json.loads(schema_json), validate_formats=False)


def validator_for(schema: dict) -> jsonschema.Draft202012Validator:
    return _validator(json.dumps(schema, sort_keys=True))


def is_valid(schema_json: str, data) -> bool:
    """True when jsonschema-rs finds `data` valid; False when it does not or cannot say (a number too large for
    it), so the Python validator looks and words what is wrong."""
    try:
        return _quick_check(schema_json).is_valid(data)
    except (ValueError, TypeError, OverflowError):
        return False


def schema_errors(validator, data, *, prefix: str = "") -> dict[str, str]:
    """{field path: message} for every error (first per path), paths joined by dots under `prefix`."""
    errors: dict[str, str] = {}
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.path]):
        parts = [prefix] if prefix else []
        parts += [str(p) for p in err.path]
        path = ".".join(parts)
        if err.validator == "required":
            missing = err.message.split("'")[1]
            errors.setdefault(f"{path}.{missing}" if path else missing, _("This field is required."))
        elif err.validator == "additionalProperties":
            errors.setdefault(path or "non_field_errors", _("Unknown field: {detail}").format(detail=err.message))
        else:
            errors.setdefault(path or "non_field_errors", readable(err))
    return errors


def validate(schema: dict, data, *, prefix: str = "") -> None:
    schema_json = json.dumps(schema, sort_keys=True)
    if is_valid(schema_json, data):
        return
    errors = schema_errors(_validator(schema_json), data, prefix=prefix)
    if errors:
        raise RuleInputError(errors)


def validate_with_defaults(schema: dict, data: dict, *, prefix: str = "") -> dict:
    """Checks `data` against an object schema and fills in each property's `default`."""
    if not isinstance(data, dict):
        raise RuleInputError({prefix or "non_field_errors": _("must be an object")})
    validate(schema, data, prefix=prefix)
    out = dict(data)
    for key, prop in (schema.get("properties") or {}).items():
        if key not in out and "default" in prop:
            out[key] = prop["default"]
    return out


def translate_schema(schema, titles: dict, *, name: str | None = None, finish=None):
    """An input schema for the reader: each property gets its title from `titles` (English msgids marked N_() by
    the system) and every description is translated. `finish(node)` may add more to each node (enum labels)."""
    if isinstance(schema, list):
        return [translate_schema(s, titles, finish=finish) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "description" and isinstance(value, str):
            out[key] = _(value)
        elif key in ("properties", "patternProperties") and isinstance(value, dict):
            out[key] = {k: translate_schema(v, titles, name=k, finish=finish) for k, v in value.items()}
        elif key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf"):
            out[key] = translate_schema(value, titles, finish=finish)
        else:
            out[key] = value
    if name in titles and "title" not in out:
        out["title"] = _(titles[name])
    if finish is not None:
        finish(out)
    return out
