"""The odds page of «Звездный Десант» in Russian on a 360 px phone: the joint outcomes (figures removed and markers
left together, each unit of a close combat, the First Player roll-off) are drawn in the book's words, never as the
codes the API answers, and nothing scrolls sideways."""

import json
import re

import pytest

from tests.odds_page import compute, no_sideways_scroll, open_in_russian

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CODES = re.compile(r"\b(removed|markers|first_roll|first_player|null|tie|side wins|wins|units)\b|object Object|\{")
PERCENT = r"\d+,\d %"


def test_the_joint_odds_are_drawn_in_russian_on_a_phone(live_server, phone_context):
    page, errors = open_in_russian(phone_context, live_server.url, "zvezdny-desant")

    groups = [{"count": 4, "weapon": {"skr": 2, "hrk": "В10", "msch": 2}}]
    text = compute(page, "shooting", selects={"shooter-order": "attack"}, fields={
        "shooter-groups": json.dumps(groups), "target-armour": "В", "target-stk": "3",
        "target-markers": "1", "target-groups": json.dumps([{"count": 3}])})  # fmt: skip
    assert re.search(rf"Убрано фигурок и осталось маркеров ранений: \(Убрано фигурок: 0; Маркеры ранений: 1\) → "
                     rf"{PERCENT}", text), text  # fmt: skip
    assert re.search(rf"\(Убрано фигурок: 3; Маркеры ранений: 0\) → {PERCENT}", text), text
    assert not CODES.search(text), text
    no_sideways_scroll(page)

    units = [{"unit": "Штурмовики", "side": 0, "figures": 3, "bsp": 8, "stk": 2, "markers": 1},
             {"unit": "Жуки", "side": 1, "figures": 2, "bsp": 7, "stk": 1}]  # fmt: skip
    text = compute(page, "melee", fields={"units": json.dumps(units, ensure_ascii=False)})
    for unit in ("Штурмовики", "Жуки"):
        assert re.search(rf"{unit} — Убрано фигурок и осталось маркеров ранений: \(Убрано фигурок: 0; Маркеры "
                         rf"ранений: \d\) → {PERCENT}", text), text  # fmt: skip
        assert re.search(rf"{unit} — Маркеры ранений: \d → {PERCENT}", text), text
    assert re.search(rf"Шанс победить в ближнем бою: Штурмовики → {PERCENT}, Жуки → {PERCENT}", text), text
    assert re.search(rf"первая сторона → {PERCENT}, вторая сторона → {PERCENT}", text), text
    assert not CODES.search(text), text
    no_sideways_scroll(page)

    text = compute(page, "first_player", selects={"previous": 0})
    assert "Шанс выбросить больше на первом броске: Игрок 1 → 47,5 %, Игрок 2 → 47,5 %" in text, text
    assert "(Первый бросок выиграл: ничья; Первый игрок: Игрок 1) → 2,5 %" in text, text
    assert "(Первый бросок выиграл: Игрок 2; Первый игрок: Игрок 2) → 47,5 %" in text, text
    assert not CODES.search(text), text
    no_sideways_scroll(page)
    assert errors == []
