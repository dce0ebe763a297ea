"""«Энфорсеры» played to its end on two Russian phones, through the pages alone (issue «Every system played to its
end at the table»).

Алиса and Борис sign up on the page. Each builds a crew in the builder from the official pack: Алиса types her
agent's nine stats in (L29), gives her a weapon her group wrote (the book has no weapon table), armour from the
table, the perk Prayer and a med-kit, and adds a prayer's card; Борис hires an agent with rolled stats (the seed
and every die shown) and types over the ones the path needs, writes a blade, and gives him a Kevlar Vest added with
«+». Борис shares his crew by link, Алиса starts the battle from «Новый бой» and Борис joins by the invitation.

The game: popcorn activations (L63–65); Кейт's shot makes Громила bleed (L230, L295); she goes on Overwatch
(L101–103), so Громила's move asks Алиса's phone whether Кейт shoots (she misses); Громила's failed blow asks
Алиса whether Кейт strikes back (L212–214: she lets it go); Bleeding takes Громила to «Тяжелоранен» (L222, L321);
Кейт listens (a server roll) and shoots him to «При смерти»; Алиса proposes the end of the scenario (the book has
no victory conditions) and Борис confirms it on his phone. Both phones show the same board after every move, say
what each side must do next, and show the result and the history in Russian. Bad input (a stat of 25, a blow
from out of reach) gets a message in Russian and changes nothing. The dice that decide the path are typed in from
the table, one box per die the board asks for.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from armies.services.packs import load_packs
from tests import journey

PACK = "Энфорсеры"
KATE_STATS = {"HL": 10, "WS": 10, "BS": 10, "DX": 10, "TN": 10, "WL": 10, "IT": 10, "PR": 10, "LD": 10}
# Громила's rolled stats are typed over where the path depends on them: HL 6 (HP), WS and TN 10, DX 10 (a move).
BRUTE_STATS = {"HL": 6, "WS": 10, "BS": 10, "DX": 10, "TN": 10}
SEED = 4242


@pytest.fixture
def packs(transactional_db):
    load_packs()


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, page.url


# The builder -----------------------------------------------------------------------------------------------------
def control(card, option: str, path: str | None = None):
    selector = f'[data-option="{option}"]' + (f'[data-path="{path}"]' if path else ":not([data-path])")
    return card.locator(selector)


def tick(page: Page, box) -> None:
    version = page.locator("#roster-live").get_attribute("data-version")
    box.check()
    journey.wait_saved(page, version)


def live_text(page: Page) -> str:
    return page.locator("#roster-live").inner_text()


def build_kate(page: Page, base: str) -> None:
    journey.new_roster(page, base, pack=PACK, name="Арбитры")
    no_sideways_scroll(page)
    journey.add_unit(page, "Apprentice")
    card = journey.entry(page, "Apprentice")
    # A new agent's card says what is missing and how to give it (L23, L29).
    expect(card).to_contain_text("впишите характеристики HL, WS, BS, DX, TN, WL, IT, PR, LD")
    journey.type_in(page, control(card, "name"), "Кейт")
    for stat, value in KATE_STATS.items():
        journey.type_in(page, control(journey.entry(page, "Apprentice"), "stats", stat), str(value))
    card = journey.entry(page, "Apprentice")
    expect(card).not_to_contain_text("впишите характеристики")
    # Bad input: a stat of 25 is refused in Russian and the roster stays as it was (stats run 1–20, L29).
    version = page.locator("#roster-live").get_attribute("data-version")
    field = control(card, "stats", "BS")
    field.fill("25")
    field.press("Tab")
    expect(page.locator("#live-error")).to_be_visible()
    expect(page.locator("#live-error")).to_contain_text("20")
    said = page.locator("#live-error").inner_text()
    assert "Стрельба (BS): целое число от 1 до 20." in said, said
    assert said.startswith("Параметры не подходят для «Apprentice»"), said
    assert not re.search(r"\b(options|stats|the|not|fit|is|greater|maximum)\b", said), said  # no English, no keys
    assert page.locator("#roster-live").get_attribute("data-version") == version
    expect(control(journey.entry(page, "Apprentice"), "stats", "BS")).to_have_value("10")
    # Her group's autogun: the book has no weapon table (spec §0), so the player writes it.
    journey.choose(page, control(journey.entry(page, "Apprentice"), "weapons"), label="1")
    expect(journey.entry(page, "Apprentice")).to_contain_text("впишите урон")
    card = journey.entry(page, "Apprentice")
    journey.type_in(page, control(card, "weapons", "0.name"), "Автоган")
    journey.type_in(page, control(journey.entry(page, "Apprentice"), "weapons", "0.damage"), "4")
    journey.choose(page, control(journey.entry(page, "Apprentice"), "weapons", "0.ranged"), label="да")
    journey.type_in(page, control(journey.entry(page, "Apprentice"), "weapons", "0.capacity"), "6")
    tick(page, journey.entry(page, "Apprentice").locator('input[data-path="0.traits"][value=\'"bleeding"\']'))
    journey.choose(page, control(journey.entry(page, "Apprentice"), "armour"), label="Enforcer Gear · AP 6 · 4 REQ")
    tick(page, journey.entry(page, "Apprentice").locator('input[data-option="perks"][value=\'"Prayer"\']'))
    journey.choose(page, control(journey.entry(page, "Apprentice"), "medkit"), label="да")
    card = journey.entry(page, "Apprentice")
    expect(card).to_contain_text("Экипировка: потрачено 4 из 40 REQ")
    expect(card).to_contain_text("HP 10 · AP 6 · скорость 10 см")
    # A prayer's card from the catalogue says who may pray it (L127).
    journey.add_unit(page, "Помазание")
    expect(journey.entry(page, "Помазание")).to_contain_text("Может молиться: Кейт")
    # REQ (L51–57): hire 20 + her own gear, half of 40 = 40 REQ; the crew has no error.
    assert journey.total(page) == 40
    expect(page.locator("#roster-live")).to_contain_text("без ошибок")
    no_sideways_scroll(page)


def build_brute(page: Page, base: str) -> str:
    journey.new_roster(page, base, pack=PACK, name="Банда")
    # The builder's tool hires an agent with a d20 for each stat; the seed and the dice are shown (L23).
    tool = page.locator("#tool-roll-stats")
    tool.locator('input[name="seed"]').fill(str(SEED))
    tool.locator("button[type=submit]").click()
    expect(page.locator("body")).to_contain_text(f"Накинуто с зерном {SEED}, по д20 на каждую")
    page.wait_for_load_state()
    card = journey.entry(page, "Apprentice")
    expect(card).to_contain_text(f"Накинуто с зерном {SEED}")
    journey.type_in(page, control(card, "name"), "Громила")
    for stat, value in BRUTE_STATS.items():
        journey.type_in(page, control(journey.entry(page, "Apprentice"), "stats", stat), str(value))
    journey.choose(page, control(journey.entry(page, "Apprentice"), "weapons"), label="1")
    journey.type_in(page, control(journey.entry(page, "Apprentice"), "weapons", "0.name"), "Клинок")
    journey.type_in(page, control(journey.entry(page, "Apprentice"), "weapons", "0.damage"), "5")
    journey.type_in(page, control(journey.entry(page, "Apprentice"), "weapons", "0.reach_cm"), "2")
    # Armour added with «+» is given to an agent; until then the card says how to fix it.
    journey.add_unit(page, "Kevlar Vest")
    vest = journey.entry(page, "Kevlar Vest")
    expect(vest).to_contain_text("выберите агента, который её носит")
    journey.choose(page, control(vest, "agent"), label="Громила")
    expect(journey.entry(page, "Kevlar Vest")).to_contain_text("Оплачено из очков экипировки: Громила")
    expect(journey.entry(page, "Apprentice")).to_contain_text("Броня: Kevlar Vest · AP 2 · 2 REQ (отдельной записью)")
    assert journey.total(page) == 40
    expect(page.locator("#roster-live")).to_contain_text("без ошибок")
    no_sideways_scroll(page)
    return journey.share_link(page)


# The board -------------------------------------------------------------------------------------------------------
def card(page: Page, name: str):
    found = page.locator("#board details[data-unit]").filter(has=page.locator("summary .name", has_text=name))
    if found.get_attribute("open") is None:
        found.locator("> summary").click()
    return found


def fold(unit, key: str):
    box = unit.locator(f"details.fold-{key}")
    if box.get_attribute("open") is None:
        box.locator("> summary").click()
    return box


def turnbar(page: Page):
    return page.locator("#board .turnbar")


def dice(form, values: list[int]) -> None:
    """Types the dice rolled at the table into the boxes the board asks for, in order: the boxes follow what is
    typed (a miss asks for no TN test), and end as exactly the dice this test used."""
    journey.type_dice(form, "data-enf-dice", values)


def send(page: Page, form) -> None:
    journey.submit(page, form)
    expect(page.locator("#result")).to_be_visible(timeout=journey.SYNC_MS)


def done(page: Page) -> None:
    """The result of this phone's command was recorded (not refused): close it."""
    result = page.locator("#result")
    expect(result).to_be_visible(timeout=journey.SYNC_MS)
    assert "ok" in (result.get_attribute("class") or "").split(), result.inner_text()
    journey.ok(page)


def both(a: Page, b: Page, *texts: str) -> None:
    """Both phones show the same board, and each shows these texts at the top (what happened, what comes next)."""
    journey.same_board(a, b)
    for page in (a, b):
        for text in texts:
            expect(turnbar(page)).to_contain_text(text, timeout=journey.SYNC_MS)
        no_sideways_scroll(page)


def tap(page: Page, where, label: str) -> None:
    journey.press(
        page, where.locator("button[data-command]", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$")).first
    )


@pytest.mark.browser
def test_a_night_of_enforcers_on_two_phones(live_server, phone_context, packs):
    base = live_server.url
    alice, boris = journey.new_phone(phone_context), journey.new_phone(phone_context)
    errors: list[str] = []
    for page in (alice, boris):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    journey.sign_up(alice, base, "Алиса")
    journey.sign_up(boris, base, "Борис")
    build_kate(alice, base)
    link = build_brute(boris, base)

    invitation = journey.start_battle(alice, base, game="enforcers", mine="Арбитры", opponent_link=link,
                                      name="Ночная смена")  # fmt: skip
    journey.in_sync(alice)
    journey.join(boris, invitation)
    both(alice, boris, "Попкорн-инициатива: игроки выбирают, кто ходит первым")

    # Round 1. Алиса activates Кейт (popcorn, L63): both phones say it is her move.
    tap(alice, card(alice, "Кейт"), "Активировать")
    done(alice)
    both(alice, boris, "«Арбитры»: ходит Кейт (осталось 2 действия)")
    expect(turnbar(alice)).to_contain_text("Ваш ход")
    expect(turnbar(boris)).to_contain_text("Дальше")

    # A shot at medium range (BS 10): the d20 shows 5, a hit for 4: Kevlar's 2 AP, then 2 HP; Громила's TN test
    # against Bleeding shows 15 and fails (L230).
    shoot = fold(card(alice, "Кейт"), "shoot").locator('form[data-order-command="shoot"]')
    shoot.locator('[name="target"]').select_option(label="Громила")
    dice(shoot, [5, 15])
    send(alice, shoot)
    expect(alice.locator("#result")).to_contain_text("Проверка Стойкости против статуса «Кровотечение»")
    done(alice)
    both(alice, boris, "Кейт стреляет по цели «Громила» — попадание", "осталось 1 действие")
    expect(card(boris, "Громила")).to_contain_text("4/6")
    expect(card(boris, "Громила")).to_contain_text("Кровотечение")

    # Overwatch ends the activation (L101–103); then Кейт ends it, and her side picks who goes next (L63).
    tap(alice, card(alice, "Кейт"), "Предупреждающий огонь")
    done(alice)
    both(alice, boris, "у Кейт не осталось действий: закончите активацию")
    tap(alice, card(alice, "Кейт"), "Закончить активацию")
    done(alice)
    both(alice, boris, "«Арбитры» выбирает, кто ходит следующим")
    tap(alice, card(alice, "Громила"), "Активировать")
    done(alice)
    both(alice, boris, "«Банда»: ходит Громила")

    # Громила moves: Кейт on Overwatch may shoot at once. The question is on Алиса's phone, with its buttons;
    # Борис's phone says whom the game waits for. She shoots and the d20 shows 19: a miss.
    move = fold(card(boris, "Громила"), "move").locator('form[data-order-command="move"]')
    move.locator('[name="distance_cm"]').fill("4")
    send(boris, move)
    done(boris)
    both(alice, boris, "Отвечает «Арбитры»: Кейт может сразу выстрелить")
    question = turnbar(alice).locator('form[data-order-command="reaction_shot"]')
    expect(question).to_contain_text("Предупреждающий огонь")
    expect(turnbar(alice)).to_contain_text("Ваш ответ: Отвечает «Арбитры»")
    expect(turnbar(boris)).to_contain_text("Дальше: Отвечает «Арбитры»")
    expect(turnbar(boris).locator("form")).to_have_count(0)
    dice(question, [19])
    send(alice, question)
    expect(alice.locator("#result")).to_contain_text("— промах")
    done(alice)
    both(alice, boris, "«Банда»: ходит Громила (осталось 1 действие)")

    # Bad input: a blow from 5 cm with a 2 cm blade is refused in Russian; nothing changes.
    version = boris.locator("#battle").get_attribute("data-version")
    blow = fold(card(boris, "Громила"), "melee").locator('form[data-order-command="melee"]')
    blow.locator('[name="distance_cm"]').fill("5")
    blow.locator("[type=submit]").click()
    expect(blow.locator(".form-error, [role=alert]").first).to_contain_text("5 см", timeout=journey.SYNC_MS)
    assert boris.locator("#battle").get_attribute("data-version") == version

    # From 1 cm: WS 10, reach +2 blessings against Кейт's parry, 2 curses; the d20 shows 15: a miss. Кейт may
    # strike back (L212–214): the question is on Алиса's phone; she lets it go.
    blow = fold(card(boris, "Громила"), "melee").locator('form[data-order-command="melee"]')
    blow.locator('[name="distance_cm"]').fill("1")
    dice(blow, [15])
    send(boris, blow)
    done(boris)
    both(alice, boris, "атакует ли Кейт в ответ")
    counter = turnbar(alice).locator('form[data-order-command="counter_attack"]')
    expect(counter).to_contain_text("может немедленно атаковать в ответ")
    tap(alice, counter, "Не контр-атаковать")
    done(alice)
    both(alice, boris, "Кейт не контр-атакует", "«Банда»: у Громила не осталось действий")

    # The end of his activation: Bleeding takes 2 HP past armour (L295). The round is over; Громила went last, so
    # Борис picks first in round 2 (L63), and picks him again.
    tap(boris, card(boris, "Громила"), "Закончить активацию")
    done(boris)
    both(alice, boris, "Раунд 2", "«Банда» выбирает, кто ходит следующим")
    expect(card(alice, "Громила")).to_contain_text("2/6")
    tap(boris, card(boris, "Громила"), "Активировать")
    done(boris)
    both(alice, boris, "«Банда»: ходит Громила (осталось 2 действия)")
    tap(boris, card(boris, "Громила"), "Закончить активацию")
    done(boris)
    # Bleeding again: HP 0, «Тяжелоранен» (L222), which counts as Stunned (L321).
    both(alice, boris, "«Банда» выбирает, кто ходит следующим")
    for page in (alice, boris):
        expect(card(page, "Громила")).to_contain_text("Тяжелоранен")
        expect(card(page, "Громила")).to_contain_text("0/6")
    tap(boris, card(boris, "Кейт"), "Активировать")
    done(boris)
    both(alice, boris, "«Арбитры»: ходит Кейт (осталось 2 действия)")

    # Кейт listens (a PR test the server rolls: the path does not depend on it), then shoots: the d20 shows 3, a
    # hit for 4: HP −4, under minus half his HL: «При смерти» (L222, A6); his TN test against Bleeding shows 2.
    tap(alice, card(alice, "Кейт"), "Слушать")
    expect(alice.locator("#result")).to_contain_text("Слушать")
    done(alice)
    both(alice, boris, "осталось 1 действие")
    shoot = fold(card(alice, "Кейт"), "shoot").locator('form[data-order-command="shoot"]')
    shoot.locator('[name="target"]').select_option(label="Громила")
    dice(shoot, [3, 2])
    send(alice, shoot)
    done(alice)
    both(alice, boris, "Кейт стреляет по цели «Громила» — попадание")
    for page in (alice, boris):
        expect(card(page, "Громила")).to_contain_text("При смерти")
        expect(card(page, "Громила")).to_contain_text("-4/6")
        expect(turnbar(page)).to_contain_text("У «Банда» не осталось бойцов в строю")

    # The book has no victory conditions: Алиса proposes the result, Борис's phone asks him to confirm it.
    alice.on("dialog", lambda dialog: dialog.accept())
    footer = alice.locator("#board details", has_text="Закончить сценарий").last
    footer.locator("summary").first.click()
    tap(alice, footer, "Победа «Арбитры»")
    done(alice)
    both(alice, boris, "Отвечает «Банда»: «Арбитры» предлагает закончить сценарий")
    confirm = turnbar(boris).locator('form[data-order-command="confirm_end"]')
    expect(confirm).to_contain_text("предлагает закончить сценарий: победа «Арбитры»")
    expect(turnbar(alice).locator('form[data-order-command="confirm_end"]')).to_have_count(0)
    tap(boris, confirm, "Подтвердить")
    done(boris)

    # The result and the history, in Russian, on both phones.
    journey.same_board(alice, boris)
    for page in (alice, boris):
        banner = page.locator("#board .result-banner")
        expect(banner).to_contain_text("Сценарий окончен.", timeout=journey.SYNC_MS)
        expect(banner).to_contain_text("Победа «Арбитры».")
        expect(banner).to_contain_text("Подтвердил: «Банда»")
        log = page.locator("#board ol.log")
        expect(log).to_contain_text("Сценарий окончен: победа «Арбитры».")
        expect(log).to_contain_text("Кейт не контр-атакует")
        assert not re.search(r"\b(the|and|wins|side)\b", log.inner_text()), log.inner_text()
        no_sideways_scroll(page)
    assert errors == []
