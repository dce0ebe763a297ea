"""Sharing in the roster header on a 360 px phone, in Russian: Copy puts the link on the clipboard, the QR code
opens, «Отозвать» stays on one line, nothing scrolls sideways, and choosing «Личный» warns before saving."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from armies import services

pytestmark = [pytest.mark.browser]


@pytest.fixture
def sharer(transactional_db, official_pack):
    user = get_user_model().objects.create_user(username="sharer", password="share-pass-4417")
    roster = services.roster_create(owner=user, pack=official_pack, name="Синяя армия", faction="protectorate")
    services.entry_add(roster=roster, profile="protectorate_kiberspetsnaz")
    link = services.share_link_create(roster=roster, user=user)
    return roster, link


def test_share_header_on_a_phone(live_server, phone_context, sharer):
    roster, link = sharer
    context = phone_context(locale="ru-RU")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/rosters/{roster.pk}/")
    page.fill("input[name=username]", "sharer")
    page.fill("input[name=password]", "share-pass-4417")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/rosters/{roster.pk}/")

    sharing = page.locator("#sharing")
    assert sharing.get_attribute("open") is not None  # a live link: open in the header
    revoke = sharing.locator(".share-link button.danger")
    assert revoke.inner_text() == "Отозвать"
    height, line = revoke.evaluate(
        "b => [b.getBoundingClientRect().height, parseFloat(getComputedStyle(b).lineHeight)]"
    )
    assert height < 2 * line + 20, (height, line)  # one line of text: no break inside the word

    copy = sharing.locator("[data-copy]")
    copy.click()
    expect(copy).to_have_text("Скопировано")  # expect(), not wait_for_function: the CSP forbids eval
    assert page.evaluate("navigator.clipboard.readText()").endswith(f"/s/{link.token}/")

    sharing.locator(".qr-toggle summary").click()
    assert sharing.locator("svg.qr-code").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.click("#settings summary")
    warning = page.locator("#visibility-warning")
    assert warning.is_hidden()  # still shared by link: nothing to warn about yet
    page.select_option("#id_visibility", "private")
    assert warning.is_visible()
    assert "перестанет работать" in warning.inner_text()
