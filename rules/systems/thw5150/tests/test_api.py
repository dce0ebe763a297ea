"""«5150» through the public rules API once it is registered (config/settings RULES_SYSTEMS): listed with its
settings and actions, exact odds, resolution with typed-in dice, readable 400s."""

import json

import pytest

pytestmark = pytest.mark.django_db

BASE = "/api/v1/systems/5150/actions"
SHOT = {"shooter": {"name": "Jim", "rep": 4, "weapon": "assault_rifle"},
        "targets": [{"name": "T1", "dice": 2}, {"name": "T2", "dice": 1}]}  # fmt: skip


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_listed_with_settings_actions_and_parts(client):
    system = client.get("/api/v1/systems/5150/").json()
    assert system["name"] == "5150"
    assert {"army", "simulator"} <= set(system["parts"])
    settings = {s["key"]: s for s in system["settings"]}
    assert settings["leader_dice"]["source"] == "§5 A2"
    assert {"shooting", "received_fire", "activation", "melee"} <= {a["key"] for a in system["actions"]}
    assert system["glossary"]["received_fire"] == "ОБСТРЕЛЯН"


def test_odds_and_typed_in_dice_over_the_api(client):
    odds = post(client, f"{BASE}/shooting/odds/", {"inputs": SHOT})
    assert odds.status_code == 200, odds.json()
    # T1 gets the two highest of three dice; Rep 4 hits a first target on 4+: two hits iff at least two dice
    # show 4+, 3/8 + 1/8 = 1/2.
    assert odds.json()["odds"]["targets"][0]["hits"][2]["exact"] == "1/2"
    resolved = post(client, f"{BASE}/shooting/resolve/", {"inputs": SHOT, "dice": [6, 5, 4, 6, 5]})
    assert resolved.status_code == 200, resolved.json()
    assert [d["value"] for d in resolved.json()["dice"]] == [6, 5, 4, 6, 5]
    bad = post(client, f"{BASE}/shooting/resolve/", {"inputs": SHOT, "dice": [6, 5, 9]})
    assert bad.status_code == 400
    assert "Die 3 is 9" in bad.json()["errors"]["dice"]
    junk = post(client, f"{BASE}/received_fire/odds/", {"inputs": {"members": [{"rep": 12}]}})
    assert junk.status_code == 400
    assert "members.0.rep" in junk.json()["errors"]
