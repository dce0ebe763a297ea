"""Bad answers to a question get a clear Russian message and change nothing (issue «Every system played to its end
at the table»): the question answered by the wrong player, answered twice, or from a stale board; and the acting
phone's result says what the roll means and what each side does next, as both boards do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from armies import services as army_services
from battles import services
from battles.models import Battle

PACK = Path(__file__).resolve().parents[1] / "data" / "normals.json"
RU = {"HTTP_ACCEPT_LANGUAGE": "ru-RU,ru;q=0.9"}


@pytest.fixture
def night(db):
    ((pack, _created),) = army_services.load_packs(paths=[PACK])
    alice, bob = (get_user_model().objects.create_user(username=n, password=None) for n in ("Алиса", "Борис"))
    patrol = army_services.roster_create(owner=alice, pack=pack, name="Патруль", faction="police")
    captain = army_services.entry_add(roster=patrol, profile="police-u5", options={"weapon": "assault_rifle",
                                                                                   "leader": True})  # fmt: skip
    constable = army_services.entry_add(roster=patrol, profile="police-u4", options={"weapon": "pistol"})
    gang = army_services.roster_create(owner=bob, pack=pack, name="Банда", faction="criminals")
    boss = army_services.entry_add(roster=gang, profile="criminals-u4", options={"weapon": "pistol", "leader": True})
    thug = army_services.entry_add(roster=gang, profile="criminals-u3", options={"weapon": "pistol"})
    battle = services.battle_create(user=alice, name="Ночь", rosters=[patrol, gang], enforce_turns=True)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    phones = []
    for user in (alice, bob):
        phone = Client(**RU)
        phone.force_login(user)
        phones.append(phone)
    return battle, phones, f"0.{captain.key}.1", f"0.{constable.key}.1", f"1.{boss.key}.1", f"1.{thug.key}.1"


def post(phone, battle, name, body, version):
    url = f"/api/v1/battles/{battle.pk}/commands/{name}/"
    return phone.post(url, data=json.dumps(body), content_type="application/json", HTTP_IF_MATCH=f'"v{version}"')


def version(battle) -> int:
    return Battle.objects.get(pk=battle.pk).version


def test_a_question_answered_by_the_wrong_player_twice_or_stale_changes_nothing(night):
    battle, (alice, bob), captain, constable, boss, thug = night
    assert post(alice, battle, "activation", {"dice": [5, 2]}, version(battle)).status_code == 201
    # A hit that hurts: Алиса's result says no test is owed, and why, and what comes next.
    hit = post(alice, battle, "shoot", {"shooter": captain, "target": thug, "n": 1, "dice": [5, 5]}, version(battle))
    assert hit.status_code == 201
    notices = hit.json()["notices"]
    assert notices[0].startswith("Преступники У3: Оглушен. Теста «ОБСТРЕЛЯН» нет")
    assert "Что дальше:" in notices
    assert "Банда (Борис): тестов нет — действует после стороны Патруль (кубик 2)." not in notices  # names: rosters
    assert "Банда: тестов нет — действует после стороны Патруль (кубик 2)." in notices
    # A miss: Борис owes «ОБСТРЕЛЯН».
    miss = post(alice, battle, "shoot", {"shooter": constable, "target": boss, "n": 1, "dice": [1]}, version(battle))
    assert miss.status_code == 201
    assert (
        "Отвечает Банда: тест «ОБСТРЕЛЯН»: Преступники У4; стрелял Полиция У4, ущерба нет (L926)."
        in (miss.json()["notices"])
    )
    asked = version(battle)

    wrong = post(alice, battle, "answer_reaction", {"dice": [1, 2, 3]}, asked)  # the question is Борис's
    assert wrong.status_code == 409
    assert wrong.json()["detail"] == "Сначала Банда проходит тест «ОБСТРЕЛЯН»."
    stale = post(bob, battle, "answer_reaction", {"dice": [1, 2, 3]}, asked - 1)  # a board from before the shot
    assert stale.status_code == 412
    assert "ничего не записано" in stale.json()["detail"]
    short = post(bob, battle, "answer_reaction", {"dice": [1, 2]}, asked)  # a Leader reads three dice
    assert short.status_code == 400
    assert "Не хватает кубиков" in json.dumps(short.json(), ensure_ascii=False)
    assert version(battle) == asked

    answered = post(bob, battle, "answer_reaction", {"dice": [6, 6, 6]}, asked)  # pass 0 in the open: runs away
    assert answered.status_code == 201
    assert "Что дальше:" in answered.json()["notices"]
    twice = post(bob, battle, "answer_reaction", {"dice": [6, 6, 6]}, asked + 1)
    assert twice.status_code == 409
    assert twice.json()["detail"] == "Активна сторона Патруль (кубик 5)."
    assert version(battle) == asked + 1
    ok, why = services.replay_matches(Battle.objects.get(pk=battle.pk))
    assert ok, why
