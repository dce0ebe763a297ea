"""The odds and the rule at the moment of the roll (issue #31) in «Бронепехота»: every form of the board that rolls
shows the exact odds of the action its command resolves, built from the live state (the units' strength, ammo, pilot
and actions this round, the battle's settings); they equal the odds API's for the same inputs written by hand,
exactly; a missing or refused input shows why, never odds; targets and weapons are ranked by the chance to destroy;
the pilot's test asked on the other phone shows its odds there; every form and status chip links to its rule in the
book's words, with the battle's setting where the spec lists an ambiguity."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.test import Client
from django.utils import translation

from armies import services as army_services
from armies.services.packs import load_packs
from battles import services
from battles.models import Battle, BattleUnit
from battles.tests.conftest import PASSWORD, make_user
from rules.contract.testing import Table
from rules.systems.bronepekhota.army import ARMY
from rules.systems.bronepekhota.battle.at_roll import AT_ROLL
from rules.systems.bronepekhota.battle.rules_at_hand import RULES
from rules.systems.bronepekhota.battle.view import available_actions
from rules.systems.bronepekhota.settings import SETTINGS
from rules.systems.bronepekhota.system import SYSTEM

PACK_FILE = Path(__file__).resolve().parents[1] / "data" / "tehnolog-classic.json"
SLUG = "bronepekhota"
# The demo armies (army.DEMO_ARMIES): side 0 the Protectorate (Киберспецназ, soldier 1 in the GRYPHON, Рутенийская
# гвардия, the twin cannon), side 1 Polaris (Лёгкий штурмовой десант, soldier 1 in the flying THUNDER, Линейная
# клон-пехота, the mortar).
NAMES = {"squad": "SQUAD", "gryphon": "GRYPHON", "guard": "GUARD", "cannon": "CANNON", "desant": "DESANT",
         "thunder": "THUNDER", "line": "LINE", "mortar": "MORTAR"}  # fmt: skip


def demo_roster(owner, pack, index: int, name: str):
    """A demo army of the pack through the builder's services, each entry under its demo key (pilots name it)."""
    profiles = [p.as_rules_dict() for p in pack.profiles.order_by("position")]
    spec = ARMY.demo_rosters(profiles)[index]
    roster = army_services.roster_create(owner=owner, pack=pack, name=name, faction=spec["faction"])
    keys = {}
    for e in spec["entries"]:
        options = dict(e["options"])
        if "pilot" in options:
            options["pilot"] = [{**p, "entry": keys[p["entry"]]} for p in options["pilot"]]
        keys[e["key"]] = army_services.entry_add(roster=roster, profile=e["profile"]["slug"], options=options).key
    return roster, keys


def client(user) -> Client:
    c = Client()
    assert c.login(username=user.username, password=PASSWORD)
    return c


def start(*, system_settings=None, enforce_turns=False):
    """Alice (side 0, the Protectorate) against Bob (side 1, Polaris); (battle, Alice's client, Bob's client, the
    units' keys by name: u.SQUAD, u.GRYPHON, … u.MORTAR)."""
    ((pack, _created),) = load_packs(paths=[PACK_FILE])
    alice, bob = make_user("alice"), make_user("bob")
    blue, blue_keys = demo_roster(alice, pack, 0, "Синие")
    red, red_keys = demo_roster(bob, pack, 1, "Красные")
    settings = {"grenades": True, **(system_settings or {})}
    battle = services.battle_create(
        user=alice, name="Стычка", rosters=[blue, red], system_settings=settings, enforce_turns=enforce_turns
    )
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    keys = {**{k: f"0.{v}.1" for k, v in blue_keys.items()}, **{k: f"1.{v}.1" for k, v in red_keys.items()}}
    return battle, client(alice), client(bob), SimpleNamespace(**{NAMES[k]: v for k, v in keys.items()})


def run(battle, c: Client, command: str, inputs: dict, dice=None):
    battle.refresh_from_db()
    body = {**inputs, **({"dice": dice} if dice else {})}
    answer = c.post(f"/api/v1/battles/{battle.pk}/commands/{command}/", data=json.dumps(body),
                    content_type="application/json", HTTP_IF_MATCH=f'"v{battle.version}"')  # fmt: skip
    assert answer.status_code == 201, answer.content
    return answer.json()


def board_odds(c: Client, battle, command: str, body: dict):
    return c.post(f"/api/v1/battles/{battle.pk}/commands/{command}/odds", data=json.dumps(body),
                  content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip


def api_odds(c: Client, action: str, inputs: dict, battle) -> dict:
    battle.refresh_from_db()
    body = {"inputs": inputs, "settings": battle.settings["system"]}
    answer = c.post(f"/api/v1/systems/{SLUG}/actions/{action}/odds/", data=json.dumps(body),
                    content_type="application/json")  # fmt: skip
    assert answer.status_code == 200, answer.content
    return answer.json()["odds"]


# The actions' inputs written out from the stored units (not through the board's mapping) -------------------------
def units(battle) -> dict:
    return {u.key: u for u in BattleUnit.objects.filter(battle=battle)}


def soldier_profile(unit, num: int) -> dict:
    return next(s for s in unit.profile["data"]["soldiers"] if s["num"] == num)


def infantry(battle, key: str, num: int) -> dict:
    unit = units(battle)[key]
    s = soldier_profile(unit, num)
    state = next(x for x in unit.state["soldiers"] if x["num"] == num)
    return {"kind": "infantry", "ref": key, "soldier": num, "name": f"{unit.profile['name']} #{num}",
            "armour": s["armour"], "melee": s["melee"], "rank": s["rank"], "in_melee": state["in_melee"]}  # fmt: skip


def machine(battle, key: str) -> dict:
    unit = units(battle)[key]
    st, data = unit.state, unit.profile["data"]
    el = {"kind": st["kind"], "ref": key, "name": unit.profile["name"], "strength": st["strength"],
          "strength_max": st["strength_max"], "rank": data["rank"], "lying": st["lying"],
          "destroyed": st["destroyed"], "in_melee": st["in_melee"]}  # fmt: skip
    if st["kind"] == "vehicle":
        pilot = st["pilot"]
        el["pilot"] = {k: pilot[k] for k in ("armour", "rank", "ref", "soldier")} if pilot else None
        el["flying"] = bool(st["flying"])
        el["melee_weapons"] = [w["melee"] for w in data["arsenal"] if w["key"] in st["weapons"] and w.get("melee")]
    return el


def shot_by_hand(battle, shooter: str, num: int | None, target: str, target_num: int | None, **more) -> dict:
    """The virtual_shot action's inputs for a soldier's or a vehicle's shot, from the stored units."""
    if num is not None:
        unit = units(battle)[shooter]
        s = soldier_profile(unit, num)
        actions = next(x for x in unit.state["soldiers"] if x["num"] == num)["actions"]
        el = {**infantry(battle, shooter, num), "actions_used": list(actions),
              "shots_this_round": 1 if "shoot" in actions else 0, "aimed": False}  # fmt: skip
        weapon = {"key": "personal", "name": "personal weapon", "range": s["range"], "power": s["power"]}
    else:
        unit = units(battle)[shooter]
        st = unit.state
        el = {**machine(battle, shooter), "rof": unit.profile["data"]["rof"], "ammo": st["ammo"],
              "shots_this_round": st["shots_this_round"], "weapons_fired": list(st["weapons_fired"]),
              "actions_used": list(st["actions"])}  # fmt: skip
        key = more.pop("weapon")
        w = next(w for w in unit.profile["data"]["arsenal"] if w["key"] == key)
        weapon = {k: w[k] for k in ("key", "name", "range", "power", "special", "charges", "melee") if k in w}
    target_el = infantry(battle, target, target_num) if target_num is not None else machine(battle, target)
    return {"shooter": el, "weapon": weapon, "target": target_el, "cover": "none", **more}


@pytest.fixture
def battle(db):
    return start()


# The shot --------------------------------------------------------------------------------------------------------
def test_a_soldiers_shot_shows_the_odds_api_exactly_for_the_live_state(battle):
    battle, a, _b, u = battle
    form = {
        "unit": u.SQUAD,
        "soldier": 2,
        "target": u.LINE,
        "target_soldier": 3,
        "distance_steps": 5,
        "cover": "over_half_visible",
    }
    answer = board_odds(a, battle, "shoot", form)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["action"] == "virtual_shot"
    by_hand = shot_by_hand(battle, u.SQUAD, 2, u.LINE, 3, distance_steps=5, cover="over_half_visible")
    assert body["odds"] == api_odds(a, "virtual_shot", by_hand, battle)
    # Д6+2 against 5 steps hits on 3+ (4/6); 2Д6 against Бр 2 + 1 for cover: each die 4+ pierces (1/2).
    assert body["odds"]["p_hit"]["exact"] == "2/3"
    assert Fraction(body["odds"]["p_destroyed"]["exact"]) == Fraction(2, 3) * (1 - Fraction(1, 4))
    assert body["headline"] == {"key": "p_destroyed", "label": "the target is destroyed",
                                **body["odds"]["p_destroyed"]}  # fmt: skip
    assert body["place"] == ["damage", "damage"]
    assert len(body["odds"]["damage"]) == 3  # 0, 1, 2 damage: drawn as bars
    assert body["result_labels"]["p_hit"] == "Chance to hit"


def test_a_vehicles_shot_follows_its_strength_ammo_and_the_targets_damage(battle):
    battle, a, b, u = battle
    # Bob's u.THUNDER was hit before (strength 11 → 6, a ruling by hand): its armour is 6 now.
    run(battle, b, "adjust", {"unit": u.THUNDER, "changes": {"strength": 6}})
    form = {"unit": u.GRYPHON, "weapon": "plazmennyy-izluchatel", "target": u.THUNDER, "distance_cm": 33}
    body = board_odds(a, battle, "shoot", form).json()
    by_hand = shot_by_hand(battle, u.GRYPHON, None, u.THUNDER, None, weapon="plazmennyy-izluchatel", distance_cm=33)
    assert by_hand["target"]["strength"] == 6
    assert by_hand["shooter"]["ammo"] == 14
    assert body["odds"] == api_odds(a, "virtual_shot", by_hand, battle)
    assert body["odds"]["steps"] == 7  # 33 cm rounded up to 7 steps (p.31)
    assert body["odds"]["armour"] == 6
    assert body["odds"]["ammo_cost"] == 2
    # The flyer's pilot (Бр 3) dies on a 4+ after any damage; then it lands for D6 more: all of it in the odds.
    assert body["odds"]["p_pilot_killed"]["p"] > 0
    assert {d["value"] for d in body["odds"]["strength_loss"]} >= {0, 1, 2, 6}  # 6: down to 0, destroyed
    full = board_odds(a, battle, "shoot", {**form, "target": u.MORTAR}).json()
    assert full["odds"]["p_hit"] == body["odds"]["p_hit"]
    assert full["odds"]["p_destroyed"] != body["odds"]["p_destroyed"]


def test_targets_and_weapons_are_ranked_by_the_chance_to_destroy(battle):
    battle, a, _b, u = battle
    form = {"unit": u.GRYPHON, "weapon": "raketnaya-ustanovka", "target": u.THUNDER, "distance_steps": 4}
    ranked = board_odds(a, battle, "shoot", {**form, "compare": {"field": "target",
                                                                 "values": [u.THUNDER, u.LINE, u.MORTAR, u.SQUAD]}})  # fmt: skip
    assert ranked.status_code == 200, ranked.content
    rows = ranked.json()["ranking"]
    chances = [r["p"] for r in rows if r["p"] is not None]
    assert chances == sorted(chances, reverse=True)
    by_value = {r["value"]: r for r in rows}
    # A squad is ranked by its first soldier who can be attacked (the line's soldier 1): as the sheet picks him.
    line = api_odds(a, "virtual_shot", shot_by_hand(battle, u.GRYPHON, None, u.LINE, 1, weapon="raketnaya-ustanovka",
                                                    distance_steps=4), battle)  # fmt: skip
    assert by_value[u.LINE]["exact"] == line["p_destroyed"]["exact"]
    mortar = api_odds(a, "virtual_shot", shot_by_hand(battle, u.GRYPHON, None, u.MORTAR, None,
                                                      weapon="raketnaya-ustanovka", distance_steps=4), battle)  # fmt: skip
    assert by_value[u.MORTAR]["exact"] == mortar["p_destroyed"]["exact"]
    weapons = board_odds(
        a,
        battle,
        "shoot",
        {
            **form,
            "target": u.MORTAR,
            "compare": {
                "field": "weapon",
                "values": ["raketnaya-ustanovka", "stroennyy-pulemet", "lazernaya-pushka", "nothing"],
            },
        },
    )
    rows = weapons.json()["ranking"]
    assert rows[0]["value"] == "raketnaya-ustanovka"  # 2Д20 against the mortar's 4 beats a 1Д6 machine gun
    assert rows[-1] == {"value": "nothing", "p": None, "why": "GRYPHON has no fitted weapon nothing."}


def test_a_form_shows_no_odds_while_an_input_is_missing_or_refused(battle):
    battle, a, b, u = battle
    missing = board_odds(a, battle, "shoot", {"unit": u.SQUAD, "soldier": 2, "target": u.LINE})
    assert missing.status_code == 400
    assert "odds" not in missing.json()
    assert missing.json()["errors"] == {"distance_steps": "Give the distance to the target, in steps or in cm."}
    no_weapon = board_odds(a, battle, "shoot", {"unit": u.GRYPHON, "target": u.LINE, "distance_steps": 3}).json()
    assert no_weapon["errors"] == {"weapon": "Choose the weapon that fires."}
    armless = board_odds(a, battle, "shoot", {"unit": u.SQUAD, "soldier": 4, "target": u.LINE, "distance_steps": 3})
    assert "no ranged weapon" in armless.json()["errors"]["weapon"]
    not_mine = board_odds(b, battle, "shoot", {"unit": u.SQUAD, "soldier": 2, "target": u.LINE, "distance_steps": 3})
    assert not_mine.status_code == 400  # Bob's phone: not his unit, no odds
    assert "odds" not in not_mine.json()
    far = board_odds(a, battle, "move", {"unit": u.SQUAD, "soldier": 2, "path": [{"kind": "flat", "steps": 9}]})
    assert far.status_code == 400
    assert "only 4 are left" in far.json()["errors"]["path"]  # the move's command refuses it too (Ск 4)
    near = board_odds(a, battle, "move", {"unit": u.SQUAD, "soldier": 2, "path": [{"kind": "flat", "steps": 3}]}).json()
    assert near["odds"] == {"cost": 3, "budget": 4, "p_ok": {"exact": "1/1", "p": 1.0}}
    # After his shot, the soldier's form says he has shot (the command would refuse a second one).
    run(battle, a, "shoot", {"unit": u.SQUAD, "soldier": 2, "target": u.LINE, "target_soldier": 1, "distance_steps": 4},
        dice=[1])  # a miss: 1 + 2 < 4 steps  # fmt: skip
    again = board_odds(a, battle, "shoot", {"unit": u.SQUAD, "soldier": 2, "target": u.LINE, "distance_steps": 3})
    assert again.status_code == 400
    assert "odds" not in again.json()


def test_with_turns_enforced_another_players_turn_shows_why_and_no_odds(db):
    battle, a, b, u = start(enforce_turns=True)
    answer = board_odds(b, battle, "shoot", {"unit": u.DESANT, "soldier": 2, "target": u.SQUAD, "distance_steps": 3})
    assert answer.status_code == 400
    assert "Roll initiative" in answer.json()["errors"]["command"]
    initiative = board_odds(a, battle, "initiative", {}).json()
    assert initiative["action"] == "initiative"
    assert initiative["headline"] is None
    assert initiative["odds"] == api_odds(a, "initiative", {"players": ["Синие", "Красные"]}, battle)
    assert initiative["odds"]["p_win"]["Синие"]["exact"] == "1/2"


# Melee, grenades, the single tests -------------------------------------------------------------------------------
def test_melee_and_a_surprise_attack_show_the_odds_api_exactly(battle):
    battle, a, _b, u = battle
    form = {"unit": u.SQUAD, "soldier": 4, "target": u.LINE, "target_soldier": 2}
    body = board_odds(a, battle, "melee", form).json()
    by_hand = {"attacker": {**infantry(battle, u.SQUAD, 4), "actions_used": []},
               "defender": infantry(battle, u.LINE, 2), "surprise": False}  # fmt: skip
    assert body["odds"] == api_odds(a, "melee", by_hand, battle)
    assert body["headline"]["key"] == "p_defender_destroyed"
    assert body["place"] == ["margin", "margin"]
    # ББ 5 against Бр 2: Δ = +3, 5/6 (spec §3.9); from behind 101/108.
    assert body["headline"]["exact"] == "5/6"
    surprise = board_odds(a, battle, "melee", {**form, "surprise": True}).json()
    assert surprise["headline"]["exact"] == "101/108"
    flyer = board_odds(a, battle, "melee", {**form, "target": u.THUNDER})
    assert flyer.status_code == 400  # an airborne vehicle is never attacked in melee (A26)


def test_a_grenade_throw_and_its_burst_show_their_odds(battle):
    battle, a, _b, u = battle
    throw = board_odds(a, battle, "grenade", {"unit": u.SQUAD, "soldier": 5}).json()
    by_hand = {"thrower": {**infantry(battle, u.SQUAD, 5), "actions_used": [], "shots_this_round": 0}}
    assert throw["odds"] == api_odds(a, "grenade", by_hand, battle)
    assert throw["place"] == ["burst", "burst_steps"]
    # Only the thrower is at risk before the burst is known: 1/6 × (20 − 4)/20.
    assert throw["headline"]["exact"] == "2/15"
    thrown = run(battle, a, "grenade", {"unit": u.SQUAD, "soldier": 5}, dice=[3])
    seq = thrown["events"][0]["seq"]
    victims = [{"unit": u.LINE, "soldier": n} for n in (1, 2, 3)] + [{"unit": u.MORTAR}]
    burst = board_odds(a, battle, "grenade_burst", {"throw": seq, "victims": victims}).json()
    by_hand = {"thrower": {**infantry(battle, u.SQUAD, 5), "actions_used": []}, "burst_steps": 3,
               "victims": [infantry(battle, u.LINE, n) for n in (1, 2, 3)] + [machine(battle, u.MORTAR)]}  # fmt: skip
    assert burst["odds"] == api_odds(a, "grenade", by_hand, battle)
    assert burst["place"] == ["destroyed", "destroyed"]
    assert [d["value"] for d in burst["odds"]["destroyed"]] == [0, 1, 2, 3]  # 1Д20 never destroys the mortar (4)
    assert sum(Fraction(d["exact"]) for d in burst["odds"]["destroyed"]) == 1
    # Where the roll fell: the burst names how many were destroyed.
    played = run(battle, a, "grenade_burst", {"throw": seq, "victims": victims}, dice=[20, 1, 20, 2])
    assert played["outcome"]["result"]["destroyed"] == 2


def test_the_pilots_test_asked_on_the_other_phone_shows_its_odds_there(battle):
    battle, a, b, u = battle
    # Alice's u.GRYPHON hits the u.THUNDER (Д6+3: 6 + 3 ≥ 4 steps) with 2Д20 (15, 18 > 11): 2 damage; Bob's pilot owes his
    # survival test (setting pilot_tests: the vehicle's own player).
    run(battle, a, "shoot", {"unit": u.GRYPHON, "weapon": "raketnaya-ustanovka", "target": u.THUNDER, "distance_steps": 4},
        dice=[6, 15, 18])  # fmt: skip
    board = b.get(f"/battles/{battle.pk}/board", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-order-command="answer"' in board
    assert 'data-odds=""' in board
    assert 'href="rules/answer/"' in board
    body = board_odds(b, battle, "answer", {}).json()
    assert body["action"] == "survival_test"
    subject = {"armour": 3, "is_pilot": True, "vehicle_ref": u.THUNDER, "vehicle_flying": True,
               "vehicle_strength": 9, "ref": u.DESANT, "soldier": 1}  # fmt: skip
    assert body["odds"] == api_odds(b, "survival_test", {"subject": subject}, battle)
    assert body["headline"]["exact"] == "1/2"  # Бр 3 on a D6
    assert body["odds"]["p_emergency_landing"]["exact"] == "1/2"  # dies in flight: the u.THUNDER lands
    refused = board_odds(a, battle, "answer", {})
    assert refused.status_code == 400  # the question is Bob's: Alice's phone shows no odds for it
    assert refused.json()["errors"]["command"].startswith("Waiting for Красные: the pilot of THUNDER")


def test_real_shooting_odds_follow_what_the_table_saw(db):
    battle, a, _b, u = start(system_settings={"mode": "real"})
    form = {"unit": u.GRYPHON, "weapon": "raketnaya-ustanovka", "target": u.DESANT, "target_soldier": 2,
            "charge": "rocket", "hit": True, "fell": False}  # fmt: skip
    body = board_odds(a, battle, "shoot", form).json()
    assert body["action"] == "real_shot"
    assert body["headline"]["exact"] == "1/2"  # he stood: a D6 survival test against Бр 3
    fell = board_odds(a, battle, "shoot", {**form, "fell": True}).json()
    assert fell["headline"]["exact"] == "1/1"
    machine_hit = board_odds(a, battle, "shoot", {**form, "target": u.MORTAR, "target_soldier": None}).json()
    assert machine_hit["odds"]["damage"] == [{"value": 4, "exact": "1/1", "p": 1.0}]  # a rocket's power 4 (Table 3)
    assert machine_hit["headline"]["exact"] == "1/1"  # the mortar's strength 4
    armour = board_odds(a, battle, "armour_test", {"unit": u.GRYPHON, "die": 20}).json()
    by_hand = {"strength": 11, "die": 20, "vehicle_ref": u.GRYPHON,
               "pilot": {"armour": 4, "ref": u.SQUAD, "soldier": 1, "vehicle_flying": False}}  # fmt: skip
    assert armour["odds"] == api_odds(a, "armour_test", by_hand, battle)
    assert Fraction(armour["headline"]["exact"]) == Fraction(11, 20) + Fraction(9, 20) * Fraction(4, 6)


# The rules at hand -----------------------------------------------------------------------------------------------
def test_every_form_and_status_has_its_rule_in_the_books_words_with_its_setting():
    settings = {s.key for s in SETTINGS}
    for key, rule in RULES.items():
        assert rule.title, key
        assert rule.text, key
        assert "p." in rule.source, key
        assert not rule.setting or rule.setting in settings, key
    offered = set(available_actions({"system": {**SYSTEM.default_settings(), "grenades": True, "panic": True,
                                                "jump_packs": True, "ammo_refreshes": 1}}))  # fmt: skip
    assert offered | {"shoot_real", "grenade_burst", "answer", "deployment"} <= set(RULES)
    from rules.systems.bronepekhota.battle.board import FLAG_RULES

    assert set(FLAG_RULES.values()) <= set(RULES)
    with translation.override("ru"):
        from rules.i18n import _

        assert _(RULES["survival_test"].text).startswith("Бросьте кубик Д6 и сравните результат с Бронёй «Бр»")
        assert "Перед каждым выстрелом атакующий игрок должен указать цель" in _(RULES["shoot"].text)
        assert _(RULES["in_melee"].title) == "В ближнем бою"


def test_the_rule_page_names_the_battles_house_rule_and_chips_link_to_their_rules(battle):
    battle, a, b, u = battle
    page = a.get(f"/battles/{battle.pk}/rules/shoot/", HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 200
    html = page.content.decode()
    assert "прицельная дальность выстрела больше или равна расстоянию до цели" in html
    assert "§7.2–7.4, p.29–33" in html
    assert 'data-testid="house-rule"' in html  # A21: exactly half hidden counts +1
    board = a.get(f"/battles/{battle.pk}/board", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="rules/pilot/"' in board  # Киберспецназ: soldier 1 pilots the u.GRYPHON
    assert 'href="rules/flying/"' in board  # the u.THUNDER flies
    assert 'href="rules/done/"' in board  # «to act»
    assert a.get(f"/battles/{battle.pk}/rules/nothing/").status_code == 404


def test_the_roll_is_placed_in_its_distribution_after_it(battle):
    battle, a, _b, u = battle
    form = {"unit": u.SQUAD, "soldier": 2, "target": u.LINE, "target_soldier": 3, "distance_steps": 3}
    odds = board_odds(a, battle, "shoot", form).json()
    played = run(battle, a, "shoot", form, dice=[6, 5, 1])  # hit; 5 > 2 pierces, 1 does not: 1 damage
    result = played["outcome"]["result"]
    assert result["damage"] == 1
    assert result[odds["place"][1]] == 1
    assert any(d["value"] == 1 for d in odds["odds"][odds["place"][0]])
    duel = {"unit": u.SQUAD, "soldier": 4, "target": u.LINE, "target_soldier": 2}
    fought = run(battle, a, "melee", duel, dice=[6, 1])
    assert fought["outcome"]["result"]["margin"] == (6 + 5) - (1 + 2)


# In memory: every sheet action maps to its own action, and Table's state is what the odds read ----------------
def test_every_sheet_action_rolls_the_action_its_command_resolves(db):
    ((pack, _created),) = load_packs(paths=[PACK_FILE])
    profiles = [p.as_rules_dict() for p in pack.profiles.order_by("position")]
    rosters = [{"faction": r["faction"], "entries": r["entries"]} for r in ARMY.demo_rosters(profiles)]
    table = Table(SYSTEM, rosters=rosters, settings={"grenades": True, "panic": True})
    table.settings["enforce_turns"] = False
    sides = frozenset({0})
    forms = {
        "survival_test": ({"unit": "0.squad.1", "soldier": 3}, "survival_test"),
        "panic": ({"unit": "0.squad.1", "soldier": 3, "reaches_edge": True}, "panic"),
        "emergency_landing": ({"unit": "1.thunder.1"}, "emergency_landing"),
        "dispute": ({}, "dispute"),
        "capture": ({"unit": "0.squad.1", "soldier": 3, "target": "0.cannon.1"}, "capture"),
        "move": ({"unit": "0.gryphon.1", "path": [{"kind": "forward", "steps": 2}]}, "movement"),
    }
    for command, (inputs, action) in forms.items():
        found = AT_ROLL.roll_odds(table.state, command, inputs, sides)
        assert found.action == action, command
        SYSTEM.action(found.action).odds(found.inputs, table.settings["system"])  # valid inputs for the action
    assert AT_ROLL.roll_odds(table.state, "done", {"unit": "0.squad.1"}, sides) is None
    assert AT_ROLL.roll_odds(table.state, "emergency_landing", {"unit": "1.thunder.1"}, sides).inputs == {
        "strength": 11, "ref": "1.thunder.1"}  # fmt: skip


def test_the_board_data_offers_odds_on_the_sheet(battle):
    battle, a, _b, u = battle
    page = a.get(f"/battles/{battle.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'id="action-form" method="dialog" data-order-command="shoot" data-odds' in page
    assert 'data-compare="target"' in page
    assert 'data-compare="weapon"' in page
    assert 'data-order-command="grenade_burst" data-odds' in page
    assert Battle.objects.get(pk=battle.pk).system == SLUG
