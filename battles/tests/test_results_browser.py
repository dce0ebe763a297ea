"""Issue #29 on two Russian phones: two club members play a battle, end it on the board, both confirm the result,
and the club page shows the result and the new ratings. Everything through the pages (tests/journey.py)."""

import pytest
from playwright.sync_api import expect

from armies.services.packs import load_packs
from tests import journey


@pytest.fixture
def packs(transactional_db):
    load_packs()


@pytest.mark.browser
def test_two_phones_end_a_game_both_confirm_and_the_club_shows_the_ratings(live_server, phone_context, packs):
    base = live_server.url
    a, b = journey.new_phone(phone_context), journey.new_phone(phone_context)
    journey.sign_up(a, base, "Алиса")
    journey.sign_up(b, base, "Борис")
    invitation = journey.new_club(a, base, "Клуб Пятница")
    journey.join_club(b, invitation)
    journey.new_roster(a, base, pack="Технолог", name="Красные", faction="Торговый Протекторат")
    journey.add_unit(a, "Ополченцы планеты Гелион")
    journey.new_roster(b, base, pack="Технолог", name="Синие", faction="Империя Полярис")
    journey.add_unit(b, "Режимная клон-пехота")
    link = journey.share_link(b)
    battle_invitation = journey.start_battle(
        a, base, game="bronepekhota", mine="Красные", opponent_link=link, name="Пятница"
    )
    journey.join(b, battle_invitation)
    journey.same_board(a, b)

    # Alice ends the game here: Blue (Борис) won. The proposal reaches Bob's phone with the buttons to answer.
    panel = a.locator("#result-panel")
    panel.locator("details.end-game > summary").click()
    panel.get_by_label("Победа «Синие»").check()
    panel.get_by_role("button", name="Предложить").click()
    expect(a.locator("#result-panel")).to_have_attribute("data-result-status", "proposed")
    expect(b.locator("#result-panel")).to_have_attribute("data-result-status", "proposed", timeout=journey.SYNC_MS)
    expect(b.locator("#result-panel")).to_contain_text("Победа: Синие (Борис).")
    expect(b.locator("#result-panel")).to_contain_text("Идёт в рейтинг клуба «Клуб Пятница»")
    # Bob confirms: final on both phones, and the battle takes no more moves.
    b.locator("#result-panel").get_by_role("button", name="Подтвердить результат").click()
    for page in (a, b):
        expect(page.locator("#result-panel")).to_have_attribute(
            "data-result-status", "confirmed", timeout=journey.SYNC_MS
        )
        expect(page.locator("#result-panel")).to_contain_text("Подтверждён обоими игроками")
    journey.same_board(a, b)
    for page in (a, b):
        expect(page.locator("ol.log")).to_contain_text("Результат окончателен")

    # The club page shows the game and the ratings: Bob first.
    b.locator("#result-panel").get_by_role("link", name="Журнал игры").count()
    b.goto(f"{base}/clubs/")
    b.get_by_role("link", name="Клуб Пятница").click()
    summary = b.locator("#club-results")
    expect(summary).to_contain_text("Бронепехота")
    expect(summary.locator("ol.ladder-top li").first).to_contain_text("Борис")
    expect(summary).to_contain_text("Победа: Синие (Борис).")
    summary.get_by_role("link", name="Все результаты, рейтинги и статистика юнитов").click()
    ladder = b.locator("#ladder table tbody tr")
    expect(ladder).to_have_count(2)
    expect(ladder.first).to_contain_text("Борис")
    expect(ladder.first).to_contain_text("предварительный")
    expect(b.locator("svg.rating-chart")).to_be_visible()
    assert b.evaluate("document.documentElement.scrollWidth") <= 360
