"""Two phones, one «Отряды» battle (issue #16), played by tapping in English: the initiative and a failed activation
typed in from the table pass the chain to the enemy; the enemy's aimed fire (dice rolled by the server) leaves
unsaved hits that the target's owner is asked to split on the other phone; the shooter's undo of the shot withdraws
the question from that phone; fired again, the hits are split there."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies.models import Roster, RosterEntry, UnitProfile
from armies.services.packs import load_packs
from battles import services
from battles.models import Battle
from battles.tests.conftest import PASSWORD, make_user
from tests import journey, phones

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
    page = phones.signed_in(phone_context, live_server.url, user, f"/battles/{battle.pk}/", password=PASSWORD)
    expect(page.locator("#sync-status")).to_contain_text("In sync")
    return page


def ok(page) -> None:
    page.locator("#result").get_by_role("button", name="OK").click()


def prompt(page, command: str):
    return page.locator(f'.turnbar form.prompt[data-order-command="{command}"]')


def type_dice(form, values) -> None:
    """The dice typed into the boxes the board script draws (static/battles/dice_boxes.js), one by one."""
    journey.type_dice(form, "data-squads-dice", values)


@pytest.mark.browser
def test_a_chain_passes_to_the_enemy_its_hits_are_split_on_the_other_phone_and_an_undone_shot_withdraws_the_question(
    live_server, phone_context, squads_battle
):
    battle, alice, bob = squads_battle
    a = phone(phone_context, live_server, alice, battle)
    b = phone(phone_context, live_server, bob, battle)
    for page in (a, b):
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling

    # The initiative, typed in from the table: Red 5, Blue 2.
    roll = prompt(a, "start_turn")
    type_dice(roll, [5, 2])
    roll.get_by_role("button", name="Roll the initiative").click()
    ok(a)
    expect(b.locator(".turnbar")).to_contain_text("Turn 1 · initiative: Red", timeout=SYNC_MS)
    expect(prompt(b, "activate")).to_have_count(0)  # Red's roll, not Blue's

    # Red's squad fails its activation (a typed 1): On Guard, and the chain passes to Blue on both phones.
    form = prompt(a, "activate")
    type_dice(form, [1])
    form.get_by_role("button", name="Roll the activation").click()
    ok(a)
    for page in (a, b):
        expect(page.locator(".turnbar")).to_contain_text("initiative: Blue", timeout=SYNC_MS)
        expect(page.locator(".turnbar")).to_contain_text("Next: Blue — the activation roll", timeout=SYNC_MS)
        expect(page.locator('details[data-unit="s0-e1"] > summary .flags')).to_contain_text("On Guard", timeout=SYNC_MS)
    expect(prompt(a, "activate")).to_have_count(0)  # not Red's turn now

    # Blue's veterans activate (a typed 6) and fire aimed at Red's squad, the dice rolled by the server.
    form = prompt(b, "activate")
    type_dice(form, [6])
    form.get_by_role("button", name="Roll the activation").click()
    ok(b)
    expect(a.locator(".turnbar")).to_contain_text("Acting now: ", timeout=SYNC_MS)
    b.locator(".turnbar").get_by_role("button", name="Aimed Fire").click()
    ok(b)

    def fire() -> None:
        shot = prompt(b, "shoot")
        shot.locator('select[name="target"]').select_option("s0-e1")
        shot.locator('input[name="distance"]').fill("10")
        shot.get_by_role("button", name="Fire").click()
        ok(b)

    fire()
    # The split is asked on Red's phone only; Blue's phone says whom it waits for.
    question = prompt(a, "split_hits")
    expect(question).to_be_visible(timeout=SYNC_MS)
    expect(b.locator(".turnbar")).to_contain_text("Next: Red — split the unsaved hits", timeout=SYNC_MS)
    expect(prompt(b, "split_hits")).to_have_count(0)

    # Blue takes the shot back from the history: the question leaves Red's phone, the shot form comes back.
    line = b.locator("ol.log li.event", has_text="fires at")
    line.locator("button[data-undo]").click()
    expect(b.locator("#result")).to_contain_text("Undone #")
    ok(b)
    expect(question).to_have_count(0, timeout=SYNC_MS)
    expect(prompt(b, "shoot")).to_be_visible(timeout=SYNC_MS)

    fire()
    expect(question).to_be_visible(timeout=SYNC_MS)
    question.get_by_role("button", name="Suppress 1, casualties", exact=False).first.click()
    expect(a.locator("#result")).to_contain_text("suppressed")
    ok(a)
    for page in (a, b):
        expect(page.locator('details[data-unit="s0-e1"] > summary .flags')).to_contain_text(
            "Suppressed: 1", timeout=SYNC_MS
        )
        expect(page.locator("ol.log")).to_contain_text("1 suppressed", timeout=SYNC_MS)
    for stored in Battle.objects.all():
        ok_, why = services.replay_matches(stored)
        assert ok_, why
