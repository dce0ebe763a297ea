"""A vehicle hit on two Russian phones (L84–90): Red's elite RPG team fires at Blue's APC from the side; the damage
die says «Уничтожено оружие (по выбору хозяина)», so Blue's phone asks which weapon is lost, with a button for each
of the APC's weapons, and Red's phone says whom the game waits for; Blue's answer shows on both phones."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armies.models import Roster, RosterEntry, UnitProfile
from armies.services.packs import load_packs
from battles import services
from battles.tests.conftest import make_user
from rules.systems.squads.tests.test_stale_answer_browser import prompt, roll, russian_phone
from tests import journey

SYNC_MS = journey.SYNC_MS


@pytest.fixture
def vehicle_battle(transactional_db):
    pack = next(p for p, _created in load_packs() if p.slug == "squads-core")
    alice, bob = make_user("alice"), make_user("bob")
    red = Roster.objects.create(owner=alice, system="squads", pack=pack, name="Красные", faction="any")
    RosterEntry.objects.create(roster=red, key="e1", profile=UnitProfile.objects.get(pack=pack, slug="squad-elite"),
                               options={"armour": "none", "figures": [{"weapon": "rpg", "count": 1}], "leader": None})  # fmt: skip
    blue = Roster.objects.create(owner=bob, system="squads", pack=pack, name="Синие", faction="any")
    RosterEntry.objects.create(roster=blue, key="e1", profile=UnitProfile.objects.get(pack=pack, slug="vehicle-light"),
                               options={"crew_level": "regular", "passengers": [],
                                        "weapons": [{"weapon": "rpg", "count": 1}, {"weapon": "hmg", "count": 1}]})  # fmt: skip
    battle = services.battle_create(user=alice, name="Засада", rosters=[red, blue])
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    battle.refresh_from_db()
    return battle, alice, bob


@pytest.mark.browser
def test_the_vehicles_owner_chooses_the_weapon_it_loses_on_his_phone(live_server, phone_context, vehicle_battle):
    battle, alice, bob = vehicle_battle
    _a, red = russian_phone(phone_context, live_server, alice, battle)
    _b, blue = russian_phone(phone_context, live_server, bob, battle)
    roll(red, "start_turn", [5, 2])
    roll(red, "activate", [5])
    red.locator(".turnbar").get_by_role("button", name="Прицельный огонь").click()
    journey.ok(red)
    shot = prompt(red, "shoot")
    shot.locator('input[name="distance"]').fill("10")
    shot.locator('select[name="facing"]').select_option(label="В борт")
    # The RPG's three dice hit on 3+ with the aim (6, 6, 1); the APC saves on 5+ (1, 1); a damage die a hit from the
    # side (L90): 3, weapon destroyed, and 1, crew stunned.
    roll(red, "shoot", [6, 6, 1, 1, 1, 3, 1])

    question = prompt(blue, "lose_weapon")
    expect(question).to_be_visible(timeout=SYNC_MS)
    expect(question).to_contain_text("какое оружие уничтожено (по выбору хозяина, L87)")
    assert question.locator("button").all_inner_texts() == ["1. РПГ", "2. Тяжелый пулемет"]
    expect(prompt(red, "lose_weapon")).to_have_count(0)
    expect(red.locator(".turnbar")).to_contain_text("Дальше: Синие — выбрать уничтоженное оружие", timeout=SYNC_MS)
    question.get_by_role("button", name="1. РПГ").click()
    journey.ok(blue)
    journey.same_board(red, blue)
    for page in (red, blue):
        apc = page.locator('#board details[data-unit="s1-e1"]')
        expect(apc.locator("li.soldier").first).to_contain_text("Уничтожено оружие", timeout=SYNC_MS)
        expect(apc.locator("summary")).to_contain_text("Экипаж оглушен")
        expect(page.locator("ol.log")).to_contain_text("уничтожено оружие №1")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
