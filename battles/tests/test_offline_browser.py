"""Play through a dropped connection: a phone that loses the Wi-Fi keeps every change in its outbox (with its
idempotency key) and sends them in order when the connection returns; a change the server refuses is shown to
the player with the board as it is now, and can be sent again. The board page itself opens offline."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from battles.models import BattleEvent
from battles.tests.test_browser import close_result, open_unit, phone_for, type_dice

SYNC_MS = 5000


def adjust_box(card):
    box = card.locator("details.adjust-box")
    if box.get_attribute("open") is None:
        box.locator("> summary").click()
    return box


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_three_changes_made_offline_reach_the_other_phone(live_server, phone_context, battle, alice, bob):
    blue = phone_for(phone_context, live_server, alice, battle)
    red = phone_for(phone_context, live_server, bob, battle)
    card = open_unit(blue, "0.e2.1")
    box = adjust_box(card)
    blue.context.set_offline(True)
    card.get_by_role("button", name="Strength −1").click()  # the sliders are on the unit's row
    expect(blue.locator("#sync-status")).to_contain_text("1 change waiting")
    card.get_by_role("button", name="Ammo −1").click()
    box.get_by_role("button", name="Lying").click()
    expect(blue.locator("#sync-status")).to_contain_text("3 changes waiting")
    assert BattleEvent.objects.filter(battle=battle, type="unit.adjusted").count() == 0

    blue.context.set_offline(False)
    salamander = open_unit(red, "0.e2.1")
    expect(salamander.locator("> summary")).to_contain_text("strength 6/7", timeout=SYNC_MS)
    expect(salamander.locator("[data-ammo]")).to_contain_text("11/", timeout=SYNC_MS)
    expect(salamander.locator("> summary .flags")).to_contain_text("lying", timeout=SYNC_MS)
    expect(blue.locator("#sync-status")).not_to_contain_text("waiting", timeout=SYNC_MS)
    adjusted = list(BattleEvent.objects.filter(battle=battle, type="unit.adjusted").order_by("seq"))
    assert [list(e.payload["changes"]) for e in adjusted] == [["strength_step"], ["ammo_step"], ["flags"]]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_offline_change_refused_on_return_is_shown_not_lost(live_server, phone_context, battle, alice, bob):
    blue = phone_for(phone_context, live_server, alice, battle)
    red = phone_for(phone_context, live_server, bob, battle)
    box = adjust_box(open_unit(blue, "0.e2.1"))
    blue.context.set_offline(True)
    box.get_by_role("button", name="Lying").click()
    expect(blue.locator("#sync-status")).to_contain_text("1 change waiting")

    # Meanwhile red shoots that very vehicle: blue's ruling was made on a state that is gone (a real conflict).
    open_unit(red, "1.e2.1").locator('button[data-act="shoot"]').click()
    sheet = red.locator("#action-sheet")
    sheet.locator("#f-target").select_option("0.e2.1")
    sheet.locator("#f-distance").fill("5")
    type_dice(sheet, [3, 8, 12, 5])
    sheet.locator("#f-go").click()
    close_result(red)

    blue.context.set_offline(False)
    result = blue.locator("#result")
    expect(result).to_contain_text("changed on another phone", timeout=SYNC_MS)
    expect(result).to_contain_text("Not recorded: SALAMANDER: Lying")
    assert not BattleEvent.objects.filter(battle=battle, type="unit.adjusted").exists()
    result.get_by_role("button", name="Send again").click()
    salamander = open_unit(red, "0.e2.1")
    expect(salamander.locator("> summary .flags")).to_contain_text("lying", timeout=SYNC_MS)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_board_page_opens_without_a_connection(live_server, phone_context, battle, alice):
    blue = phone_for(phone_context, live_server, alice, battle)
    blue.evaluate("navigator.serviceWorker.ready.then(() => true)")
    blue.reload()  # now under the service worker, which keeps the page
    expect(blue.locator("#sync-status")).to_contain_text("In sync")
    blue.context.set_offline(True)
    blue.reload()
    expect(blue.locator('details[data-unit="0.e2.1"]')).to_be_visible()
    # The page from the phone's cache works: a change waits in the outbox.
    open_unit(blue, "0.e2.1").get_by_role("button", name="Ammo −1").click()
    expect(blue.locator("#sync-status")).to_contain_text("1 change waiting", timeout=SYNC_MS)


def slider(card, name: str):
    """The value of the slider whose − button is named `name` ("Ammo −1"), as its row shows it ("12/16")."""
    return card.locator(".slider", has=card.page.get_by_role("button", name=name)).locator("[data-value]")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_offline_changes_show_at_once_survive_a_reload_and_arrive_in_order(
    live_server, phone_context, battle, alice, bob
):
    blue = phone_for(phone_context, live_server, alice, battle)
    red = phone_for(phone_context, live_server, bob, battle)
    blue.evaluate("navigator.serviceWorker.ready.then(() => true)")
    blue.reload()  # now under the service worker, which keeps the page as it is now
    expect(blue.locator("#sync-status")).to_contain_text("In sync")
    card = open_unit(blue, "0.e2.1")
    strength, ammo = slider(card, "Strength −1"), slider(card, "Ammo −1")
    expect(strength).to_have_text("7/7")
    full = int(ammo.inner_text().split("/")[0])

    # Online: a change the board learns by fetching the board, not by loading the page the worker keeps.
    card.get_by_role("button", name="Strength −1").click()
    expect(strength).to_have_text("6/7", timeout=SYNC_MS)
    expect(blue.locator("#sync-status")).to_contain_text("In sync", timeout=SYNC_MS)

    # Offline: each tap shows at once, marked as waiting; nothing reaches the server.
    blue.context.set_offline(True)
    card.get_by_role("button", name="Ammo −1").click()
    expect(ammo).to_contain_text(f"{full - 1}/")
    card.get_by_role("button", name="Strength −1").click()
    expect(strength).to_have_text("5/7")
    expect(card.locator(".slider.pending")).to_have_count(2)
    expect(card.locator("> summary")).to_contain_text("waiting to be sent")
    expect(blue.locator("#sync-status")).to_contain_text("2 changes waiting")
    expect(blue.locator("#pending li.waiting")).to_have_count(2)
    assert BattleEvent.objects.filter(battle=battle, type="unit.adjusted").count() == 1

    # A reload without a connection: the last board the phone knew (6/7, not the page's 7/7), the waiting changes
    # on it.
    blue.reload()
    card = open_unit(blue, "0.e2.1")
    strength, ammo = slider(card, "Strength −1"), slider(card, "Ammo −1")
    expect(strength).to_have_text("5/7")
    expect(ammo).to_contain_text(f"{full - 1}/")
    expect(card.locator(".slider.pending")).to_have_count(2)
    expect(blue.locator("#pending")).to_contain_text("Ammo −1")
    expect(blue.locator("#sync-status")).to_contain_text("2 changes waiting", timeout=SYNC_MS)

    # Back online: both reach the other phone, in the order they were made.
    blue.context.set_offline(False)
    salamander = open_unit(red, "0.e2.1")
    expect(salamander.locator("> summary")).to_contain_text("strength 5/7", timeout=SYNC_MS)
    expect(salamander.locator("[data-ammo]")).to_contain_text(f"{full - 1}/", timeout=SYNC_MS)
    expect(blue.locator("#sync-status")).not_to_contain_text("waiting", timeout=SYNC_MS)
    expect(blue.locator("#pending")).to_have_count(0)
    expect(blue.locator('details[data-unit="0.e2.1"] .slider.pending')).to_have_count(0)
    adjusted = list(BattleEvent.objects.filter(battle=battle, type="unit.adjusted").order_by("seq"))
    assert [list(e.payload["changes"]) for e in adjusted] == [["strength_step"], ["ammo_step"], ["strength_step"]]


CACHED = """() => caches.keys().then((keys) => Promise.all(keys.map((key) =>
  caches.open(key).then((cache) => cache.keys()).then((requests) => [key, requests.map((r) => r.url)]))))"""


def kept(page) -> dict[str, list[str]]:
    """The service worker's caches on the phone: {name: [the addresses kept]}."""
    return dict(page.evaluate(CACHED))


def kept_scripts(page, name: str) -> list[str]:
    """The versions of the static file `name` the phone keeps."""
    return sorted(url.split("?v=")[-1] for urls in kept(page).values() for url in urls if f"/static/{name}?" in url)


def script_src(page, name: str) -> str:
    return page.locator(f'script[src*="{name}"]').get_attribute("src")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_upgraded_server_reaches_a_phone_that_kept_the_old_scripts(
    live_server, phone_context, battle, alice, monkeypatch
):
    """The service worker serves static files from its cache first. After the laptop's Armlist is upgraded (here:
    its static files' version changes), the phone's next page load runs the new scripts, not the kept ones; the new
    worker drops the old ones, and the board still opens offline afterwards. (Before, the addresses carried no
    version, and the phone ran the kept scripts under the new pages.)"""
    from config import pwa, static

    old = static.static_version()
    blue = phone_for(phone_context, live_server, alice, battle)
    blue.evaluate("navigator.serviceWorker.ready.then(() => true)")
    blue.reload()  # now under the service worker, which keeps the page and its scripts
    expect(blue.locator("#sync-status")).to_contain_text("In sync")
    assert script_src(blue, "battles/battle.js") == f"/static/battles/battle.js?v={old}"
    assert list(kept(blue)) == ["armlist"]
    assert kept_scripts(blue, "battles/battle.js") == [old]

    new = "0123456789ab"
    monkeypatch.setattr(static, "static_version", lambda: new)
    monkeypatch.setattr(pwa, "static_version", lambda: new)
    pwa._worker_source.cache_clear()
    try:
        blue.reload()
        assert script_src(blue, "battles/battle.js") == f"/static/battles/battle.js?v={new}"
        expect(blue.locator("#sync-status")).to_contain_text("In sync", timeout=SYNC_MS)
        # The browser finds the new worker (its bytes changed with the version); once it is active, only the new
        # scripts are kept: the page just loaded fetched them.
        deadline = time.monotonic() + SYNC_MS / 1000
        while kept_scripts(blue, "battles/battle.js") != [new] and time.monotonic() < deadline:
            blue.wait_for_timeout(100)
        assert kept_scripts(blue, "battles/battle.js") == [new]
        blue.context.set_offline(True)
        blue.reload()
        expect(blue.locator('details[data-unit="0.e2.1"]')).to_be_visible()
        assert script_src(blue, "battles/battle.js") == f"/static/battles/battle.js?v={new}"
        expect(blue.locator("#sync-status")).to_contain_text("Offline", timeout=SYNC_MS)
    finally:
        pwa._worker_source.cache_clear()
