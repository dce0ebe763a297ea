"""A hit vehicle's pilot takes his test on his own player's phone (setting pilot_tests, "owner" by default): the
attack leaves the question, the game waits for that player's answer, and bad answers change nothing.

The book: «Пилот … должен пройти Тест выживания Д6» after a shot (p.33), the defender settles a lost melee by
Table 7, pilot's test included (p.40), and the vehicle's own player rolls its emergency landing (p.19)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from battles.models import Battle
from battles.tests import conftest as fixtures
from rules.contract.testing import Table
from rules.errors import ArmlistError, GameConflict
from rules.systems.bronepekhota.battle.questions import question_dice
from rules.systems.bronepekhota.system import SYSTEM

PACK = json.loads((Path(__file__).resolve().parents[1] / "data" / "tehnolog-classic.json").read_text("utf-8"))
PROFILES = {p["slug"]: p for p in PACK["profiles"]}
BY_NAME = {p["name"]: p for p in PACK["profiles"]}
SQUAD, SALAMANDER, SHIDU, RAPTOR, THUNDER = "0.e1.1", "0.e2.1", "1.e1.1", "1.e2.1", "1.e3.1"
# SALAMANDER's rocket launcher (Д6+3 / 2Д20) at RAPTOR (Броня 9) 5 steps away: 4 + 3 = 7 hits; 20 and 15 beat 9.
SHOT = {"unit": SALAMANDER, "target": RAPTOR, "distance_steps": 5}
# The battles app's fixtures (its official pack, alice and bob, their rosters, a started battle, the replay check).
PASSWORD = fixtures.PASSWORD
pack, alice, bob, rosters = fixtures.pack, fixtures.alice, fixtures.bob, fixtures.rosters
replay_every_battle = fixtures.replay_every_battle


@pytest.fixture
def battle(rosters, alice, bob):
    """The battles app's two armies, started with the book's settings (the pilot's own player is asked)."""
    from battles import services

    started = services.battle_create(user=alice, name="Вопросы", rosters=list(rosters))
    services.battle_join(token=started.sides.get(index=1).invite_token, user=bob)
    started.refresh_from_db()
    return started


def entry(key, profile, pilot=None):
    options = {"pilot": [{"entry": "e1", "soldier": pilot, "copy": 1}]} if pilot else {}
    return {"key": key, "profile": profile, "count": 1, "options": options}


def table(**settings) -> Table:
    """Красные: «Ополченцы планеты Гелион» (Бр 2), SALAMANDER piloted by militiaman 1. Синие: «Спецназ планеты Шиду»
    (Бр 5), RAPTOR piloted by commando 1, THUNDER (a flyer, Броня 11) by commando 2."""
    red = [entry("e1", BY_NAME["Ополченцы планеты Гелион"]), entry("e2", PROFILES["salamander"], 1)]
    blue = [entry("e1", BY_NAME["Спецназ планеты Шиду"]), entry("e2", PROFILES["raptor"], 1),
            entry("e3", PROFILES["thunder"], 2)]  # fmt: skip
    armies = [{"faction": "protectorate", "entries": red}, {"faction": "polaris", "entries": blue}]
    t = Table(SYSTEM, rosters=armies, settings=settings, names={0: "Красные", 1: "Синие"})
    t.settings["enforce_turns"] = False
    return t


def state(t, key):
    return t.state.units[key].state


def refused(t, side, name, inputs=None, dice=None) -> ArmlistError:
    before = len(t.events)
    with translation.override("ru"), pytest.raises(ArmlistError) as caught:
        t.command(side, name, inputs, dice=dice)
    assert len(t.events) == before  # nothing recorded
    return caught.value


def test_the_shot_asks_the_pilots_own_player_and_the_game_waits_for_him():
    t = table()
    with translation.override("ru"):
        t.command(0, "shoot", SHOT, dice=[4, 20, 15])
    assert state(t, RAPTOR)["strength"] == 7
    assert state(t, RAPTOR)["pilot"] is not None  # not rolled with the shot
    assert (
        "Дальше: Синие: пилот машины RAPTOR (пехотинец 1 из отряда «Спецназ планеты Шиду»)"
        in (t.last_outcome["steps"][-1])
    )
    waiting = t.awaiting()
    assert (waiting.kind, waiting.sides, waiting.commands) == ("question", (1,), ("answer",))
    # The shooter may not go on, nor answer for the other player; the message says whom the game waits for.
    assert refused(t, 0, "done", {"unit": SALAMANDER}).message.startswith("Ждём ответа стороны Синие: пилот машины")
    assert isinstance(refused(t, 0, "answer"), GameConflict)
    # A die that is not a d6 is refused in Russian; the question stays.
    wrong = refused(t, 1, "answer", dice=[7])
    assert wrong.errors == {"dice": "На кубике 1 7, но это Д6 (тест выживания): от 1 до 6."}
    assert t.state.game["questions"]
    # Борис rolls 6 against Бр 5: the pilot is killed; the question is answered once.
    with translation.override("ru"):
        t.command(1, "answer", dice=[6])
    assert t.last_outcome["summary"] == "Погиб."
    assert t.last_outcome["steps"][-1] == "Дальше: никаких тестов не требуется."
    assert state(t, RAPTOR)["pilot"] is None
    assert t.state.game["questions"] == []
    assert t.awaiting().kind == "anyone"
    twice = refused(t, 1, "answer", dice=[1])
    assert twice.message == "Никакой вопрос не ждёт ответа: на него уже ответили."
    assert t.replay_matches()


def test_with_the_attacker_rolling_the_pilot_test_comes_with_the_shot():
    t = table(pilot_tests="attacker")
    t.command(0, "shoot", SHOT, dice=[4, 20, 15, 6])
    assert state(t, RAPTOR)["pilot"] is None
    assert t.awaiting().kind == "anyone"
    assert "questions" not in t.events[0]["payload"]


def test_a_pilot_who_survives_keeps_his_vehicle_and_the_log_reads_in_russian():
    t = table()
    with translation.override("ru"):  # the phones' language: a line is worded as its writer's phone read it
        t.command(0, "shoot", SHOT, dice=[4, 20, 15])
        t.command(1, "answer", dice=[5])  # 5 against Бр 5: he survives
    assert state(t, RAPTOR)["pilot"]["soldier"] == 1
    with translation.override("ru"):
        lines = [SYSTEM.battle.describe_event(_event(e), _names(t)) for e in t.events if e["cause"] is None]
    assert lines[0].startswith("Выстрел, SALAMANDER: Попадание: повреждений — 2, прочность теперь 7")
    assert "тест пилота проходит его игрок" in lines[0]
    assert lines[1].endswith("Выжил.")


def test_melee_against_a_vehicle_asks_the_defender():
    t = table()
    # RAPTOR is down to strength 2 (set by hand); militiaman 2 (ББ 4) charges it: 6 + 4 against 1 + 2 (its Броня,
    # no melee weapon), 7 damage: destroyed (Table 7).
    t.command(1, "adjust", {"unit": RAPTOR, "changes": {"strength": 2}})
    t.command(0, "melee", {"unit": SQUAD, "soldier": 2, "target": RAPTOR}, dice=[6, 1])
    assert state(t, RAPTOR)["destroyed"]
    question = t.state.game["questions"][0]
    # The vehicle is gone: its pilot is on foot and takes the test as an infantryman (p.20).
    assert (question["test"], question["destroyed"], question["side"]) == ("survival", True, 1)
    t.command(1, "answer", dice=[2])
    commando = next(s for s in state(t, SHIDU)["soldiers"] if s["num"] == 1)
    assert (commando["alive"], commando["role"]) == (True, "dismounted")
    assert t.replay_matches()


def test_real_shooting_asks_for_the_armour_test_first():
    t = table(mode="real")
    # A rocket (power 4) hits RAPTOR, which stays standing: 9 -> 5; the Д12 armour test is Синие's.
    t.command(0, "shoot", {"unit": SALAMANDER, "target": RAPTOR, "charge": "rocket", "hit": True, "fell": False})
    question = t.state.game["questions"][0]
    assert (question["test"], question["die"]) == ("armour", 12)
    assert [d["faces"] for d in question_dice(question, t.settings)] == [12, 6]
    t.command(1, "answer", dice=[3])  # 3 <= Броня 5: the armour protected the pilot
    assert t.last_outcome["result"]["safe"] is True
    assert state(t, RAPTOR)["pilot"] is not None


def test_a_flyers_pilot_killed_in_flight_lands_it_on_its_players_roll():
    t = table()
    assert state(t, THUNDER)["flying"]
    # 4 + 3 = 7 hits at 5 steps; 20 and 15 beat Броня 11: 2 damage, 11 -> 9; the question has the landing's die.
    t.command(0, "shoot", {**SHOT, "target": THUNDER}, dice=[4, 20, 15])
    question = t.state.game["questions"][0]
    assert question["flying"] is True
    assert [d["faces"] for d in question_dice(question, t.settings)] == [6, 6]
    t.command(1, "answer", dice=[6, 2])  # 6 beats Бр 5: killed in flight; the landing: 2 damage, 9 -> 7 (p.19)
    thunder = state(t, THUNDER)
    assert (thunder["pilot"], thunder["flying"], thunder["strength"]) == (None, False, 7)


def test_an_undo_of_the_shot_takes_its_question_back():
    t = table()
    t.command(0, "shoot", SHOT, dice=[4, 20, 15])
    t.undo(0, seq=1)
    assert not t.state.game.get("questions")
    assert t.awaiting().kind == "anyone"
    assert state(t, RAPTOR)["strength"] == 9


def test_a_question_lapses_when_the_pilot_is_gone_meanwhile():
    t = table()
    t.command(0, "shoot", SHOT, dice=[4, 20, 15])
    t.command(1, "adjust", {"unit": SHIDU, "changes": {"soldier": 1, "alive": False}})  # a ruling by hand
    events = t.command(1, "answer")
    assert events[0]["type"] == "question.lapsed"
    assert t.state.game["questions"] == []
    assert t.replay_matches()


def _board(t, viewer):
    """The board a viewer's phone draws, from what the state API gives them (battles.selectors.battle_state)."""
    part, names = SYSTEM.battle, ("Красные", "Синие")
    units = []
    for key, u in t.state.units.items():
        owner = part.owner(t.state, key)
        units.append(
            {"key": key, "name": u.name, "kind": u.kind, "side": u.side, "owner": owner, "owner_name": names[owner],
             "mine": owner in viewer, "view": part.unit_view(t.state, u, frozenset(viewer))}
        )  # fmt: skip
    sides = [{"index": i, "name": names[i], "faction": "", "player": "p", "mine": i in viewer} for i in (0, 1)]
    view = {"game": t.state.game, "settings": t.settings, "sides": sides, "units": units, "version": t.version}
    return part.board(view, frozenset(viewer), can_write=True)


def test_the_board_asks_on_the_pilots_phone_and_tells_the_other_whom_it_waits_for():
    t = table()
    t.command(0, "shoot", SHOT, dice=[4, 20, 15])
    with translation.override("ru"):
        asked, other = _board(t, {1}), _board(t, {0})
    prompts = [w for w in asked["turnbar"] if w["type"] == "prompt"]
    assert len(prompts) == 1
    assert prompts[0]["command"] == "answer"
    assert prompts[0]["question"].startswith("После атаки стороны Красные: пилот машины RAPTOR")
    assert [d["label"] for d in prompts[0]["dice"]] == ["Д6 тест выживания"]
    assert [o["label"] for o in prompts[0]["options"]] == ["Бросить на сервере"]
    assert not [w for w in other["turnbar"] if w["type"] == "prompt"]
    texts = [w["value"] for w in other["turnbar"] if w["type"] == "text"]
    assert any(x.startswith("Ждём ответа стороны Синие: пилот машины RAPTOR") for x in texts)


def _event(row):
    from rules.contract import Event

    return Event(row["seq"], row["type"], row["payload"], row["side"], row["visible_to"])


def _names(t):
    return {"sides": {0: "Красные", 1: "Синие"}, "units": {k: u.name for k, u in t.state.units.items()}}


# Through the API, as a phone sends it: Russian refusals, nothing recorded -----------------------------------
def _client(user) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="ru")
    assert c.login(username=user.username, password=PASSWORD)
    return c


def _post(c, game, name, body, version):
    return c.post(
        f"/api/v1/battles/{game.pk}/commands/{name}/",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_IF_MATCH=f'"v{version}"',
    )


@pytest.mark.django_db(transaction=True)
def test_bad_answers_through_the_api_are_refused_in_russian_and_change_nothing(battle, alice, bob):
    # The fixture's RAPTOR (bob) shoots SALAMANDER (alice; its pilot, cyber-infantryman 2, has Бр 2) 5 steps away.
    shot = {"unit": RAPTOR, "weapon": "raketnaya-ustanovka", "target": SALAMANDER, "distance_steps": 5}
    version = Battle.objects.get(pk=battle.pk).version
    made = _post(_client(bob), battle, "shoot", {**shot, "dice": [3, 8, 12]}, version)
    assert made.status_code == 201, made.content
    version = Battle.objects.get(pk=battle.pk).version
    cases = (
        (bob, {"dice": [4]}, 409, "Ждём ответа стороны"),  # the wrong player
        (alice, {"dice": [7]}, 400, "На кубике 1 7, но это Д6 (тест выживания): от 1 до 6."),  # not a d6
        (alice, {"dice": [1, 1]}, 400, "Лишние кубики"),  # a die too many
    )
    for user, body, status, words in cases:
        answer = _post(_client(user), battle, "answer", body, version)
        assert answer.status_code == status, answer.content
        assert words in json.dumps(answer.json(), ensure_ascii=False), answer.json()
        assert Battle.objects.get(pk=battle.pk).version == version
    ok = _post(_client(alice), battle, "answer", {"dice": [1]}, version)
    assert ok.status_code == 201, ok.content
    again = _post(_client(alice), battle, "answer", {"dice": [1]}, version + 1)
    assert again.status_code == 409
    assert again.json()["detail"] == "Никакой вопрос не ждёт ответа: на него уже ответили."
    stale = _post(_client(alice), battle, "answer", {"dice": [1]}, version)  # a tap on the board as it was
    assert stale.status_code in (409, 412)
    assert Battle.objects.get(pk=battle.pk).version == version + 1
