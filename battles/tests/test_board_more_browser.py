"""The rules the board used to lack, played on two 360 px phones: a HELIX tows a gun and lets it go (p.49, §3.13),
a commando jumps with his jump pack (p.44–48, Table 8), and the players settle a dispute with a die roll (p.51
§12.2). Each starts from the unit's row in at most three taps; the other phone sees the result."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles import services
from battles.tests.conftest import make_roster
from battles.tests.test_browser import close_result, open_unit, phone_for, type_dice

SYNC_MS = 4000  # the other phone must show a change within this time
HELIX, BULLDOG, COMMANDOS = "1.e2.1", "1.e3.1", "0.e1.1"


@pytest.fixture
def more_battle(pack, alice, bob):
    """Blue (alice): assault commandos «Пр5» (soldier 2 flies the CONDOR), the CONDOR. Red (bob): heavy clones
    (soldier 3 drives the HELIX), a HELIX with the repair-transport platform, the БУЛЬДОГ mobile gun."""
    blue = make_roster(
        alice,
        pack,
        "protectorate",
        "Blue commandos",
        [
            {"key": "e1", "slug": "protectorate_shturmovoy_otryad_stervyatniki"},
            {"key": "e2", "slug": "condor", "pilot": [{"entry": "e1", "soldier": 2, "copy": 1}]},
        ],
    )
    red = make_roster(
        bob,
        pack,
        "polaris",
        "Red repairmen",
        [
            {"key": "e1", "slug": "polaris_tyazhyolaya_klon_pehota"},
            {
                "key": "e2",
                "slug": "helix",
                "loadout": {"variant": "repair"},
                "pilot": [{"entry": "e1", "soldier": 3, "copy": 1}],
            },
            {"key": "e3", "slug": "buldog"},
        ],
    )
    battle = services.battle_create(user=alice, name="More", rosters=[blue, red], system_settings={"jump_packs": True})
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    battle.refresh_from_db()
    return battle


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_towing_a_jump_and_a_dispute_from_the_board(live_server, phone_context, more_battle, alice, bob):
    blue = phone_for(phone_context, live_server, alice, more_battle)
    red = phone_for(phone_context, live_server, bob, more_battle)
    errors = []
    for page in (blue, red):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # Red: the HELIX tows the БУЛЬДОГ. Taps: Tow, then Tow/Roll (the gun is picked in the sheet).
    helix = open_unit(red, HELIX)
    helix.locator('button[data-act="tow"]').click()
    sheet = red.locator("#action-sheet")
    expect(sheet).to_be_visible()
    expect(sheet.locator("#f-target-label")).to_have_text("What to tow")
    assert sheet.locator("#f-target option").count() == 2  # the CONDOR and the БУЛЬДОГ; no infantry
    sheet.locator("#f-target").select_option(BULLDOG)
    sheet.locator("#f-go").click()
    expect(red.locator("#result")).to_contain_text("Towing starts")
    close_result(red)
    bulldog = open_unit(blue, BULLDOG)
    expect(bulldog.locator("> summary .flags")).to_contain_text("towed", timeout=SYNC_MS)
    # One tap on the HELIX's row lets it go (the owner may stop at any moment, p.49).
    helix = open_unit(red, HELIX)
    helix.get_by_role("button", name="Stop towing").click()
    expect(red.locator("#result")).to_contain_text("Towing stops")
    close_result(red)
    expect(bulldog.locator("> summary .flags")).not_to_contain_text("towed", timeout=SYNC_MS)

    # Blue: commando 1 jumps 3 steps away and 2 up with «Пр5»: 3 + 2 = 5 <= 5 (Table 8, Рис.57а).
    squad = open_unit(blue, COMMANDOS)
    squad.locator('button[data-act="jump"]').click()
    sheet = blue.locator("#action-sheet")
    expect(sheet).to_be_visible()
    sheet.locator("#f-soldier").select_option("1")
    sheet.locator("#f-length").fill("3")
    sheet.locator("#f-rise").fill("2")
    sheet.locator("#f-go").click()
    expect(blue.locator("#result")).to_contain_text("the jump succeeds")
    close_result(blue)
    red_commando = open_unit(red, COMMANDOS).locator('li[data-soldier="1"] .flags')
    expect(red_commando).to_contain_text("jump", timeout=SYNC_MS)

    # Blue: a dispute roll from the same row, behind "More tests" (three taps: More tests, Dispute roll, Roll).
    squad = open_unit(blue, COMMANDOS)
    squad.locator("details.adjust-box > summary").click()
    squad.locator('button[data-act="dispute"]').click()
    sheet = blue.locator("#action-sheet")
    expect(sheet).to_be_visible()
    expect(sheet.locator("#f-unit")).to_be_hidden()
    expect(sheet.locator("#f-sides input[type=checkbox]")).to_have_count(2)
    sheet.locator("#f-note").fill("is the БУЛЬДОГ in cover?")
    type_dice(sheet, [5, 5, 2, 6])  # a tie, then red's 6 beats blue's 2 (d12, A33)
    sheet.locator("#f-go").click()
    expect(blue.locator("#result")).to_contain_text("Red repairmen wins the dispute")
    close_result(blue)
    expect(red.locator("ol.log")).to_contain_text("Red repairmen wins", timeout=SYNC_MS)
    assert red.evaluate("document.documentElement.scrollWidth") <= 360  # still no sideways scrolling
    assert errors == []
