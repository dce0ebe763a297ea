"""One rule, two forms: for every action the seeded resolver's frequencies land within 4 standard errors of the
exact odds (spec §3; DESIGN «One rule, three forms»)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.systems.thw5150 import core
from rules.systems.thw5150.actions import ACTIONS
from rules.systems.thw5150.tests.helpers import check, frac, hero_of, outcomes_of


def levels(a, i=0):
    row = next(r for r in a["members"] if r["index"] == i)
    return {int(k): frac(v) for k, v in row["level"].items()}


def level_of(i=0):
    return lambda o: next(r["level"] for r in o.result["members"] if r["index"] == i)


def test_activation_doubles_first_side_and_groups():
    sides = {"sides": [{"groups": [{"leader_rep": 4, "reps": [4, 3]}]}, {"groups": [{"reps": [5, 3]}]},
                       {"groups": [{"reps": [3]}]}]}  # fmt: skip

    def first(o):
        return "doubles" if o.result["doubles"] else o.result["order"][0]

    def build(a):
        out = {i: frac(s["p_first"]) for i, s in enumerate(a["sides"])}
        return {**out, "doubles": frac(a["p_doubles"])}

    def whole_a(o):
        return any(s["index"] == 0 and s["groups"][0]["acts"] == "all" for s in o.result["sides"])

    def build_whole(a):
        p = frac(a["sides"][0]["groups"][0]["p_whole_group_acts"])
        return {True: p, False: 1 - p}

    answer = check("activation", sides, {"first": (first, build), "whole": (whole_a, build_whole)})
    assert frac(answer["p_doubles"]) == Fraction(4, 9)  # three sides: 1 − 6·5·4/216


@pytest.mark.parametrize("leader_dice", ["shared_extra_die", "own_three_dice"])
def test_group_test_with_leader_die_and_three_dice(leader_dice):
    inputs = {"table": "wanting_to_charge", "members": [{"rep": 4, "leader": True}, {"rep": 3}, {"rep": 5}]}
    events = {f"m{i}": (level_of(i), lambda a, i=i: levels(a, i)) for i in range(3)}
    events["hero1"] = hero_of(1)
    check("group_reaction_test", inputs, events, leader_dice=leader_dice)


def test_in_sight_with_covering_fire():
    inputs = {"members": [{"rep": 3, "covering_fire": True, "in_cover": True}, {"rep": 4}]}
    check("in_sight", inputs, {"a": outcomes_of(0), "b": outcomes_of(1)})


def test_received_fire_outgunned_flank_and_hero():
    inputs = {
        "shooter_outgun": 4,
        "members": [
            {"rep": 4, "leader": True, "in_cover": True, "weapons": [{"weapon": "assault_rifle"}]},
            {"rep": 3, "flank_or_rear": True, "moving": "normal"},
            {"rep": 5, "in_cover": True, "flank_or_rear": True, "weapons": [{"weapon": "machine_gun"}]},
        ],
    }
    events = {f"m{i}": outcomes_of(i) for i in range(3)}
    events["hero"] = hero_of(1)
    check("received_fire", inputs, events)


def test_received_fire_hero_choice_made_by_double_ones():
    inputs = {"members": [{"rep": 2, "hero_choice": 2}]}
    answer = check("received_fire", inputs, {"m": outcomes_of(0), "hero": hero_of(0)})
    # Double 1s (1/36) make a Hero who picks pass 2: fire; otherwise Rep 2 reads its dice.
    assert levels(answer)[2] == Fraction(1, 9)  # P(both ≤ 2) = 1/9, which already holds the double 1s


def test_wanting_to_charge_and_being_charged():
    wtc = {"members": [{"rep": 5, "leader": True, "tests": False}, {"rep": 3, "in_cover": True}, {"rep": 4}]}
    check("wanting_to_charge", wtc, {"a": outcomes_of(1), "b": outcomes_of(2)})
    bc = {"members": [{"rep": 4, "in_cover": True, "flank_or_rear": True}, {"rep": 4, "flank_or_rear": True}]}
    check("being_charged", bc, {"a": outcomes_of(0), "b": outcomes_of(1)})


def test_rally_and_fast_move():
    rally = {"members": [{"rep": 4, "condition": "runaway", "in_cover": True}, {"rep": 3, "condition": "runaway"}]}
    check("rally", rally, {"a": outcomes_of(0), "b": outcomes_of(1)})
    fast = {"members": [{"rep": 5, "leader": True}, {"rep": 4}, {"rep": 3, "sees_leader": False}]}
    check("fast_move", fast, {f"m{i}": outcomes_of(i) for i in range(3)})


@pytest.mark.parametrize(
    "figure",
    [
        {"rep": 4, "state": "knocked_down"},
        {"rep": 3, "state": "duck_back", "leader": True},
        {"rep": 2, "state": "duck_back", "hero_choice": 2},
        {"rep": 4, "state": "duck_back", "hero": True, "hero_choice": 1},
    ],
)
def test_recovery(figure):
    def extract(o):
        return o.result["outcome"]

    def build(a):
        return {k: frac(v) for k, v in a["outcomes"].items()}

    def hero(o):
        return o.result["became_hero"]

    def build_hero(a):
        p = frac(a["p_becomes_hero"])
        return {True: p, False: 1 - p}

    check("recovery", {"figure": figure}, {"outcome": (extract, build), "hero": (hero, build_hero)})


def test_stay_or_run():
    inputs = {"members": [{"rep": 5, "leader": True}, {"rep": 3}, {"rep": 4}], "initial_count": 9, "casualties": 4,
              "motivation": "conquest"}  # fmt: skip
    check("stay_or_run", inputs, {f"m{i}": outcomes_of(i) for i in range(3)})


SHOT = {
    "shooter": {"rep": 3, "weapon": "assault_rifle"},
    "targets": [{"dice": 2, "armour": "absorbing", "in_cover": True}, {"dice": 1, "armour": "exo"}],
}


@pytest.mark.parametrize("every_hit", [True, False])
def test_shooting_status_hits_and_ammo(every_hit):
    def status(i):
        return lambda o: o.result["targets"][i]["result"]

    def build_status(i):
        def build(a):
            t = a["targets"][i]
            return {s: frac(t[f"p_{s}"]) for s in core.DAMAGE_ORDER}

        return build

    def hits(i):
        return lambda o: o.result["targets"][i]["hits"]

    def build_hits(i):
        return lambda a: {d["value"]: Fraction(d["exact"]) for d in a["targets"][i]["hits"]}

    def ammo(o):
        return o.result["out_of_ammo"]

    def build_ammo(a):
        p = frac(a["p_out_of_ammo"])
        return {True: p, False: 1 - p}

    events = {"ammo": (ammo, build_ammo)}
    for i in range(2):
        events[f"status{i}"] = (status(i), build_status(i))
        events[f"hits{i}"] = (hits(i), build_hits(i))
    check("shooting", SHOT, events, damage_every_hit=every_hit)


def test_ranged_damage_special_and_no_effect():
    def extract(o):
        return o.result["result"]

    def build(a):
        return {s: frac(a[f"p_{s}"]) for s in core.DAMAGE_ORDER}

    for inputs in ({"weapon": "pistol", "armour": "absorbing"}, {"weapon": "laser_rifle", "armour": "reflective"},
                   {"impact": "НЭ"}, {"impact": 2}):  # fmt: skip
        check("ranged_damage", inputs, {"r": (extract, build)}, n=4000)


def test_melee_one_against_two():
    inputs = {
        "fighter": {"rep": 5, "weapon": "rifle_bayonet", "armour": "light", "bonus_dice": 1},
        "opponents": [{"rep": 4, "weapon": "combat_knife"}, {"rep": 3, "prone": True, "armour": "heavy"}],
    }

    def pair(i):
        return lambda o: o.result["pairs"][i]["result"], lambda a: {
            k: frac(v) for k, v in a["pairs"][i]["result"].items()
        }

    def opp(i):
        return (
            lambda o: o.result["pairs"][i]["opponent_status"],
            lambda a: {k: frac(v) for k, v in a["pairs"][i]["opponent_status"].items()},
        )

    fighter = (lambda o: o.result["fighter_status"], lambda a: {k: frac(v) for k, v in a["fighter_status"].items()})
    check("melee", inputs, {"p0": pair(0), "p1": pair(1), "o0": opp(0), "o1": opp(1), "f": fighter})


def _figure_status(group: str, i: int):
    key = "at_feet" if group == "around_thrower" else group  # the resolver's name for «Взрыв под ногами!»

    def extract(o):
        rows = o.result.get(key) or []
        row = next((r for r in rows if r["name"] == f"{group}{i}"), None)
        return row["result"] if row else core.NO_DAMAGE

    def build(a):
        row = next(r for r in a[group] if r["name"] == f"{group}{i}")
        return {k[2:]: frac(v) for k, v in row.items() if k.startswith("p_")}

    return extract, build


def test_grenade_throw_miss_tables():
    inputs = {
        "thrower": {"rep": 3, "name": "around_thrower0"},
        "blast": [{"name": "blast0", "in_cover": True}, {"name": "blast1", "armour": "heavy"}],
        "intermediate": [{"name": "intermediate0", "prone": True}],
        "around_thrower": [{"name": "around_thrower0", "rep": 3}, {"name": "around_thrower1", "rep": 5}],
    }
    events = {f"{g}{i}": _figure_status(g, i) for g, n in (("blast", 2), ("intermediate", 1), ("around_thrower", 2))
              for i in range(n)}  # fmt: skip
    check("grenade", inputs, events)


def test_bombs_away():
    inputs = {"thrower": {"rep": 4}, "blast": [{"name": "blast0"}, {"name": "blast1", "prone": True}],
              "around_thrower": [{"name": "around_thrower0", "rep": 4}]}  # fmt: skip
    check("bombs_away", inputs, {f"blast{i}": _figure_status("blast", i) for i in range(2)}
          | {"feet": _figure_status("around_thrower", 0)})  # fmt: skip


@pytest.mark.parametrize(
    ("action", "inputs", "overrides", "extract", "build"),
    [
        ("wound_recovery", {"figure": {"rep": 4}, "medical_care": True}, {}, lambda o: o.result["outcome"],
         lambda a: {k: frac(v) for k, v in a["outcomes"].items()}),
        ("contact", {"rating": 3}, {}, lambda o: o.result["outcome"],
         lambda a: {k: frac(v) for k, v in a["outcomes"].items()}),
        ("awareness", {"contacted_leader_rep": 4, "modifiers": ["safe_area"]}, {}, lambda o: o.result["outcome"],
         lambda a: {k: frac(v) for k, v in a["outcomes"].items()}),
        ("river", {}, {}, lambda o: o.result["outcome"], lambda a: {k: frac(v) for k, v in a.items()}),
        ("zone_collapse", {}, {}, lambda o: o.result["outcome"], lambda a: {k: frac(v) for k, v in a.items()}),
        ("runaway_move", {"figure": {"rep": 4}}, {"runaway_speed": "fast_move"}, lambda o: o.result["inches"],
         lambda a: {d["value"]: Fraction(d["exact"]) for d in a["inches"]}),
        ("random_normal", {"leader": True}, {"law_level": "low"}, lambda o: o.result["weapon"],
         lambda a: {k: frac(v) for k, v in a["weapon"].items()}),
        ("random_normal", {}, {}, lambda o: o.result["armour"],
         lambda a: {k: frac(v) for k, v in a["armour"].items()}),
        ("random_normal", {}, {}, lambda o: str(o.result["rep"]),
         lambda a: {k: frac(v) for k, v in a["rep"].items()}),
    ],
)  # fmt: skip
def test_single_figure_tables(action, inputs, overrides, extract, build):
    check(action, inputs, {"x": (extract, build)}, **overrides)


def test_actions_without_dice_agree_with_their_odds():
    outgun = {"fired_with": ["machine_gun", "pistol"], "own_weapons": [{"weapon": "smg"}]}
    check("outgun", outgun, {"o": (lambda o: o.result["outgunned"], lambda a: {True: frac(a["p_outgunned"]),
                                                                               False: 1 - frac(a["p_outgunned"])})},
          n=50)  # fmt: skip
    victory = {"sides": [{"figures": [{"cost": 100}]}, {"figures": [{"cost": 80, "condition": "dead"}]}]}
    check("victory", victory, {"w": (lambda o: o.result["winner"] is not None,
                                     lambda a: {True: frac(a["p_decided"]), False: 1 - frac(a["p_decided"])})},
          n=50)  # fmt: skip


def test_every_action_is_covered_here():
    covered = {
        "activation", "group_reaction_test", "in_sight", "received_fire", "wanting_to_charge", "being_charged",
        "rally", "fast_move", "recovery", "stay_or_run", "shooting", "ranged_damage", "melee", "grenade",
        "bombs_away", "wound_recovery", "contact", "awareness", "river", "zone_collapse", "runaway_move",
        "random_normal", "outgun", "victory",
    }  # fmt: skip
    assert covered == set(ACTIONS)
