"""The odds page on a 360 px phone: it computes on load, follows the form, and switches tabs."""

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_odds_page_on_a_phone(live_server, phone_context):
    page = phone_context().new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/odds/")
    # The first answer (Д6+2 / 2Д6 at 20 cm = 4 steps against Бр 3) arrives by itself: hit 5/6.
    hit = page.locator("#shot-result .odds-stat", has_text="Hit")
    hit.wait_for(timeout=10_000)
    assert "83.3 %" in hit.inner_text()
    assert "5/6" in hit.inner_text()
    assert page.locator("#shot-result .bar-row").count() == 3  # damage 0, 1, 2
    # Nothing wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # Change the distance: 40 cm = 8 steps is out of reach for Д6+2 … except a roll of 6.
    page.fill("#shot-distance", "40")
    page.locator("#shot-result .odds-stat", has_text="1/6").first.wait_for(timeout=10_000)

    # A vehicle target shows the pilot line.
    page.select_option("#shot-target-kind", "vehicle")
    page.fill("#shot-armour", "7")
    page.locator("#shot-result .odds-stat", has_text="Pilot killed").wait_for(timeout=10_000)

    # Bad notation answers a readable message, not a blank.
    page.fill("#shot-range", "Д7")
    page.locator("#shot-result .odds-error").wait_for(timeout=10_000)
    assert "d6, d12 or d20" in page.locator("#shot-result .odds-error").inner_text()

    # Melee tab: ББ 2 against Бр 3 wins 5/18.
    page.click("#tab-btn-melee")
    wins = page.locator("#melee-result .odds-stat", has_text="Attacker wins")
    wins.wait_for(timeout=10_000)
    assert "5/18" in wins.inner_text()
    assert page.is_hidden("#tab-shot")

    # Survival tab with the panic rule.
    page.click("#tab-btn-survival")
    page.check("#survival-form input[name=panic]")
    page.locator("#survival-result .odds-stat", has_text="panics").wait_for(timeout=10_000)
    assert re.search(r"50\.0 %", page.locator("#survival-result").inner_text())
    assert errors == []
