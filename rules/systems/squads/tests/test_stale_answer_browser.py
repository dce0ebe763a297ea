"""A question answered twice (issue «Every system played to its end at the table»): Red's player has the board open
on two phones; the split of Blue's hits is asked on both. One phone, offline, taps an answer that waits in its
outbox; the other answers. Back online, the stale answer is refused in Russian, nothing of it is recorded, and the
phone catches up with the board as it is: one split, the one given first."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles.models import BattleEvent
from battles.tests.conftest import PASSWORD
from rules.systems.squads.tests.test_two_phones_browser import squads_battle  # noqa: F401 (the fixture)
from tests import journey, phones

SYNC_MS = journey.SYNC_MS


def russian_phone(phone_context, live_server, user, battle):
    page = phones.signed_in(
        phone_context, live_server.url, user, f"/battles/{battle.pk}/", password=PASSWORD, **journey.PHONE
    )
    journey.in_sync(page)
    return page.context, page


def prompt(page, command: str):
    return page.locator(f'.turnbar form.prompt[data-order-command="{command}"]')


def roll(page, command: str, dice: list[int], *, unit: str | None = None) -> None:
    form = prompt(page, command)
    expect(form).to_be_visible(timeout=SYNC_MS)
    if unit:
        form.locator('select[name="unit"]').select_option(unit)
    journey.type_dice(form, "data-squads-dice", dice)
    form.locator("button[type=submit]").click()
    journey.ok(page)


@pytest.mark.browser
def test_a_question_answered_twice_keeps_the_first_answer(live_server, phone_context, squads_battle):  # noqa: F811
    battle, alice, bob = squads_battle
    _a1, red = russian_phone(phone_context, live_server, alice, battle)
    spare_context, spare = russian_phone(phone_context, live_server, alice, battle)
    _b, blue = russian_phone(phone_context, live_server, bob, battle)

    roll(red, "start_turn", [2, 5])  # Blue holds the initiative
    roll(blue, "activate", [6])
    blue.locator(".turnbar").get_by_role("button", name="Прицельный огонь").click()
    journey.ok(blue)
    shot = prompt(blue, "shoot")
    shot.locator('input[name="distance"]').fill("10")
    roll(blue, "shoot", [6] * 10 + [1])  # 3 LMGs (3 dice each) and 2 rifles at 10": 10 hits, no armour

    for page in (red, spare):
        expect(prompt(page, "split_hits")).to_be_visible(timeout=SYNC_MS)
    spare_context.set_offline(True)
    prompt(spare, "split_hits").get_by_role("button", name="Подавлено 0, потери 4").click()  # waits in the outbox
    prompt(red, "split_hits").get_by_role("button", name="Подавлено 2, потери 2").click()
    journey.ok(red)
    expect(red.locator("ol.log")).to_contain_text("подавлено 2, боевые потери 2", timeout=SYNC_MS)

    spare_context.set_offline(False)
    spare.evaluate("window.dispatchEvent(new Event('online'))")
    result = spare.locator("#result")
    expect(result).to_be_visible(timeout=SYNC_MS)
    expect(result).to_contain_text("Бой изменился на другом телефоне")
    journey.same_board(red, spare)
    journey.same_board(red, blue)
    assert BattleEvent.objects.filter(battle=battle, type="hits.split").count() == 1
    expect(spare.locator("ol.log")).not_to_contain_text("боевые потери 4")
    expect(prompt(spare, "split_hits")).to_have_count(0)


@pytest.mark.browser
def test_a_refusal_in_the_form_leaves_the_board_and_what_was_typed_alone(
    live_server,
    phone_context,
    squads_battle,  # noqa: F811
):
    """A die of 7 is refused in the form. The board is not drawn again under the player who corrects it (a redraw
    while typing could eat a keystroke): nothing was drawn for the refused change, so there is nothing to take off."""
    battle, alice, _bob = squads_battle
    _a, red = russian_phone(phone_context, live_server, alice, battle)
    roll(red, "start_turn", [5, 2])  # Red holds the initiative
    form = prompt(red, "activate")
    expect(form).to_be_visible(timeout=SYNC_MS)
    journey.type_dice(form, "data-squads-dice", [7])
    before = BattleEvent.objects.filter(battle=battle).count()
    red.evaluate("window.redraws = 0; document.addEventListener('battle:updated', () => { window.redraws += 1; })")
    form.locator("button[type=submit]").click()
    expect(form.locator(".form-error")).to_contain_text("от 1 до 6", timeout=SYNC_MS)
    red.wait_for_load_state("networkidle")
    assert red.evaluate("window.redraws") == 0
    assert form.locator('[data-squads-dice] input[name="die"]').first.input_value() == "7"
    assert BattleEvent.objects.filter(battle=battle).count() == before


@pytest.mark.browser
def test_an_older_board_answered_late_never_replaces_the_newer_one(
    live_server,
    phone_context,
    squads_battle,  # noqa: F811
):
    """Two board fetches on two connections may be answered out of order: the older board, answered last, is not
    drawn over the newer one (the version only grows, an undo is an event too)."""
    battle, alice, _bob = squads_battle
    _a, red = russian_phone(phone_context, live_server, alice, battle)
    board_url = live_server.url + red.locator("#battle").get_attribute("data-board-url")
    old = red.request.get(board_url)
    old_tag, old_html = old.headers["etag"], old.text()
    roll(red, "start_turn", [5, 2])
    expect(red.locator("#battle")).not_to_have_attribute("data-version", old_tag.strip('"v'), timeout=SYNC_MS)
    new_version = red.locator("#battle").get_attribute("data-version")

    asked = []

    def stale(route):
        asked.append(route.request.url)
        route.fulfill(status=200, body=old_html, headers={"ETag": old_tag, "Content-Type": "text/html"})

    red.route(lambda url: url.startswith(board_url), stale)
    red.evaluate("window.redraws = 0; document.addEventListener('battle:updated', () => { window.redraws += 1; })")
    red.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the page shown again: it fetches
    for _ in range(SYNC_MS // 100):
        if asked:
            break
        red.wait_for_timeout(100)
    assert asked, "the page fetched no board"
    red.wait_for_timeout(500)  # the answer handled
    red.unroute_all()
    assert red.evaluate("window.redraws") == 0
    assert red.locator("#battle").get_attribute("data-version") == new_version
    expect(red.locator("ol.log")).to_contain_text("инициатива")
