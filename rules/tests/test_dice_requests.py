"""Dice requests a program can read (issue #30): `/resolve/` with the wrong number of dice says, beside the message,
which dice the action needs, in order (die, faces, count, purpose), so a client can ask for exactly those."""

import json

import pytest

from rules.systems.thw5150.tests.test_api import BASE, SHOT

pytestmark = pytest.mark.django_db


def post(client, url, body, **extra):
    return client.post(url, json.dumps(body), content_type="application/json", **extra)


def test_too_few_and_too_many_dice_answer_the_dice_needed_as_data(client):
    ok = post(client, f"{BASE}/shooting/resolve/", {"inputs": SHOT, "dice": [6, 5, 4, 6, 5]})
    assert ok.status_code == 200
    used = ok.json()["dice"]
    for typed in ([6], [6, 5, 4, 6, 5, 1, 1]):
        refused = post(client, f"{BASE}/shooting/resolve/", {"inputs": SHOT, "dice": typed})
        assert refused.status_code == 400
        body = refused.json()
        assert body["code"] == "rule_input"
        assert "dice" in body["errors"]
        needed = body["dice_needed"]
        assert all(n["die"] == "d6" and n["faces"] == 6 and n["purpose"] for n in needed)
        assert needed[0]["purpose"] == used[0]["purpose"]
        if len(typed) > len(used):  # the typed dice decide the whole test: exactly the dice it used
            assert sum(n["count"] for n in needed) == len(used)
        else:  # past the typed die, a hit may ask for more: at least one more die than was typed
            assert sum(n["count"] for n in needed) > len(typed)


def test_the_dice_needed_speak_the_askers_language(client):
    refused = post(client, f"{BASE}/shooting/resolve/", {"inputs": SHOT, "dice": [9]}, HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 400
    needed = refused.json()["dice_needed"]
    assert needed
    assert any(ch in needed[0]["purpose"] for ch in "абвгдеёжзийклмнопрстуфхцчшщыэюя")
