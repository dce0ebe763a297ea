"""The contract proven with a game that has what the other books need: secret simultaneous orders and a question
to the other player in the middle of a test (tests/contract_system). First in memory (rules.contract.testing),
then through the real runner, API, event feed and board."""

import json

import pytest
from django.test import Client

from battles import services
from battles.models import BattleEvent
from rules.contract import Event, UndoNeedsAgreement
from rules.contract.testing import Table
from rules.errors import GameConflict, NotYours, RuleInputError
from tests.contract_system.system import SYSTEM

ROSTER = {
    "faction": "f",
    "entries": [
        {
            "key": "e1",
            "count": 1,
            "options": {},
            "profile": {
                "slug": "a",
                "name": "Alpha",
                "kind": "squad",
                "cost": 5,
                "faction": "f",
                "data": {"strength": 3},
            },
        },
    ],
}


def table() -> Table:
    return Table(SYSTEM, rosters=[ROSTER, ROSTER])


# In memory ---------------------------------------------------------------------------------------------------
def test_the_game_waits_for_both_orders_and_keeps_each_secret_until_the_reveal():
    t = table()
    assert t.awaiting().kind == "all"
    assert set(t.awaiting().sides) == {0, 1}
    t.command(0, "order", {"unit": "0.e1.1", "target": "1.e1.1"})
    assert t.awaiting().sides == (1,)
    # Side 1 sees neither the order nor its event.
    assert "0" not in t.view({1})["game"]["orders"]
    assert [e["type"] for e in t.feed({1})] == []
    assert "1.e1.1" not in json.dumps(t.view({1})["game"])
    with pytest.raises(GameConflict):  # one order a turn
        t.command(0, "order", {"unit": "0.e1.1", "target": "1.e1.1"})
    t.command(1, "order", {"unit": "1.e1.1", "target": "0.e1.1"})
    revealed = [e for e in t.feed({1}) if e["type"] == "orders.revealed"]
    assert revealed
    assert revealed[0]["payload"]["orders"]["0"]["target"] == "1.e1.1"
    assert t.replay_matches()


def test_a_question_to_the_target_owner_blocks_everything_else_until_answered():
    t = table()
    t.command(0, "order", {"unit": "0.e1.1", "target": "1.e1.1"})
    t.command(1, "order", {"unit": "1.e1.1", "target": "0.e1.1"})
    awaiting = t.awaiting()
    assert awaiting.kind == "question"
    assert awaiting.sides == (1,)
    with pytest.raises(GameConflict):
        t.command(0, "answer", {"choice": "cover"}, dice=[6])
    with pytest.raises(GameConflict):
        t.command(1, "order", {"unit": "1.e1.1", "target": "0.e1.1"})
    t.command(1, "answer", {"choice": "cover"}, dice=[5])  # 5 against 5+: hit
    assert t.state.units["1.e1.1"].state["strength"] == 2
    assert t.awaiting().sides == (0,)  # now side 1's attack is asked of side 0
    t.command(0, "answer", {"choice": "fire"}, dice=[1])  # returning fire costs 1, the 1 misses
    assert t.state.units["0.e1.1"].state["strength"] == 2
    assert t.awaiting().kind == "all"  # the next turn's orders
    assert t.state.game["turn"] == 2
    assert t.replay_matches()


def test_typed_in_dice_are_checked_and_nothing_changes_on_a_bad_die():
    t = table()
    t.command(0, "order", {"unit": "0.e1.1", "target": "1.e1.1"})
    t.command(1, "order", {"unit": "1.e1.1", "target": "0.e1.1"})
    before = t.version
    with pytest.raises(RuleInputError):
        t.command(1, "answer", {"choice": "cover"}, dice=[7])
    with pytest.raises(RuleInputError):
        t.command(1, "answer", {"choice": "duck"}, dice=[3])
    assert t.version == before
    assert t.state.units["1.e1.1"].state["strength"] == 3


def test_undo_replays_the_log_without_the_command():
    t = table()
    first = t.command(0, "order", {"unit": "0.e1.1", "target": "1.e1.1"})[0]
    t.undo(0, seq=first["seq"])  # before the reveal a side takes its own secret order back alone
    assert t.state.game["orders"] == {}
    t.command(0, "order", {"unit": "0.e1.1", "target": "1.e1.1"})
    t.command(1, "order", {"unit": "1.e1.1", "target": "0.e1.1"})
    answer = t.command(1, "answer", {"choice": "cover"}, dice=[6])[0]
    assert answer["closes"]  # the answer to a question is a closing point
    assert t.state.units["1.e1.1"].state["strength"] == 2
    with pytest.raises(UndoNeedsAgreement):  # side 0 saw the answer: side 1 may not answer again alone
        t.undo(1, seq=answer["seq"])
    t.undo(1, seq=answer["seq"], agreed=True)
    assert t.state.units["1.e1.1"].state["strength"] == 3
    assert t.awaiting().kind == "question"
    assert t.awaiting().sides == (1,)


def test_after_the_reveal_no_side_takes_its_order_back_alone():
    t = table()
    a = t.command(0, "order", {"unit": "0.e1.1", "target": "1.e1.1"})[0]
    b, revealed = t.command(1, "order", {"unit": "1.e1.1", "target": "0.e1.1"})
    assert revealed["type"] == "orders.revealed"
    assert revealed["closes"]
    for side, seq in ((1, b["seq"]), (0, a["seq"])):
        with pytest.raises(UndoNeedsAgreement):
            t.undo(side, seq=seq)
    assert t.state.game["revealed"]
    # Agreed: side 0's order is taken back, so the reveal no longer stands and side 0 orders again.
    t.undo(0, seq=a["seq"], agreed=True)
    assert t.awaiting().kind == "all"
    assert t.awaiting().sides == (0,)
    assert t.state.game["revealed"] is None
    assert t.replay_matches()


def test_an_event_of_an_older_rules_version_is_upcast():
    old = Event(5, "attack.resolved", {"attacker": "0.e1.1", "target": "1.e1.1", "take_cover": True, "hit": False})
    new = SYSTEM.battle.upcast(old, 1)
    assert new.payload["choice"] == "cover"
    assert "take_cover" not in new.payload
    assert SYSTEM.battle.upcast(old, 2) is old


def test_another_players_unit_cannot_be_ordered():
    t = table()
    with pytest.raises(NotYours):
        t.command(1, "order", {"unit": "0.e1.1", "target": "1.e1.1"})


# Through the runner, the API and the board (the battle: tests/conftest.py orders_battle) --------------------------
def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _post(c, battle, name, body, version):
    return c.post(
        f"/api/v1/battles/{battle.pk}/commands/{name}/",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_IF_MATCH=f'"v{version}"',
    )


def test_the_other_side_never_receives_a_secret_order_before_the_reveal(orders_battle):
    battle, alice, bob = orders_battle
    a, b = _client(alice), _client(bob)
    response = _post(a, battle, "order", {"unit": "0.e1.1", "target": "1.e1.1"}, 2)
    assert response.status_code == 201, response.content
    secret_seq = response.json()["events"][0]["seq"]
    for url in (
        f"/api/v1/battles/{battle.pk}/",
        f"/api/v1/battles/{battle.pk}/events?after=0",
        f"/battles/{battle.pk}/",
        f"/battles/{battle.pk}/board",
        f"/battles/{battle.pk}/log/",
    ):
        body = b.get(url).content.decode()
        assert "order.given" not in body, url
        assert "Secret order" not in body, url
    state = b.get(f"/api/v1/battles/{battle.pk}/").json()
    assert state["game"]["orders"] == {}
    assert state["awaiting"]["kind"] == "all"
    assert state["your_move"] is True
    # The giver sees their own order, in the feed and in the state.
    mine = a.get(f"/api/v1/battles/{battle.pk}/events?after=0").json()["events"]
    assert any(e["seq"] == secret_seq and e["type"] == "order.given" for e in mine)
    assert a.get(f"/api/v1/battles/{battle.pk}/").json()["game"]["orders"]["0"]["target"] == "1.e1.1"
    # Bob cannot even name the secret event to undo it.
    undo = b.post(
        f"/api/v1/battles/{battle.pk}/undo",
        data=json.dumps({"seq": secret_seq}),
        content_type="application/json",
        HTTP_IF_MATCH='"v3"',
    )
    assert undo.status_code == 400
    assert "no event" in undo.json()["detail"]
    assert _post(b, battle, "order", {"unit": "1.e1.1", "target": "0.e1.1"}, 3).status_code == 201
    events = b.get(f"/api/v1/battles/{battle.pk}/events?after=0").json()["events"]
    revealed = [e for e in events if e["type"] == "orders.revealed"]
    assert revealed
    assert revealed[0]["payload"]["orders"]["0"] == {"unit": "0.e1.1", "target": "1.e1.1"}
    ok, why = services.replay_matches(battle)
    assert ok, why


def test_a_write_out_of_turn_is_a_clear_409_and_changes_nothing(orders_battle):
    battle, alice, bob = orders_battle
    a = _client(alice)
    assert _post(a, battle, "order", {"unit": "0.e1.1", "target": "1.e1.1"}, 2).status_code == 201
    before = BattleEvent.objects.filter(battle=battle).count()
    again = _post(a, battle, "order", {"unit": "0.e1.1", "target": "1.e1.1"}, 3)
    assert again.status_code == 409
    assert again.json()["code"] == "conflict"
    assert "Waiting for the orders" in again.json()["detail"]
    early = _post(a, battle, "answer", {"choice": "cover"}, 3)
    assert early.status_code == 409
    assert BattleEvent.objects.filter(battle=battle).count() == before


def test_the_question_is_asked_on_the_target_owners_board_and_answered_there(orders_battle):
    battle, alice, bob = orders_battle
    a, b = _client(alice), _client(bob)
    _post(a, battle, "order", {"unit": "0.e1.1", "target": "1.e1.1"}, 2)
    _post(b, battle, "order", {"unit": "1.e1.1", "target": "0.e1.1"}, 3)
    board_b = b.get(f"/battles/{battle.pk}/board").content.decode()
    board_a = a.get(f"/battles/{battle.pk}/board").content.decode()
    assert "take cover or return fire" in board_b
    assert 'data-order-command="answer"' in board_b
    assert 'data-order-command="answer"' not in board_a
    refused = _post(a, battle, "answer", {"choice": "cover"}, 5)
    assert refused.status_code == 409
    answered = _post(b, battle, "answer", {"choice": "cover", "dice": [5]}, 5)
    assert answered.status_code == 201, answered.content
    assert answered.json()["events"][0]["dice"][0]["value"] == 5
    state = a.get(f"/api/v1/battles/{battle.pk}/").json()
    strength = {u["key"]: u["view"]["strength"] for u in state["units"]}
    assert strength["1.e1.1"] == 2
    assert state["awaiting"] == {**state["awaiting"], "kind": "question", "sides": [0]}
    ok, why = services.replay_matches(battle)
    assert ok, why
