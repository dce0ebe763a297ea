"""«Бронепехота» played to its end at the table, through the pages alone, on two Russian phones (issue «Every
system played to its end at the table»).

Алиса (Красные, Торговый Протекторат): «Ополченцы планеты Гелион» and a SALAMANDER piloted by militiaman 1.
Борис (Синие, Империя Полярис): «Спецназ планеты Шиду» (four commandos, Бр 5) and a RAPTOR piloted by commando 1.
Turns are enforced. Round 1, with the dice typed in from the table where they decide the course:
- initiative 10 against 3 (typed): Алиса holds it and lets Красные go first;
- SALAMANDER fires its rocket launcher (Д6+3 / 2Д20) at RAPTOR 5 steps away: 4 + 3 = 7 hits, 20 and 15 beat
  Броня 9: 2 damage. The book's pilot test is asked on Борис's phone (setting pilot_tests, the default): he types
  6 against the pilot's Бр 5, and the pilot is killed; RAPTOR has no pilot. Алиса tapping «Готово» meanwhile is
  refused in Russian and changes nothing;
- Борис's commando 2 (Д20 / 1Д12) shoots SALAMANDER 4 steps away: 10 hits, 9 beats Броня 7: 1 damage, and now
  Алиса's phone asks for her pilot's test: she lets the server roll it (the game goes the same way either way);
  she sets the strength back by hand with the slider's «+» (the players agree the rocket bounced); a dispute roll
  on the server; Борис marks his squad done;
- Алиса's militiamen 2 and 3 (ББ 4) charge commandos 2 and 3: 6 + 4 against 1 + 5 each, both destroyed; her
  militiaman 4 (Д6+1 / 2Д6) shoots commando 4 three steps away: 5 + 1 hits, a 6 beats Бр 5: destroyed. Борис has
  no soldier left (infantry and pilots, p.1): Красные win, and both phones say so in Russian, with the log.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from armies.services.packs import load_packs
from tests import journey

SYNC_MS = journey.SYNC_MS
LATIN_WORD = re.compile(r"\b[A-Za-z]{3,}\b")
NAMES = ("SALAMANDER", "RAPTOR")  # the Armlists' own names, printed in Latin letters on the cards


@pytest.fixture
def packs(transactional_db):
    load_packs()


def no_sideways_scroll(*pages: Page) -> None:
    for page in pages:
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, page.url


def start_battle(page: Page, base: str, *, mine: str, opponent_link: str, name: str) -> str:
    """«Новый бой» with turns enforced (a unit acts on its player's turn, once a round); the book's rules."""
    page.goto(f"{base}/battles/new/")
    select = page.locator("#f-system")
    if select.input_value() != "bronepekhota":
        with page.expect_navigation():
            select.select_option("bronepekhota")
    page.fill("#id_name", name)
    pick = page.locator(".roster-pick").filter(has_text=mine)
    pick.locator('input[name="rosters"]').check()
    pick.locator('input[name="my_roster"]').check()
    page.fill("#id_roster_links", opponent_link)
    page.locator('input[name="enforce_turns"]').check()
    no_sideways_scroll(page)
    page.locator("form.battle-new > button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/battles/\d+/$"))
    page.wait_for_load_state()
    page.locator("details.invite > summary").click()
    return page.locator("details.invite input[id^=invite-]").first.input_value()


def card(page: Page, name: str):
    """A unit's card on the board, opened."""
    found = page.locator("#board details[data-unit]").filter(has=page.locator(":scope > summary", has_text=name)).first
    if found.get_attribute("open") is None:
        found.locator(":scope > summary").click()
    return found


def pick(select, starts_with: str) -> None:
    """Chooses the option whose words begin with `starts_with` (units are listed as «RAPTOR · Синие»)."""
    labels = select.locator("option").all_inner_texts()
    index = next(i for i, label in enumerate(labels) if label.startswith(starts_with))
    select.select_option(index=index)


def type_dice(form, values: list[int]) -> None:
    """The dice rolled at the table, one box per die, as the test asks for them."""
    boxes = form.locator("[data-dice-boxes] input")
    for i, value in enumerate(values):
        expect(boxes.nth(i)).to_be_visible(timeout=SYNC_MS)
        boxes.nth(i).fill(str(value))
    expect(boxes).to_have_count(len(values), timeout=SYNC_MS)


def play_test(page: Page, unit: str, act: str, *, soldier=None, target=None, target_soldier=None,
                distance=None, dice=None) -> None:  # fmt: skip
    """Opens a unit's test sheet from its card (Стрелять, Ближний бой…), fills it in, rolls, and checks the result
    box names what happens next; leaves the box open."""
    journey.press(page, card(page, unit).locator(f'button[data-act="{act}"]').first)
    sheet = page.locator("#action-sheet")
    expect(sheet).to_be_visible()
    if soldier is not None:
        sheet.locator("#f-soldier").select_option(str(soldier))
    if target is not None:
        pick(sheet.locator("#f-target"), target)
    if target_soldier is not None:
        sheet.locator("#f-target-soldier").select_option(str(target_soldier))
    if distance is not None:
        sheet.locator("#f-distance").fill(str(distance))
    if dice:
        type_dice(sheet, dice)
    no_sideways_scroll(page)
    sheet.locator("#f-go").click()
    expect(sheet).to_be_hidden(timeout=SYNC_MS)
    expect(page.locator("#result")).to_contain_text("Дальше:")


def latin_words(page: Page, where: str) -> list[str]:
    """Latin words in what the system draws (`where`), without the Armlists' own Latin names (SALAMANDER): none
    may be left on a Russian page. The generic result panel (battles/results) is not this system's."""
    text = page.locator(where).evaluate(
        """(root) => {
            const copy = root.cloneNode(true);
            copy.querySelectorAll('#result-panel, script').forEach(e => e.remove());
            return copy.innerText;
        }"""
    )
    for name in NAMES:
        text = text.replace(name, "")
    return LATIN_WORD.findall(text)


NEXT = re.compile("Дальше:|Ждём ответа стороны|После атаки стороны|Игра окончена")


def both_alike(a: Page, b: Page) -> None:
    """Both phones show the same battle, each says in the book's words what comes next (or whom the game waits
    for), and neither scrolls sideways."""
    journey.same_board(a, b)
    for page in (a, b):
        expect(page.locator("#board")).to_contain_text(NEXT)
    no_sideways_scroll(a, b)


@pytest.mark.browser
def test_two_phones_play_bronepekhota_to_the_end(live_server, phone_context, packs):
    started = time.monotonic()
    base = live_server.url
    a, b = journey.new_phone(phone_context), journey.new_phone(phone_context)
    journey.sign_up(a, base, "Алиса")
    journey.sign_up(b, base, "Борис")

    # Two rosters through the builder: a vehicle's pilot is one of the roster's own soldiers of its rank (p.4, p.7).
    journey.new_roster(a, base, pack="Технолог", name="Красные", faction="Торговый Протекторат")
    journey.add_unit(a, "Ополченцы планеты Гелион")
    journey.add_unit(a, "SALAMANDER")
    salamander = journey.entry(a, "SALAMANDER")
    expect(salamander).to_contain_text("лёгкая · гусеничная · Скорострельность 1")
    pilot = salamander.locator('select[data-control="slots"]')
    journey.choose(a, pilot, label="Ополченцы планеты Гелион · №1 · ранг 1")
    expect(journey.entry(a, "Ополченцы планеты Гелион")).to_contain_text("№1 ведёт SALAMANDER")
    expect(a.locator("#roster-live")).not_to_contain_text("rank")
    expect(a.locator("#add-units")).to_contain_text("SALAMANDER")
    expect(a.locator("#add-units")).not_to_contain_text("rank")  # «ранг 1» beside each vehicle and gun
    no_sideways_scroll(a)
    journey.new_roster(b, base, pack="Технолог", name="Синие", faction="Империя Полярис")
    journey.add_unit(b, "Спецназ планеты Шиду")
    journey.add_unit(b, "RAPTOR")
    raptor = journey.entry(b, "RAPTOR")
    expect(raptor).to_contain_text("ранг 1")
    journey.choose(b, raptor.locator('select[data-control="slots"]'), label="Спецназ планеты Шиду · №1 · ранг 4")
    expect(b.locator('#roster-live [data-testid="error-count"]')).to_have_text(re.compile("без ошибок|valid"))
    no_sideways_scroll(b)
    link = journey.share_link(b)

    # «Новый бой» on Алиса's phone, Борис joins by the invitation.
    invitation = start_battle(a, base, mine="Красные", opponent_link=link, name="Пятница в клубе")
    journey.in_sync(a)
    journey.join(b, invitation)
    both_alike(a, b)
    expect(card(a, "SALAMANDER")).to_contain_text("Пилот: пехотинец 1 из Ополченцы планеты Гелион")
    for page in (a, b):
        expect(page.locator("#board")).to_contain_text("Дальше: каждый игрок бросает Д12 на инициативу.")

    # Initiative, every player's Д12 typed in from the table: Красные 10, Синие 3.
    journey.press(a, a.locator('#board button[data-act="initiative"]'))
    sheet = a.locator("#action-sheet")
    expect(sheet).to_be_visible()
    type_dice(sheet, [10, 3])
    expect(sheet.locator("[data-dice-boxes]")).to_contain_text("Д12 инициатива: Красные")
    expect(sheet.locator("[data-dice-boxes]")).to_contain_text("Д12 инициатива: Синие")
    no_sideways_scroll(a)
    sheet.locator("#f-go").click()
    expect(a.locator("#result")).to_contain_text("Инициатива у стороны «Красные»")
    journey.ok(a)
    both_alike(a, b)
    for page in (a, b):
        expect(page.locator("#board")).to_contain_text(
            "Дальше: порядок игроков задаёт обладатель инициативы — Красные."
        )
    journey.press(a, a.locator('#board button[data-command="order"]').filter(has_text="Красные"))
    journey.ok(a)
    both_alike(a, b)
    for page in (a, b):
        expect(page.locator("#board")).to_contain_text("Дальше: ходит Красные")

    # SALAMANDER shoots RAPTOR: the pilot's survival test is Борис's to take, on his phone.
    play_test(a, "SALAMANDER", "shoot", target="RAPTOR", distance=5, dice=[4, 20, 15])
    result = a.locator("#result")
    expect(result).to_contain_text("Попадание: повреждений — 2, прочность теперь 7; тест пилота проходит его игрок.")
    expect(result).to_contain_text("Дальше: Синие: пилот машины RAPTOR (пехотинец 1 из отряда «Спецназ планеты Шиду»)")
    journey.ok(a)
    question = b.locator('form.prompt[data-order-command="answer"]')
    expect(question).to_be_visible(timeout=SYNC_MS)
    expect(question).to_contain_text("После атаки стороны Красные: пилот машины RAPTOR")
    expect(question).to_contain_text("проходит тест выживания (Д6)")
    expect(a.locator("#board")).to_contain_text("Ждём ответа стороны Синие: пилот машины RAPTOR")
    both_alike(a, b)

    # A wrong player's tap while the question waits: refused in Russian, nothing recorded.
    version = a.locator("#battle").get_attribute("data-version")
    journey.press(a, card(a, "SALAMANDER").locator('button[data-command="done"]'))
    refusal = a.locator("#result")
    expect(refusal).to_contain_text("Ждём ответа стороны Синие")
    journey.ok(a)
    assert a.locator("#battle").get_attribute("data-version") == version
    both_alike(a, b)

    # Борис rolls 6 at the table against Бр 5: his pilot is killed.
    question.locator('input[name="dice"]').first.fill("6")
    journey.submit(b, question)
    expect(b.locator("#result")).to_contain_text("Погиб.")
    expect(b.locator("#result")).to_contain_text("Дальше: никаких тестов не требуется.")
    journey.ok(b)
    both_alike(a, b)
    for page in (a, b):
        expect(card(page, "RAPTOR")).to_contain_text("Нет пилота")
        expect(page.locator("#board")).to_contain_text("пехотинцев: 3")
        expect(page.locator("ol.log")).to_contain_text("Тест выживания")

    journey.press(a, card(a, "SALAMANDER").locator('button[data-command="done"]'))
    journey.ok(a)
    both_alike(a, b)
    expect(b.locator("#board")).to_contain_text("Дальше: ходит Синие")

    # Борис's commando 2 shoots SALAMANDER: now Алиса's phone asks, and she lets the server roll.
    play_test(b, "Спецназ планеты Шиду", "shoot", soldier=2, target="SALAMANDER", distance=4, dice=[10, 9])
    expect(b.locator("#result")).to_contain_text("Дальше: Красные: пилот машины SALAMANDER")
    journey.ok(b)
    mine = a.locator('form.prompt[data-order-command="answer"]')
    expect(mine).to_be_visible(timeout=SYNC_MS)
    journey.press(a, mine.locator('button[data-command="answer"]'))
    expect(a.locator("#result")).to_contain_text(re.compile("Выжил|Погиб"))
    journey.ok(a)
    both_alike(a, b)

    # A ruling by hand on the slider: the rocket bounced off, the players agree; «+» gives the cell back.
    track = card(a, "SALAMANDER").locator(".slider").first
    expect(track).to_contain_text("6")
    journey.press(a, track.locator('button[aria-label="Прочность +1"]'))
    expect(card(b, "SALAMANDER").locator("[data-armour]")).to_have_text("7", timeout=SYNC_MS)
    both_alike(a, b)

    # A dispute roll, rolled by the server (whoever wins, the game goes on the same way).
    journey.press(b, b.locator('#board button[data-act="dispute"]').first)
    sheet = b.locator("#action-sheet")
    expect(sheet).to_be_visible()
    sheet.locator("#f-note").fill("видна ли пехота за стеной?")
    sheet.locator("#f-go").click()
    expect(b.locator("#result")).to_contain_text(re.compile(r"решена в пользу стороны «(Красные|Синие)»"))
    journey.ok(b)
    both_alike(a, b)
    expect(a.locator("ol.log")).to_contain_text("видна ли пехота за стеной?")

    journey.press(b, card(b, "Спецназ планеты Шиду").locator('button[data-command="done"]'))
    journey.ok(b)
    both_alike(a, b)
    expect(a.locator("#board")).to_contain_text("Дальше: ходит Красные")

    # Алиса's militiamen charge: 6 + 4 against 1 + 5, twice; then militiaman 4 shoots the last commando.
    for soldier in (2, 3):
        play_test(a, "Ополченцы планеты Гелион", "melee", soldier=soldier, target="Спецназ планеты Шиду",
                    target_soldier=soldier, dice=[6, 1])  # fmt: skip
        expect(a.locator("#result")).to_contain_text("Атакующий выиграл бой (10 против 6): защищающийся уничтожен.")
        journey.ok(a)
        both_alike(a, b)
    play_test(a, "Ополченцы планеты Гелион", "shoot", soldier=4, target="Спецназ планеты Шиду", target_soldier=4,
                distance=3, dice=[5, 6, 2])  # fmt: skip
    expect(a.locator("#result")).to_contain_text("Попадание: пехотинец уничтожен.")
    journey.ok(a)
    both_alike(a, b)

    # The end: Синие have no soldier left; both phones say who won, why, and show the log in Russian.
    for page in (a, b):
        banner = page.locator(".result-banner")
        expect(banner).to_be_visible(timeout=SYNC_MS)
        expect(banner).to_contain_text("Игра окончена.")
        expect(banner).to_contain_text("Победа: Красные")
        expect(banner).to_contain_text("у противника не осталось ни одного солдата")
        log = page.locator("ol.log")
        expect(log).to_contain_text("Спецназ планеты Шиду: пехотинец 4 убит.")
        expect(log).to_contain_text("Ближний бой")
        assert latin_words(page, "#board") == []
        no_sideways_scroll(page)
    # The board's own log page, on both phones.
    for page in (a, b):
        page.locator("a", has_text="Вся история").click()
        expect(page.locator("main")).to_contain_text("Бой начинается")
        expect(page.locator("main")).to_contain_text("Инициатива")
        expect(page.locator("main")).to_contain_text("Тест выживания")
        assert latin_words(page, "main") == []
        no_sideways_scroll(page)
    print(f"journey: {time.monotonic() - started:.1f} s")
