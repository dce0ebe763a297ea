"""Junk inputs and typed-in dice that do not fit: always a RuleInputError naming the field or the die, never another
exception. The junk is drawn from each action's own schema (hypothesis) plus hand-picked nonsense."""

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from rules.contract import RuleInputError
from rules.dice import SeededDice, TableDice
from rules.systems.squads.system import SYSTEM
from rules.systems.squads.tests.support import BASE, run

ACTIONS = sorted(SYSTEM.actions)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**4), 10**4)
    | st.text(max_size=6)
    | st.floats(allow_nan=False, allow_infinity=False)
)
values = st.recursive(
    scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3), max_leaves=8
)


def junk_for(schema: dict, depth: int = 0):
    """Objects with the schema's own field names holding junk, or well-typed but out-of-range values."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"]) | values
    kind = schema.get("type")
    if kind == "integer":
        return st.integers(schema.get("minimum", -50) - 3, schema.get("maximum", 50) + 3) | values
    if kind == "number":
        return st.floats(-100, 3000, allow_nan=False) | values
    if kind == "boolean":
        return st.booleans() | values
    if kind == "array" and depth < 4:
        return st.lists(junk_for(schema.get("items", {}), depth + 1), max_size=4) | values
    if "anyOf" in schema and depth < 4:
        return st.one_of([junk_for(s, depth + 1) for s in schema["anyOf"]])
    props = schema.get("properties", {})
    if props and depth < 4:
        return st.fixed_dictionaries({}, optional={k: junk_for(v, depth + 1) for k, v in props.items()}) | values
    return values


def valid_for(schema: dict, depth: int = 0):
    """Inputs that pass the schema (every bound kept) but combine fields freely: they reach the rule checks."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([valid_for(s, depth + 1) for s in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "null":
        return st.none()
    if kind == "integer":
        return st.integers(schema.get("minimum", -20), min(schema.get("maximum", 60), 60))
    if kind == "number":
        return st.floats(schema.get("minimum", -50), min(schema.get("maximum", 100), 100), allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 8), 8))
    if kind == "array":
        low, high = schema.get("minItems", 0), min(schema.get("maxItems", 4), 4)
        return st.lists(valid_for(schema["items"], depth + 1), min_size=low, max_size=max(low, high))
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    return st.fixed_dictionaries(
        {k: valid_for(v, depth + 1) for k, v in props.items() if k in required},
        optional={k: valid_for(v, depth + 1) for k, v in props.items() if k not in required},
    )


@pytest.mark.parametrize("action", ACTIONS)
def test_schema_valid_combinations_are_refused_by_rule_or_answered(action):
    act = SYSTEM.action(action)
    answered, refusals = [], []

    @hsettings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
    @given(inputs=valid_for(act.input_schema), seed=st.integers(0, 2**31), over=st.sampled_from([{}, {"units": "cm"}]))
    def check(inputs, seed, over):
        settings = {**BASE, **over}
        try:
            outcome = act.resolve(inputs, settings, SeededDice(seed))
        except RuleInputError as exc:
            refusals.append(exc.errors)
            return
        answered.append(outcome)
        assert outcome.summary
        assert isinstance(outcome.result, dict)
        assert isinstance(act.odds(inputs, settings), dict)

    check()
    assert all(errors and all(isinstance(m, str) and m for m in errors.values()) for errors in refusals)


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("inputs", [None, [], "Д6", 3, {}, {"unit": None}, {"shooter": {}, "target": {}}])
def test_nonsense_is_refused_with_a_field(action, inputs):
    act = SYSTEM.action(action)
    for call in (lambda: act.odds(inputs, BASE), lambda: act.resolve(inputs, BASE, SeededDice(1))):
        with pytest.raises(RuleInputError) as exc:
            call()
        assert exc.value.errors
        assert all(isinstance(m, str) and m for m in exc.value.errors.values())


@pytest.mark.parametrize("action", ACTIONS)
def test_schema_shaped_junk_is_refused_or_answered(action):
    act = SYSTEM.action(action)

    @hsettings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        inputs=junk_for(act.input_schema), seed=st.integers(0, 2**31), typed=st.lists(st.integers(-1, 8), max_size=12)
    )
    def check(inputs, seed, typed):
        for source in (SeededDice(seed), TableDice(typed)):
            try:
                outcome = act.resolve(inputs, BASE, source)
            except RuleInputError:
                continue
            assert outcome.summary
            assert isinstance(outcome.result, dict)
        try:
            assert isinstance(act.odds(inputs, BASE), dict)
        except RuleInputError:
            pass

    check()


SHOT = {
    "shooter": {"level": "regular", "action": "aimed_fire", "groups": [{"weapon": "smg", "count": 1, "distance": 5}]},
    "target": {"groups": [{"count": 4, "armour": "light"}]},
}


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ([4, 4], "Not enough dice: die 3 (a d6 for the fire die (Machine pistol) 3 of 3) is missing"),
        ([1, 1, 1, 2], "Too many dice: 4 typed in, but this test used 3"),
        ([4, 7, 4], "Die 2 is 7, but it is a d6 (fire die (Machine pistol) 2 of 3)"),
        ([6, 6, 0], "Die 3 is 0, but it is a d6"),
        ([6, 1, 1, 9], "Die 4 is 9, but it is a d6 (save 6+ (Light armour) 1 of 1)"),
        ([6, "6", 1], "Die 2 ('6') is not a whole number"),
    ],
)
def test_typed_in_dice_say_which_die_was_wrong(dice, message):
    with pytest.raises(RuleInputError) as exc:
        run("shooting", SHOT, dice)
    assert message in exc.value.errors["dice"]


def test_typed_in_dice_are_recorded_with_their_purpose():
    outcome = run("shooting", SHOT, [6, 2, 5, 3, 6])
    assert [d["value"] for d in outcome.dice] == [6, 2, 5, 3, 6]
    assert [d["purpose"] for d in outcome.dice] == [
        "fire die (Machine pistol) 1 of 3",
        "fire die (Machine pistol) 2 of 3",
        "fire die (Machine pistol) 3 of 3",
        "save 6+ (Light armour) 1 of 2",
        "save 6+ (Light armour) 2 of 2",
    ]
    assert outcome.result["unsaved"] == 1


def test_unknown_settings_and_actions_are_refused():
    with pytest.raises(RuleInputError):
        SYSTEM.resolve_settings({"luck": 1})
    with pytest.raises(RuleInputError):
        SYSTEM.resolve_settings({"units": "feet"})
    with pytest.raises(RuleInputError):
        SYSTEM.action("teleport")
