"""A revealed secret or an answered question cannot be taken back by one side (DESIGN.md; battles/undo.py).

Through the runner and the API, on the real systems' battle parts and their example rosters:
- «Звездный Десант»: after the reveal, neither side changes its orders alone (the issue's four steps); by agreement
  (one proposes, the other confirms) the orders are taken back and given again;
- «5150»'s «ОБСТРЕЛЯН» and the squads' split of hits: neither the asker nor the answerer replays its choice after the
  other saw the answer;
- every undo that answers 201 changes the game, over every system's example script; one that would change nothing
  is 409;
- Idempotency keys belong to their sender.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client

from battles import services, undo
from battles.models import Battle, BattleEvent, BattleUnit
from rules.contract import NothingToUndo, UndoNeedsAgreement
from rules.errors import GameConflict, RuleInputError
from rules.registry import all_systems, get_system
from tests.test_contract_suite import example_rosters

ZD = "zvezdny-desant"


# Set-up ---------------------------------------------------------------------------------------------------------
def example_battle(slug: str, alice, bob, monkeypatch, rosters: list[dict] | None = None) -> Battle:
    """A battle of a system between Alice (side 0) and Bob (side 1), from the system's example rosters (or the
    roster dicts given): the rosters' snapshots are the dicts themselves."""
    from armies import selectors as army_selectors
    from armies.models import DataPack, Roster

    system = get_system(slug)
    pack = DataPack.objects.create(system=slug, slug=f"undo-{slug}", name="Example", published=True)
    examples = rosters or example_rosters(system)
    made = [
        Roster.objects.create(owner=owner, system=slug, pack=pack, name=name, faction=examples[i]["faction"])
        for i, (owner, name) in enumerate(((alice, "Alpha"), (bob, "Bravo")))
    ]
    snapshots = {r.pk: {"system": slug, **examples[i]} for i, r in enumerate(made)}
    monkeypatch.setattr(army_selectors, "roster_for_rules", lambda roster, **kw: snapshots[roster.pk])
    battle = services.battle_create(user=alice, name="Undo", rosters=made)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    battle.refresh_from_db()
    return battle


@pytest.fixture
def game(db, alice, bob, monkeypatch):
    def make(slug: str, rosters: list[dict] | None = None) -> Battle:
        return example_battle(slug, alice, bob, monkeypatch, rosters)

    return make


def players(alice, bob) -> dict:
    return {0: alice, 1: bob}


def script(battle) -> list:
    return services.battle_part(battle.system).example_script(services.load_state(battle))


def run(battle, user, name, inputs, dice=None):
    battle.refresh_from_db()
    return services.command_run(
        battle_id=battle.pk,
        user=user,
        name=name,
        inputs=dict(inputs),
        dice=dice,
        seed=7,
        expected_version=battle.version,
    )


def undo_as(user, battle, seq):
    battle.refresh_from_db()
    return undo.event_undo(battle_id=battle.pk, user=user, expected_version=battle.version, seq=seq)


def snapshot(battle) -> str:
    """The game and every unit's state as stored: what an undo must change."""
    battle.refresh_from_db()
    units = dict(BattleUnit.objects.filter(battle=battle).values_list("key", "state"))
    return json.dumps([battle.state, units], sort_keys=True)


def client(user, language="en") -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    c.force_login(user)
    return c


def post(c: Client, battle, path: str, body: dict, *, key: str | None = None):
    battle.refresh_from_db()
    headers = {"HTTP_IF_MATCH": battle.etag}
    if key:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return c.post(
        f"/api/v1/battles/{battle.pk}/{path}", data=json.dumps(body), content_type="application/json", **headers
    )


def awaiting(c: Client, battle) -> dict:
    return c.get(f"/api/v1/battles/{battle.pk}/").json()["awaiting"]


def awaited(battle):
    """Whom the game awaits now, as the battle part says (the battle read again first)."""
    battle.refresh_from_db()
    return services.battle_part(battle.system).awaiting(services.load_state(battle))


def battle_systems() -> list:
    return [pytest.param(s.slug, id=s.slug) for s in all_systems() if s.battle is not None]


# «Звездный Десант»: secret orders ----------------------------------------------------------------------------------
def zd_orders(battle) -> tuple[dict, dict]:
    """The example script's first turn of orders: side 0's and side 1's."""
    given = [inputs for side, name, inputs, _ in script(battle) if name == "give_orders"]
    return given[0], given[1]


def test_zd_after_the_reveal_neither_side_changes_its_orders_alone(game, alice, bob):
    battle = game(ZD)
    a, b = client(alice), client(bob)
    a_orders, b_orders = zd_orders(battle)
    assert post(a, battle, "commands/start_turn/", {"dice": [15, 4]}).status_code == 201
    # 1. Side A gives its orders.
    given_a = post(a, battle, "commands/give_orders/", a_orders)
    assert given_a.status_code == 201, given_a.content
    a_seq = given_a.json()["events"][0]["seq"]
    # 2. Side B gives its orders; the server reveals both.
    given_b = post(b, battle, "commands/give_orders/", b_orders)
    assert given_b.status_code == 201, given_b.content
    b_seq, reveal = given_b.json()["events"][0]["seq"], given_b.json()["events"][1]
    assert [e["type"] for e in given_b.json()["events"]] == ["orders_given", "orders_revealed"]
    assert reveal["payload"]["orders"][a_orders["orders"][0]["unit"]]["order"] == a_orders["orders"][0]["order"]
    assert awaiting(b, battle)["kind"] == "sides"  # the execution of orders
    before, version = snapshot(battle), battle.version
    # 3. Side B undoes its own orders: refused, with the reason, and nothing changes.
    refused = post(b, battle, "undo", {"seq": b_seq})
    assert refused.status_code == 409, refused.content
    assert refused.json()["code"] == "undo_needs_agreement"
    assert "agreement" in refused.json()["detail"]
    # ... and A's undo of its own orders after the reveal is refused as well (it answered 201 and changed nothing).
    refused = post(a, battle, "undo", {"seq": a_seq})
    assert refused.status_code == 409
    assert refused.json()["code"] == "undo_needs_agreement"
    assert snapshot(battle) == before
    battle.refresh_from_db()
    assert battle.version == version
    # 4. So B cannot give other orders now: the game still executes the revealed ones.
    assert post(b, battle, "commands/give_orders/", b_orders).status_code == 409
    assert snapshot(battle) == before


def test_zd_the_refusal_is_said_in_russian(game, alice, bob):
    battle = game(ZD)
    for side, name, inputs, dice in script(battle)[:3]:
        run(battle, players(alice, bob)[side], name, inputs, dice)
    head = BattleEvent.objects.filter(battle=battle, type="orders_given", side_index=1).get().seq
    refused = post(client(bob, "ru"), battle, "undo", {"seq": head})
    assert refused.status_code == 409
    assert "согласи" in refused.json()["detail"], refused.json()["detail"]


def test_zd_orders_are_taken_back_by_agreement_and_given_again(game, alice, bob):
    battle = game(ZD)
    a, b = client(alice), client(bob)
    a_orders, b_orders = zd_orders(battle)
    post(a, battle, "commands/start_turn/", {"dice": [15, 4]})
    post(a, battle, "commands/give_orders/", a_orders)
    b_seq = post(b, battle, "commands/give_orders/", b_orders).json()["events"][0]["seq"]
    # B proposes; A sees the proposal on the board and confirms it.
    proposed = post(b, battle, "undo/propose", {"seq": b_seq})
    assert proposed.status_code == 201, proposed.content
    proposal = proposed.json()["events"][0]
    assert proposal["type"] == "undo.proposed"
    assert proposal["payload"]["needs"] == [0]
    assert "hidden" in proposal["payload"]
    assert "undone_summary" not in proposal["payload"]
    board_a = a.get(f"/battles/{battle.pk}/board").content.decode()
    assert 'data-undo-path="undo/confirm"' in board_a
    assert 'data-undo-path="undo/decline"' in board_a
    board_b = b.get(f"/battles/{battle.pk}/board").content.decode()
    assert 'data-undo-path="undo/confirm"' not in board_b
    assert "Withdraw the proposal" in board_b
    assert post(b, battle, "undo/confirm", {"proposal": proposal["seq"]}).status_code == 409  # not its own
    before = snapshot(battle)
    confirmed = post(a, battle, "undo/confirm", {"proposal": proposal["seq"]})
    assert confirmed.status_code == 201, confirmed.content
    assert confirmed.json()["events"][0]["type"] == "undo"
    assert snapshot(battle) != before
    state = b.get(f"/api/v1/battles/{battle.pk}/").json()
    assert state["game"]["phase"] == "orders"
    assert state["awaiting"]["sides"] == [1]  # B only: A's orders stand
    assert state["game"]["orders"] == {}  # A's cards are face down again for B
    assert all(u["view"]["order"] is None for u in state["units"])
    # B gives other orders; the new reveal shows them with A's.
    other = {"orders": [{**card, "order": "defence"} for card in b_orders["orders"]]}
    again = post(b, battle, "commands/give_orders/", other)
    assert again.status_code == 201, again.content
    reveal = again.json()["events"][1]
    assert reveal["type"] == "orders_revealed"
    assert {c["unit"] for c in a_orders["orders"] + other["orders"]} == set(reveal["payload"]["orders"])
    assert all(reveal["payload"]["orders"][c["unit"]]["order"] == "defence" for c in other["orders"])
    ok, why = services.replay_matches(battle)
    assert ok, why


def test_zd_a_side_takes_back_its_own_orders_only_with_the_others_yes(game, alice, bob):
    """A's undo of its own orders after the reveal: declined, nothing changes; agreed, A orders again (B's stand)."""
    battle = game(ZD)
    a, b = client(alice), client(bob)
    a_orders, b_orders = zd_orders(battle)
    post(a, battle, "commands/start_turn/", {"dice": [15, 4]})
    a_seq = post(a, battle, "commands/give_orders/", a_orders).json()["events"][0]["seq"]
    post(b, battle, "commands/give_orders/", b_orders)
    before = snapshot(battle)
    proposal = post(a, battle, "undo/propose", {"seq": a_seq}).json()["events"][0]["seq"]
    declined = post(b, battle, "undo/decline", {"proposal": proposal})
    assert declined.status_code == 201
    assert declined.json()["events"][0]["type"] == "undo.declined"
    assert snapshot(battle) == before
    late = post(b, battle, "undo/confirm", {"proposal": proposal})
    assert late.status_code == 409  # a declined proposal is closed
    assert snapshot(battle) == before
    proposal = post(a, battle, "undo/propose", {"seq": a_seq}).json()["events"][0]["seq"]
    assert post(b, battle, "undo/confirm", {"proposal": proposal}).status_code == 201
    state = a.get(f"/api/v1/battles/{battle.pk}/").json()
    assert state["game"]["phase"] == "orders"
    assert state["awaiting"]["sides"] == [0]
    again = post(a, battle, "commands/give_orders/", a_orders)
    assert [e["type"] for e in again.json()["events"]] == ["orders_given", "orders_revealed"]
    assert set(again.json()["events"][1]["payload"]["orders"]) == {
        c["unit"] for c in a_orders["orders"] + b_orders["orders"]
    }


def test_zd_before_the_reveal_a_side_corrects_its_own_orders_alone(game, alice, bob):
    battle = game(ZD)
    a = client(alice)
    a_orders, _b_orders = zd_orders(battle)
    post(a, battle, "commands/start_turn/", {"dice": [15, 4]})
    seq = post(a, battle, "commands/give_orders/", a_orders).json()["events"][0]["seq"]
    undone = post(a, battle, "undo", {"seq": seq})
    assert undone.status_code == 201
    assert undone.json()["events"][0]["payload"].get("hidden") is None
    assert BattleEvent.objects.get(battle=battle, seq=undone.json()["version"]).visible_to == [0]  # as secret
    assert awaiting(a, battle)["sides"] == [0, 1]


# Questions: «5150»'s «ОБСТРЕЛЯН», the squads' split of hits ----------------------------------------------------------
def thw5150_rosters() -> list[dict]:
    """Police against a gang, from the official «5150» pack (as its own battle tests play them)."""
    pack = json.loads((Path(__file__).resolve().parents[2] / "rules/systems/thw5150/data/normals.json").read_text())
    profiles = {p["slug"]: p for p in pack["profiles"]}

    def entry(key, slug, count=1, **options):
        return {"key": key, "profile": profiles[slug], "count": count, "options": options}

    police = [entry("l", "police-u5", weapon="assault_rifle", armour="light", leader=True),
              entry("r", "police-u4", 2, weapon="rifle")]  # fmt: skip
    gang = [entry("b", "criminals-u4", weapon="machine_gun", leader=True),
            entry("p", "criminals-u3", 2, weapon="pistol")]  # fmt: skip
    return [{"faction": "police", "entries": police}, {"faction": "criminals", "entries": gang}]


# A question in each game: «5150»'s rifleman misses the gang's gunner (2 + 4 = 6), whose player takes «ОБСТРЕЛЯН»
# (1, 2, 6 against Rep 4: pass 2); the squads' example script: a volley, then the target's owner splits the hits.
QUESTIONS = {
    "5150": (
        thw5150_rosters,
        [
            (0, "activation", {}, [4, 2]),
            (0, "shoot", {"shooter": "0.r.1", "targets": [{"unit": "1.b.1", "dice": 1}]}, [2]),
            (1, "answer_reaction", {}, [1, 2, 6]),
        ],
    ),
    "squads": (lambda: None, None),
}


def question_battle(game, slug):
    rosters, steps = QUESTIONS[slug]
    battle = game(slug, rosters())
    return battle, steps if steps is not None else script(battle)


def play_to_first_answer(battle, steps, alice, bob) -> tuple[int, int, int]:
    """Plays the steps through their first answer to a question: (asking command's seq, the answer's seq, the
    answering side)."""
    asked_by = None
    for side, name, inputs, dice in steps:
        question = awaited(battle)
        result = run(battle, players(alice, bob)[side], name, inputs, dice)
        if question.kind == "question" and side in question.sides and name in question.commands:
            assert result.events[0].closes
            return asked_by, result.events[0].seq, side
        asked_by = result.events[0].seq
    raise AssertionError("the steps answer no question")


@pytest.mark.parametrize("slug", ["5150", "squads"])
def test_neither_side_replays_its_choice_after_the_other_saw_the_answer(slug, game, alice, bob):
    battle, steps = question_battle(game, slug)
    asked, answered, side = play_to_first_answer(battle, steps, alice, bob)
    clients = {0: client(alice), 1: client(bob)}
    answerer, asker = clients[side], clients[1 - side]
    before = snapshot(battle)
    for c, seq in ((answerer, answered), (asker, asked), (answerer, asked), (asker, answered)):
        refused = post(c, battle, "undo", {"seq": seq})
        assert refused.status_code == 409, (seq, refused.content)
        # The asking command: refused too, as needing agreement or as what the answer depends on («5150»).
        codes = ("undo_needs_agreement",) if seq == answered else ("undo_needs_agreement", "conflict")
        assert refused.json()["code"] in codes, refused.json()
    assert snapshot(battle) == before
    # Agreed: the answer is taken back and the same side is asked again.
    proposal = post(answerer, battle, "undo/propose", {"seq": answered}).json()["events"][0]["seq"]
    assert post(asker, battle, "undo/confirm", {"proposal": proposal}).status_code == 201
    again = awaited(battle)
    assert again.kind == "question"
    assert again.sides == (side,)
    assert snapshot(battle) != before


def agree(battle, proposer, confirmer, seq):
    battle.refresh_from_db()
    proposal = undo.undo_propose(battle_id=battle.pk, user=proposer, expected_version=battle.version, seq=seq)
    battle.refresh_from_db()
    return undo.undo_confirm(
        battle_id=battle.pk, user=confirmer, expected_version=battle.version, proposal=proposal.events[0].seq
    )


@pytest.mark.parametrize("slug", ["5150", "squads"])
def test_the_asker_takes_back_its_command_only_by_agreement(slug, game, alice, bob):
    """Once the answer is taken back (agreed), the question is open again: the asker still needs the answerer's
    agreement to take back the command that asked it (the answer was seen), and then the question is gone."""
    battle, steps = question_battle(game, slug)
    asked, answered, side = play_to_first_answer(battle, steps, alice, bob)
    who = players(alice, bob)
    agree(battle, who[side], who[1 - side], answered)
    assert awaited(battle).kind == "question"
    with pytest.raises(UndoNeedsAgreement):
        undo_as(who[1 - side], battle, asked)
    agree(battle, who[1 - side], who[side], asked)
    assert awaited(battle).kind != "question"
    ok, why = services.replay_matches(battle)
    assert ok, why


# Every 201 changes the game ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", battle_systems())
def test_every_undo_that_answers_201_changes_the_game(slug, game, alice, bob):
    """Over the system's example script: after each command its player undoes it: recorded only when the game
    changes (back to before the command), 409 when it would not, or 409 past a closing point, then proposed and
    confirmed. The redo brings the command back. Then every command of the log is undone by each side: each
    undo recorded changes the game, each refusal changes nothing."""
    battle = game(slug)
    who = players(alice, bob)
    for side, name, inputs, dice in script(battle):
        before = snapshot(battle)
        head = run(battle, who[side], name, inputs, dice).events[0].seq
        after = snapshot(battle)
        try:
            undo_as(who[side], battle, head)
        except NothingToUndo:
            assert after == before, f"{name}: the undo would have changed the game"
            continue
        except UndoNeedsAgreement:
            assert snapshot(battle) == after
            battle.refresh_from_db()
            proposal = undo.undo_propose(battle_id=battle.pk, user=who[side], expected_version=battle.version, seq=head)
            assert snapshot(battle) == after  # a proposal changes nothing yet
            battle.refresh_from_db()
            undo.undo_confirm(
                battle_id=battle.pk,
                user=who[1 - side],
                expected_version=battle.version,
                proposal=proposal.events[0].seq,
            )
            assert snapshot(battle) == before, f"agreed undo of {name}"
            battle.refresh_from_db()
            with pytest.raises(UndoNeedsAgreement):  # what both agreed to, one side does not redo alone
                undo_as(who[side], battle, battle.version)
            agree(battle, who[side], who[1 - side], battle.version)
            assert snapshot(battle) == after, f"agreed redo of {name}"
            continue
        assert snapshot(battle) == before, f"undo of {name}"
        battle.refresh_from_db()
        undo_as(who[side], battle, battle.version)  # the redo
        assert snapshot(battle) == after, f"redo of {name}"
    heads = BattleEvent.objects.filter(battle=battle, cause=None).exclude(type__in=services.RUNNER_EVENTS)
    for seq in sorted(heads.values_list("seq", flat=True)):
        for side in (0, 1):
            before = snapshot(battle)
            try:
                undo_as(who[side], battle, seq)
            except (GameConflict, RuleInputError):
                assert snapshot(battle) == before
                continue
            assert snapshot(battle) != before, f"#{seq} undone by side {side} changed nothing"
            battle.refresh_from_db()
            undo_as(who[side], battle, battle.version)
            assert snapshot(battle) == before
    ok, why = services.replay_matches(battle)
    assert ok, why


def test_an_undo_that_would_change_nothing_is_409_with_a_reason(battle, alice):
    """A set overwritten by a later set no longer counts: undoing it would change nothing, so it is refused (it
    answered 201 and changed nothing)."""
    c = client(alice)
    first = post(c, battle, "commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo": 5}})
    assert post(c, battle, "commands/adjust/", {"unit": "0.e2.1", "changes": {"ammo": 4}}).status_code == 201
    before, version = snapshot(battle), battle.version
    refused = post(c, battle, "undo", {"seq": first.json()["events"][0]["seq"]})
    assert refused.status_code == 409
    assert refused.json()["code"] == "undo_changes_nothing"
    assert "change nothing" in refused.json()["detail"]
    russian = post(client(alice, "ru"), battle, "undo", {"seq": first.json()["events"][0]["seq"]})
    assert "ничего не изменит" in russian.json()["detail"], russian.json()["detail"]
    battle.refresh_from_db()
    assert (snapshot(battle), battle.version) == (before, version)
    # Undoing the later set changes the ammo back to the earlier one: recorded.
    assert post(c, battle, "undo", {"seq": version}).status_code == 201
    assert BattleUnit.objects.get(battle=battle, key="0.e2.1").state["ammo"] == 5


# The proposal's life --------------------------------------------------------------------------------------------------
def test_a_proposal_lapses_when_the_battle_goes_on_and_its_steps_are_not_undone(game, alice, bob):
    battle = game(ZD)
    clients = {0: client(alice), 1: client(bob)}
    steps = script(battle)
    for side, name, inputs, dice in steps[:3]:  # the First Player roll, both sides' orders and the reveal
        assert post(clients[side], battle, f"commands/{name}/", {**inputs, "dice": dice}).status_code == 201
    b_seq = BattleEvent.objects.get(battle=battle, type="orders_given", side_index=1).seq
    proposal = post(clients[1], battle, "undo/propose", {"seq": b_seq}).json()["events"][0]["seq"]
    assert post(clients[1], battle, "undo", {"seq": proposal}).status_code == 400  # a step, not a command
    assert post(clients[0], battle, "undo/decline", {"proposal": 999}).status_code == 400
    # The battle goes on instead (the next unit acts): the proposal lapses; a late confirmation says why.
    side, name, inputs, dice = steps[3]
    assert post(clients[side], battle, f"commands/{name}/", {**inputs, "dice": dice}).status_code == 201
    late = post(clients[0], battle, "undo/confirm", {"proposal": proposal})
    assert late.status_code == 409
    assert "no longer open" in late.json()["detail"]
    assert 'data-undo-path="undo/confirm"' not in clients[0].get(f"/battles/{battle.pk}/board").content.decode()


def test_only_a_player_asked_confirms_and_spectators_cannot(game, alice, bob):
    battle = game(ZD)
    a, b = client(alice), client(bob)
    a_orders, b_orders = zd_orders(battle)
    post(a, battle, "commands/start_turn/", {"dice": [15, 4]})
    post(a, battle, "commands/give_orders/", a_orders)
    b_seq = post(b, battle, "commands/give_orders/", b_orders).json()["events"][0]["seq"]
    proposal = post(b, battle, "undo/propose", {"seq": b_seq}).json()["events"][0]["seq"]
    watcher = Client()
    watcher.get(f"/battles/watch/{battle.spectator_token}/")
    assert post(watcher, battle, "undo/confirm", {"proposal": proposal}).status_code == 403
    board = watcher.get(f"/battles/{battle.pk}/board").content.decode()
    assert "undo-proposal" in board
    assert "data-undo-path" not in board
    # The log shows «Propose undo» where one player alone may not undo, «Undo» where he may.
    board_a = a.get(f"/battles/{battle.pk}/board").content.decode()
    assert f'data-undo="{b_seq}" data-undo-path="undo/propose"' not in board_a  # B's secret head: not A's to see
    assert 'data-undo-path="undo/propose"' in board_a  # A's own orders, before the reveal


def test_proposing_what_needs_nobody_is_refused(game, alice, bob):
    battle = game(ZD)
    a = client(alice)
    a_orders, _ = zd_orders(battle)
    post(a, battle, "commands/start_turn/", {"dice": [15, 4]})
    seq = post(a, battle, "commands/give_orders/", a_orders).json()["events"][0]["seq"]
    refused = post(a, battle, "undo/propose", {"seq": seq})
    assert refused.status_code == 409
    assert "nobody" in refused.json()["detail"]


# Idempotency keys belong to their sender -----------------------------------------------------------------------------
def test_a_key_another_player_used_is_a_new_request_for_you(game, alice, bob):
    battle = game(ZD)
    a, b = client(alice), client(bob)
    first = post(a, battle, "commands/start_turn/", {"dice": [15, 4]}, key="k-1")
    assert first.status_code == 201
    a_orders, b_orders = zd_orders(battle)
    # Bob sends Alice's key with his own request: recorded as his, nothing about her key is told.
    mine = post(b, battle, "commands/give_orders/", b_orders, key="k-1")
    assert mine.status_code == 201, mine.content
    assert mine.get("Idempotent-Replayed") is None
    assert mine.json()["events"][0]["type"] == "orders_given"
    # Each player's retry is answered with his own first answer.
    retry_a = post(a, battle, "commands/start_turn/", {"dice": [15, 4]}, key="k-1")
    assert retry_a.status_code == 201
    assert retry_a["Idempotent-Replayed"] == "true"
    assert retry_a.json()["events"][0]["seq"] == first.json()["events"][0]["seq"]
    retry_b = post(b, battle, "commands/give_orders/", b_orders, key="k-1")
    assert retry_b["Idempotent-Replayed"] == "true"
    assert retry_b.json()["events"][0]["seq"] == mine.json()["events"][0]["seq"]
    # The same key for another request of the same sender is still refused, in the sender's language.
    reused = post(client(bob, "ru"), battle, "commands/give_orders/", a_orders, key="k-1")
    assert reused.status_code == 422
    assert "ключ" in reused.json()["detail"].lower()
    assert BattleEvent.objects.filter(battle=battle, idempotency_key="k-1").count() == 2


# Three players: every other player who saw the reveal agrees -------------------------------------------------------
@pytest.fixture
def three_players(db, alice, bob, monkeypatch):
    """The contract's test system (secret orders, then a reveal) with three players."""
    from armies import selectors as army_selectors
    from armies.models import DataPack, Roster
    from battles.tests.conftest import make_user
    from rules import registry
    from tests.contract_system.system import SYSTEM
    from tests.test_contract_suite import TEST_PROFILES

    registry.register(SYSTEM)
    carol = make_user("carol")
    pack = DataPack.objects.create(system=SYSTEM.slug, slug="undo-three", name="Three", published=True)
    roster = {"faction": "f", "entries": [{"key": "e1", "count": 1, "options": {}, "profile": TEST_PROFILES[0]}]}
    made = [
        Roster.objects.create(owner=user, system=SYSTEM.slug, pack=pack, name=name, faction="f")
        for user, name in ((alice, "Alpha"), (bob, "Bravo"), (carol, "Charlie"))
    ]
    monkeypatch.setattr(army_selectors, "roster_for_rules", lambda r, **kw: {"system": SYSTEM.slug, **roster})
    battle = services.battle_create(user=alice, name="Three", rosters=made)
    for index, user in ((1, bob), (2, carol)):
        services.battle_join(token=battle.sides.get(index=index).invite_token, user=user)
    battle.refresh_from_db()
    yield battle, (alice, bob, carol)
    ok, why = services.replay_matches(battle)  # here: the autouse check runs once the system is gone
    assert ok, why
    battle.delete()
    registry.unregister(SYSTEM.slug)


def test_with_three_players_the_undo_waits_for_both_others(three_players):
    battle, (alice, bob, carol) = three_players
    targets = {0: "1.e1.1", 1: "2.e1.1", 2: "0.e1.1"}
    first = run(battle, alice, "order", {"unit": "0.e1.1", "target": targets[0]}).events[0].seq
    run(battle, bob, "order", {"unit": "1.e1.1", "target": targets[1]})
    revealed = run(battle, carol, "order", {"unit": "2.e1.1", "target": targets[2]}).events[1]
    assert revealed.type == "orders.revealed"
    assert revealed.closes
    battle.refresh_from_db()
    proposal = undo.undo_propose(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=first)
    assert proposal.events[0].payload["needs"] == [1, 2]
    before = snapshot(battle)
    battle.refresh_from_db()
    agreed = undo.undo_confirm(
        battle_id=battle.pk, user=bob, expected_version=battle.version, proposal=proposal.events[0].seq
    )
    assert agreed.events[0].type == "undo.agreed"
    assert snapshot(battle) == before  # Charlie has not agreed yet
    battle.refresh_from_db()
    with pytest.raises(GameConflict):  # Bravo's agreement is given already
        undo.undo_confirm(
            battle_id=battle.pk, user=bob, expected_version=battle.version, proposal=proposal.events[0].seq
        )
    done = undo.undo_confirm(
        battle_id=battle.pk, user=carol, expected_version=battle.version, proposal=proposal.events[0].seq
    )
    assert done.events[0].type == "undo"
    assert snapshot(battle) != before
    assert awaited(battle).sides == (0,)  # Alpha orders again
