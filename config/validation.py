"""Input bounds the whole site shares (issue #18): what no request may carry, checked once at the root.

- JSON values (request bodies, JSON columns): no NUL character or lone surrogate in any string or key (PostgreSQL
  refuses both, as a 500), no nesting deeper than MAX_JSON_DEPTH, no integer past what JavaScript reads exactly
  (±2⁵³), no NaN or infinity.
- Rows (`guard_app_models`, a pre_save check of every model of the apps that call it, plus `check_rows` for bulk
  writes): every integer within its column's range (the database backend's own ranges), no NUL in text, text within
  its column's length (MAX_TEXT_CHARS for a TextField), every JSON column as above. A write that breaks one raises
  `InputRejected` (400 naming the field) inside the write's transaction, so nothing is stored.

config/parsers.py applies the JSON checks to request bodies and config/guard.py to paths, queries and headers.
"""

from __future__ import annotations

import math
import re

from django.db import connections, models, router
from django.db.models.signals import pre_save
from django.utils.translation import gettext as _

from rules.errors import RuleInputError

MAX_JSON_DEPTH = 64
MAX_JSON_INT = 2**53 - 1  # the largest integer a JavaScript client reads exactly
MAX_TEXT_CHARS = 20_000  # a TextField without a max_length of its own (notes, descriptions, missions)
# NUL (PostgreSQL cannot store it) and UTF-16 surrogates (not encodable as UTF-8): never valid text.
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


class InputRejected(RuleInputError):
    """Input no field of the site may hold (400); `errors` names the field."""

    code = "invalid_input"

    def __init__(self, errors: dict[str, str]):
        super().__init__(errors)
        self.message = "; ".join(f"{field}: {why}" for field, why in self.errors.items())


def text_problem(value: str) -> str | None:
    """Why a text cannot be stored (None: it can)."""
    match = _BAD_TEXT.search(value)
    if match is None:
        return None
    if match.group() == "\x00":
        return _("contains a NUL character (\\u0000), which text may not hold.")
    return _("contains a lone UTF-16 surrogate, which is not a character.")


def json_problem(value, *, max_depth: int = MAX_JSON_DEPTH) -> tuple[str, str] | None:
    """(path, why) of the first thing in a parsed JSON value the site refuses, or None. Iterative, so a value of
    any depth is walked without recursion."""
    stack = [(value, 1, "")]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return path, problem
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if abs(item) > MAX_JSON_INT:
                return path, _("numbers may be at most {limit} in size.").format(limit=MAX_JSON_INT)
        elif isinstance(item, float):
            if not math.isfinite(item):
                return path, _("numbers must be finite.")
        elif isinstance(item, dict | list | tuple):
            if depth > max_depth:
                return path, _("nested deeper than {limit} levels.").format(limit=max_depth)
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in pairs:
                child_path = f"{path}.{key}" if path else str(key)
                if isinstance(key, str):
                    problem = text_problem(key)
                    if problem:
                        return child_path, _("the key: {problem}").format(problem=problem)
                stack.append((child, depth + 1, child_path))
    return None


def check_json(value, *, field: str, max_depth: int = MAX_JSON_DEPTH) -> None:
    found = json_problem(value, max_depth=max_depth)
    if found is not None:
        path, problem = found
        raise InputRejected({f"{field}.{path}" if path else field: problem})


def _integer_range(model, field: models.Field) -> tuple[int | None, int | None]:
    connection = connections[router.db_for_write(model)]
    return connection.ops.integer_field_range(field.get_internal_type())


def row_errors(instance: models.Model) -> dict[str, str]:
    """{field: why} of every value of a model instance its column cannot hold ({}: the row can be saved)."""
    errors: dict[str, str] = {}
    for field in instance._meta.concrete_fields:
        value = getattr(instance, field.attname, None)
        if value is None:
            continue
        if isinstance(field, models.JSONField):
            found = json_problem(value)
            if found is not None:
                errors[f"{field.name}.{found[0]}" if found[0] else field.name] = found[1]
        elif isinstance(field, models.CharField | models.TextField) and isinstance(value, str):
            limit = field.max_length or (MAX_TEXT_CHARS if isinstance(field, models.TextField) else None)
            problem = text_problem(value)
            if problem:
                errors[field.name] = problem
            elif limit is not None and len(value) > limit:
                errors[field.name] = _("at most {limit} characters.").format(limit=limit)
        elif isinstance(field, models.IntegerField) and isinstance(value, int) and not isinstance(value, bool):
            low, high = _integer_range(type(instance), field)
            if low is not None and value < low:
                errors[field.name] = _("must be {low} or more.").format(low=low)
            elif high is not None and value > high:
                errors[field.name] = _("must be {high} or less.").format(high=high)
    return errors


def check_row(instance: models.Model) -> None:
    errors = row_errors(instance)
    if errors:
        raise InputRejected(errors)


def check_rows(instances) -> list:
    """For bulk_create, which sends no pre_save: checks every row first; answers them as a list."""
    instances = list(instances)
    for instance in instances:
        check_row(instance)
    return instances


def _before_save(sender, instance, raw=False, **kwargs) -> None:
    if not raw:  # fixtures (loaddata) are trusted as they are
        check_row(instance)


def guard_app_models(app_config) -> None:
    """Checks every row of this app's models before it is saved (called from the app's ready())."""
    for model in app_config.get_models():
        pre_save.connect(_before_save, sender=model, dispatch_uid=f"armlist-row-check-{model._meta.label}")
