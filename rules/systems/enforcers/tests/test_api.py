"""«Энфорсеры» through the public rules API: listed with its parts, exact odds, typed-in dice checked die by die,
and nonsense refused with a 4xx naming the field, for every action."""

import json

import pytest

from rules.systems.enforcers.system import SYSTEM
from rules.systems.enforcers.tests.helpers import agent

pytestmark = pytest.mark.django_db
BASE = "/api/v1/systems/enforcers/actions"


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_the_system_is_listed_with_its_parts(client):
    systems = {s["slug"]: s for s in client.get("/api/v1/systems/").json()}
    assert systems["enforcers"]["name"] == "Энфорсеры"
    detail = client.get("/api/v1/systems/enforcers/").json()
    assert set(detail["parts"]) == {"army", "battle", "simulator", "campaign", "at_roll"}
    assert {a["key"] for a in detail["actions"]} == set(SYSTEM.actions)


def test_odds_and_typed_in_dice(client):
    odds = post(client, f"{BASE}/test/odds/", {"inputs": {"difficulty": 10, "blessings": 2},
                                               "settings": {"homerule_max_only": True}})  # fmt: skip
    assert odds.status_code == 200
    assert odds.json()["odds"]["p_success"]["exact"] == "521/720"
    shot = {"shooter": agent(BS=12), "weapon": {"damage": 4}, "target": agent(), "range_band": "short"}
    resolved = post(client, f"{BASE}/shoot/resolve/", {"inputs": shot, "dice": [3, 2]})
    assert resolved.status_code == 200, resolved.json()
    assert [d["purpose"] for d in resolved.json()["dice"]] == [  # stored in English, worded when shown
        "Shooting: d20",
        "Shooting: blessing d6 1 of 1",
    ]
    wrong = post(client, f"{BASE}/shoot/resolve/", {"inputs": shot, "dice": [3, 9]})
    assert wrong.status_code == 400
    assert "Die 2 is 9, but it is a d6" in wrong.json()["errors"]["dice"]


@pytest.mark.parametrize("action", sorted(SYSTEM.actions))
@pytest.mark.parametrize("body", [{}, {"inputs": []}, {"inputs": {}, "settings": {"nope": 1}}, {"inputs": {"x": 1}}])
def test_nonsense_is_a_4xx_with_a_message(client, action, body):
    for endpoint in ("odds", "resolve"):
        response = post(client, f"{BASE}/{action}/{endpoint}/", body)
        assert 400 <= response.status_code < 500
        assert response.json()["detail"]
