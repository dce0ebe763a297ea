"""«Энфорсеры» on two 360 px phones: Kate's activation with two actions (a move, then a shot whose Bleeding the
thug fails to resist), the Bleeding ticking at the end of the thug's next activation, an undo of that tick from the
log (and the tick again), the end of the scenario from the board, and the scenario carried into Bob's crew, whose
history shows the thug's injury test. The other phone sees each change.

The dice a test needs are "rolled at the table": a scripted source serves them in order (then the server rolls as
usual), so the shot hits and the TN test fails whatever the seed."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from armies import services as armies_services
from armies.models import ScenarioRecord
from battles import services
from battles.tests.conftest import PASSWORD
from battles.tests.test_browser import close_result, open_unit, phone_for
from rules import dice as dicelib
from rules.systems.enforcers.tests.test_job_report import PACK, STATS

SYNC_MS = 4000
BLEEDING_GUN = {"name": "Serrated autogun", "damage": 4, "ranged": True, "capacity": 6, "traits": ["bleeding"],
                "range_bands_cm": {"short": 10, "medium": 25, "long": 50}}  # fmt: skip


class ScriptedDice(dicelib.SeededDice):
    """Serves the scripted values first (each checked against its die), then rolls like the server."""

    script: list[int] = []

    def roll(self, faces: int, purpose: str) -> int:
        if ScriptedDice.script:
            value = ScriptedDice.script.pop(0)
            assert 1 <= value <= faces, f"scripted {value} is not a d{faces} ({purpose})"
            return self._record(faces, value, purpose)
        return super().roll(faces, purpose)


@pytest.fixture
def table_dice(monkeypatch):
    real = dicelib.dice_source

    def source(*, seed=None, dice=None):
        return real(seed=seed, dice=dice) if dice is not None else ScriptedDice(seed)

    monkeypatch.setattr(dicelib, "dice_source", source)
    ScriptedDice.script = []
    yield ScriptedDice.script
    ScriptedDice.script.clear()


@pytest.fixture
def crews_battle(db):
    users = [get_user_model().objects.create_user(username=n, password=PASSWORD) for n in ("alice", "bob")]
    ((pack, _created),) = armies_services.load_packs(paths=[PACK])
    rosters = []
    for owner, (crew, agent) in zip(users, (("Kate's crew", "Kate"), ("Thugs", "Thug")), strict=True):
        roster = armies_services.roster_create(owner=owner, pack=pack, name=crew, faction="enforcers")
        options = {"name": agent, "stats": STATS, "stat_bump": 0, "own_gear": True, "weapons": [BLEEDING_GUN]}
        armies_services.entry_add(roster=roster, profile="apprentice", options=options)
        rosters.append(roster)
    battle = services.battle_create(user=users[0], name="Night shift", rosters=rosters)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=users[1])
    keys = {u.name: k for k, u in services.load_state(battle).units.items()}
    return {"alice": users[0], "bob": users[1], "battle": battle, "rosters": rosters, "kate": keys["Kate"],
            "thug": keys["Thug"]}  # fmt: skip


def answer(card, command: str, values: dict):
    """Fills and sends an action's form, folded under its name on the acting agent's card."""
    box = card.locator(f'details.fold:has(form[data-order-command="{command}"])')
    if box.get_attribute("open") is None:
        box.locator("> summary").click()
    form = box.locator(f'form[data-order-command="{command}"]')
    for name, value in values.items():
        field = form.locator(f'[name="{name}"]')
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    form.locator("[type=submit]").click()


def tap(card, label: str):
    card.locator("button[data-command]", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$")).first.click()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_activation_a_bleeding_shot_its_tick_an_undo_and_the_scenario_carried(
    live_server, phone_context, crews_battle, table_dice
):
    t = crews_battle
    alice = phone_for(phone_context, live_server, t["alice"], t["battle"])
    bob = phone_for(phone_context, live_server, t["bob"], t["battle"])
    errors = []
    for page in (alice, bob):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # Alice: Kate activates (popcorn, L63) and spends her two actions: a move, then a shot.
    kate = open_unit(alice, t["kate"])
    tap(kate, "Activate")
    close_result(alice)
    kate = open_unit(alice, t["kate"])
    expect(kate).to_contain_text("Actions")
    answer(kate, "move", {"distance_cm": 4})
    close_result(alice)
    # BS 10 at medium range: the d20 shows 5, a hit for 4; the thug's TN test against Bleeding shows 19 (L230).
    table_dice.extend([5, 19])
    kate = open_unit(alice, t["kate"])
    answer(kate, "shoot", {"target": t["thug"], "weapon": 0, "range_band": "medium", "cover": "none"})
    result = alice.locator("#result")
    expect(result).to_contain_text("TN test against Bleeding")
    close_result(alice)
    assert table_dice == []
    thug_on_bob = open_unit(bob, t["thug"])
    expect(thug_on_bob).to_contain_text("Bleeding", timeout=SYNC_MS)  # an English phone reads the status in English
    expect(thug_on_bob).to_contain_text("6/10", timeout=SYNC_MS)
    kate = open_unit(alice, t["kate"])
    tap(kate, "End activation")
    close_result(alice)

    # Popcorn (L63): Kate acted last, so Alice picks the next model, the thug; Bob plays its activation, at whose
    # end the Bleeding ticks: 2 HP past armour (L295), logged.
    thug_on_alice = open_unit(alice, t["thug"])
    tap(thug_on_alice, "Activate")
    close_result(alice)
    thug = open_unit(bob, t["thug"])
    expect(thug).to_contain_text("Actions", timeout=SYNC_MS)
    tap(thug, "End activation")
    expect(bob.locator("#result")).to_contain_text("Bleeding: 2 HP")
    close_result(bob)
    thug_on_alice = open_unit(alice, t["thug"])
    expect(thug_on_alice).to_contain_text("4/10", timeout=SYNC_MS)
    expect(alice.locator("ol.log")).to_contain_text("Bleeding: 2 HP", timeout=SYNC_MS)

    # Bob undoes the end of the activation from the log: the tick is taken back on both phones, then ends it again.
    line = bob.locator("ol.log li.event", has_text="Bleeding: 2 HP").first
    line.locator("button[data-undo]").click()
    expect(bob.locator("#result")).to_contain_text("Undone #")
    close_result(bob)
    expect(open_unit(alice, t["thug"])).to_contain_text("6/10", timeout=SYNC_MS)
    thug = open_unit(bob, t["thug"])
    tap(thug, "End activation")
    close_result(bob)
    expect(open_unit(alice, t["thug"])).to_contain_text("4/10", timeout=SYNC_MS)

    # Alice proposes the end of the scenario from the board's footer; Bob's phone asks him, and he confirms it; both
    # phones show it is over.
    alice.on("dialog", lambda dialog: dialog.accept())
    footer = alice.locator("details", has_text="End the scenario").last
    footer.locator("summary").first.click()
    footer.locator("button[data-command]", has_text="Kate's crew wins").click()
    close_result(alice)
    confirm = bob.locator('#board .turnbar form[data-order-command="confirm_end"]')
    expect(confirm).to_contain_text("proposes to end the scenario", timeout=SYNC_MS)
    confirm.locator("button[data-command]", has_text="Confirm").click()
    close_result(bob)
    expect(alice.locator("body")).to_contain_text("The scenario is over", timeout=SYNC_MS)

    # Bob carries the scenario into his crew from its roster page: the thug (HP 4 of 10, half or less) tests TN
    # against a light injury: 15 fails, out for d6 = 3 days (L236–248). The history shows it.
    table_dice.extend([15, 3])
    bob.goto(f"{live_server.url}/rosters/{t['rosters'][1].pk}/")
    carry = bob.locator('[data-testid="carry-form"]')
    expect(carry).to_contain_text("Night shift")
    carry.get_by_role("button").click()
    scenario = bob.locator('[data-testid="scenario-1"]')
    expect(scenario).to_contain_text("Night shift")
    expect(scenario).to_contain_text("3 days")
    expect(bob.locator('[data-testid="carry-form"]')).to_have_count(0)
    record = ScenarioRecord.objects.get(roster=t["rosters"][1])
    assert [d["value"] for d in record.dice] == [15, 3]
    assert record.record["agents"][0]["days"] == 3
    # The campaign section fits the phone (the page header's pack name is another matter: not this test's).
    assert bob.locator("#campaign").evaluate("el => el.getBoundingClientRect().right") <= 360
    assert errors == []
    assert services.replay_matches(t["battle"]) == (True, "")  # the log replays to the stored states
