"""The odds at the moment of the roll on a phone (issue #31), with the test-only system: the form shows the odds
as it is filled and changes them with the choice, ranks the choices, and after the roll says where it fell."""

import pytest
from playwright.sync_api import expect

from tests import journey
from tests.test_contract_system import _client, _post


@pytest.mark.browser
def test_the_form_shows_its_odds_changes_them_ranks_the_choices_and_places_the_roll(
    transactional_db, live_server, phone_context, orders_battle
):
    battle, alice, bob = orders_battle
    a = _client(alice)
    b = _client(bob)
    assert _post(a, battle, "order", {"unit": "0.e1.1", "target": "1.e1.1"}, 2).status_code == 201
    assert _post(b, battle, "order", {"unit": "1.e1.1", "target": "0.e1.1"}, 3).status_code == 201
    ctx = phone_context(**{**journey.PHONE, "locale": "en-GB", "extra_http_headers": {"Accept-Language": "en"}})
    ctx.add_cookies([{"name": "sessionid", "value": b.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    journey.in_sync(page)
    form = page.locator('form[data-order-command="answer"]')
    odds = form.locator('[data-testid="odds-live"]')
    expect(odds).to_contain_text("Choose cover or fire.")  # nothing chosen: no odds, and why
    form.locator('select[name="choice"]').select_option("cover")
    expect(odds).to_contain_text("33.3 %")
    expect(odds.locator(".odds-bars li")).to_have_count(6)  # the d6 as a small plot
    form.locator('select[name="choice"]').select_option("fire")
    expect(odds).to_contain_text("66.7 %")
    form.get_by_role("button", name="Compare the choices").click()
    ranking = form.locator(".odds-compare ol li")
    expect(ranking).to_have_count(2)
    expect(ranking.first).to_contain_text("Return fire")
    expect(ranking.first).to_contain_text("66.7 %")
    ranking.nth(1).get_by_role("button").click()  # choosing from the ranking fills the field
    expect(form.locator('select[name="choice"]')).to_have_value("cover")
    expect(odds).to_contain_text("33.3 %")
    form.locator('input[name="dice"]').fill("2")
    form.get_by_role("button", name="Answer").click()
    expect(page.locator('#result [data-testid="percentile"]')).to_contain_text("33.3 %")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
