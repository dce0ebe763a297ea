"""«5150» played to its end on two Russian phones, through the pages alone (issue «Every system played to its end
at the table»; «the other phone cannot tell what it owes»).

Алиса and Борис sign up, build «Патруль» and «Банда» from the official pack in the builder (every unit added with
«+», its weapon and Leader chosen on the page; Борис tries the seeded random Normal and removes it), start the battle
from «Новый бой» and join by the invitation. Then the game of test_questions.py, with the table's dice typed in:
a hit that hurts (both phones say no «ОБСТРЕЛЯН» is owed, and why), a move into sight («В ПОЛЕ ВИДИМОСТИ» asked on
Борис's phone, a die short refused), his fire back («ОБСТРЕЛЯН» asked on Алиса's phone), a failed Recovery, a charge
(«ХОЧУ АТАКОВАТЬ», «МЕНЯ АТАКОВАЛИ» on Алиса's phone, the melee on Борис's), «ОСТАТЬСЯ ИЛИ УБЕЖАТЬ» for both sides
(Алиса's rolled by the server), doubles, and the last shot: no figure of «Банда» is left on the table. Both phones
show the same board after every move, the winner and the log in Russian; no page scrolls sideways at 360 px.
The same game's rules are checked step by step in memory by test_questions.py.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from armies.services.packs import load_packs
from tests import journey

SYNC = journey.SYNC_MS
LATIN = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture
def packs(transactional_db):
    load_packs()


def fits(page: Page) -> None:
    """No page of the journey scrolls sideways on a 360 px phone."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, page.url


def card(page: Page, name: str):
    """A figure's card on the board, opened."""
    found = page.locator("#board details[data-unit]").filter(
        has=page.locator("summary .name", has_text=re.compile(f"^{re.escape(name)}$"))
    )
    expect(found).to_have_count(1)
    if found.get_attribute("open") is None:
        found.locator("> summary").click()
    return found


def question(page: Page, command: str):
    """The question the game puts to this phone's player, in the turn bar."""
    form = page.locator(f'.turnbar form[data-order-command="{command}"]')
    expect(form).to_be_visible(timeout=SYNC)
    return form


def dice(form, values) -> None:
    boxes = form.locator('input[name="dice"]')
    for i, value in enumerate(values):
        boxes.nth(i).fill(str(value))


def send(page: Page, form) -> None:
    """Submits a form of the board and closes the result it answers."""
    journey.submit(page, form)
    journey.ok(page)


def tap(page: Page, name: str) -> None:
    journey.press(page, page.locator("#board").get_by_role("button", name=name, exact=True).first)
    journey.ok(page)


def both(a: Page, b: Page, text: str) -> None:
    """Both phones say it: what the last roll means, or what a side owes next."""
    for page in (a, b):
        expect(page.locator(".turnbar")).to_contain_text(text, timeout=SYNC)


def build(page: Page, base: str, *, name: str, faction: str, units: list[tuple[str, dict]]) -> None:
    journey.new_roster(page, base, pack="5150", name=name, faction=faction)
    for n, (unit, options) in enumerate(units):
        journey.add_unit(page, unit)
        entry = journey.entry(page, unit, nth=[u for u, _o in units[:n]].count(unit))
        for option, label in options.items():
            journey.choose(page, entry.locator(f'select[data-option="{option}"]'), label=label)
    fits(page)


@pytest.mark.browser
def test_5150_played_to_its_end_on_two_phones(live_server, phone_context, packs):
    started = time.monotonic()
    base = live_server.url
    a, b = journey.new_phone(phone_context), journey.new_phone(phone_context)
    journey.sign_up(a, base, "Алиса")
    journey.sign_up(b, base, "Борис")
    fits(a)
    fits(b)

    # The builder: every unit with «+», its weapon and Leader on the page, the book's words on every control.
    build(a, base, name="Патруль", faction="Полиция", units=[
        ("Полиция У5", {"weapon": "Штурмовая винтовка (41)", "leader": "да"}),
        ("Полиция У4", {}),
    ])  # fmt: skip
    assert journey.total(a) == 83 + 41 + 66 + 4
    captain = journey.entry(a, "Полиция У5")
    for label in ("Стрелковое оружие", "Персональная защита", "Гранаты", "Группа", "Лидер"):
        expect(captain).to_contain_text(label)
    build(b, base, name="Банда", faction="Преступники", units=[
        ("Преступники У4", {"leader": "да"}),
        ("Преступники У3", {"weapon": "Пистолет-пулемет (7)"}),
    ])  # fmt: skip
    # The book's random Normal, seeded, on the phone: every die shown; then Борис leaves it out of this game.
    version = b.locator("#roster-live").get_attribute("data-version")
    tool = b.locator('[data-testid="builder-tool"]')
    tool.locator('input[name="seed"]').fill("2024")
    tool.locator("[type=submit]").click()
    rolled = b.locator("#roster-live article.entry").nth(2)
    expect(rolled).to_contain_text("Брошено с зерном 2024.", timeout=SYNC)
    expect(rolled).to_contain_text("Умение: 1к6 =")
    fits(b)
    # The roll posts a form: the page comes again, and its buttons answer once the builder's deferred script has run.
    b.wait_for_load_state("load")
    version = b.locator("#roster-live").get_attribute("data-version")
    b.once("dialog", lambda d: d.accept())
    rolled.locator('button[data-action="remove"]').click()
    journey.wait_saved(b, version)
    expect(b.locator("#roster-live article.entry")).to_have_count(2)
    assert journey.total(b) == 66 + 4 + 50 + 7

    # «Новый бой», the invitation, both boards alike.
    link = journey.share_link(b)
    fits(b)
    a.goto(f"{base}/battles/new/?system=5150")
    fits(a)
    invitation = journey.start_battle(a, base, game="5150", mine="Патруль", opponent_link=link, name="Ночной патруль")
    journey.in_sync(a)
    journey.join(b, invitation)
    journey.same_board(a, b)
    for page in (a, b):
        fits(page)
        expect(page.locator("#board")).not_to_contain_text("Сторона 0")

    # Turn 1: the table's activation dice, 5 for «Патруль», 2 for «Банда» (L413–436).
    roll = a.locator('form[data-order-command="activation"]')
    roll.get_by_label("Патруль, к6").fill("5")
    roll.get_by_label("Банда, к6").fill("2")
    send(a, roll)
    journey.same_board(a, b)
    both(a, b, "Патруль (Алиса): активна на кубике 5")
    both(a, b, "Банда (Борис): тестов нет — действует после стороны Патруль (Алиса) (кубик 2).")

    # The captain's rifle hits the thug and knocks him down: a hit that hurts owes no «ОБСТРЕЛЯН»; both phones say so
    # and why, and what the thug owes at his activation (L926, L741–742). Борис has nothing to answer.
    shot = card(a, "Полиция У5").locator('form[data-order-command="shoot"]')
    shot.locator('select[name="target"]').select_option(label="Преступники У3")
    shot.locator('input[name="n"]').fill("1")
    dice(shot, [5, 5])  # 5 + Rep 5 = 10: a hit; damage 5 against Impact 3: knocked down
    send(a, shot)
    journey.same_board(a, b)
    both(a, b, "Преступники У3: Оглушен. Теста «ОБСТРЕЛЯН» нет: в фигурку попали и причинили ущерб")
    both(a, b, "в свою следующую Активацию проходит тест «ВОССТАНОВЛЕНИЕ ОГЛУШЕННОГО ИЛИ ИСПУГАВШЕГОСЯ»")
    expect(b.locator(".turnbar form.prompt")).to_have_count(0)

    # The constable moves into cover, in sight of the gang: «В ПОЛЕ ВИДИМОСТИ» is asked on Борис's phone.
    move = card(a, "Полиция У4").locator('form[data-order-command="move"]')
    move.locator('select[name="ends"]').select_option(label="в укрытии")
    move.locator('select[name="seen_by"]').select_option(label="группа 1: Преступники У4")
    send(a, move)
    in_sight = question(b, "in_sight")
    expect(in_sight).to_contain_text(
        "Ваш ответ: тест «В ПОЛЕ ВИДИМОСТИ»: Преступники У4; в поле видимости вошёл Полиция У4"
    )
    expect(a.locator(".turnbar")).to_contain_text("Ждём ответа: Банда (Борис) — тест «В ПОЛЕ ВИДИМОСТИ»")
    expect(a.locator('.turnbar form[data-order-command="in_sight"]')).to_have_count(0)
    journey.same_board(a, b)

    # A die short: refused in Russian on Борис's phone, and nothing changes on either.
    before = b.locator("#battle").get_attribute("data-version")
    dice(in_sight, [1])
    journey.submit(b, in_sight)
    expect(in_sight.locator(".form-error")).to_contain_text("Не хватает кубиков", timeout=SYNC)
    journey.same_board(a, b)
    assert b.locator("#battle").get_attribute("data-version") == before
    dice(in_sight, [1, 2])  # pass 2: the boss fires at the constable (L609–614)
    send(b, in_sight)
    both(a, b, "сейчас могут стрелять: Преступники У4 (итог теста «В ПОЛЕ ВИДИМОСТИ»)")
    fire = question(b, "shoot")
    expect(fire.locator('select[name="target"] option')).to_have_text(["Полиция У4"])
    fire.locator('input[name="n"]').fill("2")
    dice(fire, [1, 2])  # 5 and 6: misses
    send(b, fire)

    # Now Алиса owes «ОБСТРЕЛЯН» for her constable: the question goes to her phone, Борис's says he waits.
    received = question(a, "answer_reaction")
    expect(received).to_contain_text("Ваш ответ: тест «ОБСТРЕЛЯН»: Полиция У4; стрелял Преступники У4, ущерба нет")
    expect(b.locator(".turnbar")).to_contain_text("Ждём ответа: Патруль (Алиса) — тест «ОБСТРЕЛЯН»", timeout=SYNC)
    journey.same_board(a, b)
    received.locator('select[name="fired_from"]').select_option(label="спереди")
    dice(received, [1, 2])  # pass 2 in cover, not outgunned: fire back
    send(a, received)
    question(a, "shoot")
    tap(a, "Не стрелять")
    journey.same_board(a, b)
    tap(a, "Закончить Активацию")
    journey.same_board(a, b)
    both(a, b, "Банда (Борис): активна на кубике 2")

    # The gang's activation: the thug's Recovery fails (pass 0): out of the fight, a casualty (L758–760).
    recover = card(b, "Преступники У3").locator('form[data-order-command="recover"]')
    dice(recover, [6, 6])
    send(b, recover)
    journey.same_board(a, b)
    both(a, b, "Преступники У3: Выведен из строя — больше не действует в этом бою и считается потерей")

    # The boss charges: «ХОЧУ АТАКОВАТЬ» on his dice (3 and the Leader Die), «МЕНЯ АТАКОВАЛИ» on Алиса's phone,
    # then the melee on Борис's (L1042–1087).
    charge = card(b, "Преступники У4").locator('form[data-order-command="charge"]')
    charge.locator('select[name="target"]').select_option(label="Полиция У4")
    dice(charge, [1, 2, 3, 1])
    send(b, charge)
    charged = question(a, "answer_charge")
    expect(charged).to_contain_text("Ваш ответ: тест «МЕНЯ АТАКОВАЛИ»: Полиция У4; атакует Преступники У4")
    expect(b.locator(".turnbar")).to_contain_text("Ждём ответа: Патруль (Алиса) — тест «МЕНЯ АТАКОВАЛИ»", timeout=SYNC)
    journey.same_board(a, b)
    dice(charged, [6, 6])  # pass 0 in cover: prepares without firing
    send(a, charged)
    melee = question(b, "melee")
    expect(a.locator(".turnbar")).to_contain_text(
        "Ждём ответа: Банда (Борис) — рукопашная: Преступники У4 против Полиция У4"
    )
    dice(melee, [1, 2, 6, 6, 3])  # the boss passes 2, the constable 0: won by 2, then 3: out of the fight
    send(b, melee)
    journey.same_board(a, b)
    both(a, b, "Полиция У4: Выведен из строя")
    tap(b, "Закончить Активацию")

    # The turn's end: each side lost a sixth, each is asked «ОСТАТЬСЯ ИЛИ УБЕЖАТЬ» in turn (L1187–1197).
    stay = question(a, "stay_or_run")
    expect(b.locator(".turnbar")).to_contain_text(
        "Ждём ответа: Патруль (Алиса) — тест «ОСТАТЬСЯ ИЛИ УБЕЖАТЬ»", timeout=SYNC
    )
    stay.locator('select[name="motivation"]').select_option(label="Завоевание")
    send(a, stay)  # no dice typed: the server rolls (the game goes on whatever they show)
    journey.same_board(a, b)
    stay = question(b, "stay_or_run")
    stay.locator('select[name="motivation"]').select_option(label="Прибыль")
    dice(stay, [1, 1, 1, 2])
    send(b, stay)
    journey.same_board(a, b)

    # Turn 2: doubles, nobody moves or fires (L420–421); Борис ends the turn.
    roll = b.locator('form[data-order-command="activation"]')
    roll.get_by_label("Патруль, к6").fill("3")
    roll.get_by_label("Банда, к6").fill("3")
    send(b, roll)
    journey.same_board(a, b)
    both(a, b, "числа на кубиках равны — никто не двигается и не стреляет")
    tap(b, "Закончить Активацию")
    journey.same_board(a, b)

    # Turn 3: the captain fires three dice at the boss: out of the fight, and «Банда» has no figure on the table.
    roll = a.locator('form[data-order-command="activation"]')
    roll.get_by_label("Патруль, к6").fill("5")
    roll.get_by_label("Банда, к6").fill("1")
    send(a, roll)
    shot = card(a, "Полиция У5").locator('form[data-order-command="shoot"]')
    shot.locator('select[name="target"]').select_option(label="Преступники У4")
    dice(shot, [6, 6, 6, 2, 4, 5])
    send(a, shot)
    journey.same_board(a, b)
    for page in (a, b):
        banner = page.locator(".result-banner")
        expect(banner).to_contain_text(
            "Бой окончен. Победа: Патруль (Алиса) — на столе не осталось ни одной вражеской фигурки.", timeout=SYNC
        )
        expect(banner).to_contain_text("Банда (Борис): потери 2 из 2.")
        fits(page)
        page.get_by_role("link", name="Вся история").click()
        log = page.locator("ol.log")
        expect(log).to_contain_text("бросок на Активацию: Патруль 5, Банда 2 — первой действует Патруль.")
        expect(log).to_contain_text("«В ПОЛЕ ВИДИМОСТИ»: Преступники У4: пройден по 2, стреляют")
        expect(log).to_contain_text("Рукопашная: Преступники У4 против Полиция У4: пройдено 2 против 0")
        expect(log).to_contain_text("Полиция У5 стреляет: Преступники У4: 3 попадания, Выведен из строя")
        lines = page.locator("ol.log li .text").all_inner_texts()
        assert lines
        assert not [line for line in lines if LATIN.search(line)], lines
        fits(page)
    print(f"journey: {time.monotonic() - started:.0f} s")
