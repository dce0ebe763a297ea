"""The builder on a 360 px phone in the system Chromium: totals and validation update live, without a reload."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from armies import services

pytestmark = [pytest.mark.browser]


@pytest.fixture
def player(transactional_db, official_pack):
    user = get_user_model().objects.create_user(username="player", password="phone-pass-2931")
    roster = services.roster_create(owner=user, pack=official_pack, name="Phone army", faction="protectorate")
    services.entry_add(roster=roster, profile="protectorate_kiberspetsnaz")
    return user, roster


def test_builder_updates_live_on_a_phone(live_server, phone_context, player):
    user, roster = player
    page = phone_context().new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/rosters/{roster.pk}/")
    page.fill("input[name=username]", "player")
    page.fill("input[name=password]", "phone-pass-2931")
    page.click("main button[type=submit]")  # the header has buttons too (language)
    page.wait_for_url(f"**/rosters/{roster.pk}/")
    total = page.locator('[data-testid="total"]')
    assert total.inner_text() == "90"
    page.evaluate("window.__noReload = true")

    page.click('[data-action="add"][data-profile="viper"]')
    expect(page.locator('[data-testid="total"]')).to_have_text("140")
    viper = page.locator(".entry.kind-vehicle")
    assert "VIPER needs a pilot" in viper.inner_text()
    assert page.locator('[data-testid="error-count"]').inner_text() == "1 error"

    viper.locator('select[data-option="pilot"]').select_option(index=1)
    expect(page.locator('[data-testid="error-count"]')).to_have_text("valid")
    assert "drives VIPER" in page.locator(".entry.kind-squad").inner_text()

    page.locator(".entry.kind-squad").locator('[data-action="inc"]').click()
    expect(page.locator('[data-testid="total"]')).to_have_text("230")
    page.locator(".entry.kind-vehicle").locator('input[data-option="weapons"]').first.uncheck()
    expect(page.locator("body")).to_contain_text("has no weapon fitted")

    page.locator(".entry.kind-vehicle").locator('[data-action="duplicate"]').click()
    expect(page.locator('[data-testid="total"]')).to_have_text("280")
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator(".entry.kind-vehicle").nth(1).locator('[data-action="remove"]').click()
    expect(page.locator('[data-testid="total"]')).to_have_text("230")

    assert page.evaluate("window.__noReload") is True  # the page was never reloaded
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling on a phone
    roster.refresh_from_db()
    assert roster.entries.count() == 2
