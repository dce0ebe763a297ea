"""The bounds of what a roster, an entry and a custom unit may hold, shared by the API's inputs and by imports, so
a file cannot store what the API refuses (issue #18). Integers stop at their columns (PositiveIntegerField:
2³¹ − 1), free text at MAX_NOTES_CHARS, and a unit's data is measured before its schema is checked: a unit of
12,000 soldiers is refused by its size in microseconds instead of by the schema validator in seconds.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from rest_framework import serializers

COLUMN_MAX = 2**31 - 1  # PositiveIntegerField on PostgreSQL and SQLite
MAX_NOTES_CHARS = 10_000  # a roster's or a unit's notes, a club's description, a pack's source
MAX_OPTIONS_CHARS = 5_000  # an entry's options as JSON text
MAX_PROFILE_DATA_CHARS = 20_000  # a unit's data as JSON text (the largest official unit: about 1,300)
MAX_PROFILE_LIST_ITEMS = 200  # any list in a unit's data (a squad has 12 soldiers)


def points_limit_field(**kwargs):
    return serializers.IntegerField(allow_null=True, min_value=0, max_value=COLUMN_MAX, **kwargs)


def notes_field(**kwargs):
    return serializers.CharField(allow_blank=True, max_length=MAX_NOTES_CHARS, trim_whitespace=False, **kwargs)


def json_chars(value) -> int:
    return len(json.dumps(value, ensure_ascii=False))


def profile_size_errors(data) -> dict[str, str]:
    """{path: why} when a unit's data is too large to check ({}: small enough). Cheap: one dump and one walk."""
    if json_chars(data) > MAX_PROFILE_DATA_CHARS:
        return {"data": _("at most {limit} characters of JSON.").format(limit=MAX_PROFILE_DATA_CHARS)}
    stack = [("data", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, list) and len(value) > MAX_PROFILE_LIST_ITEMS:
            return {path: _("at most {limit} items.").format(limit=MAX_PROFILE_LIST_ITEMS)}
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        stack.extend((f"{path}.{k}", v) for k, v in children)
    return {}


class OptionsField(serializers.JSONField):
    """An entry's options: a JSON object of at most MAX_OPTIONS_CHARS (its shape is the system's to check)."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if value is not None and not isinstance(value, dict):
            raise serializers.ValidationError(_("must be a JSON object."))
        if value is not None and json_chars(value) > MAX_OPTIONS_CHARS:
            raise serializers.ValidationError(_("at most {limit} characters of JSON.").format(limit=MAX_OPTIONS_CHARS))
        return value


class RosterFieldsSerializer(serializers.Serializer):
    """A roster's own fields, as the API creates them and as an import file holds them."""

    name = serializers.CharField(max_length=120)
    faction = serializers.CharField(max_length=40)
    points_limit = points_limit_field(required=False, default=None)
    notes = notes_field(required=False, default="")

    class Meta:
        ref_name = "ArmiesRosterFields"


class ImportRosterSerializer(RosterFieldsSerializer):
    name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    faction = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")


class ImportEntrySerializer(serializers.Serializer):
    """One entry of an import file (format version 2 and later: `options`; version 1's loadout and pilot are
    converted before)."""

    key = serializers.RegexField(r"^[A-Za-z0-9_-]{1,16}$")
    profile = serializers.CharField(max_length=80)
    pack = serializers.CharField(max_length=80, required=False)
    count = serializers.IntegerField(min_value=1, max_value=99, required=False, default=1)
    options = OptionsField(required=False, default=dict)
    loadout = OptionsField(required=False)  # format version 1
    pilot = serializers.JSONField(required=False)  # format version 1: an object or a list of them


def errors_of(serializer: serializers.Serializer, prefix: str = "") -> dict[str, str]:
    """A serializer's errors as {"field.path": message}, one per field."""

    def flat(errors, path):
        if isinstance(errors, dict):
            for key, value in errors.items():
                yield from flat(value, f"{path}.{key}" if path else str(key))
        elif isinstance(errors, list) and all(isinstance(e, str) for e in errors):
            if errors:
                yield path, str(errors[0])
        elif isinstance(errors, list):
            for i, value in enumerate(errors):
                yield from flat(value, f"{path}.{i}")
        else:
            yield path, str(errors)

    return dict(flat(serializer.errors, prefix.rstrip(".")))
