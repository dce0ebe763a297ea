"""The odds page of «Отряды» in Russian on a phone: a chance per case (each side of a melee) is shown, each case named
in the reader's language, not the codes the API answers (attacker, defender)."""

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_melee_odds_show_each_sides_chance_named_in_russian(live_server, phone_context):
    page = phone_context(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}).new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/odds/?system=squads")
    page.select_option("#odds-action", "melee")
    page.fill("#f-attacker-figures", "6")
    page.fill("#f-defender-figures", "5")
    page.click("#odds-go")
    result = page.locator("#odds-result")
    result.locator("p").first.wait_for(timeout=30_000)  # generous: the machine may be busy
    text = result.inner_text()
    assert re.search(r"атакующий → \d+,\d %", text), text
    assert re.search(r"защищающийся → \d+,\d %", text), text
    assert not re.search(r"\b(attacker|defender)\b", text), text
    assert errors == []
