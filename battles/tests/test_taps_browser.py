"""Two phones tapping at once: a step of each player's own unit, sent within the same moment, 20 times. Taps that
commute both count (the runner rebases them); nothing is lost or refused."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles.models import BattleEvent, BattleUnit
from battles.tests.test_browser import open_unit, phone_for
from battles.tests.test_offline_browser import adjust_box

ROUNDS = 20


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_two_phones_tap_different_units_at_once_and_nothing_is_lost(live_server, phone_context, battle, alice, bob):
    blue = phone_for(phone_context, live_server, alice, battle)
    red = phone_for(phone_context, live_server, bob, battle)
    boxes = {"blue": adjust_box(open_unit(blue, "0.e2.1")), "red": adjust_box(open_unit(red, "1.e2.1"))}
    for i in range(ROUNDS):
        name = "Ammo −1" if i < ROUNDS // 2 else "Ammo +1"
        # Both taps leave before either answer comes back: the second is based on the version the first changed.
        blue.evaluate("([sel]) => document.querySelector(sel).click()", [_button(name, "0.e2.1")])
        red.evaluate("([sel]) => document.querySelector(sel).click()", [_button(name, "1.e2.1")])
        for page, key in ((blue, "0.e2.1"), (red, "1.e2.1")):
            expected = 12 - (i + 1) if i < ROUNDS // 2 else 12 - ROUNDS + (i + 1)
            expect(page.locator(f'details[data-unit="{key}"] [data-ammo]')).to_contain_text(
                f"{expected}/", timeout=10_000
            )
        assert boxes  # the boxes stay open across board updates
    adjusted = BattleEvent.objects.filter(battle=battle, type="unit.adjusted")
    assert adjusted.count() == 2 * ROUNDS
    assert BattleUnit.objects.get(battle=battle, key="0.e2.1").state["ammo"] == 12
    assert BattleUnit.objects.get(battle=battle, key="1.e2.1").state["ammo"] == 12
    for page in (blue, red):
        expect(page.locator("#result")).to_be_hidden()  # no refusal was shown


def _button(name: str, unit: str) -> str:
    step = -1 if "−" in name else 1
    return f'details[data-unit="{unit}"] button[data-command="adjust"][data-inputs*=\'"ammo_step": {step}\']'
