"""Russian first (issues #12/#14/#19) on «Звездный Десант»: the banner and the turn messages name the sides as the
rosters do, the wound-marker counter has − and + on the unit's row, and every choice setting reads as words."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.utils import translation

from rules.contract import Event, RuleInputError
from rules.contract.testing import Table
from rules.systems.zvezdny_desant.settings import SETTINGS
from rules.systems.zvezdny_desant.system import SYSTEM

PACK = json.loads((Path(__file__).parents[1] / "data" / "demo-examples.json").read_text(encoding="utf-8"))
ROSTERS = [SYSTEM.army.example_roster(PACK["profiles"], s) for s in (0, 1)]
NAMES = {0: "Роста", 1: "Арахниды"}


def table() -> Table:
    return Table(SYSTEM, rosters=copy.deepcopy(ROSTERS), names=NAMES)


def board(t: Table, viewer=frozenset({0})) -> dict:
    seen = t.view(set(viewer))
    view = {
        "game": seen["game"],
        "sides": [{"index": i, "name": n} for i, n in NAMES.items()],
        "units": [{"key": k, "name": u.name, "owner": u.side, "side": u.side, "view": seen["units"][k]}
                  for k, u in t.state.units.items()],
    }  # fmt: skip
    return SYSTEM.battle.board(view, viewer, can_write=True)


def markers_counter(b: dict, side: int = 0) -> dict:
    return b["groups"][side]["units"][0]["widgets"][0]


def test_the_banner_names_the_winner_as_the_roster_does_in_russian():
    t = table()
    b1 = [k for k, u in t.state.units.items() if u.side == 1]
    for key in b1:  # side 1 is wiped out by hand: side 0 wins on points
        t.state.units[key].state = {**t.state.units[key].state, "figures": 0}
    t.command(0, "end_game", {})
    assert t.state.game["result"]["winner"] == 0
    with translation.override("ru"):
        banner = board(t)["banner"]
    assert banner["title"] == "Игра окончена."
    assert banner["text"].startswith("Победа: Роста, победные очки")
    assert "side" not in json.dumps(banner, ensure_ascii=False)
    assert banner["note"] == "Чтобы играть дальше, отмените последние события в истории."


def test_turn_messages_name_the_sides():
    t = table()
    out = t.command(0, "start_turn", {}, dice=[15, 4])
    assert t.state.game["first_player"] == 0
    assert out
    with translation.override("ru"):
        names = {"units": {}, "sides": {}}  # a log without names still counts sides from 1, in Russian
        line = SYSTEM.battle.describe_event(Event(1, "turn_started", {"turn": 1, "first_player": 1}), names)
        assert line == "Ход 1: Первый игрок — сторона 2." or "сторона 2" in line
        a1, a2 = [k for k, u in t.state.units.items() if u.side == 0]
        b1, b2 = [k for k, u in t.state.units.items() if u.side == 1]
        t.command(0, "give_orders", {"orders": [{"unit": a1, "order": "defence", "initiative": 6},
                                                {"unit": a2, "order": "move", "initiative": 4}]})  # fmt: skip
        t.command(1, "give_orders", {"orders": [{"unit": b1, "order": "attack", "initiative": 6},
                                                {"unit": b2, "order": "defence", "initiative": 4}]})  # fmt: skip
        message = t.awaiting().message
    assert message == "Роста: действует подразделение с инициативой 6."


def test_the_wound_marker_counter_steps_on_the_row():
    t = table()
    key = next(k for k, u in t.state.units.items() if u.side == 0)
    stk = t.state.units[key].profile["stk"]
    assert stk >= 2
    with translation.override("ru"):
        counter = markers_counter(board(t))
    assert counter["label"] == "Маркеры ранений"
    minus, plus = counter["step"]["minus"], counter["step"]["plus"]
    assert (minus["label"], plus["label"]) == ("−", "+")
    assert minus["disabled"]  # 0 markers: nothing to take off
    assert not plus["disabled"]
    assert plus["aria_label"] == "Маркеры ранений +1"
    assert (plus["command"], plus["inputs"]) == ("wounds", {"unit": key, "step": 1})
    t.command(0, plus["command"], plus["inputs"])
    assert t.state.units[key].state["markers"] == 1
    assert markers_counter(board(t))["value"] == 1
    assert t.replay_matches()
    for _step in range(stk - 2):
        t.command(0, "wounds", {"unit": key, "step": 1})
    assert markers_counter(board(t))["step"]["plus"]["disabled"]  # at СТК − 1: a figure dies only in play (L565)
    with translation.override("ru"), pytest.raises(RuleInputError) as exc:
        t.command(0, "wounds", {"unit": key, "step": 1})
    assert "Маркеров ранений может быть от 0 до" in exc.value.errors["step"]
    assert t.state.units[key].state["markers"] == stk - 1  # the refusal changed nothing
    with translation.override("ru"):
        line = SYSTEM.battle.describe_event(Event(9, "wounds_marked", {"unit": key, "step": 1, "markers": 2}),
                                            {"units": {key: "Отряд"}, "sides": {}})  # fmt: skip
    assert line == "Отряд: маркеров ранений 2 (вручную)."
    # The other side's phone (and a spectator) gets no buttons on units it does not own.
    assert markers_counter(board(t, frozenset({1})))["step"] is None


def test_every_choice_setting_reads_as_words_in_both_languages():
    choice_settings = [s for s in SETTINGS if s.kind == "choice"]
    assert len(choice_settings) > 20
    for setting in choice_settings:
        assert {value for value, _label in setting.choice_labels} == set(setting.choices), setting.key
        with translation.override("en"):
            english = dict(map(tuple, setting.describe()["choice_labels"]))
        with translation.override("ru"):
            russian = dict(map(tuple, setting.describe()["choice_labels"]))
        for value in setting.choices:
            assert english[value] != value, (setting.key, value)
            assert russian[value] != english[value], (setting.key, value)
    with translation.override("ru"):
        labels = dict(map(tuple, SETTINGS[[s.key for s in SETTINGS].index("vp_rounding")].describe()["choice_labels"]))
    assert labels == {"exact": "точно (например, 62,5)", "down": "с округлением вниз", "up": "с округлением вверх"}


@pytest.mark.django_db
def test_the_odds_page_carries_readable_result_labels_in_russian():
    import re

    from django.test import Client

    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/odds/?system=zvezdny-desant")
    assert page.status_code == 200
    text = page.content.decode()
    data = json.loads(re.search(r'<script id="odds-schema" type="application/json">(.*?)</script>', text, re.S)[1])
    hit = next(a for a in data if a["key"] == "hit_test")
    assert hit["result_labels"]["p_hit"] == "Шанс попадания"
    assert hit["result_labels"]["expected_hits"] == "Попаданий в среднем"
    # Every key the hit test answers has a label, so the page never prints `p_hit` as it is.
    odds = SYSTEM.action("hit_test").odds({"shooter_order": "attack"}, SYSTEM.resolve_settings({}))
    assert set(odds) - {"need", "raw", "terms"} <= set(hit["result_labels"])


def test_bronepekhota_declares_its_result_labels_in_russian():
    from rules.registry import get_system

    system = get_system("bronepekhota")
    with translation.override("ru"):
        labels = system.action("virtual_shot").describe()["result_labels"]
    assert labels["p_hit"] == "Шанс попадания"
    assert labels["p_destroyed"] == "Шанс, что подразделение уничтожено"
