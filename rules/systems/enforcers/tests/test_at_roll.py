"""The odds and the rule at the moment of the roll (issue #31) in «Энфорсеры»: each rolling form of the board (a shot,
a throw, a blow, medical aid, the status upkeep at the end of an activation, a fall, damage by hand, and the answers
the other phone gives: a reaction shot, a counter-attack) shows the exact odds of the action its command resolves,
built from the live state; they equal the odds API's for the same inputs written out by hand, exactly; a refused or
missing input shows why, never odds; targets and weapons are ranked by the chance the target ends out of the fight;
after the roll the target's HP is placed in its distribution; every form and status chip links to its rule in the
book's words, with the battle's setting where the spec names an ambiguity."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from django.test import Client
from django.utils import translation

from armies import services as armies_services
from battles import services
from battles.tests.conftest import PASSWORD, make_user
from rules.systems.enforcers.battle.at_roll import AT_ROLL, FORMS, RULES
from rules.systems.enforcers.battle.board import STATUS_TONE
from rules.systems.enforcers.settings import SETTINGS
from rules.systems.enforcers.system import SYSTEM
from rules.systems.enforcers.tests.test_job_report import PACK, STATS

pytestmark = pytest.mark.django_db
GUN = {"name": "Autogun", "damage": 4, "ranged": True, "capacity": 6, "traits": ["bleeding"]}
SHOTGUN = {"name": "Shotgun", "damage": 7, "ranged": True, "capacity": 2}
BLADE = {"name": "Blade", "damage": 5, "reach_cm": 2}
KATE = {"name": "Kate", "stats": {**STATS, "BS": 12, "HL": 11}, "weapons": [GUN, SHOTGUN, BLADE],
        "armour": "enforcer-gear", "medkit": True}  # fmt: skip
THUG = {"name": "Thug", "stats": {**STATS, "HL": 6, "TN": 8}, "weapons": [BLADE]}
BRUTE = {"name": "Brute", "stats": {**STATS, "HL": 12}, "weapons": [BLADE], "armour": "military-carapace"}


def client(user) -> Client:
    c = Client()
    assert c.login(username=user.username, password=PASSWORD)
    return c


@pytest.fixture
def night():
    """Alice's Kate (BS 12, Enforcer Gear, an autogun that makes Bleeding, a shotgun, a blade, a med-kit) against
    Bob's Thug (HL 6, no armour) and Brute (HL 12, Military Carapace). Kate is acting."""
    ((pack, _created),) = armies_services.load_packs(paths=[PACK])
    alice, bob = make_user("alice"), make_user("bob")
    rosters = []
    for owner, crew, agents in ((alice, "Kate's crew", [KATE]), (bob, "Thugs", [THUG, BRUTE])):
        roster = armies_services.roster_create(owner=owner, pack=pack, name=crew, faction="enforcers")
        for agent in agents:
            options = {"stat_bump": 0, "own_gear": True, **agent}
            armies_services.entry_add(roster=roster, profile="apprentice", options=options)
        rosters.append(roster)
    battle = services.battle_create(user=alice, name="Night shift", rosters=rosters)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    keys = {u.name: k for k, u in services.load_state(battle).units.items()}
    night = {"battle": battle, "users": {0: alice, 1: bob}, "a": client(alice), "b": client(bob), **keys}
    run(night, 0, "activate", {"unit": keys["Kate"]})
    return night


def run(night: dict, side: int, name: str, inputs: dict, dice: list | None = None):
    battle = night["battle"]
    battle.refresh_from_db()
    out = services.command_run(battle_id=battle.pk, user=night["users"][side], name=name, inputs=inputs, dice=dice,
                               seed=5, expected_version=battle.version)  # fmt: skip
    battle.refresh_from_db()
    return out


def unit(night: dict, name: str) -> dict:
    return services.load_state(night["battle"]).units[night[name]].state


def board_odds(c: Client, night: dict, command: str, body: dict):
    return c.post(f"/api/v1/battles/{night['battle'].pk}/commands/{command}/odds", data=json.dumps(body),
                  content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip


def api_odds(c: Client, action: str, inputs: dict) -> dict:
    answer = c.post(f"/api/v1/systems/enforcers/actions/{action}/odds/", data=json.dumps({"inputs": inputs}),
                    content_type="application/json")  # fmt: skip
    assert answer.status_code == 200, answer.content
    return answer.json()["odds"]


def by_hand(agent: dict, **state) -> dict:
    """An agent as the odds API takes it, written out from the roster (not through the board's mapping)."""
    return {"name": agent["name"], "stats": agent["stats"], "armour": agent.get("armour"), **state}


def test_a_shot_shows_the_odds_api_exactly_and_other_targets_and_weapons_change_it(night):
    a = night["a"]
    run(night, 0, "ready_weapon", {"weapon": 1, "how": "draw"})  # the shotgun too (free once an activation, L73)
    form = {"target": night["Thug"], "weapon": "0", "range_band": "short", "cover": "partial", "mode": "single",
            "out_of_arc": "false"}  # fmt: skip
    answer = board_odds(a, night, "shoot", form)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["action"] == "shoot"
    inputs = {"shooter": by_hand(KATE), "weapon": {"damage": 4, "traits": ["bleeding"], "ammo": 6, "capacity": 6},
              "target": by_hand(THUG), "range_band": "short", "cover": "partial", "mode": "single"}  # fmt: skip
    assert body["odds"] == api_odds(a, "shoot", inputs)
    # BS 12, short range (a blessing) against partial cover (a curse): a plain d20 at or under 12.
    assert Fraction(body["odds"]["p_hit"]["exact"]) == Fraction(12, 20)
    assert body["headline"] == {"key": "p_target_down", "label": "the target is out of the fight",
                                **body["odds"]["p_target_down"]}  # fmt: skip
    assert body["place"] == ["target_hp", "target_hp"]
    assert len(body["odds"]["sheet_after"]) > 2  # drawn as bars: a miss, a hit, a hit that bleeds
    assert body["value_labels"]["target_bleeding"] == {"true": "yes", "false": "no"}
    # Another target: the Brute's Carapace takes the autogun's 4 damage, so he is never out.
    brute = board_odds(a, night, "shoot", {**form, "target": night["Brute"]}).json()
    assert brute["odds"] == api_odds(a, "shoot", {**inputs, "target": by_hand(BRUTE)})
    assert brute["headline"]["p"] == 0
    # Another weapon: the shotgun (7) takes the Thug (HL 6) out on a hit.
    shotgun = board_odds(a, night, "shoot", {**form, "weapon": "1"}).json()
    assert shotgun["odds"] == api_odds(a, "shoot", {**inputs, "weapon": {"damage": 7, "ammo": 2, "capacity": 2}})
    assert shotgun["headline"]["exact"] == body["odds"]["p_hit"]["exact"]


def test_which_target_and_which_weapon_rank_by_the_chance_to_take_it_out(night):
    a = night["a"]
    run(night, 0, "ready_weapon", {"weapon": 1, "how": "draw"})
    form = {"target": night["Thug"], "weapon": "0", "range_band": "medium", "cover": "none"}
    # The shotgun's 7 damage takes the Thug (HL 6, no armour) out on a hit; Carapace and Enforcer Gear hold.
    targets = board_odds(a, night, "shoot", {**form, "weapon": "1", "compare": {"field": "target", "values": [
        night["Brute"], night["Thug"], night["Kate"]]}}).json()["ranking"]  # fmt: skip
    assert targets[0]["value"] == night["Thug"]
    assert targets[0]["p"] > 0
    assert [r["p"] for r in targets[1:]] == [0, 0]
    weapons = board_odds(a, night, "shoot", {**form, "compare": {"field": "weapon", "values": ["0", "1", "7"]}})
    rows = weapons.json()["ranking"]
    assert [r["value"] for r in rows] == ["1", "0", "7"]  # the shotgun first; there is no weapon 7
    assert rows[0]["p"] > rows[1]["p"]
    assert rows[2]["p"] is None
    assert "no weapon 7" in rows[2]["why"]


def test_refused_or_missing_inputs_show_why_never_odds(night):
    a, b = night["a"], night["b"]
    refused = board_odds(a, night, "shoot", {"target": night["Thug"], "weapon": "9"})
    assert refused.status_code == 400
    assert "odds" not in refused.json()
    assert list(refused.json()["errors"]) == ["weapon"]
    missing = board_odds(a, night, "shoot", {"target": night["Thug"]})
    assert missing.status_code == 400
    assert "weapon" in missing.json()["errors"]
    far = board_odds(a, night, "throw", {"target": night["Thug"], "weapon": "0", "distance_cm": 20})
    assert far.status_code == 400  # a throw reaches 1.5 x TN = 15 cm (L174): the rule's limit as data
    assert far.json()["limits"] == {"throw_range_cm": 15}
    assert list(far.json()["errors"]) == ["distance_cm"]
    stowed = board_odds(a, night, "shoot", {"target": night["Thug"], "weapon": "1"})
    assert stowed.status_code == 400  # the shotgun is not drawn (L73)
    not_yours = board_odds(b, night, "shoot", {"target": night["Kate"], "weapon": "0"})
    assert not_yours.status_code in (403, 409)  # Kate is acting, and she is Alice's: never odds for Bob
    assert "odds" not in not_yours.json()
    nothing = board_odds(a, night, "aim", {})
    assert nothing.status_code == 400  # aiming rolls nothing: no odds to show
    assert board_odds(a, night, "end_activation", {}).status_code == 400  # no status ticks yet


def test_a_typed_die_box_is_no_input_of_the_odds(night):
    form = {"target": night["Thug"], "weapon": "0", "range_band": "short"}
    plain = board_odds(night["a"], night, "shoot", form).json()
    typed = board_odds(night["a"], night, "shoot", {**form, "die": 3}).json()
    assert typed["odds"] == plain["odds"]


def test_a_blow_and_the_counter_attack_the_other_phone_answers(night):
    a, b = night["a"], night["b"]
    run(night, 0, "ready_weapon", {"weapon": 2, "how": "switch"})
    blow = board_odds(a, night, "melee", {"target": night["Thug"], "weapon": "2", "distance_cm": 1}).json()
    inputs = {"attacker": by_hand(KATE), "attacker_weapon": {"damage": 5, "reach_cm": 2, "drawn": True},
              "defender": by_hand(THUG), "defender_weapon": {"damage": 5, "reach_cm": 2, "drawn": True},
              "distance_cm": 1, "ask_counter": True}  # fmt: skip
    assert blow["odds"] == api_odds(a, "melee", inputs)
    assert blow["headline"]["key"] == "p_defender_down"
    # Kate strikes with her blade and misses (a d20 of 20): the Thug may strike back, on Bob's phone (L212).
    run(night, 0, "melee", {"target": night["Thug"], "weapon": 2, "distance_cm": 1}, dice=[20, 6, 6])
    answer = board_odds(b, night, "counter_attack", {})
    assert answer.status_code == 200, answer.content
    counter = {"attacker": by_hand(THUG), "attacker_weapon": {"damage": 5, "reach_cm": 2, "drawn": True},
               "defender": by_hand(KATE, counter_used=False), "defender_weapon": {"damage": 5, "reach_cm": 2,
                                                                                   "drawn": True},
               "distance_cm": 1, "height_cm": 0, "counter": True, "ask_counter": True}  # fmt: skip
    assert answer.json()["odds"] == api_odds(b, "melee", counter)
    assert board_odds(a, night, "counter_attack", {}).status_code == 409  # Alice does not answer it
    declined = board_odds(b, night, "counter_attack", {"strike": "false"})
    assert declined.status_code == 400  # letting it go rolls nothing


def test_a_reaction_shot_on_the_other_phone(night):
    a, b = night["a"], night["b"]
    run(night, 0, "overwatch", {})
    run(night, 0, "end_activation", {})
    run(night, 0, "activate", {"unit": night["Thug"]})
    run(night, 1, "move", {"distance_cm": 3})  # Kate on Overwatch may shoot him (L103): Alice answers
    form = {"shooter": night["Kate"], "weapon": "0", "range_band": "medium", "cover": "none"}
    answer = board_odds(a, night, "reaction_shot", form)
    assert answer.status_code == 200, answer.content
    kate = unit(night, "Kate")
    inputs = {"shooter": by_hand(KATE, overwatch=True), "target": by_hand(THUG),
              "weapon": {"damage": 4, "traits": ["bleeding"], "ammo": 6, "capacity": 6}, "range_band": "medium",
              "cover": "none"}  # fmt: skip
    assert kate["overwatch"] is True
    assert answer.json()["odds"] == api_odds(a, "shoot", inputs)
    ranked = board_odds(a, night, "reaction_shot", {**form, "compare": {"field": "weapon", "values": ["0", "1"]}})
    rows = ranked.json()["ranking"]
    assert [r["value"] for r in rows] == ["0", "1"]
    assert rows[1]["p"] is None  # the shotgun is stowed: listed with why, never with odds
    assert board_odds(b, night, "reaction_shot", form).status_code == 409


def test_medical_aid_the_status_upkeep_a_fall_and_damage_by_hand(night):
    a = night["a"]
    run(night, 0, "damage", {"unit": night["Kate"], "amount": 12})  # Enforcer Gear 6 AP, then 6 HP: 5 left
    run(night, 0, "set_status", {"unit": night["Kate"], "status": "bleeding", "on": True})
    kate = by_hand(KATE, hp=5, ap=0, statuses={"bleeding": {}},
                   flags={"half_hp": True}, lowest_hp=5)  # fmt: skip
    aid = board_odds(a, night, "medical_aid", {"mode": "restore_hp", "remove_status": "bleeding"}).json()
    assert aid["odds"] == api_odds(a, "medical_aid", {"healer": kate, "target": None, "mode": "restore_hp",
                                                      "remove_status": "bleeding", "has_medkit": True})  # fmt: skip
    assert aid["headline"]["exact"] == "11/20"  # HL 11
    tick = board_odds(a, night, "end_activation", {}).json()
    assert tick["action"] == "status_tick"
    assert tick["odds"] == api_odds(a, "status_tick", {"agent": kate, "moment": "end_of_activation"})
    assert tick["headline"]["key"] == "p_dead"
    assert tick["odds"]["hp"] == [{"value": 3, "exact": "1/1", "p": 1.0}]  # Bleeding: 2 HP past armour (L295)
    fall = board_odds(a, night, "fall", {"unit": night["Thug"], "height_cm": 9}).json()
    assert fall["odds"] == api_odds(a, "fall", {"agent": by_hand(THUG), "height_cm": 9})
    hurt = board_odds(a, night, "damage", {"unit": night["Brute"], "amount": 9}).json()
    assert hurt["odds"] == api_odds(a, "damage", {"target": by_hand(BRUTE), "amount": 9})
    assert hurt["odds"]["ap"] == [{"value": 0, "exact": "1/1", "p": 1.0}]


def test_the_roll_lands_where_the_form_said(night):
    """The command's outcome carries the value the board places in the distribution it showed."""
    form = {"target": night["Thug"], "weapon": "0", "range_band": "short"}
    body = board_odds(night["a"], night, "shoot", form).json()
    out = run(night, 0, "shoot", {**form, "weapon": 0}, dice=[3, 2, 15])
    hp = out.outcome["result"][body["place"][1]]
    assert hp in {d["value"] for d in body["odds"][body["place"][0]]}
    run(night, 0, "end_activation", {})
    state = unit(night, "Kate")
    assert state["actions_left"] == 0


def test_every_form_and_status_links_to_its_rule_in_the_books_words(night):
    a = night["a"]
    run(night, 0, "set_status", {"unit": night["Kate"], "status": "poisoned", "on": True})
    board = a.get(f"/battles/{night['battle'].pk}/board", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    for command in ("shoot", "melee", "move", "medical_aid", "end_activation", "fall", "damage"):
        assert f'data-order-command="{command}"' in board, command
        assert f'href="rules/{command}/"' in board, command
    assert board.count("data-odds") >= 7
    assert 'href="rules/poisoned/"' in board  # the status chip on Kate's card
    for key, rule in RULES.items():
        page = a.get(f"/battles/{night['battle'].pk}/rules/{key}/", HTTP_ACCEPT_LANGUAGE="ru")
        assert page.status_code == 200, key
        html = page.content.decode()
        with translation.override("ru"):
            assert translation.gettext(rule.text) != rule.text, key  # Russian, from the book
            assert translation.gettext(rule.text) in html.replace("&#x27;", "'").replace("&quot;", '"'), key
        assert rule.source in html
        if rule.setting:
            assert 'data-testid="house-rule"' in html, key
    assert a.get(f"/battles/{night['battle'].pk}/rules/nothing/").status_code == 404


def test_the_parts_fit_the_system():
    """Every form's headline is a chance its action answers; every rule's setting is a setting of the game; every
    status chip the board draws has its rule."""
    keys = {s.key for s in SETTINGS}
    assert {r.setting for r in RULES.values() if r.setting} <= keys
    assert set(STATUS_TONE) <= set(RULES)
    assert SYSTEM.at_roll is AT_ROLL
    assert set(AT_ROLL.compare_fields) <= set(FORMS)
    assert set(FORMS) <= set(SYSTEM.battle.commands)
    assert all(r.source for r in RULES.values())
