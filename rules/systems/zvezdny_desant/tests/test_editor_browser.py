"""The «ЛБХ» editor of «Звездный Десант» on a 360 px phone in Russian (issue #14): a card typed in row by row —
figure stats ПДВ, СТК, КБР, БСП, ЛДР and cost, a weapon's Длн, Скр, Мщ and Хрк in Cyrillic letters with its extra
cost — saved as a profile the rules read, with no sideways scrolling and no English on the form."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from armies import services
from armies.models import UnitProfile
from rules.systems.zvezdny_desant import profile as lbh
from rules.systems.zvezdny_desant import tables

PACK_FILE = Path(__file__).resolve().parents[1] / "data" / "demo-examples.json"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_card_typed_in_on_a_russian_phone(live_server, phone_context):
    services.load_packs(paths=[PACK_FILE])  # the system's factions come from its official pack
    get_user_model().objects.create_user(username="desantnik", password="phone-pass-5172")
    user = get_user_model().objects.get(username="desantnik")
    pack = services.pack_create(user=user, system="zvezdny-desant", name="Мои ЛБХ")
    page = phone_context(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}).new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/packs/{pack.pk}/units/new/%3Fkind%3Dinfantry")
    page.fill("input[name=username]", "desantnik")
    page.fill("input[name=password]", "phone-pass-5172")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/packs/{pack.pk}/units/new/?kind=infantry")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling on a phone
    form = page.locator("main").inner_text()
    for word in ("Фигурки", "Оружие", "Расширения", "ПДВ", "СТК", "КБР", "БСП", "ЛДР"):
        assert word in form, word
    for english in ("Figures", "Weapons", "Upgrades", "Extra cost", "Strikes"):
        assert english not in form, english

    page.fill("#id_name", "Штурмовики")
    page.select_option("#id_faction", "humans")
    page.fill("#id_cost", "0")
    figure = page.locator(".ed-section[data-section=figures] .ed-rows > .ed-row").first
    if not figure.count():
        page.click("[data-section=figures] [data-add]")
        figure = page.locator(".ed-section[data-section=figures] .ed-rows > .ed-row").first
    for name, value in {"name": "Штурмовик", "pdv": "12", "stk": "2", "bsp": "7", "ldr": "8", "cost": "45",
                        "weapons": "vintovka"}.items():  # fmt: skip
        figure.locator(f'input[name$="-{name}"]').fill(value)
    figure.locator('select[name$="-kbr"]').select_option("B")
    if not page.locator(".ed-section[data-section=weapons] .ed-rows > .ed-row").count():
        page.click("[data-section=weapons] [data-add]")
    weapon = page.locator(".ed-section[data-section=weapons] .ed-rows > .ed-row").first
    for word in ("Длн", "Скр", "Мщ", "Хрк", "Дополнительная стоимость"):
        assert word in weapon.inner_text(), word
    for name, value in {"name": "Винтовка", "dln": "30", "skr": "2", "msch": "1", "hrk": "В12 С15",
                        "cost": "5"}.items():  # fmt: skip
        weapon.locator(f'input[name$="-{name}"]').fill(value)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.click("[data-testid=save]")
    page.wait_for_url(f"**/packs/{pack.pk}/")
    unit = UnitProfile.objects.get(pack=pack)
    fig = unit.data["figures"][0]
    assert (fig["pdv"], fig["stk"], fig["kbr"], fig["bsp"], fig["ldr"], fig["cost"]) == (12, 2, "B", 7, 8, 45)
    weapon = unit.data["weapons"][0]
    assert (weapon["dln"], weapon["skr"], weapon["msch"], weapon["cost"]) == (30, 2, 1, 5)
    assert tables.parse_hrk(weapon["hrk"], "hrk") == {"B": 12, "C": 15}  # Cyrillic В and С read as classes B, C
    card = lbh.compile_unit({"profile": {"data": unit.data, "name": unit.name},
                             "options": lbh.default_options({"data": unit.data})}, {})  # fmt: skip
    assert card["groups"][0]["skr"] == 2
