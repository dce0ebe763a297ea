"""Two phones undo by agreement (battles/undo.py): after «Звездный Десант»'s reveal, Red's history offers to propose
the undo of its orders (not to undo them alone); Blue's phone shows the proposal with agree and decline buttons;
Blue agrees, and Red gives its orders again."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from battles.tests.conftest import PASSWORD
from battles.tests.test_undo_agreement import ZD, example_battle, players, run, script
from tests.journey import SYNC_MS


def phone_for(phone_context, live_server, user, battle):
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    ctx = phone_context()
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    expect(page.locator("#sync-status")).to_have_attribute("data-state", "ok", timeout=SYNC_MS)
    return page


def thumb_sized(locator) -> None:
    box = locator.bounding_box()
    assert box is not None
    assert box["width"] >= 44
    assert box["height"] >= 44


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_two_phones_take_back_revealed_orders_by_agreement(live_server, phone_context, alice, bob, monkeypatch):
    battle = example_battle(ZD, alice, bob, monkeypatch)
    for side, name, inputs, dice in script(battle)[:3]:  # the First Player roll, both sides' orders, the reveal
        run(battle, players(alice, bob)[side], name, inputs, dice)
    battle.refresh_from_db()
    red_orders = battle.events.get(type="orders_given", side_index=1).seq
    blue = phone_for(phone_context, live_server, alice, battle)
    red = phone_for(phone_context, live_server, bob, battle)

    # Red's history: its orders can only be proposed for undo now; no plain undo of them.
    line = red.locator(f'li.event[data-seq="{red_orders}"]')
    expect(line.locator("button[data-undo]")).to_have_text("Propose undo")
    expect(line.locator('button[data-undo-path="undo/propose"]')).to_have_count(1)
    line.locator("button[data-undo]").click()
    expect(red.locator("#result")).to_contain_text(f"Proposed: undo #{red_orders}")
    red.locator("#result").get_by_role("button", name="OK").click()
    waiting = red.locator(".undo-proposal")
    expect(waiting).to_contain_text("Waiting for Alpha to agree.")
    expect(waiting.get_by_role("button", name="Withdraw the proposal")).to_be_visible()

    # Blue's phone shows the proposal with its two buttons, thumb-sized, without sideways scrolling.
    proposal = blue.locator(".undo-proposal")
    expect(proposal).to_contain_text(f"Proposed: undo #{red_orders}", timeout=SYNC_MS)
    agree = proposal.get_by_role("button", name="Agree to undo")
    decline = proposal.get_by_role("button", name="Decline the undo")
    expect(decline).to_be_visible()
    thumb_sized(agree)
    thumb_sized(decline)
    assert blue.evaluate("document.documentElement.scrollWidth") <= 360
    agree.click()
    expect(blue.locator("#result")).to_contain_text(f"Undone #{red_orders}")
    blue.locator("#result").get_by_role("button", name="OK").click()
    expect(blue.locator(".undo-proposal")).to_have_count(0)

    # Red is asked for its orders again; the proposal is gone from its phone too.
    expect(red.locator('form[data-order-command="give_orders"]')).to_be_visible(timeout=SYNC_MS)
    expect(red.locator(".undo-proposal")).to_have_count(0)
    expect(blue.locator('form[data-order-command="give_orders"]')).to_have_count(0)
