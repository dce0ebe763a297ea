"""Junk sent to every action's odds and resolve endpoints gets a 4xx with a message, never a 500.

The junk is generated from each action's own input schema (hypothesis), plus hand-picked nonsense bodies.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.registry import get_system

pytestmark = pytest.mark.django_db

SYSTEM = get_system("bronepekhota")
ACTIONS = sorted(SYSTEM.actions)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.text(max_size=12)
    | st.floats(allow_nan=False, allow_infinity=False)
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


def _field_junk(schema: dict):
    """Objects with the schema's field names but junk (or shallowly broken) values."""
    props = schema.get("properties", {})
    if not props:
        return json_values
    return st.fixed_dictionaries({}, optional={name: json_values | _field_junk(sub) for name, sub in props.items()})


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def assert_clean_refusal_or_answer(response):
    assert response.status_code < 500, response.content[:500]
    if response.status_code >= 400:
        body = response.json()
        assert body.get("detail"), body


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize(
    "body",
    [
        {},
        {"inputs": None},
        {"inputs": []},
        {"inputs": "Д6"},
        {"inputs": {}, "settings": {"no_such_setting": True}},
        {"inputs": {}, "settings": []},
        {"inputs": {}, "seed": "abc"},
        {"inputs": {}, "dice": [0, 99, -1]},
        {"inputs": {}, "dice": "6,6"},
    ],
)
def test_nonsense_bodies_are_refused_cleanly(client, action, body):
    for endpoint in ("odds", "resolve"):
        assert_clean_refusal_or_answer(post(client, f"/api/v1/systems/bronepekhota/actions/{action}/{endpoint}/", body))


def test_malformed_json_is_a_400(client):
    response = client.post(
        "/api/v1/systems/bronepekhota/actions/melee/odds/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["detail"]


@pytest.mark.parametrize("action", ACTIONS)
def test_schema_shaped_junk_never_500s(client, action):
    schema = SYSTEM.actions[action].input_schema

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        inputs=_field_junk(schema),
        seed=st.integers(0, 2**31),
        use_dice=st.booleans(),
        dice=st.lists(st.integers(-2, 25), max_size=8),
    )
    def check(inputs, seed, use_dice, dice):
        extra = {"dice": dice} if use_dice else {"seed": seed}
        for endpoint in ("odds", "resolve"):
            body = {"inputs": inputs, **(extra if endpoint == "resolve" else {})}
            assert_clean_refusal_or_answer(
                post(client, f"/api/v1/systems/bronepekhota/actions/{action}/{endpoint}/", body)
            )

    check()
