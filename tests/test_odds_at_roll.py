"""The odds and the rule at the moment of the roll (issue #31), proven with the test-only system (its `at_roll`
part maps the answer's form to its attack action): the odds a form shows equal the odds API's for the same inputs
exactly; a missing input shows no odds and says what is missing; a field's values are ranked; the rule at hand
names the battle's setting; outsiders get 404 and spectators 403."""

import json

import pytest
from django.test import Client

from tests.test_contract_system import _client, _post

pytestmark = pytest.mark.django_db


def odds(client, battle, body):
    return client.post(
        f"/api/v1/battles/{battle.pk}/commands/answer/odds", data=json.dumps(body), content_type="application/json"
    )


def at_the_question(battle, alice, bob):
    a, b = _client(alice), _client(bob)
    assert _post(a, battle, "order", {"unit": "0.e1.1", "target": "1.e1.1"}, 2).status_code == 201
    assert _post(b, battle, "order", {"unit": "1.e1.1", "target": "0.e1.1"}, 3).status_code == 201
    return a, b


def test_the_forms_odds_are_the_odds_apis_for_the_same_inputs_exactly(orders_battle):
    from rules import registry
    from tests.contract_system.system import SYSTEM

    battle, alice, bob = orders_battle
    _a, b = at_the_question(battle, alice, bob)
    answer = odds(b, battle, {"choice": "cover"})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["action"] == "attack"
    direct = SYSTEM.action("attack").odds({"needed": 5}, SYSTEM.default_settings())
    assert json.loads(json.dumps(direct)) == body["odds"]
    assert body["headline"]["key"] == "p_hit"
    assert body["headline"]["exact"] == "1/3"
    assert body["place"] == ["roll", "roll"]
    assert registry.get_system(battle.system) is SYSTEM
    fire = odds(b, battle, {"choice": "fire"}).json()
    assert fire["headline"]["exact"] == "2/3"


def test_a_missing_input_shows_no_odds_and_says_what_is_missing(orders_battle):
    battle, alice, bob = orders_battle
    _a, b = at_the_question(battle, alice, bob)
    missing = odds(b, battle, {})
    assert missing.status_code == 400
    assert "odds" not in missing.json()
    assert missing.json()["errors"] == {"choice": "Choose cover or fire."}
    unknown = b.post(f"/api/v1/battles/{battle.pk}/commands/order/odds", data="{}", content_type="application/json")
    assert unknown.status_code == 400  # a secret order rolls nothing: no odds to show


def test_which_choice_ranks_every_value_by_the_headline_chance(orders_battle):
    battle, alice, bob = orders_battle
    _a, b = at_the_question(battle, alice, bob)
    unchosen = odds(b, battle, {"compare": {"field": "choice", "values": ["cover", "fire"]}})
    assert unchosen.status_code == 400  # the form's own inputs come first: no choice yet, no odds
    ranked = odds(b, battle, {"choice": "cover", "compare": {"field": "choice", "values": ["cover", "fire", "bogus"]}})
    assert ranked.status_code == 200
    rows = ranked.json()["ranking"]
    assert [r["value"] for r in rows] == ["fire", "cover", "bogus"]
    assert rows[0]["exact"] == "2/3"
    assert rows[2]["p"] is None
    assert rows[2]["why"]
    refused = odds(b, battle, {"choice": "cover", "compare": {"field": "unit", "values": ["x"]}})
    assert refused.status_code == 400


def test_outsiders_get_404_spectators_403_and_the_rule_page_names_the_house_rule(orders_battle, django_user_model):
    battle, alice, bob = orders_battle
    _a, b = at_the_question(battle, alice, bob)
    stranger = django_user_model.objects.create_user("mallory", password="pw-mallory-123")
    assert odds(_client(stranger), battle, {"choice": "cover"}).status_code == 404
    watcher = Client()
    assert watcher.get(f"/battles/watch/{battle.spectator_token}/").status_code == 302
    assert odds(watcher, battle, {"choice": "cover"}).status_code == 403
    page = watcher.get(f"/battles/{battle.pk}/rules/answer/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Take cover: hit on 5+" in html
    assert 'data-testid="house-rule"' in html
    assert _client(stranger).get(f"/battles/{battle.pk}/rules/answer/").status_code == 404
    assert b.get(f"/battles/{battle.pk}/rules/nothing/").status_code == 404
    board = b.get(f"/battles/{battle.pk}/board").content.decode()
    assert 'data-odds="choice"' in board
    assert 'href="rules/answer/"' in board
