"""The odds at the moment of the roll (issue #31) for «5150»: every board form that rolls answers, through
POST /api/v1/battles/<id>/commands/<name>/odds, exactly the odds the odds API answers for the same action and the
inputs the board's state gives (each written out here by hand from the figures as they stand: Rep, condition,
cover, weapons, armour, the group's Leader); they follow the state (cover, a Knocked Down figure), rank the targets
and a two-gun figure's guns, refuse what the command refuses, and the rules at hand quote the book with the setting
the battle plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from armies import services as army_services
from battles import services
from battles.models import Battle, BattleUnit
from rules.systems.thw5150.system import SYSTEM

pytestmark = pytest.mark.django_db
PACK = Path(__file__).resolve().parents[1] / "data" / "normals.json"
RU = {"HTTP_ACCEPT_LANGUAGE": "ru-RU,ru;q=0.9"}


@pytest.fixture
def night(db):
    """Патруль (Алиса): a Police У5 Leader with an assault rifle in light armour, an У4 with a pistol and an SMG (two
    guns), an У4 with a pistol and two grenades. Банда (Борис): a Criminal У4 Leader and two У3, pistols."""
    ((pack, _created),) = army_services.load_packs(paths=[PACK])
    alice, bob = (get_user_model().objects.create_user(username=n, password=None) for n in ("Алиса", "Борис"))
    patrol = army_services.roster_create(owner=alice, pack=pack, name="Патруль", faction="police")
    captain = army_services.entry_add(roster=patrol, profile="police-u5", options={
        "weapon": "assault_rifle", "armour": "light", "leader": True})  # fmt: skip
    gunman = army_services.entry_add(roster=patrol, profile="police-u4", options={"weapon": "pistol",
                                                                                "second_weapon": "smg"})  # fmt: skip
    grenadier = army_services.entry_add(roster=patrol, profile="police-u4", options={"weapon": "pistol",
                                                                                   "grenades": 2})  # fmt: skip
    gang = army_services.roster_create(owner=bob, pack=pack, name="Банда", faction="criminals")
    boss = army_services.entry_add(roster=gang, profile="criminals-u4", options={"weapon": "pistol", "leader": True})
    thugs = army_services.entry_add(roster=gang, profile="criminals-u3", count=2, options={"weapon": "pistol"})
    battle = services.battle_create(user=alice, name="Ночь", rosters=[patrol, gang], enforce_turns=True)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    phones = []
    for user in (alice, bob):
        phone = Client(**RU)
        phone.force_login(user)
        phones.append(phone)
    keys = {"captain": f"0.{captain.key}.1", "gunman": f"0.{gunman.key}.1", "grenadier": f"0.{grenadier.key}.1",
            "boss": f"1.{boss.key}.1", "thug": f"1.{thugs.key}.1", "thug2": f"1.{thugs.key}.2"}  # fmt: skip
    return battle, phones, keys


def post(phone, battle, name, body):
    url = f"/api/v1/battles/{battle.pk}/commands/{name}/"
    version = Battle.objects.get(pk=battle.pk).version
    return phone.post(url, data=json.dumps(body), content_type="application/json", HTTP_IF_MATCH=f'"v{version}"')


def board_odds(phone, battle, name, body):
    return phone.post(f"/api/v1/battles/{battle.pk}/commands/{name}/odds", data=json.dumps(body),
                      content_type="application/json")  # fmt: skip


def api_odds(phone, action, inputs):
    answer = phone.post(f"/api/v1/systems/5150/actions/{action}/odds/", data=json.dumps({"inputs": inputs}),
                        content_type="application/json")  # fmt: skip
    assert answer.status_code == 200, answer.content
    return answer.json()["odds"]


def same_odds(phone, battle, name, body, action, inputs) -> dict:
    """The form's odds for `body`, checked equal to the odds API's for `action` and `inputs`, exactly."""
    shown = board_odds(phone, battle, name, body)
    assert shown.status_code == 200, shown.content
    shown = shown.json()
    assert shown["action"] == action
    assert shown["odds"] == api_odds(phone, action, inputs)
    direct = SYSTEM.action(action).odds(inputs, SYSTEM.default_settings())
    assert shown["odds"] == json.loads(json.dumps(direct))  # and the action's own code, with the battle's settings
    return shown


def names(battle) -> dict[str, str]:
    return dict(BattleUnit.objects.filter(battle=battle).values_list("key", "name"))


def target(name, **state):
    return {"name": name, "armour": "none", "in_cover": False, "prone": False, "fast_moved": False,
            "condition": "fine", **state}  # fmt: skip


def test_the_activation_form_shows_who_acts_first_as_the_figures_stand(night):
    battle, (alice, _bob), _keys = night
    sides = [{"name": "Патруль", "groups": [{"name": "группа 1", "reps": [5, 4, 4], "leader_rep": 5}]},
             {"name": "Банда", "groups": [{"name": "группа 1", "reps": [4, 3, 3], "leader_rep": 4}]}]  # fmt: skip
    shown = same_odds(alice, battle, "activation", {}, "activation", {"sides": sides})
    assert shown["odds"]["first"]["doubles"]["exact"] == "1/6"
    assert shown["odds"]["first"]["Патруль"]["exact"] == "5/12"
    assert shown["value_labels"]["first"]["doubles"] == "числа на кубиках равны: никто не перемещается и не стреляет"
    assert shown["headline"] is None
    assert shown["place"] is None


def test_a_shot_shows_the_odds_of_this_shooter_at_this_target_as_they_stand(night):
    battle, (alice, bob), k = night
    n = names(battle)
    assert post(alice, battle, "activation", {"dice": [5, 2]}).status_code == 201
    shooter = {"name": n[k["captain"]], "rep": 5, "weapon": "assault_rifle", "fast_moved": False, "loaded": True,
               "rep_modifier": 0}  # fmt: skip
    body = {"shooter": k["captain"], "target": k["thug"], "n": 3}
    open_ = same_odds(alice, battle, "shoot", body, "shooting",
                      {"shooter": shooter, "targets": [{**target(n[k["thug"]]), "dice": 3}]})  # fmt: skip
    assert open_["headline"]["key"] == "p_casualty"
    assert open_["headline"]["label"] == "цель выведена из строя или убита"
    assert open_["headline"]["exact"] == open_["odds"]["p_casualty"]["exact"]
    assert open_["place"] == ["hits", "hits"]
    assert open_["value_labels"]["worst_result"]["out_of_fight"] == "Выведен из строя"
    assert open_["result_labels"]["hits"] == "Попаданий за выстрел"

    # Борис puts his thug behind cover: the same shot's odds follow the figure's state.
    assert post(bob, battle, "set_state", {"unit": k["thug"], "changes": {"in_cover": True}}).status_code == 201
    covered = same_odds(alice, battle, "shoot", body, "shooting",
                        {"shooter": shooter, "targets": [{**target(n[k["thug"]], in_cover=True), "dice": 3}]})  # fmt: skip
    assert covered["headline"]["p"] < open_["headline"]["p"]

    # Which target? Every enemy ranked by the chance of putting it out of the fight; the covered one last.
    ranked = board_odds(alice, battle, "shoot", {**body, "compare": {"field": "target", "values": [
        k["thug"], k["boss"], k["thug2"], k["captain"]]}}).json()["ranking"]  # fmt: skip
    assert [r["value"] for r in ranked] == [k["boss"], k["thug2"], k["thug"], k["captain"]]
    assert ranked[0]["exact"] == ranked[1]["exact"] == open_["headline"]["exact"]  # in the open, no armour: alike
    assert ranked[2]["exact"] == covered["headline"]["exact"]
    assert ranked[3]["p"] is None
    assert ranked[3]["why"]


def test_a_two_gun_figure_compares_its_guns_and_fires_both_by_default(night):
    battle, (alice, _bob), k = night
    n = names(battle)
    assert post(alice, battle, "activation", {"dice": [4, 2]}).status_code == 201
    shooter = {"name": n[k["gunman"]], "rep": 4, "fast_moved": False, "loaded": True, "rep_modifier": 0}
    both = same_odds(alice, battle, "shoot", {"shooter": k["gunman"], "target": k["boss"]}, "shooting",
                     {"shooter": {**shooter, "weapon": "pistol", "second_weapon": "smg"},
                      "targets": [{**target(n[k["boss"]]), "dice": 5}]})  # fmt: skip
    assert both["odds"]["dice"] == 5  # «большую скорострельность»: 2 + 3 (§5 A26)
    pistol = same_odds(alice, battle, "shoot", {"shooter": k["gunman"], "target": k["boss"], "weapon": "pistol"},
                       "shooting", {"shooter": {**shooter, "weapon": "pistol"},
                                    "targets": [{**target(n[k["boss"]]), "dice": 2}]})  # fmt: skip
    assert pistol["odds"]["dice"] == 2
    ranked = board_odds(alice, battle, "shoot", {"shooter": k["gunman"], "target": k["boss"], "compare": {
        "field": "weapon", "values": ["two_guns", "pistol", "smg", "laser_rifle"]}}).json()["ranking"]  # fmt: skip
    assert [r["value"] for r in ranked[:3]] == ["two_guns", "smg", "pistol"]
    assert ranked[0]["exact"] == both["headline"]["exact"]
    assert ranked[2]["exact"] == pistol["headline"]["exact"]
    assert ranked[3]["value"] == "laser_rifle"
    assert ranked[3]["p"] is None
    refused = board_odds(alice, battle, "shoot", {"shooter": k["captain"], "target": k["boss"], "weapon": "two_guns"})
    assert refused.status_code == 400
    assert "weapon" in refused.json()["errors"]


def test_what_the_command_refuses_shows_no_odds_and_says_why(night):
    battle, (alice, bob), k = night
    early = board_odds(alice, battle, "shoot", {"shooter": k["captain"], "target": k["boss"]})
    assert early.status_code == 400  # no activation roll yet: the command would be refused
    assert "odds" not in early.json()
    assert post(alice, battle, "activation", {"dice": [5, 2]}).status_code == 201
    missing = board_odds(alice, battle, "shoot", {"shooter": k["captain"]})
    assert missing.status_code == 400
    assert missing.json()["errors"] == {"targets": "Укажите цель."}
    own = board_odds(alice, battle, "shoot", {"shooter": k["captain"], "target": k["gunman"]})
    assert own.status_code == 400
    assert "targets.0.unit" in own.json()["errors"]
    too_many = board_odds(alice, battle, "shoot", {"shooter": k["captain"], "target": k["boss"], "n": 4})
    assert too_many.status_code == 400  # the assault rifle's RoF is 3, as the action refuses it
    not_his = board_odds(bob, battle, "shoot", {"shooter": k["captain"], "target": k["boss"]})
    assert not_his.status_code == 400
    assert "odds" not in not_his.json()
    assert board_odds(alice, battle, "end_activation", {}).status_code == 400  # rolls nothing


def test_melee_grenade_recovery_and_the_charge_show_their_actions_odds(night):
    battle, (alice, bob), k = night
    n = names(battle)
    assert post(alice, battle, "activation", {"dice": [5, 2]}).status_code == 201

    def fig(key, rep, **more):
        return {"name": n[key], "ref": key, "rep": rep, "armour": "none", "prone": False, "condition": "fine", **more}

    melee = same_odds(alice, battle, "melee", {"fighter": k["captain"], "opponent": k["boss"]}, "melee",
                      {"fighter": fig(k["captain"], 5, armour="light", weapon="unarmed"),
                       "opponents": [fig(k["boss"], 4, weapon="unarmed")]})  # fmt: skip
    assert melee["headline"]["key"] == "p_opponent_casualty"
    assert melee["place"] == ["opponents_casualties", "opponents_casualties"]
    ranked = board_odds(alice, battle, "melee", {"fighter": k["captain"], "opponent": k["boss"], "compare": {
        "field": "opponent", "values": [k["boss"], k["thug"]]}}).json()["ranking"]  # fmt: skip
    assert [r["value"] for r in ranked] == [k["thug"], k["boss"]]  # the Rep 3 thug falls more easily

    grenade = same_odds(alice, battle, "grenade", {"thrower": k["grenadier"], "target": k["thug"]}, "grenade",
                        {"thrower": fig(k["grenadier"], 4, hero=False, in_cover=False, grenade_ready=False),
                         "blast": [fig(k["thug"], 3, in_cover=False, fast_moved=False)]})  # fmt: skip
    assert grenade["headline"]["key"] == "p_casualty"

    charge = same_odds(alice, battle, "charge", {"charger": k["gunman"], "target": k["thug"]}, "wanting_to_charge",
                       {"members": [
                           {"name": n[k["captain"]], "ref": k["captain"], "rep": 5, "leader": True, "hero": False,
                            "condition": "fine", "tests": False, "in_cover": False},
                           {"name": n[k["gunman"]], "ref": k["gunman"], "rep": 4, "leader": False, "hero": False,
                            "condition": "fine", "tests": True, "in_cover": False},
                           {"name": n[k["grenadier"]], "ref": k["grenadier"], "rep": 4, "leader": False,
                            "hero": False, "condition": "fine", "tests": False, "in_cover": False}]})  # fmt: skip
    assert charge["odds"]["joint_passed"]  # the group's joint result: bars on the form

    fine = board_odds(alice, battle, "recover", {"unit": k["captain"]})
    assert fine.status_code == 400
    assert "unit" in fine.json()["errors"]
    # A Knocked Down captain (a ruling by hand) takes «ВОССТАНОВЛЕНИЕ» at his activation: a Leader reads 3 dice.
    assert post(alice, battle, "set_state", {"unit": k["captain"], "changes": {"condition": "knocked_down"}}).status_code == 201  # fmt: skip
    recover = same_odds(alice, battle, "recover", {"unit": k["captain"]}, "recovery",
                        {"figure": {"name": n[k["captain"]], "rep": 5, "leader": True, "hero": False,
                                    "state": "knocked_down"}})  # fmt: skip
    assert recover["headline"]["key"] == "p_returns"
    assert board_odds(bob, battle, "recover", {"unit": k["captain"]}).status_code == 400  # not his figure


def test_the_reaction_tests_the_other_phone_answers_show_their_odds(night):
    battle, (alice, bob), k = night
    n = names(battle)
    assert post(alice, battle, "activation", {"dice": [5, 2]}).status_code == 201
    # The grenadier's pistol misses the boss (1 + 4 = 5): Борис owes «ОБСТРЕЛЯН» for his Leader, not outgunned
    # (pistol against pistol, ПД 2).
    assert post(alice, battle, "shoot", {"shooter": k["grenadier"], "target": k["boss"], "n": 1,
                                         "dice": [1]}).status_code == 201  # fmt: skip
    assert board_odds(alice, battle, "answer_reaction", {}).status_code == 400  # the question is Борис's

    def member(key, rep, **more):
        return {"name": n[key], "ref": key, "rep": rep, "leader": False, "hero": False, "condition": "fine",
                "tests": False, "in_cover": False, "flank_or_rear": False, "moving": "none",
                "weapons": [{"weapon": "pistol", "loaded": True}], "can_fire": True, "active": False, **more}  # fmt: skip

    members = [member(k["boss"], 4, leader=True, tests=True), member(k["thug"], 3), member(k["thug2"], 3)]
    front = same_odds(bob, battle, "answer_reaction", {}, "received_fire", {"members": members, "shooter_outgun": 2})
    assert front["odds"]["joint_passed"]
    assert front["odds"]["joint_outcomes"]
    flank = same_odds(bob, battle, "answer_reaction", {"fired_from": "flank_or_rear"}, "received_fire",
                      {"members": [{**members[0], "flank_or_rear": True}, *members[1:]], "shooter_outgun": 2})  # fmt: skip
    assert flank["odds"]["joint_outcomes"] != front["odds"]["joint_outcomes"]  # from the flank some run away

    # Борис answers (pass 0 in the open: his Leader runs away), then Алиса's gunman moves into the thugs' sight.
    assert post(bob, battle, "answer_reaction", {"dice": [6, 6, 6]}).status_code == 201
    assert post(alice, battle, "move", {"unit": k["gunman"], "seen_by": "1.1"}).status_code == 201
    sight = [{"name": n[key], "ref": key, "rep": 3, "leader": False, "hero": False, "condition": "fine",
              "tests": True, "in_cover": False, "covering_fire": False} for key in (k["thug"], k["thug2"])]  # fmt: skip
    in_sight = same_odds(bob, battle, "in_sight", {"in_the_open": "duck_back"}, "in_sight", {"members": sight})
    assert in_sight["odds"]["joint_outcomes"]


def test_the_rules_at_hand_quote_the_book_and_name_the_battles_setting(night):
    battle, (alice, _bob), k = night
    page = alice.get(f"/battles/{battle.pk}/rules/answer_reaction/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Неактивная фигурка всегда отвечает стрельбой только по тому кто ее обстрелял" in html
    assert "§3.11 (L923–951)" in html
    assert 'data-testid="house-rule"' in html
    for key in ("shoot", "melee", "recover", "grenade", "charge", "in_sight", "answer_charge", "stay_or_run",
                "activation", "knocked_down", "duck_back", "hero", "leader", "received_fire"):  # fmt: skip
        assert alice.get(f"/battles/{battle.pk}/rules/{key}/").status_code == 200, key
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(get_user_model().objects.get(username="Алиса"))
    text = english.get(f"/battles/{battle.pk}/rules/knocked_down/").content.decode()
    assert "The figure was hit and fell" in text
    assert "Оглушен!" not in text

    board = alice.get(f"/battles/{battle.pk}/board").content.decode()
    assert 'href="rules/activation/"' in board
    assert "data-odds" in board
    assert post(alice, battle, "activation", {"dice": [5, 2]}).status_code == 201
    board = alice.get(f"/battles/{battle.pk}/board").content.decode()
    assert 'href="rules/shoot/"' in board
    assert 'data-odds="target"' in board
    assert 'data-odds="target weapon"' in board  # the two-gun figure: targets and guns
    assert 'href="rules/leader/"' in board  # the captain's chip
    assert post(alice, battle, "shoot", {"shooter": k["captain"], "target": k["boss"], "n": 1,
                                         "dice": [1]}).status_code == 201  # fmt: skip
    board = alice.get(f"/battles/{battle.pk}/board").content.decode()
    assert 'href="rules/received_fire/"' in board  # the boss owes «ОБСТРЕЛЯН»: a chip on his card
    assert "проходит «ОБСТРЕЛЯН»" in board


def test_every_question_form_shows_the_odds_of_the_roll_it_answers():
    """In memory, the journey's game (test_questions.py): each question the other phone answers is a form with its
    odds and its rule, mapped to the table the answer rolls, with the figures as they stand (a fire-back at Rep −1
    after passing by 1); each answer's roll lands on an outcome the odds gave a chance."""
    from collections import Counter
    from fractions import Fraction

    from rules.contract.testing import Table
    from rules.systems.thw5150.tests.test_questions import BOSS, CONSTABLE, GANG, PATROL, asked

    table = Table(SYSTEM, rosters=[PATROL, GANG], names={0: "Патруль", 1: "Банда"})
    at_roll = SYSTEM.at_roll

    def odds_of(side, command, inputs):
        found = at_roll.roll_odds(table.state, command, inputs, frozenset({side}))
        return found, SYSTEM.action(found.action).odds(found.inputs, SYSTEM.default_settings())

    def rows_of(event) -> tuple:
        return tuple(sorted(Counter(r["outcome"] for r in event["payload"]["result"]["members"]).items()))

    def chance(odds, rows) -> Fraction:
        return sum((Fraction(e["exact"]) for e in odds["joint_outcomes"] if tuple(sorted(e["value"].items())) == rows),
                   Fraction(0))  # fmt: skip

    table.command(0, "activation", dice=[5, 2])
    table.command(0, "shoot", {"shooter": CONSTABLE, "target": BOSS, "n": 1}, dice=[1])  # 1 + 4: a miss
    form = asked(table, 1)
    assert (form["command"], form["odds"], form["rule"]) == ("answer_reaction", True, "answer_reaction")
    found, odds = odds_of(1, "answer_reaction", {"fired_from": "front"})
    assert found.action == "received_fire"
    assert [m["name"] for m in found.inputs["members"] if m["tests"]] == [table.state.units[BOSS].name]
    (event,) = table.command(1, "answer_reaction", {"fired_from": "front"}, dice=[4, 6, 6])  # pass 1: fire at −1
    assert chance(odds, rows_of(event)) > 0
    fire_back = asked(table, 1)
    assert (fire_back["command"], fire_back["odds"], fire_back["rule"]) == ("shoot", True, "shoot")
    found, odds = odds_of(1, "shoot", {"shooter": BOSS, "target": CONSTABLE})
    assert found.inputs["shooter"]["rep_modifier"] == -1  # the reaction's −1 to Rep (L945–948)
    assert odds["rep"] == 3
    table.command(1, "decline_return_fire")
    table.command(0, "end_activation")
    # The boss charges the constable: «МЕНЯ АТАКОВАЛИ» on Алиса's phone, then the melee on Борис's.
    table.command(1, "charge", {"charger": BOSS, "target": CONSTABLE}, dice=[1, 2, 3, 1])
    assert asked(table, 0)["odds"] is True
    found, odds = odds_of(0, "answer_charge", {"charged_from": "flank_or_rear"})
    assert found.action == "being_charged"
    assert all(m["flank_or_rear"] for m in found.inputs["members"])
    (event,) = table.command(0, "answer_charge", {"charged_from": "flank_or_rear"}, dice=[1, 2])
    assert chance(odds, rows_of(event)) > 0
    while table.state.game["pending"] and table.state.game["pending"][0]["kind"] == "return_fire":
        table.command(0, "decline_return_fire")
    melee = asked(table, 1)
    assert (melee["command"], melee["odds"], melee["rule"]) == ("melee", True, "melee")
    found, odds = odds_of(1, "melee", {})
    assert found.action == "melee"
    assert [o["ref"] for o in found.inputs["opponents"]] == [CONSTABLE]
    (event,) = table.command(1, "melee", {}, dice=[1, 2, 6, 6, 3])  # won by 2, then 3: out of the fight
    fell = event["payload"]["result"]["opponents_casualties"]
    assert any(e["value"] == fell and e["p"] > 0 for e in odds["opponents_casualties"])
    table.command(1, "end_activation")
    assert asked(table, 0)["command"] == "stay_or_run"
    found, odds = odds_of(0, "stay_or_run", {"motivation": "conquest"})
    assert found.action == "stay_or_run"
    assert found.inputs["casualties"] == 1
    assert odds["joint_outcomes"]
    assert table.replay_matches()
