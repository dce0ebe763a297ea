"""At the table on a 360 × 740 phone (issue 19): the sliders on a unit's row (a tap steps and keeps the focus, a long
press or a drag sets), typed-in dice one labelled box each (a refusal keeps the sheet open with what was typed),
and the result's OK in view; the other phone's change moves neither the focus nor the scroll."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles.models import BattleUnit
from battles.tests.test_browser import open_unit, phone_for

SYNC_MS = 5000


def ammo(key: str) -> int:
    return BattleUnit.objects.get(key=key).state["ammo"]


def active_label(page) -> str:
    return page.evaluate("document.activeElement.getAttribute('aria-label') || document.activeElement.tagName")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sliders_on_the_row_step_set_and_keep_the_focus(live_server, phone_context, battle, alice):
    blue = phone_for(phone_context, live_server, alice, battle)
    card = open_unit(blue, "0.e2.1")
    ammo_row = card.locator(".slider", has=blue.get_by_role("button", name="Ammo −1"))
    # One tap steps; the focus stays on − after the board is redrawn.
    minus = card.get_by_role("button", name="Ammo −1")
    minus.focus()
    blue.keyboard.press("Enter")
    expect(ammo_row.locator("[data-value]")).to_have_text("11/12", timeout=SYNC_MS)
    assert active_label(blue) == "Ammo −1"
    blue.keyboard.press("Enter")
    expect(ammo_row.locator("[data-value]")).to_have_text("10/12", timeout=SYNC_MS)
    assert active_label(blue) == "Ammo −1"
    # The phone shows a change at once, marked as waiting (issue 26); the next key waits until the server has it.
    expect(card.locator(".slider.pending")).to_have_count(0, timeout=SYNC_MS)
    # The arrow keys on the scale step too, and the focus stays on the scale.
    scale = ammo_row.locator(".scale")
    scale.focus()
    blue.keyboard.press("ArrowUp")
    expect(ammo_row.locator("[data-value]")).to_have_text("11/12", timeout=SYNC_MS)
    assert blue.evaluate("document.activeElement.classList.contains('scale')")
    expect(card.locator(".slider.pending")).to_have_count(0, timeout=SYNC_MS)
    # A long press on a number sets it.
    box = ammo_row.locator('.cell[data-n="5"]').bounding_box()
    blue.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    blue.mouse.down()
    blue.wait_for_timeout(700)
    blue.mouse.up()
    expect(ammo_row.locator("[data-value]")).to_have_text("5/12", timeout=SYNC_MS)
    expect(card.locator(".slider.pending")).to_have_count(0, timeout=SYNC_MS)
    assert ammo("0.e2.1") == 5
    # A drag along the strength track sets it where the finger stops (7 → 4).
    track = card.locator(".slider-track")
    start = track.locator('.cell[data-n="7"]').bounding_box()
    stop = track.locator('.cell[data-n="4"]').bounding_box()
    blue.mouse.move(start["x"] + 5, start["y"] + 5)
    blue.mouse.down()
    blue.mouse.move(stop["x"] + 5, stop["y"] + 5, steps=5)
    blue.mouse.up()
    expect(track.locator("[data-value]")).to_have_text("4/7", timeout=SYNC_MS)
    expect(card.locator(".slider.pending")).to_have_count(0, timeout=SYNC_MS)  # shown at once, then stored
    assert BattleUnit.objects.get(key="0.e2.1").state["strength"] == 4
    # A short tap changes nothing and says how.
    cell = track.locator('.cell[data-n="2"]')
    cell.click()
    expect(blue.locator("#sync-status")).to_contain_text("Hold a number")
    assert BattleUnit.objects.get(key="0.e2.1").state["strength"] == 4
    assert blue.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_typed_dice_one_box_each_and_a_refusal_keeps_the_sheet(live_server, phone_context, battle, bob):
    red = phone_for(phone_context, live_server, bob, battle)
    open_unit(red, "1.e2.1").locator('button[data-act="shoot"]').click()
    sheet = red.locator("#action-sheet")
    sheet.locator("#f-target").select_option("0.e2.1")
    sheet.locator("#f-distance").fill("5")
    boxes = sheet.locator("[data-dice-boxes] input")
    expect(sheet.locator("[data-dice-boxes] label").first).to_have_text("D6 range roll ")
    expect(sheet.locator("[data-dice-boxes]")).to_contain_text("D20 power die 1 of 2")
    boxes.nth(0).fill("3")
    boxes.nth(1).fill("8")
    expect(boxes.nth(1)).to_have_value("8")
    red.wait_for_timeout(400)  # the boxes settle after each die
    boxes.nth(2).fill("")  # one die short: the server refuses
    sheet.locator("#f-go").click()
    error = sheet.locator(".form-error")
    expect(error).to_contain_text("Not enough dice")
    expect(sheet).to_be_visible()
    expect(sheet.locator("#f-distance")).to_have_value("5")
    expect(boxes.nth(0)).to_have_value("3")
    expect(boxes.nth(1)).to_have_value("8")
    expect(red.locator("#result")).to_be_hidden()
    # Completed, it goes through and the sheet closes.
    boxes.nth(2).fill("12")
    boxes.nth(3).fill("5")
    sheet.locator("#f-go").click()
    expect(sheet).to_be_hidden()
    expect(red.locator("#result")).to_contain_text("Hit: 2 damage")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_ok_in_view_and_the_other_phone_moves_neither_focus_nor_scroll(live_server, phone_context, battle, alice, bob):
    blue = phone_for(phone_context, live_server, alice, battle)
    red = phone_for(phone_context, live_server, bob, battle)
    # Red's shot fills the result box; its OK is within the 740 px screen without scrolling.
    start = red.locator("#battle").get_attribute("data-version")
    open_unit(red, "1.e2.1").locator('button[data-act="shoot"]').click()
    sheet = red.locator("#action-sheet")
    sheet.locator("#f-target").select_option("0.e2.1")
    sheet.locator("#f-distance").fill("5")
    sheet.locator("#f-go").click()
    ok = red.locator("#result").get_by_role("button", name="OK")
    expect(ok).to_be_visible()
    box = ok.bounding_box()
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= 740
    assert box["height"] >= 44
    ok.click()
    expect(red.locator("#result")).to_be_hidden()
    # The shot reaches blue's board first: that redraw, landing under the scroll below, detached the button once.
    expect(red.locator("#battle")).not_to_have_attribute("data-version", start, timeout=SYNC_MS)
    shot = red.locator("#battle").get_attribute("data-version")
    expect(blue.locator("#battle")).to_have_attribute("data-version", shot, timeout=SYNC_MS)

    # Blue scrolls to the mortar and puts the focus on its Ammo +1; red then changes its own unit.
    mortar = open_unit(blue, "0.e3.1")
    open_unit(blue, "0.e2.1")
    minus = mortar.get_by_role("button", name="Ammo −1")
    minus.scroll_into_view_if_needed()
    blue.evaluate("window.scrollBy(0, 120)")
    minus.focus()
    before = blue.evaluate("window.scrollY")
    version = blue.evaluate("document.getElementById('battle').dataset.version")
    red.locator('details[data-unit="1.e2.1"]').get_by_role("button", name="Ammo −1").click()
    expect(blue.locator("#battle")).not_to_have_attribute("data-version", version, timeout=SYNC_MS)
    assert active_label(blue) == "Ammo −1"
    assert blue.evaluate("document.activeElement.closest('[data-unit]').dataset.unit") == "0.e3.1"
    assert abs(blue.evaluate("window.scrollY") - before) <= 2
