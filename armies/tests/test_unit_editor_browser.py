"""The custom-unit editor on a 360 px phone in the system Chromium: rows added and removed in place, an error shown
next to its field, then the squad saved and listed in the pack."""

import pytest
from django.contrib.auth import get_user_model

from armies import services
from armies.models import UnitProfile

pytestmark = [pytest.mark.browser]


@pytest.mark.django_db(transaction=True)
def test_fill_in_a_custom_squad_on_a_phone(live_server, phone_context, official_pack):
    user = get_user_model().objects.create_user(username="builder", password="phone-pass-5172")
    pack = services.pack_create(user=user, system="bronepekhota", name="Phone pack")
    page = phone_context().new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/packs/{pack.pk}/units/new/%3Fkind%3Dsquad")
    page.fill("input[name=username]", "builder")
    page.fill("input[name=password]", "phone-pass-5172")
    page.click("main button[type=submit]")  # the header has buttons too (language)
    page.wait_for_url(f"**/packs/{pack.pk}/units/new/?kind=squad")
    assert page.locator(".ed-section[data-section=soldiers] .ed-rows > .ed-row").count() == 6
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling on a phone

    page.fill("#id_name", "Ополчение")
    page.select_option("#id_faction", "polaris")
    page.fill("#id_cost", "55")
    page.evaluate("window.__noReload = true")
    page.click("[data-section=soldiers] [data-add]")
    page.click('[aria-label="Remove soldier 2"]')
    assert page.evaluate("window.__noReload") is True  # rows change in place, without a round trip
    rows = page.locator(".ed-section[data-section=soldiers] .ed-rows > .ed-row")
    assert rows.count() == 6
    assert rows.nth(5).locator(".ed-row-title").inner_text() == "Soldier 6"
    new_row = rows.nth(5)
    for field, value in {"rank": "2", "speed": "5", "range": "Д7", "power": "2Д6", "melee": "3", "armour": "4"}.items():
        new_row.locator(f'input[name$="-{field}"]').fill(value)
    new_row.locator('input[name$="-jump"]').fill("5")
    rows.nth(0).locator('input[name$="-repair"]').check()
    page.click("[data-testid=save]")

    page.wait_for_selector("[data-testid=editor-errors]")
    assert "Soldier 6 · Range: write it like Д6+2" in page.locator("[data-testid=editor-errors]").inner_text()
    error_row = page.locator(".ed-field.has-error")
    assert error_row.locator('input[name$="-range"]').input_value() == "Д7"
    assert not UnitProfile.objects.filter(pack=pack).exists()

    error_row.locator('input[name$="-range"]').fill("Д6+2")
    page.click("[data-testid=save]")
    page.wait_for_url(f"**/packs/{pack.pk}/")
    assert "Ополчение" in page.locator("table").inner_text()
    unit = UnitProfile.objects.get(pack=pack)
    assert (unit.faction.slug, unit.cost, len(unit.data["soldiers"])) == ("polaris", 55, 6)
    assert unit.data["soldiers"][0]["abilities"] == ["repair"]
    assert unit.data["soldiers"][5] == {
        "num": 6,
        "rank": 2,
        "speed": 5,
        "range": "Д6+2",
        "power": "2Д6",
        "melee": 3,
        "armour": 4,
        "abilities": ["jump:5"],
    }

    for kind in ("vehicle", "gun"):  # the other kinds' forms fit the phone too
        page.goto(f"{live_server.url}/packs/{pack.pk}/units/new/?kind={kind}")
        assert page.locator(f"[data-section={'arsenal' if kind == 'vehicle' else 'weapons'}] .ed-row").count() >= 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
