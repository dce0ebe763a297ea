"""The odds page of «5150» in Russian on a 360 px phone: a group test shows how the whole group comes out together
(how many figures passed by 2, 1 and 0 dice; how many on each row of the table), in the book's words, never as the
codes the API answers, and nothing scrolls sideways."""

import json
import re

import pytest

from tests.odds_page import compute, no_sideways_scroll, open_in_russian

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CODES = re.compile(r"passed_|joint|\b(charge|stay|up to|pass [0-2])\b|object Object|\{")


def test_a_group_tests_joint_result_is_drawn_in_russian_on_a_phone(live_server, phone_context):
    page, errors = open_in_russian(phone_context, live_server.url, "5150")

    # The book's Leader Die (L273–282): Leader Rep 4 stays back, Rep 4 and Rep 3 charge in the open.
    members = [{"rep": 4, "leader": True, "tests": False}, {"rep": 4}, {"rep": 3}]
    text = compute(page, "wanting_to_charge", {"members": json.dumps(members)}, checks=("use_leader_die",))
    assert ("Вся группа вместе: сколько фигурок прошли тест: (прошли по 2 кубикам: 2; прошли по 1 кубику: 0; "
            "прошли по 0 кубиков: 0) → 58,3 %") in text, text  # fmt: skip
    assert ("Вся группа вместе: сколько фигурок на каждой строке таблицы: (атакуют: 2) → 91,7 %, (атакуют: 1; "
            "остаются на месте: 1) → 4,6 %, (остаются на месте: 2) → 3,7 %") in text, text  # fmt: skip
    assert not CODES.search(text), text
    no_sideways_scroll(page)

    text = compute(page, "fast_move", {"members": json.dumps([{"rep": 4}, {"rep": 3}])})
    assert "(до 16″: 2) → 25,0 %" in text, text  # both dice 1–3
    assert not CODES.search(text), text
    no_sideways_scroll(page)
    assert errors == []
