"""The odds and the rule at the moment of the roll (issue #31) in «Звездный Десант»: each rolling form of the board
(a shot, the First Player roll, a close combat and the answer to the other side's strikes) shows the exact odds of
the action it rolls, built from the live state; they equal the odds API's for the same inputs exactly; a refused or
missing input shows why, never odds; targets are ranked by the chance to destroy them; the other side's secret
orders are never read; every form and status links to its rule in the book's words."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from django.test import Client
from django.utils import translation

from armies.services.packs import load_packs
from battles import services
from battles.models import BattleUnit
from battles.tests.conftest import PASSWORD, make_user
from rules.contract import GameState, RuleInputError
from rules.contract.testing import Table
from rules.systems.zvezdny_desant.battle.at_roll import AT_ROLL
from rules.systems.zvezdny_desant.system import SYSTEM
from rules.systems.zvezdny_desant.tests.test_battle import ROSTERS, keys, orders
from rules.systems.zvezdny_desant.tests.test_two_phones_browser import PACK_FILE, roster

SLUG = "zvezdny-desant"


def played(script):
    """A battle of the two example rosters (Alice: forcers, side 0; Bob: humans, side 1) played through the runner
    with this script of (side, command, inputs, dice); (battle, Alice's client, Bob's client)."""
    ((pack, _created),) = load_packs(paths=[PACK_FILE])
    alice, bob = make_user("alice"), make_user("bob")
    red, blue = roster(alice, pack, "forcers", "Форсеры"), roster(bob, pack, "humans", "Люди")
    battle = services.battle_create(user=alice, name="Стычка", rosters=[red, blue])
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    users = {0: alice, 1: bob}
    for side, name, inputs, dice in script:
        battle.refresh_from_db()
        services.command_run(battle_id=battle.pk, user=users[side], name=name, inputs=inputs, dice=dice, seed=3,
                             expected_version=battle.version)  # fmt: skip
    battle.refresh_from_db()
    return battle, client(alice), client(bob)


A_ORDERS = (0, "give_orders", orders(("s0-e1", "defence", 7), ("s0-e2", "move", 3)), None)


@pytest.fixture
def battle_at_the_shot(db):
    """Turn 1: A is First Player, orders revealed (A: squad 1 «Оборона» 7, squad 2 «Движение» 3; B: squad 1
    «Атака» 6, squad 2 «Оборона» 4), and B's squad 1 carries a wound marker by hand. A's squad 1 acts now."""
    return played([
        (0, "start_turn", {}, [15, 4]),
        A_ORDERS,
        (1, "give_orders", orders(("s1-e1", "attack", 6), ("s1-e2", "defence", 4)), None),
        (1, "wounds", {"unit": "s1-e1", "step": 1}, None),
    ])  # fmt: skip


def client(user) -> Client:
    c = Client()
    assert c.login(username=user.username, password=PASSWORD)
    return c


def board_odds(c: Client, battle, command: str, body: dict):
    return c.post(f"/api/v1/battles/{battle.pk}/commands/{command}/odds", data=json.dumps(body),
                  content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip


def api_odds(c: Client, action: str, inputs: dict, settings: dict | None = None) -> dict:
    answer = c.post(f"/api/v1/systems/{SLUG}/actions/{action}/odds/", data=json.dumps({"inputs": inputs,
                    "settings": settings or {}}), content_type="application/json")  # fmt: skip
    assert answer.status_code == 200, answer.content
    return answer.json()["odds"]


def shot_by_hand(battle, shooter: str, target: str, cover: str = "open", **seen) -> dict:
    """The shooting action's inputs for this shot written out from the stored units (not through the board's
    mapping): the shooter's living figures with their weapon, the target's figures, markers, order and card."""
    units = {u.key: u for u in BattleUnit.objects.filter(battle=battle)}
    a, b = units[shooter], units[target]
    weapon = a.profile["groups"][0]
    return {
        "shooter": {"order": a.state["order"], "initiative": a.state["initiative"], "groups": [
            {"count": a.state["figures"], "weapon": {"name": weapon["name"], "dln": weapon["dln"],
                                                     "skr": weapon["skr"], "msch": weapon["msch"],
                                                     "hrk": "".join(f"{k}{v}" for k, v in weapon["hrk"].items())}}]},
        "target": {"order": b.state["order"], "initiative": b.state["initiative"], "armour": b.profile["kbr"],
                   "stk": b.profile["stk"], "markers": b.state["markers"],
                   "groups": [{"count": b.state["figures"], "cover": cover, **seen}]},
        "modifier": 0,
    }  # fmt: skip


def test_the_shot_shows_the_odds_api_exactly_for_the_live_state(battle_at_the_shot):
    battle, a, _b = battle_at_the_shot
    form = {"unit": "s0-e1", "do": "shoot", "target": "s1-e1", "cover": "light", "distance": 20}
    answer = board_odds(a, battle, "act", form)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["action"] == "shooting"
    inputs = shot_by_hand(battle, "s0-e1", "s1-e1", cover="light", distance=20)
    assert inputs["target"]["markers"] == 1
    assert inputs["target"]["order"] == "attack"
    assert body["odds"] == api_odds(a, "shooting", inputs)
    # «Оборона» shooter +0, target on «Атака» −2, light cover +2: 8+ (L444–452, L490)
    assert body["odds"]["need"] == 8
    assert body["headline"]["key"] == "p_any_removed"
    assert body["headline"]["exact"] == body["odds"]["p_any_removed"]["exact"]
    assert Fraction(body["odds"]["p_any_removed"]["exact"]) == 1 - Fraction(body["odds"]["removed"][0]["exact"])
    assert body["place"] == ["wounds", "wounds"]
    dist = {d["value"]: d["p"] for d in body["odds"]["wounds"]}
    assert len(dist) > 2  # drawn as bars
    # Another target, other odds: B's squad 2 is on «Оборона» (+2 to hit) and carries no marker.
    other = board_odds(a, battle, "act", {**form, "target": "s1-e2"}).json()
    assert other["odds"] == api_odds(a, "shooting", shot_by_hand(battle, "s0-e1", "s1-e2", cover="light", distance=20))
    assert other["odds"]["need"] == 12
    assert other["odds"]["p_hit"] != body["odds"]["p_hit"]


def test_targets_are_ranked_by_the_chance_to_destroy_them(battle_at_the_shot):
    battle, a, _b = battle_at_the_shot
    form = {"unit": "s0-e1", "do": "shoot", "target": "s1-e2", "cover": "open"}
    answer = board_odds(a, battle, "act", {**form, "compare": {"field": "target", "values": ["s1-e2", "s1-e1",
                                                                                             "s0-e2"]}})  # fmt: skip
    assert answer.status_code == 200, answer.content
    rows = answer.json()["ranking"]
    assert [r["value"] for r in rows] == ["s1-e1", "s1-e2", "s0-e2"]  # the weaker, marked, easier target first
    for row in rows[:2]:
        expected = api_odds(a, "shooting", shot_by_hand(battle, "s0-e1", row["value"]))["p_any_removed"]
        assert row["exact"] == expected["exact"]
        assert row["p"] == expected["p"]
    assert rows[0]["p"] > rows[1]["p"]
    assert rows[2]["p"] is None
    assert "own side" in rows[2]["why"]  # the command refuses a unit of one's own side: no odds for it


@pytest.mark.parametrize(
    ("side", "command", "form", "field"),
    [
        (0, "act", {"unit": "s0-e1", "do": "stay"}, "do"),  # rolls no dice
        (0, "act", {"unit": "s0-e1", "do": "assault", "target": "s1-e1"}, "move"),  # «Оборона» cannot assault
        (0, "act", {"unit": "s0-e1", "do": "shoot"}, "target"),  # no target yet
        (0, "act", {"unit": "s0-e1", "do": "shoot", "target": "s1-e1", "hidden": 5}, "shoot.hidden"),  # none in sight
        (0, "act", {"unit": "s0-e2", "do": "shoot", "target": "s1-e1"}, "unit"),  # initiative 3 does not act yet
        (0, "act", {"unit": "s0-e1", "do": "shoot", "target": "s1-e1", "cover": "bunker"}, "cover"),  # the schema
        (1, "act", {"unit": "s1-e1", "do": "shoot", "target": "s0-e1"}, "command"),  # not B's turn
        (0, "start_turn", {}, "command"),  # not the start of a turn
        (0, "fight", {"melee": 1}, "command"),
    ],
)
def test_a_form_the_command_would_refuse_shows_why_and_no_odds(battle_at_the_shot, side, command, form, field):
    battle, a, b = battle_at_the_shot
    answer = board_odds((a, b)[side], battle, command, form)
    assert answer.status_code == 400, answer.content
    assert "odds" not in answer.json()
    assert field in answer.json()["errors"], answer.json()
    board = board_odds((a, b)[side], battle, "give_orders", {})
    assert board.status_code == 400  # orders roll no dice: no odds


def test_the_other_sides_secret_orders_are_never_read(db, monkeypatch):
    """A has given its orders in secret; B's phone asks for odds: the state the at-roll part is handed holds no
    trace of A's cards, and neither does the answer."""
    battle, _a, b = played([(0, "start_turn", {}, [15, 4]), A_ORDERS])
    assert battle.state["orders"]["0"]["s0-e1"] == {"order": "defence", "initiative": 7}
    seen: list[GameState] = []
    real = AT_ROLL.roll_odds

    def spy(state, command, inputs, sides):
        seen.append(copy.deepcopy(state))
        return real(state, command, inputs, sides)

    monkeypatch.setattr(AT_ROLL, "roll_odds", spy)
    answer = board_odds(b, battle, "act", {"unit": "s1-e1", "do": "shoot", "target": "s0-e1"})
    assert answer.status_code == 400  # orders are given now: nobody acts
    assert seen
    assert seen[0].game["orders"] == {}
    assert all(u.state["order"] is None for u in seen[0].units.values())
    text = answer.content.decode()
    assert "defence" not in text
    assert "Оборона" not in text


def test_the_first_player_roll_shows_the_roll_off_odds(db):
    t = Table(SYSTEM, rosters=copy.deepcopy(ROSTERS))
    found = AT_ROLL.roll_odds(t.state, "start_turn", {}, frozenset({0}))
    assert found.action == "first_player"
    names = found.inputs["players"]
    assert len(set(names)) == 2
    assert found.inputs["previous"] is None
    odds = SYSTEM.action("first_player").odds(found.inputs, SYSTEM.default_settings())
    assert odds["p_first"][names[0]]["exact"] == "1/2"
    # Turn 2 under «keep_previous»: a tie keeps last turn's First Player, who is now ahead.
    t = Table(SYSTEM, rosters=copy.deepcopy(ROSTERS), settings={"rolloff_ties": "keep_previous"})
    t.command(0, "start_turn", {}, dice=[4, 15])  # side 1 is First Player
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    t.command(0, "give_orders", orders((a1, "defence", 0), (a2, "defence", 10)))
    t.command(1, "give_orders", orders((b1, "defence", 0), (b2, "defence", 10)))
    t.command(1, "act", {"unit": b2})
    t.command(0, "act", {"unit": a2})
    t.command(0, "end_turn", {})
    found = AT_ROLL.roll_odds(t.state, "start_turn", {}, frozenset({0}))
    assert found.inputs["previous"] == 1
    odds = SYSTEM.action("first_player").odds(found.inputs, t.state.system_settings)
    assert Fraction(odds["p_first"][found.inputs["players"][1]]["exact"]) == Fraction(21, 40)


def melee_table():
    """A's squad 2 («Движение») assaults B's squad 2: one melee, A strikes first on its phone."""
    t = Table(SYSTEM, rosters=copy.deepcopy(ROSTERS))
    t.command(0, "start_turn", {}, dice=[15, 4])
    a1, a2 = keys(t, 0)
    b1, b2 = keys(t, 1)
    t.command(0, "give_orders", orders((a1, "defence", 0), (a2, "move", 10)))
    t.command(1, "give_orders", orders((b1, "defence", 0), (b2, "defence", 10)))
    t.command(0, "act", {"unit": a2, "assault": {"target": b2}})  # B's squad 2 is in melee now: it acts no more
    return t, a2, b2


def test_close_combat_shows_the_melee_odds_then_the_answer_knows_the_strikes_rolled():
    t, a2, b2 = melee_table()
    fight = AT_ROLL.roll_odds(t.state, "fight", {"melee": "1"}, frozenset({0}))
    assert fight.action == "melee"
    units = {u["unit"]: u for u in fight.inputs["units"]}
    forcers, humans = t.state.units[a2].name, t.state.units[b2].name
    assert units[forcers]["strikes_per_figure"] == 2
    assert units[forcers]["figures"] == 5
    before = SYSTEM.action("melee").odds(fight.inputs, SYSTEM.default_settings())
    # A strikes: 10 dice (5 forcers × 2), 7 of them ≥ the humans' БСП 7 + 0 (equal numbers: no plus).
    rolled = [20, 19, 18, 17, 16, 15, 7, 2, 1, 1]
    t.command(0, "fight", {"melee": 1}, dice=rolled)
    with pytest.raises(RuleInputError):  # A has struck: only B answers now
        AT_ROLL.roll_odds(t.state, "strike", {}, frozenset({0}))
    answer = AT_ROLL.roll_odds(t.state, "strike", {}, frozenset({1}))
    units = {u["unit"]: u for u in answer.inputs["units"]}
    assert units[forcers]["rolled"] == rolled
    assert "rolled" not in units[humans]
    after = SYSTEM.action("melee").odds(answer.inputs, SYSTEM.default_settings())
    # The humans' fate is decided: 7 wounds, СТК 2 → 3 figures removed, 1 marker left (L544).
    assert after["units"][humans]["removed_and_markers"] == [
        {"value": {"removed": 3, "markers": 1}, "exact": "1/1", "p": 1.0}
    ]
    assert after["units"][forcers] == before["units"][forcers]  # B's own dice are still to fall
    assert after["units"][humans] != before["units"][humans]


def test_the_known_strikes_average_back_to_the_melee_before_them():
    """Exactness of `rolled`: averaged over every D20 the first side may have rolled, the odds given the roll are
    the odds before it."""
    units = [{"unit": "a", "side": 0, "figures": 2, "bsp": 9, "stk": 2, "markers": 1, "strikes_per_figure": 1},
             {"unit": "b", "side": 1, "figures": 1, "bsp": 12, "stk": 2, "markers": 1}]  # fmt: skip
    melee = SYSTEM.action("melee")
    settings = SYSTEM.default_settings()
    before = melee.odds({"units": units}, settings)
    total: dict = {}
    for r1 in range(1, 21):
        for r2 in range(1, 21):
            given = [{**units[0], "rolled": [r1, r2]}, units[1]]
            odds = melee.odds({"units": given}, settings)
            for key in ("a", "b"):
                for d in odds["units"][key]["removed_and_markers"]:
                    k = (key, json.dumps(d["value"], sort_keys=True))
                    total[k] = total.get(k, Fraction(0)) + Fraction(d["exact"]) / 400
            total["win0"] = total.get("win0", Fraction(0)) + Fraction(odds["p_side_wins"][0]["exact"]) / 400
    for key in ("a", "b"):
        for d in before["units"][key]["removed_and_markers"]:
            assert total[(key, json.dumps(d["value"], sort_keys=True))] == Fraction(d["exact"])
    assert total["win0"] == Fraction(before["p_side_wins"][0]["exact"])
    with pytest.raises(RuleInputError) as refused:
        melee.odds({"units": [{**units[0], "rolled": [3]}, units[1]]}, settings)
    assert "units.0.rolled" in refused.value.errors


def test_the_shot_outcome_gives_the_number_the_board_places(battle_at_the_shot):
    battle, a, _b = battle_at_the_shot
    odds = board_odds(a, battle, "act", {"unit": "s0-e1", "do": "shoot", "target": "s1-e1"}).json()
    answer = a.post(f"/api/v1/battles/{battle.pk}/commands/act/", data=json.dumps({
        "unit": "s0-e1", "do": "shoot", "target": "s1-e1", "dice": [20, 20, 20, 3, 2, 15, 14, 2],
        "version": battle.version}), content_type="application/json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    result = answer.json()["outcome"]["result"]
    assert result["wounds"] == 2
    assert result["hits"] == 3
    below = sum(Fraction(d["exact"]) for d in odds["odds"]["wounds"] if d["value"] <= result["wounds"])
    assert 0 < below < 1


def test_every_form_and_status_links_to_its_rule_in_the_books_words(battle_at_the_shot):
    battle, a, _b = battle_at_the_shot
    board = a.get(f"/battles/{battle.pk}/board", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    for key in ("act", "order_defence", "order_attack", "markers"):
        assert f'href="rules/{key}/"' in board, key
    assert 'data-odds="target"' in board
    for key, rule in SYSTEM.at_roll.rules.items():
        page = a.get(f"/battles/{battle.pk}/rules/{key}/", HTTP_ACCEPT_LANGUAGE="ru")
        assert page.status_code == 200, key
        html = page.content.decode()
        with translation.override("ru"):
            assert translation.gettext(rule.text) in html
            assert translation.gettext(rule.text) != rule.text  # the Russian, not the msgid
        assert rule.source in html
        assert ('data-testid="house-rule"' in html) == bool(rule.setting), key
    shooting = a.get(f"/battles/{battle.pk}/rules/act/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Тест на Попадание" in shooting
    assert "«8+»" in shooting
    english = a.get(f"/battles/{battle.pk}/rules/act/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "the hit test, passed on 8+" in english
