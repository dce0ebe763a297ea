"""«Roll a random Normal» on a 360 px phone: the seed typed in, the figure added with its seed and every die shown,
and the total as the book adds it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from armies import services
from rules.systems.thw5150 import random_normal

PACK_FILE = Path(__file__).resolve().parents[1] / "data" / "normals.json"
PASSWORD = "phone-pass-5150-builder"


@pytest.mark.browser
def test_a_random_normal_on_a_phone(live_server, phone_context, transactional_db):
    ((pack, _created),) = services.load_packs(paths=[PACK_FILE])
    user = get_user_model().objects.create_user(username="roller", password=PASSWORD)
    roster = services.roster_create(owner=user, pack=pack, name="Colony watch", faction="colonists")
    client = Client()
    assert client.login(username="roller", password=PASSWORD)
    ctx = phone_context()
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    page.goto(f"{live_server.url}/rosters/{roster.pk}/")
    tool = page.locator('[data-testid="builder-tool"]')
    tool.locator('input[name="seed"]').fill("2024")
    tool.locator('input[name="leader"]').check()
    tool.locator("[type=submit]").click()
    figure = random_normal.roll_random_normal(seed=2024, leader=True)
    entry = page.locator(".entry").first
    expect(entry).to_contain_text("Rolled with seed 2024.")
    expect(entry).to_contain_text(f"Rep: 1d6 = {figure['rolls']['rep']}.")
    expect(page.locator(".messages")).to_contain_text("Random Normal, seed 2024")
    assert page.locator('[data-testid="total"]').inner_text() == str(figure["cost"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
