"""The odds at the moment of the roll on a Russian phone (issue #31), «Звездный Десант»: the shot's form shows the
exact odds of its hit and wound tests as it opens, changes them with the target, ranks the targets, links its rule,
and after the roll says where the wounds fell in their distribution."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from playwright.sync_api import expect

from battles import services
from battles.tests.conftest import PASSWORD
from rules.systems.zvezdny_desant.system import SYSTEM
from rules.systems.zvezdny_desant.tests.test_at_roll import shot_by_hand
from rules.systems.zvezdny_desant.tests.test_battle import orders
from rules.systems.zvezdny_desant.tests.test_two_phones_browser import zd_battle  # noqa: F401 (a fixture)
from tests import journey, phones

SHOTS = Path("/tmp/zd")


def percent(p: Fraction) -> str:
    """As the board writes a chance on a Russian phone: «12,3 %» (static/battles/odds.js)."""
    digits = 2 if 0 < p < Fraction(1, 100) else 1
    return f"{float(p) * 100:.{digits}f}".replace(".", ",") + " %"


def shot_odds(battle, target: str) -> dict:
    return SYSTEM.action("shooting").odds(shot_by_hand(battle, "s0-e1", target), SYSTEM.default_settings())


def to_the_shot(battle, alice, bob, *, marked: bool) -> None:
    """Turn 1 to the execution of orders: Forcers first, their first squad on «Оборона» acts; the humans' first squad
    on «Атака» (with a wound marker when `marked`), their second on «Оборона»."""
    users = {0: alice, 1: bob}
    steps = [
        (0, "start_turn", {}, [15, 4]),
        (0, "give_orders", orders(("s0-e1", "defence", 7), ("s0-e2", "move", 3)), None),
        (1, "give_orders", orders(("s1-e1", "attack", 6), ("s1-e2", "defence", 4)), None),
    ]
    if marked:
        steps.append((1, "wounds", {"unit": "s1-e1", "step": 1}, None))
    for side, name, inputs, dice in steps:
        battle.refresh_from_db()
        services.command_run(battle_id=battle.pk, user=users[side], name=name, inputs=inputs, dice=dice, seed=5,
                             expected_version=battle.version)  # fmt: skip


@pytest.mark.browser
def test_the_shot_shows_its_odds_changes_them_with_the_target_and_places_the_roll(
    live_server,
    phone_context,
    zd_battle,  # noqa: F811
):
    battle, alice, bob = zd_battle
    to_the_shot(battle, alice, bob, marked=True)
    battle.refresh_from_db()
    marked, dug_in = shot_odds(battle, "s1-e1"), shot_odds(battle, "s1-e2")
    first = Fraction(marked["p_any_removed"]["exact"])
    second = Fraction(dug_in["p_any_removed"]["exact"])
    assert first != second

    page = phones.signed_in(
        phone_context, live_server.url, alice, f"/battles/{battle.pk}/", password=PASSWORD, **journey.PHONE
    )
    journey.in_sync(page)
    form = page.locator('form[data-order-command="act"]')
    odds = form.locator('[data-testid="odds-live"]')
    # Opened: the unit shoots (its first choice under «Оборона») at the first target, marked and on «Атака».
    expect(odds).to_contain_text(percent(first), timeout=journey.SYNC_MS)
    expect(odds).to_contain_text("убрана хотя бы одна фигурка")
    expect(odds).to_contain_text("Ранения")
    expect(odds.locator(".odds-bars li").first).to_be_visible()  # the wounds as a small plot
    expect(odds).to_contain_text("Убрано фигурок: 0; Маркеры ранений: 1")  # the joint outcome, part by part
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "odds-open.png"), full_page=True)
    odds.screenshot(path=str(SHOTS / "odds-box.png"))
    form.locator('select[name="target"]').select_option("s1-e2")
    expect(odds).to_contain_text(percent(second), timeout=journey.SYNC_MS)
    expect(odds).not_to_contain_text(percent(first))
    form.get_by_role("button", name="Сравнить варианты").click()
    ranking = form.locator(".odds-compare ol li")
    expect(ranking).to_have_count(2, timeout=journey.SYNC_MS)
    names = {u.key: u.name for u in battle.units.all()}
    best, worst = ("s1-e1", "s1-e2") if first > second else ("s1-e2", "s1-e1")
    expect(ranking.first).to_contain_text(names[best])
    expect(ranking.first).to_contain_text(percent(max(first, second)))
    ranking.first.get_by_role("button").click()  # choosing from the ranking fills the field
    expect(form.locator('select[name="target"]')).to_have_value(best)
    expect(odds).to_contain_text(percent(max(first, second)), timeout=journey.SYNC_MS)
    assert form.locator('a.rule-link[href="rules/act/"]').count() == 1
    page.screenshot(path=str(SHOTS / "odds-compared.png"), full_page=True)
    form.locator(".odds-compare").screenshot(path=str(SHOTS / "odds-ranking.png"))
    # The roll, typed in from the table: 3 hits of 5 on the marked squad, then 2 wounds of 3.
    form.locator('select[name="target"]').select_option("s1-e1")
    expect(odds).to_contain_text(percent(first), timeout=journey.SYNC_MS)
    boxes = form.locator('input[name="dice"]')
    for i, value in enumerate([20, 20, 20, 3, 2, 15, 14, 2]):
        boxes.nth(i).fill(str(value))
    form.get_by_role("button", name="Исполнить приказ").click()
    at_most = sum(Fraction(d["exact"]) for d in marked["wounds"] if d["value"] <= 2)
    expect(page.locator('#result [data-testid="percentile"]')).to_contain_text(percent(at_most),
                                                                                timeout=journey.SYNC_MS)  # fmt: skip
    page.screenshot(path=str(SHOTS / "odds-placed.png"), full_page=True)
    page.locator("#result").screenshot(path=str(SHOTS / "odds-result.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # The rule at hand, in the book's words.
    page.goto(f"{live_server.url}/battles/{battle.pk}/rules/act/")
    expect(page.locator("#rule")).to_contain_text("Тест на Попадание")
    expect(page.locator('[data-testid="house-rule"]')).to_be_visible()
    page.screenshot(path=str(SHOTS / "rule.png"), full_page=True)


@pytest.mark.browser
def test_the_roll_is_placed_in_the_odds_shown_at_the_tap_though_the_form_asks_again_before_the_answer(
    live_server,
    phone_context,
    zd_battle,  # noqa: F811
):
    """The form may ask its odds again while the roll is on its way (a change of a field, a redraw): that answer,
    given on the battle after the roll (the unit has acted: refused), must not take away the odds the player saw."""
    battle, alice, bob = zd_battle
    to_the_shot(battle, alice, bob, marked=False)
    battle.refresh_from_db()
    shown = shot_odds(battle, "s1-e1")
    page = phones.signed_in(
        phone_context, live_server.url, alice, f"/battles/{battle.pk}/", password=PASSWORD, **journey.PHONE
    )
    journey.in_sync(page)
    form = page.locator('form[data-order-command="act"]')
    odds = form.locator('[data-testid="odds-live"]')
    form.locator('select[name="target"]').select_option("s1-e1")
    expect(odds).to_contain_text(percent(Fraction(shown["p_any_removed"]["exact"])), timeout=journey.SYNC_MS)

    def roll_then_ask_again(route):
        # The roll is recorded; before its answer reaches the phone, the form asks its odds again, on the battle
        # as it now is, and is refused.
        answer = route.fetch()
        page.evaluate(
            """() => document.querySelector('form[data-order-command="act"] select[name="target"]')
                 .dispatchEvent(new Event("change", { bubbles: true }))"""
        )
        expect(odds).to_have_class("odds-live odds-missing", timeout=journey.SYNC_MS)
        route.fulfill(response=answer)

    page.route("**/commands/act/", roll_then_ask_again)
    for i, value in enumerate([20, 20, 20, 3, 2, 15, 14, 2]):
        form.locator('input[name="dice"]').nth(i).fill(str(value))
    form.get_by_role("button", name="Исполнить приказ").click()
    at_most = sum(Fraction(d["exact"]) for d in shown["wounds"] if d["value"] <= 2)
    expect(page.locator('#result [data-testid="percentile"]')).to_contain_text(percent(at_most),
                                                                                timeout=journey.SYNC_MS)  # fmt: skip
