"""Junk never breaks an action: inputs shaped like each schema but full of junk, and typed-in dice of the wrong
count or range, give RuleInputError naming the field (or die), never another exception."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from rules.contract import RuleInputError
from rules.dice import SeededDice, TableDice
from rules.systems.zvezdny_desant.system import SYSTEM
from rules.systems.zvezdny_desant.tests.support import run, settings

scalars = st.none() | st.booleans() | st.integers(-50, 600) | st.text(max_size=6) | st.sampled_from(
    ["В12", "A", "В", "Д", "move", "attack", "open", "heavy", "light", 0, 1])  # fmt: skip
values = st.recursive(scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c,
                                                                                   max_size=3), max_leaves=8)  # fmt: skip


def shaped(schema: dict, depth: int = 0):
    """Objects with the schema's own field names (so junk reaches the rule checks), junk values inside."""
    props = schema.get("properties") or {}
    if not props or depth > 3:
        return values
    fields = {}
    for name, sub in props.items():
        inner = sub.get("items") if sub.get("type") == "array" else sub
        nested = shaped(inner, depth + 1) if isinstance(inner, dict) and inner.get("properties") else values
        fields[name] = values | nested | st.lists(nested, max_size=3)
    return st.fixed_dictionaries({}, optional=fields)


@pytest.mark.parametrize("key", sorted(SYSTEM.actions))
def test_schema_shaped_junk_is_refused_cleanly(key):
    action = SYSTEM.action(key)
    base = settings()

    @hyp_settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
    @given(inputs=shaped(action.input_schema), dice=st.lists(st.integers(-2, 25), max_size=6), seed=st.integers(0, 99))
    def check(inputs, dice, seed):
        refusals = []
        for attempt in (
            lambda: action.resolve(inputs, base, TableDice(dice)),
            lambda: action.resolve(inputs, base, SeededDice(seed)),
            lambda: action.odds(inputs, base),
        ):
            try:
                attempt()
            except RuleInputError as exc:  # anything else fails the test
                refusals.append(exc.errors)
        assert all(errors and all(isinstance(m, str) and m for m in errors.values()) for errors in refusals)

    check()


@pytest.mark.parametrize("inputs", [None, [], "Д20", 7, {"no_such_field": 1}])
@pytest.mark.parametrize("key", sorted(SYSTEM.actions))
def test_nonsense_inputs_are_refused(key, inputs):
    with pytest.raises(RuleInputError):
        SYSTEM.action(key).resolve(inputs, settings(), SeededDice(1))
    with pytest.raises(RuleInputError):
        SYSTEM.action(key).odds(inputs, settings())


HIT = {"shooter_order": "defence", "dice": 3}


@pytest.mark.parametrize(
    ("dice", "words"),
    [
        ([9, 12], "die 3 (a d20 for the hit test die 3 of 3) is missing"),
        ([9, 12, 4, 8], "Too many dice: 4 typed in, but this test used 3"),
        ([9, 21, 4], "Die 2 is 21, but it is a d20 (hit test die 2 of 3)"),
        ([0, 5, 4], "Die 1 is 0"),
        ([9, "x", 4], "Die 2 ('x') is not a whole number"),
    ],
)
def test_typed_in_dice_name_the_wrong_die(dice, words):
    with pytest.raises(RuleInputError) as exc:
        run("hit_test", HIT, dice)
    assert words in exc.value.errors["dice"]


def test_a_wound_die_out_of_range_is_named_with_its_weapon():
    shot = {"shooter": {"order": "defence", "groups": [{"count": 1, "weapon": {"name": "Автомат", "hrk": "В12"}}]},
            "target": {"armour": "В", "stk": 1, "groups": [{"count": 1}]}}  # fmt: skip
    with pytest.raises(RuleInputError) as exc:
        run("shooting", shot, [15, 30])
    assert "Die 2 is 30" in exc.value.errors["dice"]
    assert "wound test: Автомат 1 of 1" in exc.value.errors["dice"]


@pytest.mark.parametrize("letter", ["А", "A", "а", "В", "B", "С", "c", "D", "Д", "Е", "e"])
def test_armour_letters_cyrillic_and_latin(letter):
    answer = run("wound_test", {"hits": 1, "hrk": {letter: 11}, "armour": letter}, [11])
    assert answer.result["wounds"] == 1


@pytest.mark.parametrize(("hrk", "field"), [("Ж12", "hrk.Ж"), ("В", "hrk"), ("В12 В14", "hrk"), ({"B": 0}, "hrk")])
def test_bad_hrk_is_refused_with_its_field(hrk, field):
    with pytest.raises(RuleInputError) as exc:
        run("wound_test", {"hits": 1, "hrk": hrk, "armour": "B"}, [11])
    assert any(k.startswith(field) for k in exc.value.errors), exc.value.errors
