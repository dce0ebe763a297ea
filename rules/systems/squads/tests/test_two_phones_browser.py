"""Two phones, one «Отряды» battle (issue #16), played by tapping: the initiative and a failed activation typed in
from the table pass the chain to the enemy; the enemy's aimed fire (dice rolled by the server) leaves unsaved hits
that the target's owner splits on the other phone; an undo of the split asks the question again on both phones."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from armies.models import Roster, RosterEntry, UnitProfile
from armies.services.packs import load_packs
from battles import services
from battles.models import Battle
from battles.tests.conftest import PASSWORD, make_user
from rules.systems.squads import tables

SYNC_MS = 4000
# Side A: riflemen; side B: veterans with three light machine guns (11 fire dice at 3+ when aimed: a hit is all but
# certain whatever the server rolls).
A_SQUADS = [("squad-regular", [{"weapon": "rifle", "count": 4}])]
B_SQUADS = [("squad-veteran", [{"weapon": "lmg", "count": 3}, {"weapon": "rifle", "count": 2}])]


def roster(owner, pack, name: str, squads) -> Roster:
    made = Roster.objects.create(owner=owner, system="squads", pack=pack, name=name, faction="any")
    for i, (slug, figures) in enumerate(squads):
        RosterEntry.objects.create(roster=made, key=f"e{i + 1}", profile=UnitProfile.objects.get(pack=pack, slug=slug),
                                   count=1, options={"armour": "none", "figures": figures, "leader": None},
                                   position=i)  # fmt: skip
    return made


@pytest.fixture
def squads_battle(transactional_db):
    pack = next(p for p, _created in load_packs() if p.slug == "squads-core")
    alice, bob = make_user("alice"), make_user("bob")
    red, blue = roster(alice, pack, "Red", A_SQUADS), roster(bob, pack, "Blue", B_SQUADS)
    battle = services.battle_create(user=alice, name="Стычка", rosters=[red, blue])
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    battle.refresh_from_db()
    return battle, alice, bob


def phone(phone_context, live_server, user, battle):
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    ctx = phone_context()
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    expect(page.locator("#sync-status")).to_contain_text("In sync")
    return page


def ok(page) -> None:
    page.locator("#result").get_by_role("button", name="OK").click()


def open_card(page, key: str):
    card = page.locator(f'details[data-unit="{key}"]')
    card.locator("summary").click()
    expect(card).to_have_attribute("open", "")
    return card


@pytest.mark.browser
def test_a_chain_passes_to_the_enemy_its_hits_are_split_on_the_other_phone_and_undone(
    live_server, phone_context, squads_battle
):
    battle, alice, bob = squads_battle
    a = phone(phone_context, live_server, alice, battle)
    b = phone(phone_context, live_server, bob, battle)
    for page in (a, b):
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling

    # The initiative, typed in from the table: Red 5, Blue 2.
    roll = a.locator('.turnbar form.prompt[data-order-command="start_turn"]')
    boxes = roll.locator('input[name="dice"]')
    boxes.nth(0).fill("5")
    boxes.nth(1).fill("2")
    roll.get_by_role("button", name="Roll the initiative").click()
    ok(a)
    expect(b.locator(".turnbar")).to_contain_text("Turn 1 · initiative: Red", timeout=SYNC_MS)

    # Red's squad fails its activation (a typed 1): On Guard, and the chain passes to Blue on both phones.
    card = open_card(a, "s0-e1")
    form = card.locator('form.prompt[data-order-command="activate"]')
    form.locator('input[name="dice"]').fill("1")
    form.get_by_role("button", name="Roll the activation").click()
    ok(a)
    for page in (a, b):
        expect(page.locator(".turnbar")).to_contain_text("initiative: Blue", timeout=SYNC_MS)
        expect(page.locator('details[data-unit="s0-e1"] > summary .flags')).to_contain_text("On Guard", timeout=SYNC_MS)
    expect(a.locator('form.prompt[data-order-command="activate"]')).to_have_count(0)  # not Red's turn now

    # Blue's veterans activate (the server rolls: 3+ with a leader-less squad still passes on a typed 6) and fire
    # aimed at Red's squad.
    card = open_card(b, "s1-e1")
    form = card.locator('form.prompt[data-order-command="activate"]')
    form.locator('input[name="dice"]').fill("6")
    form.get_by_role("button", name="Roll the activation").click()
    ok(b)
    expect(a.locator(".turnbar")).to_contain_text("Acting now: ", timeout=SYNC_MS)
    card.get_by_role("button", name=tables.ACTION_NAMES["aimed_fire"]).click()
    ok(b)
    shot = card.locator('form.prompt[data-order-command="shoot"]')
    shot.locator('select[name="target"]').select_option("s0-e1")
    shot.locator('input[name="distance"]').fill("10")
    shot.get_by_role("button", name="Fire").click()
    ok(b)

    # The split is asked on Red's phone only; Blue's phone waits for it.
    question = a.locator('.turnbar form.prompt[data-order-command="split_hits"]')
    expect(question).to_be_visible(timeout=SYNC_MS)
    expect(b.locator(".turnbar")).to_contain_text("Waiting for Red: split the unsaved hits", timeout=SYNC_MS)
    expect(b.locator('form.prompt[data-order-command="split_hits"]')).to_have_count(0)
    question.get_by_role("button", name="Suppress 1", exact=True).click()  # not "Suppress 10" on 10+ hits
    expect(a.locator("#result")).to_contain_text("suppressed")
    ok(a)
    for page in (a, b):
        expect(page.locator('details[data-unit="s0-e1"] > summary .flags')).to_contain_text(
            "Suppressed: 1", timeout=SYNC_MS
        )
        expect(page.locator("ol.log")).to_contain_text("1 suppressed", timeout=SYNC_MS)

    # Red undoes its split from the history: the figures stand unsuppressed and the question comes back.
    line = a.locator("ol.log li.event", has_text="1 suppressed")
    line.locator("button[data-undo]").click()
    expect(a.locator("#result")).to_contain_text("Undone #")
    ok(a)
    for page in (a, b):
        expect(page.locator('details[data-unit="s0-e1"] > summary .flags')).not_to_contain_text(
            "Suppressed", timeout=SYNC_MS
        )
    expect(question).to_be_visible(timeout=SYNC_MS)
    expect(b.locator(".turnbar")).to_contain_text("Waiting for Red", timeout=SYNC_MS)
    for stored in Battle.objects.all():
        ok_, why = services.replay_matches(stored)
        assert ok_, why
