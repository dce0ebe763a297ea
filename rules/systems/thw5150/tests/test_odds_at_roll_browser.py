"""The odds at the moment of the roll on a Russian phone (issue #31), «5150»: the activation form shows who acts
first; the Leader's shot shows its odds for this target as it stands, changes them when the target changes (a
figure behind cover), ranks the targets, fills the field from the ranking; the roll with the table's dice says where
it fell («a 12 % result»); the form links to its rule; nothing scrolls sideways at 360 px."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from armies import services as army_services
from battles import services
from battles.models import Battle, BattleUnit
from rules.systems.thw5150.system import SYSTEM
from tests import journey

PACK = Path(__file__).resolve().parents[1] / "data" / "normals.json"
PASSWORD = "pw-odds-5150-long"
WAIT_MS = 30_000  # generous: two cores shared by every helper's browsers


@pytest.fixture
def night(transactional_db):
    ((pack, _created),) = army_services.load_packs(paths=[PACK])
    alice, bob = (get_user_model().objects.create_user(username=n, password=PASSWORD) for n in ("alice", "bob"))
    patrol = army_services.roster_create(owner=alice, pack=pack, name="Патруль", faction="police")
    captain = army_services.entry_add(roster=patrol, profile="police-u5", options={"weapon": "assault_rifle",
                                                                                   "leader": True})  # fmt: skip
    gang = army_services.roster_create(owner=bob, pack=pack, name="Банда", faction="criminals")
    boss = army_services.entry_add(roster=gang, profile="criminals-u4", options={"weapon": "pistol", "leader": True})
    thug = army_services.entry_add(roster=gang, profile="criminals-u3", options={"weapon": "pistol"})
    battle = services.battle_create(user=alice, name="Ночь", rosters=[patrol, gang], enforce_turns=True)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    return battle, alice, bob, f"0.{captain.key}.1", f"1.{boss.key}.1", f"1.{thug.key}.1"


def logged_in(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def percent(p: float) -> str:
    """As the board writes a chance in Russian (odds.js: one decimal, a comma)."""
    return f"{p * 100:.{2 if 0 < p < 0.01 else 1}f}".replace(".", ",") + " %"


def shot_odds(battle, captain: str, target: str, *, in_cover: bool) -> dict:
    names = dict(BattleUnit.objects.filter(battle=battle).values_list("key", "name"))
    inputs = {"shooter": {"name": names[captain], "rep": 5, "weapon": "assault_rifle", "fast_moved": False,
                          "loaded": True, "rep_modifier": 0},
              "targets": [{"name": names[target], "dice": 3, "armour": "none", "in_cover": in_cover, "prone": False,
                           "fast_moved": False, "condition": "fine"}]}  # fmt: skip
    return SYSTEM.action("shooting").odds(inputs, SYSTEM.default_settings())


@pytest.mark.browser
def test_the_shot_shows_its_odds_changes_them_with_the_target_and_places_the_roll(live_server, phone_context, night):
    battle, alice, bob, captain, boss, thug = night
    # Борис's thug is behind cover (a ruling on his own phone, here through his client).
    url = f"/api/v1/battles/{battle.pk}/commands/set_state/"
    version = Battle.objects.get(pk=battle.pk).version
    answer = logged_in(bob).post(url, data=json.dumps({"unit": thug, "changes": {"in_cover": True}}),
                                 content_type="application/json", HTTP_IF_MATCH=f'"v{version}"')  # fmt: skip
    assert answer.status_code == 201, answer.content

    ctx = phone_context(**journey.PHONE)
    ctx.add_cookies([{"name": "sessionid", "value": logged_in(alice).cookies["sessionid"].value,
                      "url": live_server.url}])  # fmt: skip
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    journey.in_sync(page)

    # The activation dice: who acts first, doubles beside the sides (1/6), before anything is rolled.
    roll = page.locator('form[data-order-command="activation"]')
    expect(roll.locator('[data-testid="odds-live"]')).to_contain_text("Кто действует первым", timeout=WAIT_MS)
    expect(roll.locator('[data-testid="odds-live"]')).to_contain_text(percent(1 / 6))
    boxes = roll.locator('input[name="dice"]')
    boxes.nth(0).fill("5")
    boxes.nth(1).fill("2")
    roll.locator("[type=submit]").click()
    page.locator("#result").get_by_role("button", name="OK").click()
    journey.in_sync(page)

    # The Leader's shot: the odds of this shooter at this target as the figures stand.
    card = page.locator(f'details[data-unit="{captain}"]')
    if card.get_attribute("open") is None:
        card.locator("> summary").click()
    form = card.locator('form[data-order-command="shoot"]')
    live = form.locator('[data-testid="odds-live"]')
    expect(form.locator('a.rule-link[href="rules/shoot/"]')).to_be_visible()
    form.locator('select[name="target"]').select_option(boss)
    open_ = shot_odds(battle, captain, boss, in_cover=False)
    expect(live.locator(".odds-headline")).to_contain_text(percent(open_["p_casualty"]["p"]), timeout=WAIT_MS)
    expect(live).to_contain_text("цель выведена из строя или убита")
    expect(live).to_contain_text("Попаданий за выстрел")
    expect(live.locator(".odds-bars li").first).to_be_visible()  # a small plot of the hits and the worst damage

    # Another target, behind cover: the odds change.
    form.locator('select[name="target"]').select_option(thug)
    covered = shot_odds(battle, captain, thug, in_cover=True)
    assert covered["p_casualty"]["p"] < open_["p_casualty"]["p"]
    expect(live.locator(".odds-headline")).to_contain_text(percent(covered["p_casualty"]["p"]), timeout=WAIT_MS)

    # Which target? Both ranked by the chance; choosing from the ranking fills the field.
    form.locator('button[data-compare="target"]').click()
    ranking = form.locator(".odds-compare ol li")
    expect(ranking).to_have_count(2, timeout=WAIT_MS)
    expect(ranking.first).to_contain_text(percent(open_["p_casualty"]["p"]))
    ranking.first.get_by_role("button").click()
    expect(form.locator('select[name="target"]')).to_have_value(boss)
    expect(live.locator(".odds-headline")).to_contain_text(percent(open_["p_casualty"]["p"]), timeout=WAIT_MS)

    # The roll with the table's dice: 6, 5, 1 + Rep 5 = 11, 10, 6: two hits; damage 6 and 6: knocked down. Where it
    # fell: two hits or fewer.
    dice = form.locator('input[name="dice"]')
    for i, value in enumerate([6, 5, 1, 6, 6]):
        dice.nth(i).fill(str(value))
    form.locator("[type=submit]").click()
    at_most_two = sum(x["p"] for x in open_["hits"] if x["value"] <= 2)
    expect(page.locator('#result [data-testid="percentile"]')).to_contain_text(percent(at_most_two), timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert errors == []
