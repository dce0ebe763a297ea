"""The odds page of «Энфорсеры» in Russian on a phone: a distribution's values are the book's words
(«Тяжелоранен», «Убегать»), not the codes the API answers (seriously_wounded, flee)."""

import re

import pytest

from tests.odds_page import compute, no_sideways_scroll, open_in_russian

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CODES = re.compile(r"seriously_wounded|dying|flee|freeze|fight|none|unknown|true|false|\{")


def test_the_odds_page_names_wound_states_and_fear_actions_in_russian(live_server, phone_context):
    page, errors = open_in_russian(phone_context, live_server.url, "enforcers")

    # 6 damage to an agent with HL 6 and no armour: HP 0, seriously wounded for sure (L222).
    text = compute(page, "damage", {"target-stats-HL": "6", "amount": "6"})
    assert "Состояние: Тяжелоранен → 100,0 %" in text
    # The sheet after the test, its parts named one by one (issue «joint outcomes»).
    sheet = "(HP: 0; AP: 0; Состояние: Тяжелоранен; Страх: нет) → 100,0 %"
    assert f"Листы персонажей после проверки, вместе: {sheet}" in text
    assert not CODES.search(text), text
    no_sideways_scroll(page)

    # A fall of 9 cm at DX 10 (safe 5): 9 damage, then a TN test against Stunned: the AP and the stun together.
    text = compute(page, "fall", {"agent-stats-DX": "10", "agent-stats-HL": "10", "agent-stats-TN": "10",
                                  "height_cm": "9"}, until="Оглушён")  # fmt: skip
    assert "AP: 0 → 100,0 %" in text, text
    assert re.search(r"\(HP: 1; AP: 0; Состояние: невредим; Оглушён: да\) → \d+,\d %", text), text
    assert not CODES.search(text), text

    # A Fear test at WL 5: most agents fail and do one of the book's three Fear actions.
    text = compute(page, "fear_test", {"agent-stats-WL": "5"}, until="Замереть")
    for word in ("Убегать", "Замереть", "без действия Страха"):
        assert word in text, text
    assert not CODES.search(text), text
    assert errors == []
