"""Two phones, one battle: each player on their own 360 px phone plays a shot, a melee and an undo; the other phone
sees every change within about two seconds (ETag polling)."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client
from playwright.sync_api import expect

from battles.tests.conftest import PASSWORD

SYNC_MS = 2000  # the other phone must show a change within this time


def phone_for(phone_context, live_server, user, battle):
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    ctx = phone_context()
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    expect(page.locator("#sync-status")).to_contain_text("In sync")
    return page


def open_unit(page, key):
    card = page.locator(f'details[data-unit="{key}"]')
    if card.get_attribute("open") is None:
        card.locator("> summary").click()
    return card


def close_result(page):
    box = page.locator("#result")
    expect(box).to_be_visible()
    box.get_by_role("button", name="OK").click()


def type_dice(sheet, values):
    """The dice rolled at the table, one box per die (dice_boxes.js diceBoxes): the boxes come from the test itself."""
    boxes = sheet.locator("[data-dice-boxes] input")
    for i, value in enumerate(values):
        expect(boxes.nth(i)).to_be_visible()
        boxes.nth(i).fill(str(value))
    expect(boxes).to_have_count(len(values))
    for i, value in enumerate(values):
        expect(boxes.nth(i)).to_have_value(str(value))


def seen_within(locator, text, *, since: float) -> float:
    expect(locator).to_contain_text(text, timeout=SYNC_MS)
    return time.monotonic() - since


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_two_phones_play_a_short_game(live_server, phone_context, battle, alice, bob):
    blue = phone_for(phone_context, live_server, alice, battle)
    red = phone_for(phone_context, live_server, bob, battle)
    for page in (blue, red):
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling on a phone

    # Red: RAPTOR shoots SALAMANDER at 5 steps with the dice rolled at the table.
    raptor = open_unit(red, "1.e2.1")
    raptor.locator('button[data-act="shoot"]').click()
    sheet = red.locator("#action-sheet")
    expect(sheet).to_be_visible()
    sheet.locator("#f-target").select_option("0.e2.1")
    sheet.locator("#f-distance").fill("5")
    type_dice(sheet, [3, 8, 12, 5])
    sheet.locator("#f-go").click()
    result = red.locator("#result")
    expect(result).to_contain_text("Hit: 2 damage")
    expect(result.locator(".die")).to_have_count(4)  # every die is shown with what it was for
    expect(result).to_contain_text("range roll")
    start = time.monotonic()
    salamander = open_unit(blue, "0.e2.1")
    lag_shot = seen_within(salamander.locator("[data-armour]"), "5", since=start)
    expect(salamander).to_contain_text("no pilot")
    close_result(red)

    # Blue: soldier 1 of the cyber-infantry charges clone 1: 5 + 4 against 2 + 2.
    squad = open_unit(blue, "0.e1.1")
    squad.locator('button[data-act="melee"]').click()
    sheet = blue.locator("#action-sheet")
    expect(sheet).to_be_visible()
    sheet.locator("#f-soldier").select_option("1")
    sheet.locator("#f-target").select_option("1.e1.1")
    sheet.locator("#f-target-soldier").select_option("1")
    type_dice(sheet, [5, 2])
    sheet.locator("#f-go").click()
    expect(blue.locator("#result")).to_contain_text("the defender is destroyed")
    start = time.monotonic()
    clones = red.locator('details[data-unit="1.e1.1"] > summary')
    lag_melee = seen_within(clones, "5/6 alive", since=start)
    close_result(blue)

    # Blue undoes the melee from the history: the clone is back on both phones.
    melee_line = blue.locator("ol.log li.event", has_text=re.compile(r"#\d+\s+Melee by"))
    melee_line.locator("button[data-undo]").click()
    expect(blue.locator("#result")).to_contain_text("Undone #")
    start = time.monotonic()
    lag_undo = seen_within(clones, "6/6 alive", since=start)
    expect(red.locator("ol.log")).to_contain_text("Undone #")
    expect(blue.locator('details[data-unit="1.e1.1"] > summary')).to_contain_text("6/6 alive")
    print(f"sync lag: shot {lag_shot:.2f}s, melee {lag_melee:.2f}s, undo {lag_undo:.2f}s")
