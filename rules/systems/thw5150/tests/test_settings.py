"""Every setting changes behaviour: for each one, the default and an alternative give different answers to the same
question (spec §5; errata). Settings with a single reading are recorded, and every A1–A42 has a named setting."""

from __future__ import annotations

import re

import pytest

from rules.errors import RuleInputError
from rules.systems.thw5150.settings import INTERPRETATION, SETTINGS
from rules.systems.thw5150.tests.helpers import odds, resolve

KNIFE_VS = {"fighter": {"rep": 4, "weapon": "combat_knife"}, "opponents": [{"rep": 4, "armour": "distortion"}]}


def _try(fn):
    try:
        return fn()
    except RuleInputError as exc:
        return ("refused", sorted(exc.errors))


def members_odds(action, inputs, i=0, key="outcomes"):
    return lambda **s: odds(action, inputs, **s)["members"][i][key]


def victory(sides, turn=None):
    inputs = {"sides": sides, **({"turn": turn} if turn is not None else {})}
    return lambda **s: resolve("victory", inputs, **s).result["winner"]


TWO_SIDES = [{"figures": [{"cost": 100}, {"cost": 60, "condition": "knocked_down"}]}, {"figures": [{"cost": 120}]}]
SHOT_TWICE = {"shooter": {"rep": 5, "weapon": "semi_auto_rifle"}, "targets": [{"dice": 2}]}
OPEN_OUTGUNNED = {"members": [{"rep": 4, "outgunned": True}]}

# (setting, alternative value, question asked under {setting: value})
CASES = [
    ("victory", "points", victory(TWO_SIDES)),
    ("turn_limit", 5, lambda **s: resolve("victory", {"sides": TWO_SIDES, "turn": 5}, **s).result["over"]),
    ("hidden_deployment", True, lambda **s: _try(lambda: odds("in_sight", {"members": [{"rep": 4, "hidden": True}]},
                                                                **s))),
    ("law_level", "low", lambda **s: odds("random_normal", {}, **s)["weapon"]),
    ("stars", False, members_odds("received_fire", {"members": [{"rep": 2, "star": True, "hero_choice": 2}]})),
    ("damage_every_hit", False, lambda **s: odds("shooting", SHOT_TWICE, **s)["targets"][0]["p_dead"]),
    ("outgunned_stationary_in_open", "fire", members_odds("received_fire", OPEN_OUTGUNNED)),
    ("group_test_readers", "whole_group",
     lambda **s: len(odds("received_fire", {"members": [{"rep": 4}, {"rep": 5, "tests": False}]}, **s)["members"])),
    ("leader_dice", "own_three_dice",
     lambda **s: len(resolve("received_fire", {"members": [{"rep": 4, "leader": True}, {"rep": 3}]}, **s).dice)),
    ("leader_die_on_leader", True,
     members_odds("wanting_to_charge", {"members": [{"rep": 4, "leader": True}]}, key="level")),
    ("hero_from_shared_roll", "off", members_odds("received_fire", {"members": [{"rep": 4}]}, key="p_becomes_hero")),
    ("hero_tests", "reaction_tests", members_odds("fast_move", {"members": [{"rep": 4}]}, key="p_becomes_hero")),
    ("hero_choice", "any_test",
     members_odds("stay_or_run", {"members": [{"rep": 3, "hero": True, "hero_choice": 2}], "initial_count": 6,
                                  "casualties": 1, "motivation": "profit"})),
    ("activation_rep", "highest",
     lambda **s: odds("activation", {"sides": [{"groups": [{"leader_rep": 3, "reps": [5, 3]}]},
                                               {"groups": [{"reps": [4]}]}]}, **s)["sides"][0]["groups"][0]),
    ("melee_armour_columns", "as_printed", lambda **s: odds("melee", KNIFE_VS, **s)["pairs"][0]),
    ("weapon_table_dice", "3d6", lambda **s: odds("random_normal", {}, **s)["weapon"]),
    ("lucky_shot_rep", "effective",
     lambda **s: odds("shooting", {"shooter": {"rep": 3, "rep_modifier": -1, "weapon": "rifle"},
                                   "targets": [{"dice": 1, "in_cover": True}]}, **s)["targets"][0]["p_no_damage"]),
    ("lucky_shot_rep", "base",
     lambda **s: odds("shooting", {"shooter": {"rep": 4, "rep_modifier": -1, "weapon": "rifle"},
                                   "targets": [{"dice": 1, "in_cover": True}]}, **s)["targets"][0]["p_no_damage"]),
    ("grenade_miss_dice", "1d6",
     lambda **s: odds("grenade", {"thrower": {"rep": 4}, "blast": [{}]}, **s)["where_is_the_grenade"]),
    ("grenade_template", "diameter_5",
     lambda **s: odds("grenade", {"thrower": {"rep": 4}, "blast": [{"distance": 4}]}, **s)["blast"]),
    ("grenade_later_targets", True,
     lambda **s: odds("grenade", {"thrower": {"rep": 4}, "blast": [{}, {}]}, **s)["blast"][1]),
    ("grenade_miss_received_fire", False,
     lambda **s: [e["kind"] for e in resolve("grenade", {"thrower": {"rep": 4}, "blast": [{"in_cover": True}],
                                                         "launcher": True}, dice=[4], **s).effects]),
    ("grenade_preparation", True, lambda **s: _try(lambda: odds("grenade", {"thrower": {"rep": 4}, "blast": []}, **s))),
    ("no_cover_within_reach", "duck_back_in_place",
     members_odds("received_fire", {"members": [{"rep": 4, "outgunned": True, "moving": "fast",
                                                 "cover_within_3": False}]})),
    ("received_fire_order", "flank_first",
     members_odds("received_fire", {"members": [{"rep": 4, "outgunned": True, "flank_or_rear": True}]})),
    ("own_outgun_weapon", "best",
     members_odds("received_fire", {"shooter_outgun": 3, "members": [
         {"rep": 4, "in_cover": True, "weapons": [{"weapon": "machine_gun", "loaded": False}]}]})),
    ("hunker_down_recovery", "never",
     lambda **s: _try(lambda: odds("rally", {"members": [{"rep": 4, "condition": "hunker_down"}]}, **s))),
    ("runaway_speed", "fast_move", lambda **s: odds("runaway_move", {"figure": {"rep": 4}}, **s)["inches"]),
    ("charger_received_fire", False,
     lambda **s: resolve("being_charged", {"members": [{"rep": 4}]}, **s).result["charger_takes_received_fire_if_missed"]),
    ("flanked_pass2_fires", False, members_odds("being_charged", {"members": [{"rep": 4, "flank_or_rear": True}]})),
    ("melee_impact_basis", "no_armour",
     lambda **s: odds("melee", {"fighter": {"rep": 4, "weapon": "rifle_bayonet"},
                                "opponents": [{"rep": 4, "armour": "heavy"}]}, **s)["pairs"][0]["fighter_rep"]),
    ("melee_pass_cap", "none",
     lambda **s: odds("melee", {"fighter": {"rep": 6, "bonus_dice": 1}, "opponents": [{"rep": 4}]},
                      **s)["pairs"][0]["result"]),
    ("melee_hand_of_fate", True,
     lambda **s: odds("melee", {"fighter": {"rep": 5}, "opponents": [{"rep": 3, "armour": "exo"}]},
                      **s)["pairs"][0]["opponent_status"]),
    ("knocked_down_is_prone", False,
     lambda **s: odds("shooting", {"shooter": {"rep": 4, "weapon": "rifle"},
                                   "targets": [{"dice": 1, "condition": "knocked_down"}]}, **s)["targets"][0]),
    ("stay_or_run_rounding", "half_even",
     lambda **s: odds("stay_or_run", {"members": [{"rep": 4}], "initial_count": 15, "casualties": 3,
                                      "motivation": "conquest"}, **s)["threshold"]),
    ("stay_or_run_per_threshold", "once",
     lambda **s: odds("stay_or_run", {"members": [{"rep": 4}], "initial_count": 12, "casualties": 4,
                                      "motivation": "conquest"}, **s)["tests_due"]),
    ("two_gun_rof", "best_plus_one",
     lambda **s: _try(lambda: odds("shooting", {"shooter": {"rep": 4, "weapon": "pistol", "second_weapon": "pistol"},
                                                "targets": [{"dice": 4}]}, **s)["dice"])),
    ("awareness_leader", "contacting_group",
     lambda **s: odds("awareness", {"contacted_leader_rep": 5, "contacting_leader_rep": 3}, **s)["target"]),
    ("melee_continues", "next_turn",
     lambda **s: resolve("melee", {"fighter": {"rep": 4}, "opponents": [{"rep": 4}]}, dice=[2, 2, 3, 3],
                         **s).result["continues"]),
    ("victory_points_count", "fine_only",
     lambda **s: resolve("victory", {"sides": TWO_SIDES}, victory="points", **s).result["points"]),
    ("laser_upgrade", "off", lambda **s: odds("random_normal", {}, **s)["weapon"]),
    ("mg_vs_exo", "no_effect", lambda **s: odds("ranged_damage", {"weapon": "machine_gun", "armour": "exo"}, **s)),
    ("being_charged_order", "flank_first",
     members_odds("being_charged", {"members": [{"rep": 4, "in_cover": True, "flank_or_rear": True}]})),
    ("out_of_ammo_volley", "stops",
     lambda **s: odds("shooting", {"shooter": {"rep": 7, "weapon": "smg"}, "targets": [{"dice": 3}]},
                      **s)["targets"][0]["p_no_damage"]),
]  # fmt: skip


@pytest.mark.parametrize(("key", "alternative", "question"), CASES, ids=[f"{c[0]}={c[1]}" for c in CASES])
def test_setting_changes_behaviour(key, alternative, question):
    default = next(s.default for s in SETTINGS if s.key == key)
    assert alternative != default
    assert question(**{key: default}) != question(**{key: alternative})


def test_every_setting_with_a_choice_is_exercised():
    # covering_fire_ends lives in the battle tracker: tests/test_battle.py shows it.
    exercised = {c[0] for c in CASES} | {"covering_fire_ends"}
    choosable = {s.key for s in SETTINGS if s.category != INTERPRETATION}
    assert choosable == exercised


def test_interpretations_have_one_reading_and_every_ambiguity_has_a_setting():
    for s in SETTINGS:
        assert s.source, s.key
        if s.category == INTERPRETATION:
            assert s.choices == (s.default,), s.key
    numbers = {int(n) for s in SETTINGS for n in re.findall(r"A(\d+)", s.source)}
    assert numbers == set(range(1, 43))
    keys = [s.key for s in SETTINGS]
    assert len(keys) == len(set(keys))
