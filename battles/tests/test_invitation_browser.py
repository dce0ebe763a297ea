"""The host's page of a battle that waits for its second player: the invitation goes from the page once a player has
taken its side, without a reload (before, the page kept showing it, and the join page then said the side was taken).
The spectator link stays."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles import services
from battles.tests.conftest import PASSWORD
from tests import journey, phones


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_invitation_leaves_the_hosts_page_once_its_side_is_taken(live_server, phone_context, rosters, alice, bob):
    blue, red = rosters
    waiting = services.battle_create(user=alice, name="Стычка", rosters=[blue, red])
    host = phones.signed_in(
        phone_context, live_server.url, alice, f"/battles/{waiting.pk}/", password=PASSWORD, **journey.PHONE
    )
    journey.in_sync(host)
    host.locator("details.invite > summary").click()
    invitations = host.locator("details.invite [data-invite-side]")
    expect(invitations).to_have_count(1)
    expect(invitations.locator(".qr-box svg")).to_be_visible()
    invitation = invitations.locator("input").input_value()
    host.evaluate("window.__notReloaded = true")

    guest = phones.signed_in(phone_context, live_server.url, bob, "/", password=PASSWORD, **journey.PHONE)
    journey.join(guest, invitation)

    expect(invitations).to_have_count(0, timeout=journey.SYNC_MS)
    expect(host.locator("#board")).to_contain_text("bob")  # the join is on the board that took the invitation away
    expect(host.locator("#watch-link")).to_be_visible()
    assert host.evaluate("window.__notReloaded") is True
