"""The odds at the moment of the roll on a Russian phone (issue #31), «Бронепехота»: a soldier's shot opened from his
squad's card shows its odds for this target as the units stand, changes them with the target, ranks the targets
(choosing from the ranking fills the field), links to its rule; the roll with the table's dice says where it fell
(«a 12 % result»); the grenade's burst sheet shows the odds of the victims ticked; nothing scrolls sideways."""

from __future__ import annotations

from fractions import Fraction

import pytest
from playwright.sync_api import expect

from rules.systems.bronepekhota.system import SYSTEM
from rules.systems.bronepekhota.tests.test_at_roll import infantry, machine, shot_by_hand, start
from tests import journey

WAIT_MS = 30_000  # generous: two cores shared by every helper's browsers


def percent(p: float) -> str:
    """As the board writes a chance in Russian (odds.js: one decimal, a comma)."""
    return f"{p * 100:.{2 if 0 < p < 0.01 else 1}f}".replace(".", ",") + " %"


def odds(battle, action: str, inputs: dict) -> dict:
    battle.refresh_from_db()
    return SYSTEM.action(action).odds(inputs, battle.settings["system"])


def pick(select, starts_with: str) -> None:
    labels = select.locator("option").all_inner_texts()
    select.select_option(index=next(i for i, label in enumerate(labels) if label.startswith(starts_with)))


@pytest.mark.browser
def test_the_shot_shows_its_odds_follows_the_target_ranks_and_places_the_roll(live_server, phone_context,
                                                                              transactional_db):  # fmt: skip
    battle, a, _b, u = start()
    ctx = phone_context(**journey.PHONE)
    ctx.add_cookies([{"name": "sessionid", "value": a.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    journey.in_sync(page)

    # Киберспецназ's soldier 2 (Д6+2 / 2Д6) at Линейная клон-пехота's soldier 3 (Бр 2), 4 steps away.
    squad = page.locator(f'#board details[data-unit="{u.SQUAD}"]')
    squad.locator(":scope > summary").click()
    squad.locator('button[data-act="shoot"]').first.click()
    sheet = page.locator("#action-sheet")
    expect(sheet).to_be_visible()
    sheet.locator("#f-soldier").select_option("2")
    pick(sheet.locator("#f-target"), "Линейная клон-пехота")
    sheet.locator("#f-target-soldier").select_option("3")
    sheet.locator("#f-distance").fill("4")
    live = sheet.locator('[data-testid="odds-live"]')
    line = odds(battle, "virtual_shot", shot_by_hand(battle, u.SQUAD, 2, u.LINE, 3, distance_steps=4))
    expect(live.locator(".odds-headline")).to_contain_text(percent(line["p_destroyed"]["p"]), timeout=WAIT_MS)
    expect(live).to_contain_text("цель уничтожена")
    expect(live).to_contain_text("Шанс попадания")
    expect(live.locator(".odds-bars li")).to_have_count(3)  # 0, 1 or 2 damage: a small plot
    expect(sheet.locator("#f-rule")).to_have_attribute("href", "rules/shoot/")
    expect(sheet.locator('button[data-compare="weapon"]')).to_be_hidden()  # one weapon: nothing to compare

    # Another target, the flying THUNDER (Броня 11): 2Д6 never pierces it.
    pick(sheet.locator("#f-target"), "THUNDER")
    thunder = odds(battle, "virtual_shot", shot_by_hand(battle, u.SQUAD, 2, u.THUNDER, None, distance_steps=4))
    assert thunder["p_destroyed"]["p"] < line["p_destroyed"]["p"]
    expect(live.locator(".odds-headline")).to_contain_text(percent(thunder["p_destroyed"]["p"]), timeout=WAIT_MS)

    # Which target? Bob's four units ranked by the chance; choosing from the ranking fills the field.
    sheet.locator('button[data-compare="target"]').click()
    ranking = sheet.locator(".odds-compare ol li")
    expect(ranking).to_have_count(4, timeout=WAIT_MS)
    best = max(
        odds(battle, "virtual_shot", shot_by_hand(battle, u.SQUAD, 2, key, 1 if num else None, distance_steps=4))[
            "p_destroyed"
        ]["p"]
        for key, num in ((u.DESANT, 1), (u.LINE, 1), (u.THUNDER, None), (u.MORTAR, None))
    )
    expect(ranking.first).to_contain_text(percent(best))
    ranking.filter(has_text="Линейная клон-пехота").get_by_role("button").click()
    expect(sheet.locator("#f-target")).to_have_value(u.LINE)
    sheet.locator("#f-target-soldier").select_option("3")
    expect(live.locator(".odds-headline")).to_contain_text(percent(line["p_destroyed"]["p"]), timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # The roll with the table's dice: 4 + 2 reaches 4 steps; 5 beats Бр 2, 1 does not: 1 damage, the soldier falls.
    boxes = sheet.locator("[data-dice-boxes] input")
    for i, value in enumerate([4, 5, 1]):
        expect(boxes.nth(i)).to_be_visible(timeout=WAIT_MS)
        boxes.nth(i).fill(str(value))
    sheet.locator("#f-go").click()
    expect(sheet).to_be_hidden(timeout=WAIT_MS)
    at_most_one = sum(Fraction(d["exact"]) for d in line["damage"] if d["value"] <= 1)
    expect(page.locator('#result [data-testid="percentile"]')).to_contain_text(percent(float(at_most_one)),
                                                                                timeout=WAIT_MS)  # fmt: skip
    assert errors == []


@pytest.mark.browser
def test_the_grenade_burst_shows_the_odds_of_the_victims_ticked(live_server, phone_context, transactional_db):
    battle, a, _b, u = start()
    ctx = phone_context(**journey.PHONE)
    ctx.add_cookies([{"name": "sessionid", "value": a.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    journey.in_sync(page)
    guard = page.locator(f'#board details[data-unit="{u.GUARD}"]')
    guard.locator(":scope > summary").click()
    guard.locator('button[data-act="grenade"]').first.click()
    sheet = page.locator("#action-sheet")
    expect(sheet).to_be_visible()
    sheet.locator("#f-soldier").select_option("2")
    live = sheet.locator('[data-testid="odds-live"]')
    # Before the burst only the thrower (Бр 3) is at risk: 1/6 × 17/20.
    expect(live.locator(".odds-headline")).to_contain_text(percent(17 / 120), timeout=WAIT_MS)
    expect(live).to_contain_text("взрыв кого-то уничтожит")
    sheet.locator("[data-dice-boxes] input").first.fill("3")
    sheet.locator("#f-go").click()
    burst = page.locator("#burst-sheet")
    expect(burst).to_be_visible(timeout=WAIT_MS)
    for value in (f"{u.LINE}|1", f"{u.LINE}|2", f"{u.MORTAR}|"):
        burst.locator(f'input[type=checkbox][value="{value}"]').check()
    thrower = {**infantry(battle, u.GUARD, 2), "actions_used": []}
    victims = [infantry(battle, u.LINE, 1), infantry(battle, u.LINE, 2), machine(battle, u.MORTAR)]
    expected = odds(battle, "grenade", {"thrower": thrower, "burst_steps": 3, "victims": victims})
    burst_live = burst.locator('[data-testid="odds-live"]')
    expect(burst_live.locator(".odds-headline")).to_contain_text(percent(expected["p_any_destroyed"]["p"]),
                                                                 timeout=WAIT_MS)  # fmt: skip
    expect(burst_live.locator(".odds-bars li")).to_have_count(3)  # none, one or both soldiers destroyed
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert errors == []
