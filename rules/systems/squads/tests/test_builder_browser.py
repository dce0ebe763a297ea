"""The builder of «Отряды» on a Russian phone (issue «Every system played to its end at the table»): every unit of
both official packs is added with «+» and shows its controls in the book's words (a squad: armour, a line per
figure with its weapon, the leader; a vehicle: crew, a line per weapon, the roster's squads to carry), never a JSON
box; a change is saved and read back; no page scrolls sideways at 360 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from armies.services.packs import load_packs
from tests import journey

LATIN = re.compile(r"[A-Za-z]{2,}")
ALLOWED = re.compile(r"\bL\d+(–\d+)?\b|\bv\d+\b")
SQUAD_CONTROLS = ["armour", "figures", "leader"]
VEHICLE_CONTROLS = ["crew_level", "weapons", "passengers"]


@pytest.fixture
def packs(transactional_db):
    load_packs()


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url} is {width} px wide"


def add_every_unit(page: Page) -> list[str]:
    """Taps «+» beside every unit of the catalogue, one after another; answers their names."""
    items = page.locator("#add-units ul.catalogue li")
    names = [n.strip() for n in page.locator("#add-units ul.catalogue .cat-name").all_inner_texts()]
    for i in range(items.count()):
        version = page.locator("#roster-live").get_attribute("data-version")
        items.nth(i).locator('button[data-action="add"]').click()
        journey.wait_saved(page, version)
    expect(page.locator("#roster-live article.entry")).to_have_count(len(names))
    return names


def controls(entry) -> list[str]:
    return list(dict.fromkeys(entry.locator("[data-option]").evaluate_all("els => els.map(e => e.dataset.option)")))


@pytest.mark.browser
def test_every_unit_of_both_packs_is_added_and_configured_on_the_page(live_server, phone_context, packs):
    base = live_server.url
    page = journey.new_phone(phone_context)
    journey.sign_up(page, base, "Вера")

    # «Отряды: таблицы правил»: four squads, one per training level, and five vehicles, one per armour class.
    journey.new_roster(page, base, pack="Отряды: таблицы правил", name="Все отряды")
    names = add_every_unit(page)
    assert len(names) == 9
    entries = page.locator("#roster-live article.entry")
    for i, name in enumerate(names):
        entry = entries.nth(i)
        expect(entry.locator("textarea")).to_have_count(0)
        assert controls(entry) == (VEHICLE_CONTROLS if name.startswith("ТС") else SQUAD_CONTROLS), name
    vehicle = journey.entry(page, "ТС: Тяжелые танки")
    journey.choose(page, vehicle.locator('select[data-option="crew_level"]'), label="Элита")
    journey.choose(page, vehicle.locator('select[data-option="weapons"]').nth(0), label="Тяжелая пушка")
    journey.choose(page, vehicle.locator('select[data-option="weapons"]').nth(1), label="Тяжелый пулемет")
    expect(vehicle.locator('select[data-option="weapons"]')).to_have_count(3)  # two and a line to add one
    carried = vehicle.locator("label.check").filter(has_text="Отряд: Элита")
    version = page.locator("#roster-live").get_attribute("data-version")
    carried.locator("input").check()
    journey.wait_saved(page, version)
    expect(journey.entry(page, "ТС: Тяжелые танки").locator("label.check").filter(has_text="Отряд: Элита").locator(
        "input")).to_be_checked()  # fmt: skip
    squad = journey.entry(page, "Отряд: Рекрут")
    journey.choose(page, squad.locator('select[data-option="figures"]').nth(1), label="Тяжелый пулемет")
    issues = page.locator("#roster-live")
    expect(issues).to_contain_text("расчет пехотного тяжелого пулемета — двое")  # L64: a lone gunner
    journey.choose(page, squad.locator('select[data-option="figures"]').nth(2), label="Тяжелый пулемет")
    expect(issues).not_to_contain_text("расчет пехотного тяжелого пулемета — двое")
    journey.choose(page, squad.locator('select[data-option="figures"]').nth(0), label="— нет фигуры —")
    expect(squad.locator('select[data-option="figures"]')).to_have_count(3)  # the two gunners and the empty line
    text = ALLOWED.sub("", " ".join(page.locator("#roster-live .entries").all_inner_texts()))
    assert not LATIN.findall(text), LATIN.findall(text)
    no_sideways_scroll(page)

    # «Отряды: предлагаемые очки (по моделированию)»: twelve ready-made squads, each with its points.
    journey.new_roster(page, base, pack="Отряды: предлагаемые очки", name="Все сборки")
    no_sideways_scroll(page)
    names = add_every_unit(page)
    assert len(names) == 12
    entries = page.locator("#roster-live article.entry")
    for i in range(len(names)):
        expect(entries.nth(i).locator("textarea")).to_have_count(0)
        assert controls(entries.nth(i)) == SQUAD_CONTROLS, names[i]
    assert journey.total(page) == 13 + 18 + 17 + 36 + 82 + 52 + 146 + 488 + 234 + 269 + 874 + 416
    # A changed build keeps no suggested points (they were simulated for the build as it was).
    before = journey.total(page)
    recruits = journey.entry(page, "Рекрут: 5 винтовок")
    journey.choose(page, recruits.locator('select[data-option="figures"]').nth(5), label="Снайперская винтовка")
    assert journey.total(page) == before - 13
    expect(journey.entry(page, "Рекрут: 5 винтовок")).to_contain_text("нет предлагаемых очков")
    no_sideways_scroll(page)
