"""The questions the book puts to the OTHER player, each asked on his phone and waited for (issue «the other phone
cannot tell what it owes»), and what both phones say after every roll: the journey's game (test_journey_browser.py)
played in memory, step by step, with the table's dice."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.contract import Event
from rules.contract.testing import Table
from rules.errors import GameConflict, RuleInputError
from rules.systems.thw5150.system import SYSTEM
from rules.systems.thw5150.tests.test_battle import entry
from rules.systems.thw5150.tests.test_russian_texts import english

PATROL = {"faction": "police", "entries": [
    entry("a", "police-u5", weapon="assault_rifle", leader=True),
    entry("b", "police-u4", weapon="pistol"),
]}  # fmt: skip
GANG = {"faction": "criminals", "entries": [
    entry("c", "criminals-u4", weapon="pistol", leader=True),
    entry("d", "criminals-u3", weapon="smg"),
]}  # fmt: skip
SIDES = [{"index": 0, "name": "Патруль", "player": "Алиса"}, {"index": 1, "name": "Банда", "player": "Борис"}]
CAPTAIN, CONSTABLE, BOSS, THUG = "0.a.1", "0.b.1", "1.c.1", "1.d.1"


@pytest.fixture
def table():
    return Table(SYSTEM, rosters=[PATROL, GANG], names={0: "Патруль", 1: "Банда"})


def board(table, side) -> dict:
    units = [{"key": k, "name": u.name, "owner": u.side, "view": SYSTEM.battle.unit_view(table.state, u, frozenset())}
             for k, u in table.state.units.items()]  # fmt: skip
    view = {"game": table.state.game, "units": units, "sides": SIDES, "settings": table.settings}
    with translation.override("ru"):
        return SYSTEM.battle.board(view, frozenset({side}), can_write=True)


def said(table, side) -> str:
    """Everything the turn bar says on this side's phone."""
    b = board(table, side)
    parts = [x.get("value") or x.get("question") or "" for x in b["turnbar"]]
    return " | ".join(p for p in parts if p)


def asked(table, side) -> dict | None:
    b = board(table, side)
    return next((x for x in b["turnbar"] if x["type"] == "prompt" and x["command"] != "activation"), None)


def test_the_journeys_game(table):
    table.command(0, "activation", dice=[5, 2])
    # The captain's assault rifle hits the thug (5 + 5 = 10) and knocks him down (5 against Impact 3): no test is
    # owed for a hit that hurts, and both phones say so and why (L926), and what the thug owes next (L741–742).
    table.command(0, "shoot", {"shooter": CAPTAIN, "target": THUG, "n": 1}, dice=[5, 5])
    for side in (0, 1):
        text = said(table, side)
        assert "Преступники У3: Оглушен. Теста «ОБСТРЕЛЯН» нет: в фигурку попали и причинили ущерб" in text
        assert "в свою следующую Активацию проходит тест «ВОССТАНОВЛЕНИЕ ОГЛУШЕННОГО ИЛИ ИСПУГАВШЕГОСЯ»" in text
        assert "Банда (Борис): тестов нет — действует после стороны Патруль (Алиса) (кубик 2)." in text
    assert asked(table, 1) is None
    # The constable moves into cover in sight of the gang's group: «В ПОЛЕ ВИДИМОСТИ» is asked on Борис's phone.
    table.command(0, "move", {"unit": CONSTABLE, "ends": "cover", "pace": "normal", "seen_by": "1.1"})
    question = asked(table, 1)
    assert question["command"] == "in_sight"
    assert len(question["dice"]) == 2  # Leaders roll 2 here (L609)
    assert asked(table, 0) is None
    assert "Ждём ответа: Банда (Борис) — тест «В ПОЛЕ ВИДИМОСТИ»: Преступники У4" in said(table, 0)
    with pytest.raises(GameConflict):
        table.command(0, "end_activation")  # the game waits for the answer
    with pytest.raises(GameConflict):
        table.command(0, "in_sight", {}, dice=[1, 2])  # not Алиса's question
    with pytest.raises(RuleInputError):
        table.command(1, "in_sight", {}, dice=[1])  # one die is not enough: nothing changes
    table.command(1, "in_sight", {}, dice=[1, 2])  # pass 2: the boss fires at the constable
    question = asked(table, 1)
    assert question["command"] == "shoot"
    assert [c["value"] for f in question["fields"] if f["name"] == "target" for c in f["choices"]] == [CONSTABLE]
    table.command(1, "shoot", {"shooter": BOSS, "target": CONSTABLE, "n": 2}, dice=[1, 2])  # 5 and 6: misses
    # Now Алиса owes «ОБСТРЕЛЯН» for her constable: the question goes the other way.
    assert asked(table, 0)["command"] == "answer_reaction"
    assert "Ждём ответа: Патруль (Алиса) — тест «ОБСТРЕЛЯН»: Полиция У4; стрелял Преступники У4" in said(table, 1)
    table.command(0, "answer_reaction", {"fired_from": "front"}, dice=[1, 2])  # pass 2 in cover: fire back
    assert asked(table, 0)["command"] == "shoot"
    table.command(0, "decline_return_fire")
    table.command(0, "end_activation")
    # The gang's turn: the thug's Recovery fails (pass 0): out of the fight, a casualty.
    table.command(1, "recover", {"unit": THUG}, dice=[6, 6])
    assert table.state.units[THUG].state["condition"] == "out_of_fight"
    assert "считается потерей для теста «ОСТАТЬСЯ ИЛИ УБЕЖАТЬ»" in said(table, 0)
    # The boss charges the constable: «ХОЧУ АТАКОВАТЬ» (3 dice and the Leader Die), then «МЕНЯ АТАКОВАЛИ» on
    # Алиса's phone, then the melee on Борис's.
    table.command(1, "charge", {"charger": BOSS, "target": CONSTABLE}, dice=[1, 2, 3, 1])
    assert asked(table, 0)["command"] == "answer_charge"
    assert "тест «МЕНЯ АТАКОВАЛИ»: Полиция У4; атакует Преступники У4" in said(table, 1)
    table.command(0, "answer_charge", {"charged_from": "front"}, dice=[6, 6])  # in cover, pass 0: prepare
    melee = asked(table, 1)
    assert melee["command"] == "melee"
    assert len(melee["dice"]) == 5
    table.command(1, "melee", {}, dice=[1, 2, 6, 6, 3])  # won by 2, then 3: out of the fight
    assert table.state.units[CONSTABLE].state["condition"] == "out_of_fight"
    table.command(1, "end_activation")
    # End of the turn: both sides lost a sixth; each is asked «ОСТАТЬСЯ ИЛИ УБЕЖАТЬ» in turn.
    assert [q["side"] for q in table.state.game["pending"]] == [0, 1]
    assert asked(table, 0)["command"] == "stay_or_run"
    table.command(0, "stay_or_run", {"motivation": "conquest"}, seed=5)  # the server rolls
    table.command(1, "stay_or_run", {"motivation": "profit"}, dice=[1, 1, 1, 2])
    # Doubles: nobody moves or fires.
    table.command(0, "activation", dice=[3, 3])
    assert "числа на кубиках равны" in said(table, 1)
    table.command(1, "end_activation")
    table.command(0, "activation", dice=[5, 1])
    table.command(0, "shoot", {"shooter": CAPTAIN, "target": BOSS, "n": 3}, dice=[6, 6, 6, 2, 4, 5])
    result = table.state.game["result"]
    assert result["winner"] == 0
    banner = board(table, 1)["banner"]
    assert banner["text"] == "Победа: Патруль (Алиса) — на столе не осталось ни одной вражеской фигурки."
    assert "Патруль (Алиса): потери 1 из 2." in banner["lines"]
    names = {"units": {k: u.name for k, u in table.state.units.items()}, "sides": {0: "Патруль", 1: "Банда"}}
    with translation.override("ru"):
        log = [SYSTEM.battle.describe_event(Event(e["seq"], e["type"], e["payload"]), names) for e in table.events]
    assert english(log) == [], log
    assert log[0] == "бросок на Активацию: Патруль 5, Банда 2 — первой действует Патруль."
    assert table.replay_matches()


def test_a_charger_hit_before_contact_does_not_arrive(table):
    table.command(0, "activation", dice=[2, 4])  # the gang first
    table.command(1, "charge", {"charger": BOSS, "target": CONSTABLE}, dice=[1, 2, 3, 1])
    # Pass 2 in the open, from the front: the constable fires and prepares; his shot comes before contact.
    table.command(0, "answer_charge", {}, dice=[1, 2])
    assert [q["kind"] for q in table.state.game["pending"]] == ["return_fire", "melee"]
    table.command(0, "shoot", {"shooter": CONSTABLE, "target": BOSS, "n": 2}, dice=[6, 6, 2, 2])
    assert table.state.units[BOSS].state["condition"] == "knocked_down"
    assert table.state.game["pending"] == []  # the melee is off: the charger is down
    assert table.replay_matches()


def test_a_grenade_thrown_from_the_boards_form_asks_the_target_player():
    grenadier = {"faction": "police", "entries": [entry("a", "police-u5", weapon="pistol", leader=True, grenades=1)]}
    table = Table(SYSTEM, rosters=[grenadier, GANG], names={0: "Патруль", 1: "Банда"})
    table.command(0, "activation", dice=[5, 2])
    form = next(x for c in board(table, 0)["groups"][0]["units"] for x in c["widgets"] if x.get("command") == "grenade")
    assert [f["name"] for f in form["fields"]] == ["thrower", "target"]
    # 1 + Rep 5 = 6: a miss; «ГДЕ ГРАНАТА?» 1, 2 against Rep 5: passed by 2, harmless (L840–850).
    table.command(0, "grenade", {"thrower": CAPTAIN, "target": BOSS}, dice=[1, 1, 2])
    assert table.state.units[CAPTAIN].state["grenades"] == 0
    assert [(q["kind"], q["side"], q["testers"]) for q in table.state.game["pending"]] == [("received_fire", 1, [BOSS])]
    assert asked(table, 1)["command"] == "answer_reaction"
    assert "Ждём ответа: Банда (Борис) — тест «ОБСТРЕЛЯН»: Преступники У4; стрелял Полиция У5" in said(table, 0)
    assert table.replay_matches()
