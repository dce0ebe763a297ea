"""Junk never crashes an action: schema-shaped nonsense (hypothesis) and hand-picked bodies give RuleInputError
with a field and a message, never another exception; typed-in dice are checked and the message names the die."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.dice import SeededDice, TableDice
from rules.errors import RuleInputError
from rules.systems.thw5150.actions import ACTIONS
from rules.systems.thw5150.settings import full
from rules.systems.thw5150.system import SYSTEM
from rules.systems.thw5150.tests.helpers import resolve

scalars = st.none() | st.booleans() | st.integers(-5, 12) | st.sampled_from(["", "ЛБ", "pistol", "НЭ", "x"])
values = st.recursive(
    scalars,
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3),
    max_leaves=8,
)


def shaped(schema: dict, depth: int = 0):
    """Objects with the schema's own field names and junk or shallowly valid values."""
    if depth > 3:
        return values
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        return st.lists(shaped(schema["items"], depth + 1) | values, max_size=4)
    props = schema.get("properties")
    if not props:
        if "enum" in schema:
            return st.sampled_from(schema["enum"]) | values
        return values
    return st.fixed_dictionaries({}, optional={k: shaped(v, depth + 1) | values for k, v in props.items()})


def near_valid(schema: dict, depth: int = 0):
    """Values the schema accepts (bounds, enums, required keys), so the rule checks behind it get exercised."""
    if "anyOf" in schema:
        return st.one_of([near_valid(s, depth) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = kind[0]
    if kind == "integer":
        return st.integers(schema.get("minimum", -3), schema.get("maximum", 12))
    if kind == "number":
        return st.floats(schema.get("minimum", 0), schema.get("maximum", 10), allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        return st.text(max_size=min(schema.get("maxLength", 8), 8))
    if kind == "array" and depth < 7:
        low = schema.get("minItems", 0)
        return st.lists(near_valid(schema.get("items", {}), depth + 1), min_size=low, max_size=max(low, 3))
    if kind == "object" and depth < 7:
        props = schema.get("properties", {})
        required = set(schema.get("required", []))
        return st.fixed_dictionaries(
            {k: near_valid(v, depth + 1) for k, v in props.items() if k in required},
            optional={k: near_valid(v, depth + 1) for k, v in props.items() if k not in required},
        )
    return values


def attempt(fn) -> None:
    """Either an answer or a RuleInputError naming fields with readable messages; anything else fails the test."""
    try:
        fn()
    except RuleInputError as exc:
        problems = exc.errors
    else:
        return
    assert problems
    assert all(isinstance(m, str) and m for m in problems.values()), problems


@pytest.mark.parametrize("key", sorted(ACTIONS))
def test_schema_shaped_junk_is_refused_cleanly(key):
    action = ACTIONS[key]
    base = full({})

    @settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(
        inputs=near_valid(action.input_schema) | shaped(action.input_schema),
        seed=st.integers(0, 2**16),
        typed=st.lists(st.integers(-1, 8), max_size=9),
    )
    def run(inputs, seed, typed):
        attempt(lambda: action.odds(inputs, base))
        attempt(lambda: action.resolve(inputs, base, SeededDice(seed)))
        attempt(lambda: action.resolve(inputs, base, TableDice(typed)))

    run()


@pytest.mark.parametrize("body", [None, [], "Д6", 3, {"nonsense": 1}])
@pytest.mark.parametrize("key", sorted(ACTIONS))
def test_nonsense_bodies(key, body):
    # every input schema closes its objects (additionalProperties: false), so {"nonsense": 1} is refused too
    with pytest.raises(RuleInputError) as caught:
        ACTIONS[key].resolve(body, full({}), SeededDice(1))
    assert caught.value.errors


SHOT = {"shooter": {"rep": 4, "weapon": "rifle"}, "targets": [{"dice": 1}]}


@pytest.mark.parametrize(
    ("dice", "field", "words"),
    [
        ([7], "dice", "Die 1 is 7, but it is a d6"),
        ([0], "dice", "Die 1 is 0"),
        ([6], "dice", "Not enough dice: die 2 (a d6 for the damage die: target 1)"),
        ([2, 3], "dice", "Too many dice: 2 typed in, but this test used 1"),
        (["6"], "dice", "Die 1 ('6') is not a whole number"),
    ],
)
def test_typed_in_dice_are_checked(dice, field, words):
    with pytest.raises(RuleInputError) as caught:
        resolve("shooting", SHOT, dice=dice)
    assert words in caught.value.errors[field]


@pytest.mark.parametrize(
    ("action", "inputs", "field"),
    [
        ("shooting", {"shooter": {"rep": 4, "weapon": "grenades"}, "targets": [{"dice": 1}]}, "shooter.weapon"),
        ("shooting", {"shooter": {"rep": 4, "weapon": "rifle", "loaded": False}, "targets": [{"dice": 1}]},
         "shooter.loaded"),
        ("shooting", {"shooter": {"rep": 4, "weapon": "rifle", "second_weapon": "pistol"}, "targets": [{"dice": 1}]},
         "shooter.weapon"),
        ("shooting", {"shooter": {"rep": 9, "weapon": "rifle"}, "targets": [{"dice": 1}]}, "shooter.rep"),
        ("received_fire", {"members": [{"rep": 4, "leader": True}, {"rep": 3, "leader": True}]}, "members"),
        ("received_fire", {"members": [{"rep": 4, "condition": "dead"}]}, "members.0.condition"),
        ("received_fire", {"members": [{"rep": 4, "tests": False}]}, "members"),
        ("rally", {"members": [{"rep": 4}], "friend_within_2": False}, "friend_within_2"),
        ("rally", {"members": [{"rep": 4, "condition": "fine"}]}, "members.0.condition"),
        ("fast_move", {"members": [{"rep": 4, "carrying_alone": True}]}, "members.0.carrying_alone"),
        ("stay_or_run", {"members": [{"rep": 4}], "initial_count": 3, "casualties": 5, "motivation": "profit"},
         "casualties"),
        ("stay_or_run", {"members": [{"rep": 4}], "initial_count": 3, "motivation": "profit"}, "casualties"),
        ("ranged_damage", {"impact": "Спец."}, "heavy_impact"),
        ("ranged_damage", {}, "weapon"),
        ("melee", {"fighter": {"rep": 4, "condition": "hunker_down"}, "opponents": [{"rep": 4}]}, "fighter.condition"),
        ("awareness", {"contacted_leader_rep": 4}, None),
        ("grenade", {"thrower": {"rep": 4}, "blast": [], "around_thrower": [{}]}, None),
    ],
)  # fmt: skip
def test_rule_checks_name_the_field(action, inputs, field):
    if field is None:  # these inputs are fine under the defaults
        assert resolve(action, inputs, seed=2).summary
        return
    with pytest.raises(RuleInputError) as caught:
        resolve(action, inputs, seed=2)
    assert field in caught.value.errors, caught.value.errors


def test_settings_are_checked_by_the_system():
    with pytest.raises(RuleInputError) as caught:
        SYSTEM.resolve_settings({"leader_dice": "four"})
    assert "settings.leader_dice" in caught.value.errors
