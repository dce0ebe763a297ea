"""Junk inputs give RuleInputError (a 400 naming the field), never another exception: generated from each
action's own schema (hypothesis, 40 examples an action), plus hand-picked nonsense and bad typed-in dice."""

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from rules.dice import dice_source
from rules.errors import RuleInputError
from rules.systems.enforcers.system import SYSTEM
from rules.systems.enforcers.tests.helpers import agent, resolve, settings

json_scalars = st.none() | st.booleans() | st.integers(-30, 60) | st.text(max_size=6) | st.floats(-5, 50)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=8,
)
STATUS_ENTRY = st.fixed_dictionaries(
    {}, optional={"turns": st.none() | st.integers(-1, 5), "stacks": st.integers(-1, 4), "by": st.text(max_size=3)}
)


def plausible(schema: dict, depth: int = 0):
    """Values near the schema (right names, often right types, sometimes out of range) plus raw junk."""
    if depth > 4:
        return json_values
    if "enum" in schema:
        return st.sampled_from(schema["enum"]) | json_scalars
    if "anyOf" in schema:
        return st.one_of([plausible(s, depth + 1) for s in schema["anyOf"]])
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "object" in kinds and schema.get("properties"):
        props = schema["properties"]
        fields = {name: plausible(sub, depth + 1) for name, sub in props.items()}
        if set(props) >= {"fear", "bleeding", "stunned"}:  # a statuses object
            fields = dict.fromkeys(props, STATUS_ENTRY | json_values)
        return st.fixed_dictionaries({}, optional=fields) | json_values
    if "integer" in kinds:
        return st.integers(schema.get("minimum", -50) - 2, schema.get("maximum", 50) + 2) | json_scalars
    if "number" in kinds:
        return st.floats(schema.get("minimum", -50) - 2, schema.get("maximum", 50) + 2) | json_scalars
    if "boolean" in kinds:
        return st.booleans() | json_scalars
    if "array" in kinds:
        return st.lists(plausible(schema.get("items", {}), depth + 1), max_size=3) | json_values
    return json_values


def valid(schema: dict, depth: int = 0):
    """Values that pass the schema (in range, required fields present), so the rule checks and the procedures
    themselves meet strange but legal agents: negative HP, statuses in any mix, odd stats."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([valid(s, depth + 1) for s in schema["anyOf"]])
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        props = schema.get("properties", {})
        if "stats" in props and "hp" in props:  # an agent: every stat, HP near its range, little armour
            full = st.fixed_dictionaries({k: st.integers(1, 20) for k in props["stats"]["properties"]})
            return st.fixed_dictionaries(
                {"stats": full},
                optional={**{k: valid(v, depth + 1) for k, v in props.items() if k not in ("stats", "hp", "ap")},
                          "hp": st.integers(-25, 12), "ap": st.integers(0, 4)},
            )  # fmt: skip
        required = {k: valid(props[k], depth + 1) for k in schema.get("required", [])}
        optional = {k: valid(v, depth + 1) for k, v in props.items() if k not in required}
        return st.fixed_dictionaries(required, optional=optional)
    if kind == "integer":
        return st.integers(schema.get("minimum", -5), schema.get("maximum", 30))
    if kind == "number":
        return st.integers(int(schema.get("minimum", -5)), int(schema.get("maximum", 30)))
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        items = valid(schema.get("items", {}), depth + 1)
        return st.lists(items, max_size=min(3, schema.get("maxItems", 3)), unique=schema.get("uniqueItems", False))
    if kind == "null":
        return st.none()
    return st.text(max_size=5)


@pytest.mark.parametrize("key", sorted(SYSTEM.actions))
def test_legal_but_strange_inputs_only_raise_rule_input_errors(key):
    action = SYSTEM.action(key)
    s = settings()
    reached = []

    @hsettings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(inputs=valid(action.input_schema), seed=st.integers(0, 2**31))
    def check(inputs, seed):
        try:
            action.odds(inputs, s)
            outcome = action.resolve(inputs, s, dice_source(seed=seed))
        except RuleInputError as exc:
            assert exc.errors  # noqa: PT017 (hypothesis drives the loop; pytest.raises cannot say "maybe")
            return
        assert outcome.summary
        reached.append(1)

    check()
    assert reached, f"no generated input of {key} got past the rule checks"


@pytest.mark.parametrize("key", sorted(SYSTEM.actions))
def test_schema_shaped_junk_only_raises_rule_input_errors(key):
    action = SYSTEM.action(key)
    s = settings()

    @hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(inputs=plausible(action.input_schema), typed=st.none() | st.lists(st.integers(-2, 25), max_size=8))
    def check(inputs, typed):
        for attempt in (
            lambda: action.odds(inputs, s),
            lambda: action.resolve(inputs, s, dice_source(seed=1, dice=typed)),
        ):
            try:
                attempt()
            except RuleInputError as exc:
                assert exc.errors, exc  # noqa: PT017

    check()


@pytest.mark.parametrize("junk", [None, [], "BS 12", 7, {"shooter": "Kate"}])
def test_nonsense_bodies_are_refused(junk):
    for action in SYSTEM.actions.values():
        with pytest.raises(RuleInputError):
            action.odds(junk, settings())


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ([25], "Die 1 is 25, but it is a d20"),
        ([12, 7], "Die 2 is 7, but it is a d6"),
        ([12], "Not enough dice: die 2 (a d6"),
        ([12, 3, 3], "Too many dice"),
    ],
)
def test_typed_in_dice_are_checked_die_by_die(dice, message):
    with pytest.raises(RuleInputError, match=message.replace("(", r"\(")):
        resolve("test", {"difficulty": 10, "curses": 1}, dice=dice)


def test_a_missing_stat_names_the_field():
    shooter = {"name": "Kate", "stats": {"HL": 8}}
    with pytest.raises(RuleInputError) as caught:
        resolve("shoot", {"shooter": shooter, "weapon": {"damage": 2}, "target": agent()}, seed=1)
    assert caught.value.errors == {"shooter.stats.BS": "Kate's BS (Стрельба) is needed for this."}


@pytest.mark.parametrize(
    ("action", "inputs", "field"),
    [
        ("aim", {"agent": agent(statuses={"disoriented": {"turns": 1}})}, "agent.statuses"),
        ("aim", {"agent": agent(statuses={"pinned": {"turns": 1}})}, "agent.statuses"),
        ("overwatch", {"agent": agent(statuses={"disoriented": {"turns": 2}})}, "agent.statuses"),
        ("medical_aid", {"healer": agent(), "target": agent(hp=3), "mode": "revive"}, "mode"),
        ("medical_aid", {"healer": agent(), "target": agent(hp=3), "mode": "restore_hp", "has_medkit": False},
         "has_medkit"),
        ("prayer", {"priest": agent(), "prayer": "last_rites", "target": agent()}, "target"),
        ("prayer", {"priest": agent(), "prayer": "benediction", "target": None, "prayed_this_round": True},
         "prayed_this_round"),
        ("shoot", {"shooter": agent(), "weapon": {"damage": 2, "ammo": 0}, "target": agent()}, "weapon.ammo"),
        ("shoot", {"shooter": agent(statuses={"fear": {}}), "weapon": {"damage": 2}, "target": agent()},
         "shooter.statuses"),
        ("throw", {"thrower": agent(TN=6), "weapon": {"damage": 2}, "target": agent(), "distance_cm": 10},
         "distance_cm"),
        ("move", {"agent": agent(DX=6), "distance_cm": 7}, "distance_cm"),
        ("suppressive_fire", {"agent": agent(), "weapon": {"damage": 1, "ammo": 2, "capacity": 6}, "targets": []},
         "weapon.ammo"),
        ("melee", {"attacker": agent(statuses={"seriously_wounded": {}}, hp=0), "attacker_weapon": {"damage": 1,
         "reach_cm": 1}, "defender": agent(), "defender_weapon": {"damage": 1, "reach_cm": 1}}, "attacker.statuses"),
        ("listen", {"agent": agent(), "use_reroll": True}, "agent.rerolls"),
    ],
)  # fmt: skip
def test_rule_breaches_name_the_field(action, inputs, field):
    with pytest.raises(RuleInputError) as caught:
        SYSTEM.action(action).odds(inputs, settings())
    assert field in caught.value.errors, caught.value.errors


def test_a_seed_repeats_the_same_dice():
    inputs = {"difficulty": 10, "blessings": 2}
    first = SYSTEM.action("test").resolve(inputs, settings(), dice_source(seed=42))
    again = SYSTEM.action("test").resolve(inputs, settings(), dice_source(seed=42))
    assert first.dice == again.dice
    assert len(first.dice) == 3
