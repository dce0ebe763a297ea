"""One rule, two forms: for each action with dice, the exact odds sum to 1 and the frequencies of many seeded
resolutions lie within 4 standard errors of them (exactly where p is 0 or 1)."""

from fractions import Fraction

import pytest

from rules.systems.squads.tests.support import assert_matches, boolean, dist, frac, odds, sample

N = 12_000


def check(action, inputs, events, seed, **over):
    """events: name -> (extractor(outcome), builder(odds) -> exact distribution)."""
    answer = odds(action, inputs, **over)
    counts = sample(action, inputs, {k: fn for k, (fn, _) in events.items()}, N, seed, **over)
    for name, (_, build) in events.items():
        assert_matches(name, build(answer), counts[name], N)
    return answer


def top_alone(outcome) -> bool:
    """The first roll had one highest score (lower ties may still re-roll for the order)."""
    first = list(outcome.result["rolls"][0].values())
    return first.count(max(first)) == 1


def test_initiative_first_player_with_scenario_modifiers():
    inputs = {"players": [{"name": "Ann", "modifier": 1}, {"name": "Bob"}, {"name": "Cid", "modifier": -1}]}

    def first(o):
        return {name: frac(p) for name, p in o["p_first"].items()}

    answer = check("initiative", inputs, {"first": (lambda out: out.result["first"], first),
                                          "no_reroll": (top_alone,
                                                        lambda o: boolean(o["p_decided_first_roll"]))}, 1)  # fmt: skip
    assert frac(answer["p_first"]["Ann"]) > frac(answer["p_first"]["Bob"]) > frac(answer["p_first"]["Cid"])


@pytest.mark.parametrize(
    ("unit", "over"),
    [
        ({"level": "regular", "suppressed": 1, "figures": 6, "sees_enemy": False}, {}),
        ({"level": "recruit", "out_of_coherency": 1, "figures": 6}, {"natural_one_six": True}),
        ({"kind": "vehicle", "level": "veteran", "crew_stunned": 1}, {}),
    ],
)
def test_activation(unit, over):
    check(
        "activation",
        {"unit": unit},
        {"success": (lambda out: out.result["success"], lambda o: boolean(o["p_success"]))},
        2,
        **over,
    )


SHOT_EVENTS = {
    "hits": (lambda out: out.result["hits"], lambda o: dist(o["hits"])),
    "unsaved": (lambda out: out.result["unsaved"], lambda o: dist(o["unsaved"])),
}


@pytest.mark.parametrize(
    ("inputs", "over"),
    [
        pytest.param(
            {"shooter": {"level": "veteran", "action": "aimed_fire",
                         "groups": [{"weapon": "assault_rifle", "count": 4, "distance": 10},
                                    {"weapon": "lmg", "count": 1, "distance": 10}]},
             "target": {"groups": [{"count": 2, "armour": "heavy", "cover": "medium"},
                                   {"count": 4, "armour": "light", "cover": "medium"}]}},
            {},
            id="aimed-veterans-into-mixed-armour-in-cover",
        ),
        pytest.param(
            {"shooter": {"level": "recruit", "action": "on_guard",
                         "groups": [{"weapon": "flamethrower", "count": 1, "distance": 6},
                                    {"weapon": "smg", "count": 3, "distance": 6, "suppressed": 1}]},
             "target": {"stance": "go_to_ground", "groups": [{"count": 5, "armour": "medium", "cover": "light",
                                                              "behind_vehicle": "light"}]},
             "reaction": {"enemy_action": "declared"}},
            {"aimed_cap_order": "aim_then_cap"},
            id="reaction-with-a-flamer-at-troops-behind-a-vehicle",
        ),
    ],
)  # fmt: skip
def test_shooting_at_a_unit(inputs, over):
    check("shooting", inputs, SHOT_EVENTS, 3, **over)


def _effect_seen(kind):
    return lambda out: any(d["effect"] == kind for d in out.result["damage"])


@pytest.mark.parametrize("facing", ["front", "side", "rear"])
def test_shooting_at_a_vehicle(facing):
    inputs = {
        "shooter": {
            "kind": "vehicle",
            "level": "veteran",
            "groups": [{"weapon": "heavy_cannon", "count": 1, "distance": 30}],
        },
        "target": {"kind": "vehicle", "armour": "medium", "facing": facing},
    }
    events = {**SHOT_EVENTS}
    for kind in ("crew_stunned", "weapon_destroyed", "immobilised", "destroyed"):
        events[kind] = (_effect_seen(kind), lambda o, k=kind: boolean(o["p_effect"][k]))
    check("shooting", inputs, events, 4)


def test_vehicle_hit_with_doubles_kept():
    inputs = {"vehicle": {"armour": "unarmoured", "facing": "rear"}, "hits": 2, "weapon": "rifle"}
    events = {"unsaved": (lambda out: out.result["unsaved"], lambda o: dist(o["unsaved"]))}
    for kind in ("crew_stunned", "weapon_destroyed", "immobilised", "destroyed"):
        events[kind] = (_effect_seen(kind), lambda o, k=kind: boolean(o["p_effect"][k]))
    check("vehicle_hit", inputs, events, 5, facing_doubles="keep")


def test_armour_saves():
    inputs = {"hits": 7, "target": {"groups": [{"count": 2, "armour": "power"}, {"count": 3, "armour": "light"}]}}
    check("armour_saves", inputs, {"unsaved": (lambda out: out.result["unsaved"], lambda o: dist(o["unsaved"]))}, 6)


@pytest.mark.parametrize(
    ("inputs", "over"),
    [
        ({"attacker": {"level": "regular", "figures": 5, "suppressed": 2, "armour": "light"},
          "defender": {"level": "veteran", "figures": 3, "suppressed": 1, "armour": "medium"}}, {}),
        ({"round": 3, "attacker": {"level": "elite", "figures": 4, "in_reach": 2, "suppressed": 1},
          "defender": {"level": "recruit", "figures": 2, "suppressed": 2, "armour": "power"}},
         {"melee_round_clears_suppression": False}),
    ],
)  # fmt: skip
def test_melee(inputs, over):
    events = {
        "attacker": (lambda out: out.result["casualties"]["attacker"], lambda o: dist(o["attacker_casualties"])),
        "defender": (lambda out: out.result["casualties"]["defender"], lambda o: dist(o["defender_casualties"])),
        "over": (lambda out: out.result["over"], lambda o: boolean(o["p_melee_over"])),
    }
    check("melee", inputs, events, 7, **over)


def test_withdrawal():
    inputs = {"withdrawing": {"level": "regular", "suppressed": 1, "figures": 4}, "pursuer": {"level": "veteran"}}

    def outcome(o):
        return {"failed": frac(o["p_failed"]), "escaped": frac(o["p_escaped"]), "caught": frac(o["p_caught"])}

    events = {
        "outcome": (lambda out: out.result["outcome"], outcome),
        "move": (lambda out: out.result.get("distance"), lambda o: {None: frac(o["p_failed"]),
                                                                    **{k: v * (1 - frac(o["p_failed"])) for k, v in dist(o["move"]).items()}}),
    }  # fmt: skip
    check("withdrawal", inputs, events, 8, units="cm")


def test_overrun():
    inputs = {"unit": {"level": "recruit", "sees_enemy": False}, "armour": "medium"}
    events = {
        "dodged": (lambda out: out.result["dodged"], lambda o: boolean(o["p_dodged"])),
        "unsaved": (lambda out: out.result["unsaved"] == 1, lambda o: boolean(o["p_unsaved_hit"])),
    }
    check("overrun", inputs, events, 9)


def test_distributions_sum_to_one_for_a_big_melee():
    answer = odds("melee", {"attacker": {"level": "elite", "figures": 30, "suppressed": 10},
                            "defender": {"level": "recruit", "figures": 30, "suppressed": 10}})  # fmt: skip
    assert sum(dist(answer["attacker_casualties"]).values()) == 1
    assert sum(dist(answer["defender_casualties"]).values()) == Fraction(1)
