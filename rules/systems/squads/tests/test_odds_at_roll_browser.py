"""The odds at the moment of the roll on a Russian phone («Отряды»): the shooting form says what is missing until the
range is typed, then shows the exact odds of this shot in the book's words; another target changes them; "compare
the choices" ranks both targets; the roll lands in the distribution the form showed ("a 12 % result"); the form and
the unit's stance chip link to the book's rule. Nothing scrolls sideways at 360 px."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from armies.services.packs import load_packs
from battles import services
from battles.tests.conftest import PASSWORD, make_user
from rules.systems.squads.tests.test_odds_at_roll import BLUE, RED, roster, send
from tests import journey

PERCENT = re.compile(r"\d+,\d %")


@pytest.fixture
def live_battle(transactional_db):
    pack = next(p for p, _created in load_packs() if p.slug == "squads-core")
    alice, bob = make_user("alice"), make_user("bob")
    red, blue = roster(alice, pack, "Red", RED), roster(bob, pack, "Blue", BLUE, vehicles=[("hmg",)])
    battle = services.battle_create(user=alice, name="Стычка", rosters=[red, blue])
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    battle.refresh_from_db()
    return battle, alice, bob


@pytest.mark.browser
def test_the_shooting_form_shows_its_odds_changes_them_with_the_target_ranks_and_places_the_roll(
    live_server, phone_context, live_battle
):
    battle, alice, _bob = live_battle
    red = Client()
    assert red.login(username=alice.username, password=PASSWORD)
    send(red, battle, "start_turn", {}, [5, 2])
    send(red, battle, "activate", {"unit": "s0-e1"}, [6])
    send(red, battle, "act", {"unit": "s0-e1", "action": "aimed_fire"})

    ctx = phone_context(**journey.PHONE)
    ctx.add_cookies([{"name": "sessionid", "value": red.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    journey.in_sync(page)
    form = page.locator('.turnbar form.prompt[data-order-command="shoot"]')
    odds = form.locator('[data-testid="odds-live"]')
    expect(odds).to_contain_text("Укажите дальность до цели.", timeout=journey.SYNC_MS)  # nothing typed: why
    form.locator('input[name="distance"]').fill("10")
    expect(odds.locator(".odds-headline")).to_contain_text("хотя бы один хит не спасен", timeout=journey.SYNC_MS)
    expect(odds).to_contain_text("Нанесено хитов")
    at_squad = odds.locator(".odds-headline strong").inner_text()
    assert PERCENT.fullmatch(at_squad), at_squad
    expect(odds.locator(".odds-bars li").first).to_be_visible()  # the hits as a small plot

    form.locator('select[name="target"]').select_option("s1-e2")  # the vehicle: only the RPG can harm it (L84)
    expect(odds.locator(".odds-headline strong")).not_to_have_text(at_squad, timeout=journey.SYNC_MS)
    expect(odds).to_contain_text("Самое тяжелое повреждение от атаки")
    expect(odds).to_contain_text("ТС не повреждено")

    form.get_by_role("button", name="Сравнить варианты").click()
    ranking = form.locator(".odds-compare ol li")
    expect(ranking).to_have_count(2, timeout=journey.SYNC_MS)
    expect(ranking.first).to_contain_text("Отряд: Рядовой")
    expect(ranking.first).to_contain_text(at_squad)
    ranking.first.get_by_role("button").click()  # choosing from the ranking fills the field
    expect(form.locator('select[name="target"]')).to_have_value("s1-e1")
    expect(odds.locator(".odds-headline strong")).to_have_text(at_squad, timeout=journey.SYNC_MS)

    rule = form.locator("a.rule-link")
    expect(rule).to_have_attribute("href", "rules/shoot/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    form.locator("button[type=submit]").click()  # the server rolls
    expect(page.locator('#result [data-testid="percentile"]')).to_contain_text("%", timeout=journey.SYNC_MS)
    assert PERCENT.search(page.locator('#result [data-testid="percentile"]').inner_text())
    page.screenshot(path="/tmp/squads/at-roll-result.png", full_page=True)
    journey.ok(page)

    card = page.locator('#board details[data-unit="s0-e1"]')
    card.locator("summary").click()
    chip = card.locator("a.rule-link", has_text="Правило: Прицельный огонь")  # the stance chip's rule (L23)
    expect(chip).to_be_visible(timeout=journey.SYNC_MS)
    chip.click()
    expect(page.locator("#rule")).to_contain_text("все фигуры в отряде получают +1 к стрельбе")
    expect(page.locator('[data-testid="house-rule"]')).to_be_visible()  # the 6+ cap and the aim: §5 B5
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert errors == []
