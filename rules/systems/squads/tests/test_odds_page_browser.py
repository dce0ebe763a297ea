"""The odds page of «Отряды» in Russian on a phone: a chance per case (each side of a melee, how a run of activations
ends) and the worst effect of a vehicle attack are shown, each case named in the reader's language, not the codes
the API answers (attacker, defender, on_guard, weapon_destroyed), and nothing scrolls sideways at 360 px."""

import json
import re

import pytest

from tests.odds_page import compute, no_sideways_scroll, open_in_russian

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PERCENT = r"\d+,\d %"
CODES = re.compile(r"\b(attacker|defender|on_guard|withdraw|all_activated|none|crew_stunned|weapon_destroyed|"
                   r"immobilised|destroyed|activated|worst_effect|chain_end)\b|object Object|\{")  # fmt: skip


def test_the_odds_show_each_case_named_in_russian_on_a_phone(live_server, phone_context):
    page, errors = open_in_russian(phone_context, live_server.url, "squads")

    text = compute(page, "melee", fields={"attacker-figures": "6", "defender-figures": "5"})
    assert re.search(rf"атакующий → {PERCENT}", text), text
    assert re.search(rf"защищающийся → {PERCENT}", text), text
    assert not CODES.search(text), text

    units = [{"level": "veteran", "name": "Альфа"}, {"level": "recruit", "count": 2, "strength": 8, "casualties": 5}]
    text = compute(page, "activation_chain", fields={"units": json.dumps(units, ensure_ascii=False)})
    assert re.search(rf"Отрядов активировано до провала броска: 0 → {PERCENT}, 1 → {PERCENT}, 2 → {PERCENT}, "
                     rf"3 → {PERCENT}", text), text  # fmt: skip
    assert re.search(rf"Бросок провален: отряд выполняет «Защиту» → {PERCENT}", text), text
    assert re.search(rf"Бросок провален: отряд отступает \(L25\) → {PERCENT}", text), text
    assert "Шанс активировать первый отряд: 66,67 %" in text, text
    assert not CODES.search(text), text
    no_sideways_scroll(page)

    text = compute(page, "vehicle_hit", fields={"hits": "3"},
                   selects={"vehicle-armour": "light", "vehicle-facing": "rear", "weapon": "rpg"})  # fmt: skip
    assert re.search(rf"Самое тяжелое повреждение от атаки: ТС не повреждено → {PERCENT}, Экипаж оглушен → "
                     rf"{PERCENT}, Уничтожено оружие → {PERCENT}, Потеря мобильности → {PERCENT}, Транспортное "
                     rf"средство уничтожено → {PERCENT}", text), text  # fmt: skip
    assert not CODES.search(text), text
    no_sideways_scroll(page)
    assert errors == []
