"""The public rules API: systems list, exact odds, resolution with seeds or typed-in dice, readable 400/404s."""

import json

import pytest

pytestmark = pytest.mark.django_db

BASE = "/api/v1/systems/bronepekhota/actions"
SHOT = {
    "shooter": {"kind": "vehicle", "rof": 1, "ammo": 12},
    "weapon": {"key": "aviation-rocket", "range": "Д12", "power": "4Д12"},
    "distance_cm": 21,
    "target": {"kind": "vehicle", "name": "SALAMANDER", "strength": 7, "pilot": {"armour": 3}},
}


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_systems_list_has_actions_with_schemas_and_settings(client):
    response = client.get("/api/v1/systems/")
    assert response.status_code == 200
    systems = {s["slug"]: s for s in response.json()}
    bp = systems["bronepekhota"]
    actions = {a["key"]: a for a in bp["actions"]}
    assert {"virtual_shot", "melee", "survival_test", "initiative"} <= set(actions)
    assert actions["virtual_shot"]["input_schema"]["required"] == ["shooter", "weapon", "target"]
    settings = {s["key"]: s for s in bp["settings"]}
    assert settings["ammo_short_shot"]["default"] == "literal"
    assert "A7" in settings["ammo_short_shot"]["source"]
    assert client.get("/api/v1/systems/bronepekhota/").json()["slug"] == "bronepekhota"


def test_odds_of_a_virtual_shot(client):
    response = post(client, f"{BASE}/virtual_shot/odds/", {"inputs": SHOT, "settings": {"panic": True}})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["settings"]["panic"] is True
    assert body["settings"]["mode"] == "virtual"
    odds = body["odds"]
    assert odds["steps"] == 5
    assert odds["p_hit"]["exact"] == "2/3"
    damage = {d["value"]: d["exact"] for d in odds["damage"]}
    assert set(damage) == {0, 1, 2, 3, 4}
    assert odds["p_panic"]["p"] > 0


def test_odds_of_melee_and_survival(client):
    melee = post(
        client,
        f"{BASE}/melee/odds/",
        {"inputs": {"attacker": {"kind": "infantry", "melee": 2}, "defender": {"kind": "infantry", "armour": 3}}},
    )
    assert melee.status_code == 200
    assert melee.json()["odds"]["p_attacker_wins"]["exact"] == "5/18"
    survival = post(client, f"{BASE}/survival_test/odds/", {"inputs": {"subject": {"armour": 3}}})
    assert survival.json()["odds"]["p_survived"]["exact"] == "1/2"


def test_resolve_with_a_seed_is_reproducible(client):
    first = post(client, f"{BASE}/virtual_shot/resolve/", {"inputs": SHOT, "seed": 12345})
    second = post(client, f"{BASE}/virtual_shot/resolve/", {"inputs": SHOT, "seed": 12345})
    assert first.status_code == 200
    assert first.json()["dice"] == second.json()["dice"]
    assert first.json()["seed"] == 12345
    assert first.json()["dice"][0]["purpose"] == "range roll"
    random_seed = post(client, f"{BASE}/virtual_shot/resolve/", {"inputs": SHOT}).json()["seed"]
    assert isinstance(random_seed, int)


def test_resolve_with_typed_in_dice_g13(client):
    response = post(client, f"{BASE}/virtual_shot/resolve/", {"inputs": SHOT, "dice": [9, 3, 7, 8, 11, 2]})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["seed"] is None
    assert [d["value"] for d in body["dice"]] == [9, 3, 7, 8, 11, 2]
    assert [d["purpose"] for d in body["dice"][1:5]] == [f"power die {i} of 4" for i in range(1, 5)]
    assert body["result"]["target"]["damage"] == 2
    assert body["result"]["target"]["pilot"] == "survived"
    assert {"kind": "ammo_spent", "role": "shooter", "amount": 4} in body["effects"]


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ([9, 3, 7], "Not enough dice"),
        ([9, 3, 7, 8, 11, 2, 5], "Too many dice"),
        ([13, 3, 7, 8, 11, 2], "Die 1 is 13, but it is a d12"),
        ([9, 3, 7, 8, 11, 7], "Die 6 is 7, but it is a d6"),
    ],
)
def test_typed_in_dice_errors(client, dice, message):
    response = post(client, f"{BASE}/virtual_shot/resolve/", {"inputs": SHOT, "dice": dice})
    assert response.status_code == 400
    assert message in response.json()["errors"]["dice"]
    assert message in response.json()["detail"]


def test_seed_and_dice_together_are_refused(client):
    response = post(client, f"{BASE}/virtual_shot/resolve/", {"inputs": SHOT, "dice": [1], "seed": 3})
    assert response.status_code == 400
    assert "dice" in response.json()["errors"]


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"distance_cm": -5}, "distance_cm", "0 or more"),
        ({"target": {"kind": "infantry", "armour": 25}}, "target.armour", "20 or less"),
        ({"weapon": {"range": "Д7", "power": "4Д12"}}, "weapon.range", "a die must be d6, d12 or d20"),
        ({"weapon": {"range": "Д12", "power": "4Ж12"}}, "weapon.power", "not dice notation"),
        ({"cover": "bunker"}, "cover", "must be one of"),
        ({"target": {"kind": "vehicle", "strength": 7}}, "target.pilot", "pilot"),
    ],
)
def test_bad_inputs_are_400_with_field_errors(client, change, field, words):
    for kind in ("odds", "resolve"):
        response = post(client, f"{BASE}/virtual_shot/{kind}/", {"inputs": {**SHOT, **change}, "seed": 1}
                        if kind == "resolve" else {"inputs": {**SHOT, **change}})  # fmt: skip
        assert response.status_code == 400, response.json()
        assert words in response.json()["errors"][field]


def test_bad_settings_and_bodies_are_400(client):
    bad_setting = post(client, f"{BASE}/virtual_shot/odds/", {"inputs": SHOT, "settings": {"panic": "maybe"}})
    assert bad_setting.status_code == 400
    assert "settings.panic" in bad_setting.json()["errors"]
    unknown_setting = post(client, f"{BASE}/virtual_shot/odds/", {"inputs": SHOT, "settings": {"luck": 1}})
    assert unknown_setting.status_code == 400
    no_inputs = post(client, f"{BASE}/virtual_shot/odds/", {"settings": {}})
    assert no_inputs.status_code == 400
    assert "inputs" in no_inputs.json()["errors"]
    not_json = client.post(f"{BASE}/virtual_shot/odds/", "{nope", content_type="application/json")
    assert not_json.status_code == 400


def test_unknown_system_or_action_is_404(client):
    assert post(client, "/api/v1/systems/chess/actions/virtual_shot/odds/", {"inputs": {}}).status_code == 404
    missing = post(client, f"{BASE}/teleport/resolve/", {"inputs": {}, "seed": 1})
    assert missing.status_code == 404
    assert "teleport" in missing.json()["detail"]
    assert client.get("/api/v1/systems/chess/").status_code == 404


def test_every_action_answers_odds_and_resolves_over_the_api(client):
    cases = {
        "initiative": ({"players": ["Ann", "Bob"]}, {}),
        "survival_test": ({"subject": {"armour": 2}}, {}),
        "armour_test": ({"strength": 6, "die": 20, "pilot": {"armour": 3}}, {"mode": "real"}),
        "melee": ({"attacker": {"kind": "infantry", "melee": 3}, "defender": {"kind": "gun", "strength": 5}}, {}),
        "grenade": ({"thrower": {"kind": "infantry", "armour": 3}, "victims": [{"kind": "infantry", "armour": 1,
                                                                                "bursts": [2, 3]}]}, {"grenades": True}),
        "emergency_landing": ({"strength": 6}, {}),
        "real_shot": ({"shooter": {"kind": "vehicle", "rof": 1, "ammo": 10}, "charge": "rocket", "hit": True,
                       "target": {"kind": "gun", "strength": 8}}, {"mode": "real"}),
        "dispute": ({"players": ["Ann", "Bob", "Cid"]}, {}),
        "repair": ({"repairer": {"kind": "soldier", "abilities": ["Рм"]},
                    "target": {"kind": "gun", "strength": 2, "strength_max": 4}}, {}),
        "capture": ({"soldier": {"rank": 1}, "object": {"kind": "gun", "rank": 1}}, {}),
        "movement": ({"mover": {"kind": "infantry", "speed": 4}, "path": [{"kind": "flat", "steps": 3}]}, {}),
        "towing": ({"op": "start", "helix": {"repair_platform": True}, "object": {"kind": "vehicle"}}, {}),
        "jump": ({"soldier": {"jump": 5}, "length_steps": 3, "rise_steps": 1}, {"jump_packs": True}),
        "panic": ({"soldier": {"speed": 4}, "reaches_edge": False}, {"panic": True}),
        "ammo_refresh": ({"element": {"ammo": 0, "ammo_max": 12}}, {"ammo_refreshes": 1}),
    }  # fmt: skip
    cases["virtual_shot"] = (SHOT, {})
    listed = {a["key"] for a in client.get("/api/v1/systems/bronepekhota/").json()["actions"]}
    assert listed == set(cases)
    for action, (inputs, settings) in cases.items():
        odds = post(client, f"{BASE}/{action}/odds/", {"inputs": inputs, "settings": settings})
        assert odds.status_code == 200, (action, odds.json())
        resolved = post(client, f"{BASE}/{action}/resolve/", {"inputs": inputs, "settings": settings, "seed": 7})
        assert resolved.status_code == 200, (action, resolved.json())
        assert resolved.json()["action"] == action
        assert resolved.json()["summary"]


def test_csrf_stays_on_for_session_users(django_user_model):
    from django.test import Client

    user = django_user_model.objects.create_user("odds-user", password="a-long-password-123")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    refused = post(client, f"{BASE}/survival_test/odds/", {"inputs": {"subject": {"armour": 3}}})
    assert refused.status_code == 403
    client.get("/odds/")
    token = client.cookies["csrftoken"].value
    accepted = client.post(
        f"{BASE}/survival_test/odds/",
        json.dumps({"inputs": {"subject": {"armour": 3}}}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert accepted.status_code == 200


def test_odds_page_lists_pack_weapons(client):
    response = client.get("/odds/?system=bronepekhota")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="shot-form"' in html
    assert 'id="melee-form"' in html
    assert 'id="survival-form"' in html
    assert "bronepekhota/odds.js" in html
    assert "rules/rules.css" in html
    from rules.systems.bronepekhota.odds_page import known_weapons_and_targets

    known = known_weapons_and_targets()
    if known["weapons"]:  # the official pack is in rules/systems/bronepekhota/data
        assert known["weapons"][0]["range"] in html
        assert any(w["power"] == "4Д12" for w in known["weapons"])


def test_a_system_without_its_own_odds_page_gets_a_form_from_its_schemas(client):
    from rules import registry
    from tests.contract_system.system import SYSTEM

    registry.register(SYSTEM)
    try:
        response = client.get(f"/odds/?system={SYSTEM.slug}")
    finally:
        registry.unregister(SYSTEM.slug)
    assert response.status_code == 200
    assert 'id="odds-schema"' in response.content.decode()
    assert client.get("/odds/?system=no-such-game").status_code == 404


def test_schema_documents_the_rules_endpoints(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    text = response.content.decode()
    assert "/api/v1/systems/{system}/actions/{action}/odds/" in text
    assert "RulesResolveInput" in text
