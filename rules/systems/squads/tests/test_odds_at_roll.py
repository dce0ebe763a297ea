"""The odds and the rule at the moment of the roll on the «Отряды» board (battle/at_roll.py, battle/rules.py): each
form that rolls shows exactly the odds the odds API gives for the same units, written out by hand here (the
initiative, the activation chain from the chosen unit on, aimed fire at a squad in cover and at a vehicle, the
assault on a squad with a suppressed figure, On Guard fire, a melee round, a withdrawal); a missing or refused
input shows no odds and says why in the reader's language; targets and units are ranked by the headline chance;
every form and status chip links to its rule, whose page quotes the book and names the battle's setting."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from django.test import Client

from armies.models import Roster, RosterEntry, UnitProfile
from armies.services.packs import load_packs
from battles import services
from battles.models import Battle
from battles.tests.conftest import make_user
from rules.contract import RuleInputError
from rules.systems.squads.battle.rules import RULES
from rules.systems.squads.settings import SETTINGS
from rules.systems.squads.system import SYSTEM
from rules.systems.squads.tests.test_battle import _board, squad, table, vehicle

RED = [("squad-regular", "none", [{"weapon": "rifle", "count": 3}, {"weapon": "rpg", "count": 1}]),
       ("squad-veteran", "light", [{"weapon": "rifle", "count": 4}])]  # fmt: skip
BLUE = [("squad-regular", "medium", [{"weapon": "rifle", "count": 4}])]


def roster(owner, pack, name: str, squads, vehicles=()) -> Roster:
    made = Roster.objects.create(owner=owner, system="squads", pack=pack, name=name, faction="any")
    for i, (slug, armour, figures) in enumerate(squads):
        RosterEntry.objects.create(roster=made, key=f"e{i + 1}", profile=UnitProfile.objects.get(pack=pack, slug=slug),
                                   count=1, options={"armour": armour, "figures": figures, "leader": None},
                                   position=i)  # fmt: skip
    for j, weapons in enumerate(vehicles, start=len(squads)):
        RosterEntry.objects.create(roster=made, key=f"e{j + 1}", position=j, count=1,
                                   profile=UnitProfile.objects.get(pack=pack, slug="vehicle-light"),
                                   options={"crew_level": "regular", "passengers": [],
                                            "weapons": [{"weapon": w, "count": 1} for w in weapons]})  # fmt: skip
    return made


@pytest.fixture
def battle(db):
    pack = next(p for p, _created in load_packs() if p.slug == "squads-core")
    alice, bob = make_user("alice"), make_user("bob")
    red, blue = roster(alice, pack, "Red", RED), roster(bob, pack, "Blue", BLUE, vehicles=[("hmg",)])
    made = services.battle_create(user=alice, name="Стычка", rosters=[red, blue])
    services.battle_join(token=made.sides.get(index=1).invite_token, user=bob)
    made.refresh_from_db()
    a, b = Client(), Client()
    a.force_login(alice)
    b.force_login(bob)
    return made, a, b


def send(client, battle, name: str, inputs: dict, dice: list[int] | None = None):
    version = Battle.objects.get(pk=battle.pk).version
    body = {**inputs, **({"dice": dice} if dice else {})}
    answer = client.post(f"/api/v1/battles/{battle.pk}/commands/{name}/", data=json.dumps(body),
                         content_type="application/json", HTTP_IF_MATCH=f'"v{version}"')  # fmt: skip
    assert answer.status_code == 201, answer.content
    return answer.json()


def form_odds(client, battle, name: str, body: dict, language: str = "en"):
    return client.post(f"/api/v1/battles/{battle.pk}/commands/{name}/odds", data=json.dumps(body),
                       content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)  # fmt: skip


def api_odds(client, action: str, inputs: dict) -> dict:
    answer = client.post(f"/api/v1/systems/squads/actions/{action}/odds/", data=json.dumps({"inputs": inputs}),
                         content_type="application/json")  # fmt: skip
    assert answer.status_code == 200, answer.content
    body = answer.json()
    return body.get("odds", body)


def same(client, battle, command: str, body: dict, action: str, inputs: dict) -> dict:
    """The form's odds for `body` are the odds API's for `inputs` (the same units, written out by hand), exactly."""
    shown = form_odds(client, battle, command, body)
    assert shown.status_code == 200, shown.content
    answer = shown.json()
    assert answer["action"] == action
    assert answer["odds"] == api_odds(client, action, inputs)
    return answer


def test_the_forms_odds_are_the_odds_apis_for_the_same_units_exactly(battle):
    battle, red, blue = battle
    names = Battle.objects.get(pk=battle.pk).state["side_names"]
    players = [{"name": names["0"], "modifier": 1}, {"name": names["1"], "modifier": 0}]
    same(red, battle, "start_turn", {"modifiers.0": 1}, "initiative", {"players": players})
    send(red, battle, "start_turn", {}, [5, 2])  # Red holds the initiative

    # The chain (L12): the chosen unit first, then Red's other unit as it stands.
    answer = same(red, battle, "activate", {"unit": "s0-e1"}, "activation_chain",
                  {"units": [{"level": "regular", "figures": 4}, {"level": "veteran", "figures": 4}]})  # fmt: skip
    assert answer["headline"]["key"] == "p_first_activates"
    assert answer["headline"]["exact"] == "1/2"
    assert answer["place"] == ["first_roll", "total"]
    same(red, battle, "activate", {"unit": "s0-e2", "sees_enemy": "false", "out_of_coherency": 1},
         "activation_chain", {"units": [{"level": "veteran", "sees_enemy": False, "out_of_coherency": 1},
                                        {"level": "regular"}]})  # fmt: skip
    ranked = form_odds(red, battle, "activate", {"unit": "s0-e1", "compare": {"field": "unit",
                                                                              "values": ["s0-e1", "s0-e2"]}})  # fmt: skip
    assert [(r["value"], r["exact"]) for r in ranked.json()["ranking"]] == [("s0-e2", "2/3"), ("s0-e1", "1/2")]

    send(red, battle, "activate", {"unit": "s0-e1"}, [6])
    send(red, battle, "act", {"unit": "s0-e1", "action": "aimed_fire"})
    aimed = {"level": "regular", "action": "aimed_fire"}
    at_squad = same(red, battle, "shoot", {"unit": "s0-e1", "target": "s1-e1", "distance": 10, "cover": "light"},
                    "shooting", {"shooter": {**aimed, "groups": [{"weapon": "rifle", "count": 3, "distance": 10},
                                                                 {"weapon": "rpg", "count": 1, "distance": 10}]},
                                 "target": {"groups": [{"count": 4, "armour": "medium", "cover": "light"}]}})  # fmt: skip
    at_vehicle = same(red, battle, "shoot", {"unit": "s0-e1", "target": "s1-e2", "distance": 10, "facing": "rear"},
                      "shooting", {"shooter": {**aimed, "groups": [{"weapon": "rifle", "count": 3, "distance": 10},
                                                                   {"weapon": "rpg", "count": 1, "distance": 10}]},
                                   "target": {"kind": "vehicle", "armour": "light", "facing": "rear"}})  # fmt: skip
    assert [g["immune"] for g in at_vehicle["odds"]["groups"]] == [True, False]  # rifles cannot harm armour (L84)
    unharmed = next(w for w in at_vehicle["odds"]["worst_effect"] if w["value"] == "none")
    assert unharmed["exact"] == at_vehicle["odds"]["unsaved"][0]["exact"]  # no hit through: no damage
    assert at_squad["place"] == ["unsaved", "unsaved"]
    # Which target? Both, each by its own chance of at least one unsaved hit.
    ranked = form_odds(
        red,
        battle,
        "shoot",
        {
            "unit": "s0-e1",
            "target": "s1-e1",
            "distance": 10,
            "cover": "light",
            "compare": {"field": "target", "values": ["s1-e2", "s1-e1"]},
        },
    ).json()
    assert [r["value"] for r in ranked["ranking"]] == ["s1-e1", "s1-e2"]
    assert ranked["ranking"][0]["exact"] == at_squad["headline"]["exact"]
    assert Fraction(ranked["ranking"][0]["exact"]) > Fraction(ranked["ranking"][1]["exact"]) > 0

    # A shot with one unsaved hit, taken as a suppressed figure: the assault meets it striking last (L42).
    send(red, battle, "shoot", {"unit": "s0-e1", "target": "s1-e1", "distance": 10}, [5, 1, 1, 1, 1, 1, 1])
    send(blue, battle, "split_hits", {"suppress": 1})
    send(red, battle, "activate", {"unit": "s0-e2"}, [6])
    send(red, battle, "act", {"unit": "s0-e2", "action": "assault"})
    answer = same(red, battle, "assault", {"unit": "s0-e2", "target": "s1-e1"}, "melee",
                  {"round": 1, "attacker": {"level": "veteran", "figures": 4, "armour": "light"},
                   "defender": {"level": "regular", "figures": 4, "suppressed": 1, "armour": "medium"}})  # fmt: skip
    assert answer["headline"]["key"] == "p_defender_wiped_out"
    refused = form_odds(red, battle, "assault", {"unit": "s0-e2", "target": "s1-e2"})
    assert refused.status_code == 400  # a vehicle is not assaulted (L41): no odds
    assert "odds" not in refused.json()


def test_a_missing_or_refused_input_shows_no_odds_and_says_why_in_the_readers_language(battle):
    battle, red, blue = battle
    waiting = form_odds(red, battle, "activate", {"unit": "s0-e1"}, "ru")
    assert waiting.status_code == 400
    assert waiting.json()["errors"] == {"command": "Бросьте кубик на инициативу."}
    send(red, battle, "start_turn", {}, [5, 2])
    assert form_odds(red, battle, "activate", {}, "ru").json()["errors"] == {"unit": "Выберите отряд."}
    assert form_odds(blue, battle, "activate", {"unit": "s1-e1"}, "ru").status_code == 400  # Red's initiative
    send(red, battle, "activate", {"unit": "s0-e1"}, [6])
    send(red, battle, "act", {"unit": "s0-e1", "action": "aimed_fire"})
    missing = form_odds(red, battle, "shoot", {"unit": "s0-e1", "target": "s1-e1"}, "ru")
    assert missing.status_code == 400
    assert missing.json()["errors"] == {"distance": "Укажите дальность до цели."}
    assert "odds" not in missing.json()
    far = form_odds(red, battle, "shoot", {"unit": "s0-e1", "target": "s1-e1", "distance": 100}, "ru").json()
    assert "Отряд: Рядовой" in far["errors"]["distance"]  # nothing reaches 100": the command's own words
    own = form_odds(red, battle, "shoot", {"unit": "s0-e1", "target": "s0-e2", "distance": 5}, "ru").json()
    assert list(own["errors"]) == ["target"]


def test_the_rules_at_hand_quote_the_book_and_name_the_battles_setting(battle):
    battle, red, blue = battle
    page = red.get(f"/battles/{battle.pk}/rules/shoot/", HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Каждый кубик со значением равным или больше уровня опыта наносит хит." in html
    assert "L27–28" in html
    assert 'data-testid="house-rule"' in html  # «Прицельный огонь» and the 6+ cap: §5 B5
    page = red.get(f"/battles/{battle.pk}/rules/suppressed_veteran/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Подавленная фигура в отряде разворачивается лицом назад." in page
    house = page.split('data-testid="house-rule"')[1].split("</p>")[0]
    assert ": 3." in house  # the blank «Подавление» column: a Veteran's cap is the setting (§5 B1)
    english = red.get(f"/battles/{battle.pk}/rules/activate/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "until he fails an activation roll" in english
    assert red.get(f"/battles/{battle.pk}/rules/nothing/").status_code == 404
    board = red.get(f"/battles/{battle.pk}/board").content.decode()
    assert 'data-order-command="start_turn"' in board
    assert 'href="rules/start_turn/"' in board


# In memory: every command that rolls, every form and chip -------------------------------------------------------
def at_roll(t, command: str, inputs: dict, side: int = 0):
    found = SYSTEM.at_roll.roll_odds(t.state, command, inputs, frozenset({side}))
    return found, SYSTEM.action(found.action).odds(found.inputs, t.state.settings.get("system") or {})


def odds(action: str, inputs: dict) -> dict:
    return SYSTEM.action(action).odds(inputs, {})


def test_on_guard_fire_a_melee_round_and_a_withdrawal_show_the_odds_of_their_own_rolls():
    t = table([squad("a", "squad-regular"), squad("c", "squad-veteran", figures=(("lmg", 2),))],
              [squad("b", "squad-regular", armour="light"), vehicle("v")])  # fmt: skip
    t.command(0, "start_turn", {}, dice=[2, 5])  # Blue first
    t.command(1, "activate", {"unit": "s1-b"}, dice=[1])  # fails: On Guard, Red's turn
    t.command(0, "activate", {"unit": "s0-a"}, dice=[6])
    t.command(0, "act", {"unit": "s0-a", "action": "assault"})
    # Blue's squad On Guard reacts to the declared assault (L21, §5 B13)
    found, shown = at_roll(t, "react", {"unit": "s1-b", "distance": 6}, side=1)
    assert found.action == "shooting"
    assert shown == odds("shooting", {"shooter": {"level": "regular", "action": "on_guard",
                                                  "groups": [{"weapon": "rifle", "count": 4, "distance": 6}]},
                                      "target": {"groups": [{"count": 4, "armour": "none"}]},
                                      "reaction": {"enemy_action": "declared"}})  # fmt: skip
    with pytest.raises(RuleInputError) as exc:  # Blue's vehicle is not On Guard
        SYSTEM.at_roll.roll_odds(t.state, "react", {"unit": "s1-v", "distance": 6}, frozenset({1}))
    assert "command" in exc.value.errors
    found, shown = at_roll(t, "assault", {"unit": "s0-a", "target": "s1-b", "in_reach": 3})
    assert shown == odds("melee", {"round": 1, "attacker": {"level": "regular", "figures": 4, "in_reach": 3},
                                   "defender": {"level": "regular", "figures": 4, "armour": "light"}})  # fmt: skip
    t.command(0, "assault", {"unit": "s0-a", "target": "s1-b"}, dice=[1, 1, 1, 1, 1, 1, 1, 1])  # nobody hits
    t.command(0, "activate", {"unit": "s0-c"}, dice=[1])  # Red's veterans fail: every unit has tried
    t.command(1, "activate", {"unit": "s1-v"}, dice=[1])
    t.command(0, "start_turn", {}, dice=[5, 2])
    found, shown = at_roll(t, "melee_round", {"melee": 0})
    assert (found.action, found.headline) == ("melee", "p_melee_over")
    assert shown == odds("melee", {"round": 2, "attacker": {"level": "regular", "figures": 4},
                                   "defender": {"level": "regular", "figures": 4, "armour": "light"}})  # fmt: skip
    t.command(0, "melee_round", {"melee": 0}, dice=[1, 1, 1, 1, 1, 1, 1, 1])
    found, shown = at_roll(t, "withdraw", {"unit": "s0-a", "attempt": "true"})
    assert shown == odds("withdrawal", {"withdrawing": {"level": "regular", "figures": 4},
                                        "pursuer": {"level": "regular", "figures": 4}})  # fmt: skip
    assert found.place == ("move", "distance")
    with pytest.raises(RuleInputError) as exc:
        SYSTEM.at_roll.roll_odds(t.state, "withdraw", {"unit": "s0-a", "attempt": "false"}, frozenset({0}))
    assert "attempt" in exc.value.errors
    assert SYSTEM.at_roll.roll_odds(t.state, "done", {"unit": "s0-a"}, frozenset({0})) is None  # no dice


def test_every_rolling_form_shows_odds_and_every_form_and_chip_links_to_a_rule_of_the_book():
    settings = {s.key for s in SETTINGS}
    for key, rule in RULES.items():
        assert rule.title, key
        assert rule.text, key
        assert rule.source.startswith(("L", "§")), key
        assert not rule.setting or rule.setting in settings, (key, rule.setting)
    t = table([squad("a", "squad-regular"), vehicle("w")], [squad("b", "squad-regular"), vehicle("v")])
    seen_forms, seen_chips = {}, set()

    def look(side):
        board = _board(t, {side})
        for widget in board["turnbar"]:
            if widget["type"] == "prompt":
                seen_forms[widget["command"]] = widget
        for group in board["groups"]:
            for card in group["units"]:
                seen_chips.update(f["rule"] for f in card["flags"] if f.get("rule"))

    look(0)
    t.command(0, "start_turn", {}, dice=[5, 2])
    look(0)
    t.command(0, "activate", {"unit": "s0-w"}, dice=[6])
    look(0)
    t.command(0, "act", {"unit": "s0-w", "action": "stationary"})
    look(0)
    t.command(0, "shoot", {"unit": "s0-w", "target": "s1-b", "distance": 10}, dice=[6] * 7)
    look(1)
    rolling = {"start_turn", "activate", "shoot"}
    assert rolling <= set(seen_forms)
    for command, widget in seen_forms.items():
        assert widget["rule"] == command, command
        assert command in RULES, command
        assert widget["odds"] is (command in rolling | {"react", "assault", "melee_round", "withdraw"}), command
    assert seen_forms["shoot"]["compare"] == ["target", "weapons"]  # a vehicle chooses its weapons (L77)
    assert seen_forms["activate"]["compare"] == ["unit"]
    assert seen_chips
    assert seen_chips <= set(RULES), seen_chips - set(RULES)
    assert {"acting", "stationary"} <= seen_chips
