"""Two phones, one «Звездный Десант» battle (issue #14): both players give their orders in secret by tapping, and
phone B's page (its text and HTML) and every response phone B receives hold no trace of A's orders before the
reveal; then the reveal on both phones, a shot with a hit test and a wound (penetration) test from dice typed in at
the table, and an undo that both phones see."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import expect

from armies.models import Roster, RosterEntry, UnitProfile
from armies.services.packs import load_packs
from battles import services
from battles.models import Battle
from battles.tests.conftest import PASSWORD, make_user
from rules.systems.zvezdny_desant.army import ARMY

PACK_FILE = Path(__file__).resolve().parents[1] / "data" / "demo-examples.json"
SYNC_MS = 3000
# A's secret cards: forcer squad 1 on «Оборона» with initiative 7, squad 2 on «Движение» with 3 (the phones read
# English: «Defence», «Move»).
A_CARDS = {"s0-e1": ("defence", 7), "s0-e2": ("move", 3)}
B_CARDS = {"s1-e1": ("attack", 6), "s1-e2": ("defence", 4)}
# What would betray A's cards: the board's flags, the order values as JSON (state API, event feed, write answers),
# A's own form fields, and the secret event's history line.
TRACES = [
    re.compile(r"«(Оборона|Defence)»\s*7"),
    re.compile(r"«(Движение|Move)»\s*3"),
    re.compile(r'"order":\s*"defence",\s*"initiative":\s*7'),
    re.compile(r'"order":\s*"move",\s*"initiative":\s*3'),
    re.compile(r"s0-e[12]:(order|initiative)"),
    re.compile(r"orders given \("),
    re.compile(r"orders_given"),
]


def roster(owner, pack, faction: str, name: str) -> Roster:
    """The example roster of the army part (two 5-figure units, card costs typed in: 500 points)."""
    profiles = [{"slug": p.slug, "name": p.name, "faction": p.faction.slug, "kind": p.kind, "data": p.data}
                for p in UnitProfile.objects.filter(pack=pack).select_related("faction")]  # fmt: skip
    side = 0 if faction == "forcers" else 1
    example = ARMY.example_roster(profiles, side)
    assert example["faction"] == faction
    made = Roster.objects.create(owner=owner, system="zvezdny-desant", pack=pack, name=name, faction=faction)
    for i, e in enumerate(example["entries"]):
        RosterEntry.objects.create(roster=made, key=e["key"], profile=UnitProfile.objects.get(pack=pack,
                                   slug=e["profile"]["slug"]), count=1, options=e["options"], position=i)  # fmt: skip
    return made


@pytest.fixture
def zd_battle(transactional_db):
    ((pack, _created),) = load_packs(paths=[PACK_FILE])
    alice, bob = make_user("alice"), make_user("bob")
    red, blue = roster(alice, pack, "forcers", "Форсеры"), roster(bob, pack, "humans", "Люди")
    battle = services.battle_create(user=alice, name="Стычка", rosters=[red, blue])
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    battle.refresh_from_db()
    return battle, alice, bob


def phone(phone_context, live_server, user, battle, responses=None):
    """A phone signed in as `user` on the battle's board; `responses` records every answer it receives."""
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    ctx = phone_context()
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    if responses is not None:

        def record(response):
            try:
                responses.append((response.url, response.text()))
            except Exception:  # a redirect or an aborted long poll has no body
                responses.append((response.url, ""))

        page.on("response", record)
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    expect(page.locator("#sync-status")).to_contain_text("In sync")
    return page


def give_orders(page, cards: dict) -> None:
    form = page.locator("form.order-form")
    expect(form).to_be_visible()
    for key, (order, initiative) in cards.items():
        form.locator(f'select[name="{key}:order"]').select_option(order)
        form.locator(f'input[name="{key}:initiative"]').fill(str(initiative))
    form.locator('button[type="submit"]').click()
    expect(page.locator("#result")).to_contain_text("Orders given in secret")
    page.locator("#result").get_by_role("button", name="OK").click()


def traces_in(texts) -> list[str]:
    return [f"{where}: {t.pattern}" for where, text in texts for t in TRACES if t.search(text or "")]


@pytest.mark.browser
def test_secret_orders_the_reveal_a_shot_and_an_undo_on_two_phones(live_server, phone_context, zd_battle):
    battle, alice, bob = zd_battle
    seen_by_b: list[tuple[str, str]] = []
    a = phone(phone_context, live_server, alice, battle)
    b = phone(phone_context, live_server, bob, battle, responses=seen_by_b)
    for page in (a, b):
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling

    # Turn 1: the First Player roll (server dice), then A's orders in secret.
    a.locator('form.prompt[data-order-command="start_turn"]').get_by_role(
        "button", name="Roll for the First Player"
    ).click()
    a.locator("#result").get_by_role("button", name="OK").click()
    give_orders(a, A_CARDS)
    expect(a.locator(".turnbar")).to_contain_text("«Defence» 7")  # A sees its own cards, face up for A only
    expect(b.locator("#board")).to_contain_text("Форсеры: orders given.", timeout=SYNC_MS)
    # Phone B also asks the state API and the event feed, as any client could.
    b.evaluate("""async (id) => { await fetch(`/api/v1/battles/${id}/`); await fetch(`/api/v1/battles/${id}/events`);
                 await fetch(`/battles/${id}/log/`); }""", battle.pk)  # fmt: skip
    expect(b.locator("form.order-form")).to_be_visible()
    page_b = [("B text", b.locator("body").inner_text()), ("B html", b.content())]
    assert len(seen_by_b) >= 6
    assert any("/api/v1/battles/" in url and "events" in url for url, _ in seen_by_b)
    assert not traces_in(page_b + seen_by_b), traces_in(page_b + seen_by_b)

    # B gives its orders: every card is turned face up on both phones (L248).
    give_orders(b, B_CARDS)
    for page in (a, b):
        expect(page.locator('details[data-unit="s0-e1"] .flags')).to_contain_text("«Defence» 7", timeout=SYNC_MS)
        expect(page.locator('details[data-unit="s1-e2"] .flags')).to_contain_text("«Defence» 4", timeout=SYNC_MS)
        expect(page.locator("ol.log")).to_contain_text("The order cards are revealed", timeout=SYNC_MS)
    assert traces_in([("B html after the reveal", b.content())])  # the check above would have seen them

    # Initiative 7 acts first: A's squad 1 («Оборона») shoots B's squad 1 with dice typed in from the table.
    form = a.locator('form.prompt[data-order-command="act"]')
    expect(form).to_be_visible(timeout=SYNC_MS)
    expect(b.locator("#board")).to_contain_text("Форсеры acts: initiative 7", timeout=SYNC_MS)
    expect(b.locator('form.prompt[data-order-command="act"]')).to_have_count(0)  # not B's turn
    form.locator('select[name="do"]').select_option("shoot")
    form.locator('select[name="target"]').select_option("s1-e1")
    form.locator('select[name="cover"]').select_option("open")
    boxes = form.locator('input[name="dice"]')
    for i, value in enumerate([20, 20, 20, 3, 2, 15, 14, 2]):  # 5 hit tests on 6+, then 3 wound tests on 12+
        boxes.nth(i).fill(str(value))
    form.get_by_role("button", name="Carry out the order").click()
    result = a.locator("#result")
    expect(result).to_contain_text("3 hits, 2 wounds")
    expect(result.locator(".die")).to_have_count(8)
    expect(result).to_contain_text("hit test")
    expect(result).to_contain_text("wound test")
    result.get_by_role("button", name="OK").click()
    target_b = b.locator('details[data-unit="s1-e1"] > summary')
    expect(target_b).to_contain_text("4/5 figures, 0 markers", timeout=SYNC_MS)
    expect(b.locator("ol.log")).to_contain_text("shoots at", timeout=SYNC_MS)

    # A undoes the shot from the history: the squad is whole again on both phones and may act again.
    line = a.locator("ol.log li.event", has_text="shoots at")
    line.locator("button[data-undo]").click()
    expect(a.locator("#result")).to_contain_text("Undone #")
    a.locator("#result").get_by_role("button", name="OK").click()
    expect(target_b).to_contain_text("5/5 figures, 0 markers", timeout=SYNC_MS)
    expect(a.locator('details[data-unit="s1-e1"] > summary')).to_contain_text("5/5 figures")
    expect(a.locator('form.prompt[data-order-command="act"]')).to_be_visible(timeout=SYNC_MS)
    for stored in Battle.objects.all():
        ok, why = services.replay_matches(stored)
        assert ok, why
