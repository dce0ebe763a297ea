"""The odds at the moment of the roll on a Russian phone (issue #31): Kate opens her shot, sees its odds, changes the
target and sees them change, ranks the targets, picks one from the ranking, rolls with the dice typed in from the
table, and the result says where the roll fell; the rule of the form and of a status chip open in the book's words."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles.tests.conftest import PASSWORD
from rules.systems.enforcers.tests.test_at_roll import night, run  # noqa: F401 (the fixture)
from tests import journey, phones

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def russian_phone(phone_context, live_server, user, battle):
    russian = {**journey.PHONE, "locale": "ru-RU", "extra_http_headers": {"Accept-Language": "ru"}}
    page = phones.signed_in(
        phone_context, live_server.url, user, f"/battles/{battle.pk}/", password=PASSWORD, **russian
    )
    journey.in_sync(page)
    return page


def test_a_shot_shows_its_odds_follows_the_target_and_places_the_roll(live_server, phone_context, night):  # noqa: F811
    run(night, 0, "ready_weapon", {"weapon": 1, "how": "draw"})  # the shotgun (7 damage) next to the autogun
    run(night, 0, "set_status", {"unit": night["Kate"], "status": "poisoned", "on": True})
    page = russian_phone(phone_context, live_server, night["users"][0], night["battle"])
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    card = page.locator(f'details[data-unit="{night["Kate"]}"]')
    card.locator("> summary").click()
    fold = card.locator("details.fold-shoot")
    fold.locator("> summary").click()
    form = fold.locator('form[data-order-command="shoot"]')
    odds = form.locator('[data-testid="odds-live"]')

    # The shotgun at the Thug (HL 6, no armour): BS 12 at medium range hits on 12 of 20, and a hit takes him out.
    form.locator('select[name="weapon"]').select_option("1")
    form.locator('select[name="target"]').select_option(night["Thug"])
    expect(odds.locator(".odds-headline")).to_have_text("60,0 % цель выведена из строя", timeout=journey.SYNC_MS)
    expect(odds).to_contain_text("Попадание: 60,0 %")
    expect(odds).to_contain_text("HP цели-1: 60,0 % · 6: 40,0 %")  # a hit or a miss: one line
    expect(odds).to_contain_text("Состояние цели")
    # The Brute's Military Carapace (8 AP) takes the 7 damage: the headline falls to nothing.
    form.locator('select[name="target"]').select_option(night["Brute"])
    expect(odds.locator(".odds-headline")).to_have_text("0,0 % цель выведена из строя", timeout=journey.SYNC_MS)
    # The autogun (Bleeding, L230): a hit asks a TN test, so the sheets after the shot are three, drawn as bars.
    form.locator('select[name="weapon"]').select_option("0")
    expect(odds.locator(".odds-bars li").first).to_be_visible(timeout=journey.SYNC_MS)
    expect(odds).to_contain_text("Цель: Кровотечение: да")
    page.screenshot(path="/tmp/enf/at-roll-odds.png", full_page=True)
    form.locator('select[name="weapon"]').select_option("1")

    # Which target? The ranking puts the Thug first; picking him from it fills the field and the odds follow.
    form.locator('button[data-compare="target"]').click()
    ranking = form.locator(".odds-compare ol li")
    expect(ranking.first).to_contain_text("Thug", timeout=journey.SYNC_MS)
    expect(ranking.first).to_contain_text("60,0 %")
    ranking.first.get_by_role("button").click()
    expect(form.locator('select[name="target"]')).to_have_value(night["Thug"])
    expect(odds.locator(".odds-headline")).to_have_text("60,0 % цель выведена из строя", timeout=journey.SYNC_MS)

    # The rule at hand, in the book's words, with the house rule of this battle.
    rule = form.locator("a.rule-link")
    expect(rule).to_have_attribute("href", "rules/shoot/")

    # Roll: the d20 shows 3 (a hit); the Thug falls to −1 HP, a 60 % result (as low as 60 % of rolls).
    journey.type_dice(form, "data-enf-dice", [3])
    form.locator("[type=submit]").click()
    expect(page.locator('#result [data-testid="percentile"]')).to_contain_text("Результат на 60,0 %",
                                                                               timeout=journey.SYNC_MS)  # fmt: skip
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert errors == []

    # The status chip's rule: Poisoned, in the book's words.
    page.goto(f"{live_server.url}/battles/{night['battle'].pk}/rules/poisoned/")
    expect(page.locator("#rule")).to_contain_text("тест стойкости")
    expect(page.locator('[data-testid="house-rule"]')).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_counter_attack_asked_of_the_other_phone_shows_its_odds_and_strikes(
    live_server,
    phone_context,
    night,  # noqa: F811
):
    """Kate's blade misses the Thug (a d20 of 20): on Bob's phone the question to strike back (L212–214) shows the
    counter-attack's odds, and Bob strikes with the dice he rolled at the table."""
    run(night, 0, "ready_weapon", {"weapon": 2, "how": "switch"})
    run(night, 0, "melee", {"target": night["Thug"], "weapon": 2, "distance_cm": 1}, dice=[20, 6, 6])
    page = russian_phone(phone_context, live_server, night["users"][1], night["battle"])
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    form = page.locator('#board .turnbar form[data-order-command="counter_attack"]')
    odds = form.locator('[data-testid="odds-live"]')
    expect(odds.locator(".odds-headline")).to_contain_text("противник выведен из строя", timeout=journey.SYNC_MS)
    expect(odds).to_contain_text("Нападающий попадает")
    expect(form.locator("a.rule-link")).to_have_attribute("href", "rules/counter_attack/")
    # The d20 and three curse d6 (a counter-attack, L214; Kate's parry, WS 10: two, L210): a natural 1 is a critical
    # success whatever the curses.
    journey.type_dice(form, "data-enf-dice", [1, 1, 1, 1])
    form.get_by_role("button", name="Контр-атака", exact=True).click()
    expect(page.locator('#result [data-testid="percentile"]')).to_contain_text("Результат на", timeout=journey.SYNC_MS)
    expect(page.locator("#result")).to_contain_text("Thug")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert errors == []
