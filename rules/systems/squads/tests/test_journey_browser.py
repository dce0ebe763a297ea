"""«Отряды» played to its end at the table, through the pages alone, on two Russian phones (issue «Every system
played to its end at the table»).

Алиса builds «Красные» on «Отряды: таблицы правил»: a squad of veterans in light armour (a light machine gun, two
assault rifles, an elite leader with a pistol) and an APC with a heavy machine gun and a veteran crew. Борис builds
«Синие» on «Отряды: предлагаемые очки (по моделированию)»: five recruits with rifles, 13 points. Борис shares his
roster, Алиса starts the battle with it and Борис joins by the invitation. The dice that decide the course are typed
in from the table:
- turn 1: the initiative 5 against 2: Красные. A die of 7 is refused in Russian and changes nothing. The veterans
  activate (5, leader Elite: 2+), take Aimed fire and fire at the recruits 20" away: 6, 5, 4, 1, 2 hit on 3+ with
  the aim: 3 hits, no armour. Борис's phone asks him to split them: 1 suppressed, 2 casualties. The chain goes on:
  the APC fails (1): On Guard, and the initiative passes to Синие on both phones;
- the recruits activate (6 − 1 for the suppressed figure); they Walk; Алиса's phone offers the APC's On Guard
  reaction: its heavy machine gun (6, 1, 1, 1 on 4+) hits once, and Борис suppresses one figure. His recruits fire
  at the APC 30" away: refused in Russian, out of range; at 20" the server rolls (rifles cannot harm an armoured
  vehicle, L84, whatever the dice);
- turn 2: the initiative ties 3 and 3 and is re-rolled, 6 against 1: Красные. The APC stands and fires (1, 1, 1, 1:
  no hit). The veterans (2) assault the recruits: their four dice of 6 against the 1s of the two recruits not
  suppressed (the suppressed one would strike last, §3.8). Синие have no unit left: the battle is over, Красные
  win, on both phones, with the log in Russian.
Both phones show the same board after every move (each write is awaited on the phone that made it, then on the
other); every page of the journey fits 360 px, and the controls of the builder's entries and the board's turn bar
are at least 44 × 44 px.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from armies.services.packs import load_packs
from tests import journey

SYNC_MS = journey.SYNC_MS
RED, BLUE = "Красные", "Синие"
VETERANS, APC, RECRUITS = "Отряд: Ветеран", "ТС: БТР, Бронеавтомобили", "Рекрут: 5 винтовок"
LATIN = re.compile(r"[A-Za-z]{2,}")
ALLOWED_LATIN = re.compile(r"\bL\d+(–\d+)?\b|§\d+ B\d+|\bArmlist\b|\bv\d+\b|\bRU\b|\bEN\b|\bFUBAR\b")


@pytest.fixture
def packs(transactional_db):
    load_packs()


def no_sideways_scroll(*pages: Page) -> None:
    for page in pages:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{page.url} is {width} px wide"


def visit(page: Page, url: str) -> None:
    """A page of the journey, looked at before the step that uses it: it fits the phone's width."""
    page.goto(url)
    no_sideways_scroll(page)


def both_alike(a: Page, b: Page) -> None:
    journey.same_board(a, b)
    no_sideways_scroll(a, b)


def small_controls(page: Page, selector: str) -> list[str]:
    """The buttons, selects and boxes under `selector` a thumb cannot hit: less than 44 × 44 CSS px."""
    return page.locator(selector).evaluate_all(
        """els => els.flatMap(root => Array.from(root.querySelectorAll(
                'button, select, input:not([type=checkbox]):not([type=hidden]), summary')))
            .filter(e => e.offsetParent !== null)
            .map(e => [e, e.getBoundingClientRect()])
            .filter(([e, r]) => r.width < 44 || r.height < 44)
            .map(([e, r]) => `${e.tagName} ${e.name || e.textContent.trim().slice(0, 30)} ${r.width}x${r.height}`)"""
    )


def english_on(page: Page, selector: str) -> list[str]:
    text = ALLOWED_LATIN.sub("", " ".join(page.locator(selector).all_inner_texts()))
    return LATIN.findall(text)


def selected(select) -> str:
    return select.evaluate("s => s.options[s.selectedIndex].text")


# The builder ----------------------------------------------------------------------------------------------------
def build_red(a: Page, base: str) -> None:
    journey.new_roster(a, base, pack="Отряды: таблицы правил", name=RED)  # one faction: given by the pack
    no_sideways_scroll(a)
    journey.add_unit(a, "Отряд: Ветеран")
    vets = journey.entry(a, VETERANS)
    expect(vets.locator("textarea")).to_have_count(0)  # every choice is a control, never JSON text
    journey.choose(a, vets.locator('select[data-option="armour"]'), label="Легкая")
    figures = vets.locator('select[data-option="figures"]')
    expect(figures).to_have_count(2)  # one rifleman and an empty line to add a figure
    journey.choose(a, figures.nth(0), label="Ручной пулемет")
    journey.choose(a, figures.nth(1), label="Штурмовая винтовка/автомат")
    journey.choose(a, figures.nth(2), label="Штурмовая винтовка/автомат")
    expect(figures).to_have_count(4)
    leader = vets.locator('select[data-option="leader"]')
    journey.choose(a, leader.nth(0), label="Элита")
    journey.choose(a, leader.nth(1), label="Пистолет/револьвер")
    chosen = [selected(x) for x in vets.locator("select").all()]
    assert chosen == ["Легкая", "Ручной пулемет", "Штурмовая винтовка/автомат", "Штурмовая винтовка/автомат",
                      "— нет фигуры —", "Элита", "Пистолет/револьвер"], chosen  # fmt: skip
    journey.add_unit(a, APC)
    apc = journey.entry(a, "ТС: БТР")
    expect(apc.locator("textarea")).to_have_count(0)
    journey.choose(a, apc.locator('select[data-option="crew_level"]'), label="Ветеран")
    journey.choose(a, apc.locator('select[data-option="weapons"]').nth(0), label="Тяжелый пулемет")
    expect(apc.locator('input[data-option="passengers"]')).to_have_count(1)  # the roster's squad, by its name
    expect(apc.locator("label.check")).to_contain_text(VETERANS)
    expect(a.locator('[data-testid="error-count"]')).to_have_text("без ошибок")
    assert not small_controls(a, "#roster-live .entries"), small_controls(a, "#roster-live .entries")
    assert not english_on(a, "#roster-live .entries"), english_on(a, "#roster-live .entries")
    no_sideways_scroll(a)


def build_blue(b: Page, base: str) -> None:
    journey.new_roster(b, base, pack="Отряды: предлагаемые очки", name=BLUE)
    no_sideways_scroll(b)  # the pack's long name pushed this page to 463 px
    journey.add_unit(b, RECRUITS)
    assert journey.total(b) == 13
    recruits = journey.entry(b, RECRUITS)
    expect(recruits.locator('select[data-option="figures"]')).to_have_count(6)  # five rifles and a line to add
    expect(recruits).to_contain_text("Предлагаемые очки (по моделированию): 13")
    no_sideways_scroll(b)


# The board ------------------------------------------------------------------------------------------------------
def next_line(page: Page, text: str) -> None:
    expect(page.locator("#board .turnbar")).to_contain_text(text, timeout=SYNC_MS)


def prompt(page: Page, command: str):
    return page.locator(f'#board form.prompt[data-order-command="{command}"]')


def type_dice(form, values: list[int]) -> list[str]:
    """The dice typed into the form's boxes (the hits decide the saves, a tie asks for the re-roll); their labels."""
    return journey.type_dice(form, "data-squads-dice", values)


def type_dice_by_label(form, pick) -> list[str]:
    """As type_dice, each die chosen by its box's label (whose dice it is), until the test asks for no more."""
    boxes = form.locator('[data-squads-dice] input[name="die"]')
    labels = []
    while True:
        expect(form.locator('[data-squads-dice] .boxes[data-state="ready"]')).to_have_count(1, timeout=SYNC_MS)
        if boxes.count() <= len(labels):
            return labels
        labels.append(boxes.nth(len(labels)).locator("xpath=..").inner_text().strip())
        boxes.nth(len(labels) - 1).fill(str(pick(labels[-1])))


def tap(page: Page, button) -> None:
    """Taps a button that sends a command, closes the result box (the dice and what they did) and waits until this
    phone shows the battle's new version (same_board then waits for the other phone to show it too)."""
    before = version(page)
    journey.press(page, button)
    journey.ok(page)
    expect(page.locator("#battle")).not_to_have_attribute("data-version", before, timeout=SYNC_MS)


def send(page: Page, form) -> None:
    """As tap, for a form: sent once its submit event is seen (tests/journey.submit)."""
    before = version(page)
    journey.submit(page, form)
    journey.ok(page)
    expect(page.locator("#battle")).not_to_have_attribute("data-version", before, timeout=SYNC_MS)


def activate(page: Page, unit: str, die: int) -> None:
    form = prompt(page, "activate")
    expect(form).to_be_visible(timeout=SYNC_MS)
    form.locator('select[name="unit"]').select_option(label=unit)
    assert type_dice(form, [die])[0].startswith("Д6")
    send(page, form)


def act(page: Page, action: str) -> None:
    tap(page, page.locator("#board .turnbar").get_by_role("button", name=action, exact=True))


def shoot(page: Page, command: str, *, target: str | None, distance: int, dice=None, facing: str | None = None):
    form = prompt(page, command)
    expect(form).to_be_visible(timeout=SYNC_MS)
    if target:
        form.locator('select[name="target"]').select_option(label=target)
    form.locator('input[name="distance"]').fill(str(distance))
    form.locator('select[name="cover"]').select_option(label="Нет")
    if facing:
        form.locator('select[name="facing"]').select_option(label=facing)
    if dice:
        type_dice(form, dice)
    return form


def split(page: Page, other: Page, label: str) -> None:
    """The target's owner answers on his phone; the other phone has no such question."""
    question = prompt(page, "split_hits")
    expect(question).to_be_visible(timeout=SYNC_MS)
    expect(prompt(other, "split_hits")).to_have_count(0)
    tap(page, question.get_by_role("button", name=label, exact=True))


def version(page: Page) -> str:
    return page.locator("#battle").get_attribute("data-version")


@pytest.mark.browser
def test_two_phones_play_a_squad_skirmish_to_its_end(live_server, phone_context, packs):
    started = time.monotonic()
    base = live_server.url
    a, b = journey.new_phone(phone_context), journey.new_phone(phone_context)
    visit(a, f"{base}/accounts/signup/")
    journey.sign_up(a, base, "Алиса")
    journey.sign_up(b, base, "Борис")
    no_sideways_scroll(a, b)
    visit(a, f"{base}/rosters/")
    build_red(a, base)
    build_blue(b, base)
    link = journey.share_link(b)
    no_sideways_scroll(b)
    visit(a, f"{base}/battles/new/?system=squads")
    invitation = journey.start_battle(a, base, game="squads", mine=RED, opponent_link=link, name="Стычка у моста")
    journey.in_sync(a)
    visit(b, invitation)
    journey.join(b, invitation)
    both_alike(a, b)
    for page in (a, b):
        next_line(page, "Дальше: каждая сторона бросает кубик инициативы")

    # Turn 1: the initiative typed in, 5 against 2.
    roll = prompt(a, "start_turn")
    labels = type_dice(roll, [5, 2])
    assert labels == [f"Д6 инициатива: {RED}", f"Д6 инициатива: {BLUE}"]  # sides by their names
    send(a, roll)
    both_alike(a, b)
    for page in (a, b):
        next_line(page, f"Ход 1 · инициатива: {RED}")
        next_line(page, f"Дальше: {RED} — бросок активации")
    expect(prompt(b, "activate")).to_have_count(0)  # not Борис's roll

    # A die of 7 from the table: refused in Russian, nothing recorded on either phone.
    before = version(a)
    form = prompt(a, "activate")
    form.locator('select[name="unit"]').select_option(label=VETERANS)
    type_dice(form, [7])
    journey.submit(a, form)
    expect(form.locator(".form-error")).to_contain_text("от 1 до 6", timeout=SYNC_MS)
    assert version(a) == before
    both_alike(a, b)

    # The veterans activate (leader Elite: 2+) and fire aimed at the recruits: 3 hits, no armour to save.
    activate(a, VETERANS, 5)
    both_alike(a, b)
    next_line(b, f"Дальше: {RED} — выбрать действие: {VETERANS}")
    act(a, "Прицельный огонь")
    expect(prompt(a, "shoot")).to_be_visible()
    assert not small_controls(a, "#board .turnbar"), small_controls(a, "#board .turnbar")
    send(a, shoot(a, "shoot", target=RECRUITS, distance=20, dice=[6, 5, 4, 1, 2]))
    for page in (a, b):
        next_line(page, f"Дальше: {BLUE} — разделить хиты")
    expect(prompt(b, "split_hits")).to_be_visible(timeout=SYNC_MS)
    assert not small_controls(b, "#board .turnbar"), small_controls(b, "#board .turnbar")
    split(b, a, "Подавлено 1, потери 2")
    both_alike(a, b)
    recruits = f'#board details[data-unit] > summary:has-text("{RECRUITS}")'
    for page in (a, b):
        expect(page.locator(recruits)).to_contain_text("Подавлено: 1")
        expect(page.locator(recruits)).to_contain_text("Боевые потери: 2")
        expect(page.locator("ol.log")).to_contain_text(f"{RECRUITS}: подавлено 1, боевые потери 2")

    # The chain goes on while the rolls succeed (L12): the APC fails, goes On Guard, the initiative passes.
    activate(a, APC, 1)
    both_alike(a, b)
    for page in (a, b):
        next_line(page, f"инициатива: {BLUE}")
        next_line(page, f"Дальше: {BLUE} — бросок активации")
    expect(prompt(a, "activate")).to_have_count(0)

    # The recruits activate (6 − 1 suppressed ≥ 5) and Walk; the APC On Guard may fire first (L21).
    activate(b, RECRUITS, 6)
    act(b, "Ходьба")
    reaction = shoot(a, "react", target=None, distance=20, dice=[6, 1, 1, 1])
    expect(reaction).to_contain_text("в Защите")
    send(a, reaction)
    split(b, a, "Подавлено 1, потери 0")
    both_alike(a, b)

    # Out of range: refused in Russian, nothing changes. At 20" the server rolls: rifles cannot harm an APC (L84).
    before = version(b)
    form = shoot(b, "shoot", target=APC, distance=30, facing="В борт")
    journey.submit(b, form)
    expect(form.locator(".form-error")).to_contain_text("вне дальности", timeout=SYNC_MS)
    assert version(b) == before
    form.locator('input[name="distance"]').fill("20")
    send(b, form)
    both_alike(a, b)
    for page in (a, b):
        next_line(page, "Дальше: каждая сторона бросает кубик инициативы нового хода")

    # Turn 2: a tie is re-rolled (the boxes grow as the dice say so), then 6 against 1.
    roll = prompt(b, "start_turn")
    labels = type_dice(roll, [3, 3, 6, 1])
    assert len(labels) == 4
    assert "переброс" in labels[2]
    send(b, roll)
    both_alike(a, b)
    activate(a, APC, 4)
    act(a, "Стоит на месте: стреляет из всего оружия")
    send(a, shoot(a, "shoot", target=RECRUITS, distance=20, dice=[1, 1, 1, 1]))
    both_alike(a, b)
    activate(a, VETERANS, 2)
    act(a, "Штурм")
    form = prompt(a, "assault")
    form.locator('select[name="target"]').select_option(label=RECRUITS)
    labels = type_dice_by_label(form, lambda label: 6 if "атакующий" in label else 1)
    # Four attackers (the leader too) and the two recruits not suppressed; the suppressed one would strike in a
    # second wave (§3.8), but four hits take all three first. No armour to save.
    assert len(labels) == 6, labels
    assert sum("атакующий" in x for x in labels) == 4, labels
    send(a, form)

    # Синие have no unit left in the game: the battle is over on both phones, in Russian, with its log.
    both_alike(a, b)
    for page in (a, b):
        banner = page.locator("#board .result-banner")
        expect(banner).to_contain_text("Бой окончен.", timeout=SYNC_MS)
        expect(banner).to_contain_text(f"Победа: {RED}.")
        expect(banner).to_contain_text(f"У стороны {BLUE} не осталось отрядов в игре.")
        expect(page.locator("ol.log")).to_contain_text(f"победа: {RED}")
        expect(page.locator("#board form.prompt")).to_have_count(0)
        for part in ("#board .turnbar", "#board .side-title", "#board details[data-unit]", "#board ol.log .text"):
            assert not english_on(page, part), (part, english_on(page, part))
    no_sideways_scroll(a, b)
    print(f"journey: {time.monotonic() - started:.0f} s")
