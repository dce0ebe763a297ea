"""The abuse corpus of issue #18: every write operation of the API, taken from its own OpenAPI schema (so a new
endpoint is covered without being listed), gets hostile input, and each must answer a 4xx and change no row of
any model.

Per operation: junk in every header the API reads, NUL in the query, NUL in each text path segment and a huge
number in each numeric one, bodies the parser refuses (deep, NUL in a value or a key, NaN, infinity, numbers past
±2⁵³, broken JSON or UTF-8, too large), and, for each field of the request body, a value of the wrong type, an
integer past its column and a string of 100,000 characters laid over a valid body.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import override_settings
from drf_spectacular.generators import SchemaGenerator

from armies import services as armies
from tests.hostile import build_world, changed_tables, client_for, path_values, row_counts, snapshot

WRITE_METHODS = ("post", "put", "patch", "delete")
# Fields where any integer of the JSON range is a fair value: a random seed (a BigIntegerField).
ANY_INTEGER = {"seed"}
# Dry runs that store nothing and answer a refusal of the game's rules inside a 200 (the dice a command would
# use): for them a junk path segment may be a 200, but nothing may change.
DRY_RUNS = {"v1_battles_commands_dice_create"}
FAST_HASHER = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # the password endpoints, a hundred times each
SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
OPERATIONS = [
    (op["operationId"], method, path)
    for path, item in SCHEMA["paths"].items()
    for method, op in item.items()
    if method in WRITE_METHODS
]


def valid_bodies(world: dict) -> dict[str, dict]:
    """A body each known operation would accept: the field mutations are laid over it, so each is refused for
    its own sake (an operation not listed here is mutated from an empty body)."""
    export = armies.roster_export(roster=world["roster"])
    unit = world["unit"].as_rules_dict()
    return {
        "rosters_create": {"pack": world["pack"].pk, "name": "A", "faction": "protectorate", "points_limit": 100},
        "rosters_update": {"name": "B", "points_limit": 50, "notes": "n"},
        "rosters_copy": {"name": "Copy"},
        "rosters_import": export,
        "rosters_entries_create": {"profile": "griffin", "count": 1, "options": {}},
        "rosters_entries_update": {"count": 2, "position": 3},
        "packs_create": {"name": "P", "source": "s"},
        "packs_profiles_create": {**unit, "slug": "new-unit", "notes": ""},
        "packs_profiles_update": {**unit, "notes": "changed"},
        "clubs_create": {"name": "C", "description": "d"},
        "clubs_update": {"name": "D", "description": "e"},
        "clubs_members_add": {"username": "hostile-2", "role": "member"},
        "v1_battles_create": {"name": "F", "rosters": [world["roster"].pk], "mission": "m"},
        "v1_auth_signup_create": {"username": "newcomer", "password": "a-long-new-password-17"},
        "v1_auth_password_create": {"old_password": "a-long-test-password-1", "new_password": "another-pass-word-42"},
        "v1_auth_token_create": {"username": "hostile", "password": "a-long-test-password-1"},
    }


def _mutations(prop: dict, name: str) -> list:
    kind = prop.get("type")
    if kind == "integer":
        return ["abc", {"n": 1}] + ([] if name in ANY_INTEGER else [2**31, -(2**31) - 1])
    if kind == "string" and "enum" not in prop and prop.get("format") != "email":
        return [{"s": 1}, ["s"], "s" * 100_000]
    if kind == "string":
        return [{"s": 1}, "s" * 100_000]
    if kind == "boolean":
        return [{"b": 1}, "perhaps"]
    if kind == "array":
        return ["not a list", {"a": 1}]
    if kind == "object":
        return ["not an object", [1, 2]]
    return ["x" * 100_000]  # free JSON (options, data, inputs): a huge text is no valid value of any


def _body_props(schema: dict, op: dict) -> dict[str, dict]:
    content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    ref = content.get("schema", {}).get("$ref", "")
    component = schema["components"]["schemas"].get(ref.split("/")[-1], {}) if ref else {}
    props = {}
    for name, prop in component.get("properties", {}).items():
        if prop.get("readOnly"):
            continue
        if "$ref" in prop or "allOf" in prop or "oneOf" in prop:
            prop = {"type": "string", "enum": ["?"]}  # an enum component
        props[name] = prop
    return props


PARSER_BODIES = {
    "deep JSON": "[" * 5000 + "]" * 5000,
    "NUL in a value": '{"name": "a\\u0000b", "notes": "x"}',
    "NUL in a key": '{"name\\u0000": "a"}',
    "lone surrogate": '{"name": "\\udc00"}',
    "NaN": '{"version": NaN}',
    "infinity": '{"version": 1e999}',
    "number past 2^53": '{"version": 99999999999999999999999}',
    "broken JSON": '{"name": ',
}


@pytest.mark.django_db
@override_settings(PASSWORD_HASHERS=FAST_HASHER)
@pytest.mark.parametrize(("operation", "method", "path"), OPERATIONS, ids=[o[0] for o in OPERATIONS])
def test_hostile_input_is_refused_and_changes_nothing(operation, method, path):
    world = build_world()
    schema = SCHEMA
    op = schema["paths"][path][method]
    values = path_values(world)
    params = re.findall(r"{(\w+)}", path)
    missing = [p for p in params if p not in values]
    assert not missing, f"add a value for {missing} to tests.hostile.path_values"
    url = path.format(**values)
    client = client_for(world)
    before, counts = snapshot(), row_counts()
    failures = []

    def expect_4xx(label, response, *, dry_run_may_answer=False):
        if dry_run_may_answer and response.status_code == 200:
            pass
        elif not 400 <= response.status_code < 500:
            failures.append(f"{label}: {response.status_code} {response.content[:200]!r}")
        if row_counts() != counts:  # every request: no row added or removed
            failures.append(f"{label}: row counts changed")

    def nothing_changed(group):  # after each group: no row changed either (every table's fingerprint)
        changed = changed_tables(before, snapshot())
        if changed:
            failures.append(f"{group}: changed {changed}")

    def send(target, body=None, *, content_type="application/json", **headers):
        data = json.dumps(body) if body is not None and not isinstance(body, str | bytes) else body
        return client.generic(method.upper(), target, data or "", content_type=content_type, **headers)

    # Headers the API reads, the query, the path.
    for header, junk in [
        ("HTTP_IF_MATCH", "x" * 300),
        ("HTTP_IF_MATCH", "\x01"),
        ("HTTP_IF_NONE_MATCH", '"v1", <junk>'),
        ("HTTP_IDEMPOTENCY_KEY", "k" * 101),
        ("HTTP_IDEMPOTENCY_KEY", " "),
        ("HTTP_ACCEPT_LANGUAGE", "<script>alert(1)</script>"),
    ]:
        expect_4xx(f"header {header}={junk[:20]!r}", send(url, {}, **{header: junk}))
    expect_4xx("NUL in the query", send(url + "?system=a%00b", {}))
    nothing_changed("headers and query")
    for i, param in enumerate(params):
        for junk in ("%00..", "99999999999999999999999"):
            bad = dict(values, **{param: junk})
            answered = operation in DRY_RUNS and junk[0] != "%"
            expect_4xx(f"path {param}={junk}", send(path.format(**bad), {}), dry_run_may_answer=answered)
    nothing_changed("path")
    # Bodies the parser refuses, whatever the view reads.
    for label, raw in PARSER_BODIES.items():
        expect_4xx(label, send(url, raw))
    expect_4xx("invalid UTF-8", send(url, b'{"name": "\xff\xfe"}'))
    expect_4xx("3 MB body", send(url, json.dumps({"notes": "n" * 3_000_000})))
    nothing_changed("bodies")
    # Each field of the body: wrong type, past its column, oversized.
    base = valid_bodies(world).get(operation, {})
    for name, prop in _body_props(schema, op).items():
        for junk in _mutations(prop, name):
            shown = repr(junk)[:30]
            expect_4xx(f"field {name}={shown}", send(url, {**base, name: junk}))
    nothing_changed("fields")
    assert not failures, "\n".join(failures)
