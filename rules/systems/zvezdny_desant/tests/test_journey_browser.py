"""«Звездный Десант» played to its end on two Russian phones, through the pages alone (issue «Every system played
to its end at the table»).

Алиса and Борис sign up on the page, each builds a roster of the demo's example units in the builder (the demo
prints no costs, so each unit's ЛБХ cost is typed when it is added: until then the roster has an error), Борис
shares his by link, Алиса starts a battle of two turns from «Новый бой» (the game length is agreed, L786) and Борис
joins by the invitation. Then two turns on the board's own forms: the First Player roll (once by the server, once
typed in), secret orders on each phone (the other phone sees only that they were given, until both have ordered and
every card turns face up on both phones), command points, shooting with the hit and wound tests typed in from the
table, an attack that shoots and assaults, wound markers and casualties, close combat in which one player strikes
and the other phone is asked for its strikes, the end of the last turn and the victory points on both phones.
A wrong entry on the board (too few dice for a shot) is refused in Russian and changes nothing. No API or ORM call
inside the journey; both phones must show the same board after every move, and no page scrolls sideways at 360 px.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from armies.services.packs import load_packs
from tests import journey

SYNC_MS = journey.SYNC_MS
FORCERS = "Штурмовое звено форсеров (пример)"
HUMANS = "Пехотинцы человеческих вооруженных сил (пример)"
F1, F2 = FORCERS, f"{FORCERS} 2"  # two units of one card are told apart on the board
P1, P2 = HUMANS, f"{HUMANS} 2"
ENGLISH = re.compile(r"\b(the|and|orders|side|turn|unit|strike|figures|markers|victory)\b", re.IGNORECASE)


@pytest.fixture
def packs(transactional_db):
    load_packs()


def fits(page: Page) -> None:
    """No page of the journey scrolls sideways on a 360 px phone."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url} is {width} px wide"


def no_english(page: Page) -> None:
    """What this system draws (the turn panel, the unit cards, the history) is in Russian."""
    parts = page.locator("#board .turnbar, #board details[data-unit], #board ol.log").all_inner_texts()
    text = " ".join(parts)
    found = ENGLISH.search(text)
    assert not found, text[max(0, found.start() - 80) : found.end() + 80]


def build(page: Page, base: str, *, name: str, faction: str, unit: str, figure: str, cost: str, extra: str) -> None:
    """A roster of two units of one card: the first added with «+», its ЛБХ costs typed in, then duplicated."""
    journey.new_roster(page, base, pack="Звездный Десант", name=name, faction=faction)
    fits(page)
    journey.add_unit(page, unit)
    card = journey.entry(page, unit)
    expect(card.locator(".badge.faction")).to_have_text(faction)  # the book's name, not the slug
    expect(page.locator('[data-testid="error-count"]')).to_have_text(re.compile("ошибк"))  # no cost yet: not valid
    expect(card.locator(".issue.error")).to_contain_text("введите стоимость")
    assert card.locator("textarea").count() == 0  # no JSON boxes
    figure_cost = card.get_by_label(f"«{figure}»: стоимость одной фигурки по ЛБХ, очков")
    journey.type_in(page, figure_cost, cost)
    journey.type_in(page, card.get_by_label(re.compile("«Автомат»: дополнительная стоимость")), extra)
    expect(page.locator('[data-testid="error-count"]')).to_have_text("без ошибок")
    per_unit = journey.total(page)
    version = page.locator("#roster-live").get_attribute("data-version")
    card.locator('button[data-action="duplicate"]').click()  # the copy keeps the typed costs
    journey.wait_saved(page, version)
    assert journey.total(page) == 2 * per_unit
    count = journey.entry(page, unit, 1).get_by_label(re.compile(f"{figure}, оружие «Автомат»"))
    expect(count).to_have_value("5")  # the demo gives no unit size: 5 by default (1 to 10)
    journey.type_in(page, count, "4")  # a figure fewer costs one figure less
    assert journey.total(page) == 2 * per_unit - per_unit // 5
    journey.type_in(page, count, "5")
    fits(page)


def start_battle(page: Page, base: str, *, mine: str, opponent_link: str, name: str, turns: int) -> str:
    """«Новый бой» as tests/journey.start_battle, with the game's length agreed as a house rule (L786)."""
    page.goto(f"{base}/battles/new/")
    select = page.locator("#f-system")
    if select.input_value() != "zvezdny-desant":
        with page.expect_navigation():
            select.select_option("zvezdny-desant")
    fits(page)
    page.fill("#id_name", name)
    pick = page.locator(".roster-pick").filter(has_text=mine)
    pick.locator('input[name="rosters"]').check()
    pick.locator('input[name="my_roster"]').check()
    page.fill("#id_roster_links", opponent_link)
    page.locator('input[name="rules"][value="house"]').check()
    house = page.locator("details.house-rules")
    if house.get_attribute("open") is None:
        house.locator("summary").click()
    page.fill("#id_setting_max_turns", str(turns))
    page.locator("form.battle-new > button[type=submit]").click()
    assert not page.locator("#roster-problems").count(), page.locator("#roster-problems").inner_text()
    expect(page).to_have_url(re.compile(r"/battles/\d+/$"))
    page.wait_for_load_state()
    page.locator("details.invite > summary").click()
    return page.locator("details.invite input[id^=invite-]").first.input_value()


def card(page: Page, name: str):
    """A unit's card on the board by its exact name."""
    return page.locator("#board details[data-unit]").filter(
        has=page.locator(":scope > summary .name", has_text=re.compile(f"^{re.escape(name)}$"))
    )


def summary(page: Page, name: str):
    return card(page, name).locator(":scope > summary")


def submitted(page: Page, form, button: str, *, result: str | None = None) -> None:
    """Taps the form's button until the form is sent (a tap across two drawings of the board sends nothing:
    tests/journey.submit); with `result`, waits for the result panel to say it and closes it."""
    journey.submit(page, form, form.get_by_role("button", name=button))
    if result is not None:
        expect(page.locator("#result")).to_contain_text(result, timeout=SYNC_MS)
        journey.ok(page)


def give_orders(page: Page, cards: dict[str, tuple[str, int]]) -> None:
    form = page.locator("form.order-form")
    expect(form).to_be_visible(timeout=SYNC_MS)
    for name, (order, initiative) in cards.items():
        form.get_by_label(f"{name}: приказ").select_option(label=order)
        form.get_by_label(f"{name}: инициатива").fill(str(initiative))
    submitted(page, form, "Отдать приказы тайно", result="Приказы отданы тайно")


def act(page: Page, unit: str, do: str, *, target: str | None = None, cover: str | None = None,
        dice: list[int] = (), result: str | None = None) -> None:  # fmt: skip
    """The acting unit's form: what it does, the target from the board's units, its cover, dice typed in."""
    form = page.locator('form.prompt[data-order-command="act"]').filter(has_text=unit)
    expect(form).to_be_visible(timeout=SYNC_MS)
    form.locator('select[name="do"]').select_option(label=do)
    if target is not None:
        form.locator('select[name="target"]').select_option(label=target)
    if cover is not None:
        form.locator('select[name="cover"]').select_option(label=cover)
    boxes = form.locator('input[name="dice"]')
    for i, value in enumerate(dice):
        boxes.nth(i).fill(str(value))
    submitted(page, form, "Исполнить приказ", result=result)


def strike(page: Page, command: str, dice: list[int], button: str, *, result: str) -> None:
    form = page.locator(f'form.prompt[data-order-command="{command}"]')
    expect(form).to_be_visible(timeout=SYNC_MS)
    boxes = form.locator('input[name="dice"]')
    expect(boxes).to_have_count(len(dice))
    for i, value in enumerate(dice):
        boxes.nth(i).fill(str(value))
    submitted(page, form, button, result=result)


def both(a: Page, b: Page, check) -> None:
    for page in (a, b):
        check(page)


@pytest.mark.browser
def test_a_game_of_two_turns_to_its_end_on_two_russian_phones(live_server, phone_context, packs):
    base = live_server.url
    a, b = journey.new_phone(phone_context), journey.new_phone(phone_context)

    # Sign-up and two rosters through the builder: Алиса's forcers at 50 points a figure (500 in all), Борис's
    # infantry at 40 + 4 for the rifle (2 × 5 × 44 = 440).
    a.goto(f"{base}/accounts/signup/")
    fits(a)
    journey.sign_up(a, base, "Алиса")
    fits(a)
    journey.sign_up(b, base, "Борис")
    build(a, base, name="Красные", faction="Форсеры", unit=FORCERS, figure="Форсер", cost="50", extra="0")
    assert journey.total(a) == 500
    build(b, base, name="Синие", faction="Армия людей", unit=HUMANS, figure="Пехотинец", cost="40", extra="4")
    assert journey.total(b) == 440
    expect(b.locator('[data-testid="error-count"]')).to_have_text("без ошибок")
    link = journey.share_link(b)
    fits(b)

    # «Новый бой» with Борис's link, two turns by agreement; Борис joins by the invitation.
    invitation = start_battle(a, base, mine="Красные", opponent_link=link, name="Пятница", turns=2)
    journey.in_sync(a)
    b.goto(invitation)
    fits(b)
    journey.join(b, invitation)
    journey.same_board(a, b)
    both(a, b, fits)
    both(a, b, lambda p: expect(p.locator(".turnbar")).to_contain_text("Ход 1 из 2"))

    # Turn 1. The First Player roll, by the server (the initiatives below never tie, so it does not matter).
    roll = a.locator('form.prompt[data-order-command="start_turn"]')
    submitted(a, roll, "Бросить D20 за Первого игрока", result="Первый игрок")
    journey.same_board(a, b)
    both(a, b, lambda p: expect(p.locator("ol.log")).to_contain_text("Первый игрок", timeout=SYNC_MS))

    # Secret orders: Алиса's cards stay face down on Борис's phone until he has given his.
    give_orders(a, {F1: ("Атака", 6), F2: ("Оборона", 4)})
    expect(b.locator(".turnbar")).to_contain_text("Красные: приказы отданы.", timeout=SYNC_MS)
    journey.same_board(a, b)
    expect(a.locator(".turnbar")).to_contain_text("«Атака» 6")  # her own cards, face up for her only
    hidden = b.locator("body").inner_text() + b.content()
    assert "«Атака» 6" not in hidden
    assert "«Оборона» 4" not in hidden
    assert "order" not in journey.board_text(b).lower()
    no_english(b)
    give_orders(b, {P1: ("Оборона", 7), P2: ("Движение", 3)})
    for page in (a, b):  # every card turns face up on both phones (L248)
        expect(summary(page, F1)).to_contain_text("«Атака» 6", timeout=SYNC_MS)
        expect(summary(page, P1)).to_contain_text("«Оборона» 7", timeout=SYNC_MS)
        expect(page.locator("ol.log")).to_contain_text("Карточки приказов вскрыты", timeout=SYNC_MS)
    journey.same_board(a, b)
    both(a, b, lambda p: expect(p.locator(".turnbar")).to_contain_text("Действует Синие: инициатива 7"))
    expect(a.locator('form.prompt[data-order-command="act"]')).to_have_count(0)  # not her unit's turn

    # Initiative 7: Борис's infantry on «Оборона» shoots the forcers on «Атака» (8 − 2 = 6+). First a wrong entry:
    # only the five hit dice, when three hits need three wound dice too: refused in Russian, nothing changes.
    version = b.locator("#battle").get_attribute("data-version")
    act(b, P1, "Стрелять", target=F1, cover="открытая местность", dice=[20, 20, 20, 3, 2])
    expect(b.locator('form.prompt[data-order-command="act"]')).to_contain_text("Не хватает кубиков", timeout=SYNC_MS)
    assert b.locator("#battle").get_attribute("data-version") == version
    expect(summary(a, F1)).to_contain_text("фигурок 5/5, маркеров 0")
    # Then the whole roll from the table: 3 hits, wound tests 12+ (Хрк В12 against КБР В): 15, 14, 2 → 2 wounds.
    act(b, P1, "Стрелять", target=F1, cover="открытая местность", dice=[20, 20, 20, 3, 2, 15, 14, 2],
        result="Попаданий 3, ранений 2")  # fmt: skip
    for page in (a, b):  # СТК 3: two wounds stay as markers on the unit (L544)
        expect(summary(page, F1)).to_contain_text("фигурок 5/5, маркеров 2", timeout=SYNC_MS)
        expect(page.locator(".turnbar")).to_contain_text("Действует Красные: инициатива 6", timeout=SYNC_MS)
    journey.same_board(a, b)

    # Initiative 6: Алиса's «Атака» shoots, then assaults the same unit (A15): on the move at a unit on «Оборона»,
    # 8 + 2 + 2 = 12+: two hits, one wound (a marker on СТК 2); the assault starts close combat.
    act(a, F1, "Стрелять, затем напасть", target=P1, cover="открытая местность", dice=[20, 12, 3, 4, 5, 13, 1],
        result="Попаданий 2, ранений 1")  # fmt: skip
    for page in (a, b):
        expect(summary(page, P1)).to_contain_text("фигурок 5/5, маркеров 1", timeout=SYNC_MS)
        expect(card(page, F1).locator(".flags")).to_contain_text("в ближнем бою", timeout=SYNC_MS)
    journey.same_board(a, b)

    # Initiative 4: «Оборона» shoots Борис's unit on «Движение» at 8+: 3 hits, 3 wounds on СТК 2 → 1 dead, 1 marker.
    act(a, F2, "Стрелять", target=P2, cover="открытая местность", dice=[8, 9, 10, 1, 2, 12, 12, 12],
        result="Попаданий 3, ранений 3")  # fmt: skip
    both(a, b, lambda p: expect(summary(p, P2)).to_contain_text("фигурок 4/5, маркеров 1", timeout=SYNC_MS))
    journey.same_board(a, b)

    # Initiative 3: «Движение» moves (it may not shoot, L180–184).
    act(b, P2, "Движение", result="исполняет приказ")
    journey.same_board(a, b)

    # Close combat: Алиса strikes first, 5 forcers × 2 strikes at БСП 7 (no pluses: 5 against 5): 5 hits. Nobody
    # is removed yet: Борис's phone is asked for his strikes and the game waits for him.
    both(a, b, lambda p: expect(p.locator(".turnbar")).to_contain_text("Ближний бой", timeout=SYNC_MS))
    expect(b.locator('form.prompt[data-order-command="strike"]')).to_have_count(0)
    strike(a, "fight", [7, 8, 9, 10, 11, 1, 2, 3, 4, 5], "Нанести удары", result="Удары брошены")
    question = b.locator('form.prompt[data-order-command="strike"]')
    expect(question).to_be_visible(timeout=SYNC_MS)
    expect(question).to_contain_text("ваши удары")
    expect(b.locator(".turnbar")).to_contain_text("очередь ответных ударов — Синие")
    expect(a.locator(".turnbar")).to_contain_text("очередь ответных ударов — Синие", timeout=SYNC_MS)
    expect(a.locator('form.prompt[data-order-command="strike"]')).to_have_count(0)  # not hers to answer
    expect(a.locator('[data-command="end_turn"]')).to_have_count(0)  # the game waits for the answer
    expect(summary(a, P1)).to_contain_text("фигурок 5/5")
    journey.same_board(a, b)
    # Борис answers with 5 strikes at БСП 7: 2 hit. Both sides' casualties at once (L659): 5 + 1 marker on СТК 2 →
    # 3 infantrymen die; 2 + 2 markers on СТК 3 → 1 forcer dies, 1 marker left.
    strike(b, "strike", [20, 20, 1, 1, 1], "Нанести ответные удары", result="Ни одна сторона не уничтожена")
    for page in (a, b):
        expect(summary(page, P1)).to_contain_text("фигурок 2/5, маркеров 0", timeout=SYNC_MS)
        expect(summary(page, F1)).to_contain_text("фигурок 4/5, маркеров 1", timeout=SYNC_MS)
        expect(page.locator("ol.log")).to_contain_text("Ближний бой #1", timeout=SYNC_MS)
    journey.same_board(a, b)
    expect(a.locator('[data-command="end_turn"]')).to_be_visible(timeout=SYNC_MS)
    journey.press(a, a.locator('[data-command="end_turn"]'))
    both(a, b, lambda p: expect(p.locator(".turnbar")).to_contain_text("Ход 2 из 2", timeout=SYNC_MS))
    journey.same_board(a, b)
    both(a, b, fits)

    # Turn 2, the last. The First Player roll typed in from the table: Красные 12, Синие 5.
    roll = b.locator('form.prompt[data-order-command="start_turn"]')
    expect(roll).to_be_visible(timeout=SYNC_MS)
    boxes = roll.locator('input[name="dice"]')
    boxes.nth(0).fill("12")
    boxes.nth(1).fill("5")
    submitted(b, roll, "Бросить D20 за Первого игрока", result="Первый игрок")
    both(a, b, lambda p: expect(p.locator(".turnbar")).to_contain_text("Первый игрок: Красные", timeout=SYNC_MS))
    journey.same_board(a, b)

    # Units in close combat take no orders (L228): one card each, all 10 command points; a tie at 10 between the
    # players: the First Player's unit acts first (L266).
    give_orders(b, {P2: ("Атака", 10)})
    give_orders(a, {F2: ("Оборона", 10)})
    both(a, b, lambda p: expect(summary(p, P2)).to_contain_text("«Атака» 10", timeout=SYNC_MS))
    journey.same_board(a, b)
    # «Оборона» at a unit on «Атака» hits on 6+: 5 hits, 5 wounds + 1 marker on СТК 2: 3 dead, 1 figure left of 5.
    act(a, F2, "Стрелять", target=P2, cover="открытая местность", dice=[6, 7, 8, 9, 10, 12, 12, 12, 12, 12],
        result="Попаданий 5, ранений 5")  # fmt: skip
    both(a, b, lambda p: expect(summary(p, P2)).to_contain_text("фигурок 1/5, маркеров 0", timeout=SYNC_MS))
    journey.same_board(a, b)
    # Борис's «Атака» moves and shoots at «Оборона»: 8 + 2 + 2 = 12+; the server rolls (any result will do).
    act(b, P2, "Двигаться и стрелять", target=F2, cover="открытая местность", result="Попаданий")
    journey.same_board(a, b)

    # Close combat goes on (L718): this time Борис strikes first, 2 strikes at БСП 10 (the forcers have more figures
    # and more in base contact: +1 +2), then Алиса is asked: 4 forcers × 2 strikes at БСП 7, 4 hit → the last two
    # infantrymen die: total destruction wins (L726).
    strike(b, "fight", [10, 1], "Нанести удары", result="Удары брошены")
    question = a.locator('form.prompt[data-order-command="strike"]')
    expect(question).to_be_visible(timeout=SYNC_MS)
    expect(a.locator(".turnbar")).to_contain_text("очередь ответных ударов — Красные")
    journey.same_board(a, b)
    strike(a, "strike", [7, 7, 7, 7, 1, 1, 1, 1], "Нанести ответные удары", result="Победа в ближнем бою")
    for page in (a, b):
        expect(card(page, P1)).to_have_class(re.compile("destroyed"), timeout=SYNC_MS)
        expect(summary(page, F1)).to_contain_text("фигурок 4/5, маркеров 2", timeout=SYNC_MS)
    journey.same_board(a, b)
    journey.press(b, b.locator('[data-command="end_turn"]'))

    # The end of the last turn: victory points (L790–796) on both phones. Синие lost a whole unit (220) and more
    # than half of the other (110); Красные lost one forcer of ten: 330 : 0.
    for page in (a, b):
        banner = page.locator(".result-banner")
        expect(banner).to_contain_text("Игра окончена", timeout=SYNC_MS)
        expect(banner).to_contain_text("Победа: Красные")
        expect(banner).to_contain_text("330 : 0")
        expect(banner).to_contain_text("Последний ход (2) окончен")
        expect(page.locator("ol.log")).to_contain_text("Игра окончена: победа «Красные», победные очки 330 : 0")
        expect(page.locator("ol.log")).to_contain_text("Ход 2 окончен")
        no_english(page)
        fits(page)
    journey.same_board(a, b)
