"""What the board's forms headline (issue #31), exact: a volley's hits, its worst damage and a casualty among its
targets; a melee's worst damage to the opponents and how many of them fall; a grenade's worst damage under the
template; a recovery's return; who acts first after the activation dice. Each sums to 1, gives back the older
per-target fields exactly where there is one target, and is what the resolver does (sampled within 4 standard
errors where several targets go together)."""

from __future__ import annotations

from fractions import Fraction

from django.utils import translation

from rules.contract.testing import dist
from rules.systems.thw5150 import core
from rules.systems.thw5150.system import SYSTEM
from rules.systems.thw5150.tests.helpers import check, frac, odds

DAMAGE = core.DAMAGE_ORDER


def worst(results) -> str:
    return max(results, key=lambda r: core.DAMAGE_RANK[r], default=core.NO_DAMAGE)


def test_one_targets_volley_is_that_targets_odds():
    inputs = {"shooter": {"rep": 5, "weapon": "assault_rifle"}, "targets": [{"dice": 3, "armour": "light"}]}
    a = odds("shooting", inputs)
    t = a["targets"][0]
    assert {k: frac(v) for k, v in a["worst_result"].items()} == {r: frac(t[f"p_{r}"]) for r in DAMAGE}
    assert dist(a["hits"]) == dist(t["hits"])
    assert frac(a["p_casualty"]) == frac(t["p_out_of_fight"]) + frac(t["p_dead"])
    assert sum(dist(a["hits"]).values()) == 1


def test_a_volley_at_three_targets_sampled_within_four_standard_errors():
    """Three targets share one sorted roll: the worst of them and the volley's hits go together (errata §3.5)."""
    inputs = {"shooter": {"rep": 4, "weapon": "smg", "second_weapon": "smg"},
              "targets": [{"dice": 3, "in_cover": True}, {"dice": 2}, {"dice": 1, "prone": True}]}  # fmt: skip
    a = check("shooting", inputs, {
        "worst": (lambda o: worst(r["result"] for r in o.result["targets"]),
                  lambda a: {k: frac(v) for k, v in a["worst_result"].items()}),
        "hits": (lambda o: o.result["hits"], lambda a: dist(a["hits"])),
    }, n=5000, seed=31)  # fmt: skip
    assert frac(a["p_casualty"]) == frac(a["worst_result"]["out_of_fight"]) + frac(a["worst_result"]["dead"])


def test_a_dead_target_adds_no_casualty():
    inputs = {"shooter": {"rep": 5, "weapon": "rifle"}, "targets": [{"dice": 1, "condition": "dead"}]}
    a = odds("shooting", inputs)
    assert frac(a["worst_result"]["no_damage"]) == 1
    assert frac(a["p_casualty"]) == 0
    assert frac(a["targets"][0]["p_dead"]) == 1  # the older field: it stays dead


def test_a_melee_against_one_opponent_is_that_pairs_odds():
    inputs = {"fighter": {"rep": 5, "weapon": "rifle_bayonet"}, "opponents": [{"rep": 4, "armour": "light"}]}
    a = odds("melee", inputs)
    pair = a["pairs"][0]["opponent_status"]
    assert {k: frac(v) for k, v in a["opponents_worst"].items()} == {k: frac(v) for k, v in pair.items()}
    assert dist(a["opponents_casualties"]) == {
        0: frac(pair["no_damage"]) + frac(pair["knocked_down"]),
        1: frac(pair["out_of_fight"]) + frac(pair["dead"]),
    }
    assert frac(a["p_opponent_casualty"]) == dist(a["opponents_casualties"])[1]
    fighter = a["fighter_status"]
    assert frac(a["p_fighter_casualty"]) == frac(fighter["out_of_fight"]) + frac(fighter["dead"])


def test_a_melee_against_three_opponents_sampled_within_four_standard_errors():
    """One fighter's dice against each opponent's own: given his roll the opponents fall independently."""
    inputs = {"fighter": {"rep": 6, "weapon": "rifle_bayonet", "bonus_dice": 1},
              "opponents": [{"rep": 4}, {"rep": 3, "prone": True}, {"rep": 5, "armour": "light"}]}  # fmt: skip

    def down(o):
        return sum(1 for p in o.result["pairs"] if p["opponent_status"] in core.CASUALTIES)

    a = check("melee", inputs, {
        "casualties": (down, lambda a: dist(a["opponents_casualties"])),
        "worst": (lambda o: worst(p["opponent_status"] for p in o.result["pairs"]),
                  lambda a: {k: frac(v) for k, v in a["opponents_worst"].items()}),
        "resolved count": (lambda o: o.result["opponents_casualties"], lambda a: dist(a["opponents_casualties"])),
    }, n=5000, seed=17)  # fmt: skip
    assert frac(a["p_opponent_casualty"]) == 1 - dist(a["opponents_casualties"])[0]


def test_a_grenade_at_one_figure_is_that_figures_blast_odds():
    inputs = {"thrower": {"rep": 4}, "blast": [{"armour": "light", "in_cover": True}]}
    a = odds("grenade", inputs)
    blast = a["blast"][0]
    assert {k: frac(v) for k, v in a["worst_result"].items()} == {r: frac(blast[f"p_{r}"]) for r in DAMAGE}
    assert frac(a["p_casualty"]) == frac(blast["p_out_of_fight"]) + frac(blast["p_dead"])


def test_a_grenade_at_two_figures_sampled_within_four_standard_errors():
    inputs = {"thrower": {"rep": 5}, "blast": [{}, {"in_cover": True}], "intermediate": [{"rep": 3}]}

    def blast_worst(o):
        return worst(r["result"] for r in o.result["blast"])

    check("grenade", inputs, {"worst": (blast_worst, lambda a: {k: frac(v) for k, v in a["worst_result"].items()})},
          n=5000, seed=5)  # fmt: skip


def test_recovery_and_activation_headlines_are_their_tables():
    a = odds("recovery", {"figure": {"rep": 4, "state": "knocked_down", "leader": True}})
    assert frac(a["p_returns"]) == frac(a["level"]["2"]) == frac(a["outcomes"]["returns_may_act"])
    sides = [{"name": "Синие", "groups": [{"reps": [4]}]}, {"name": "Красные", "groups": [{"reps": [3]}]},
             {"name": "doubles", "groups": [{"reps": [5]}]}]  # fmt: skip
    b = odds("activation", {"sides": sides})
    first = {k: frac(v) for k, v in b["first"].items()}
    assert sum(first.values()) == 1
    assert first["doubles"] == frac(b["p_doubles"]) == Fraction(4, 9)  # any two of three dice alike
    assert first["Синие"] == frac(b["sides"][0]["p_first"])
    assert first["doubles #3"] == frac(b["sides"][2]["p_first"])  # a side named like the code keeps apart


def test_the_new_fields_are_named_in_russian():
    with translation.override("ru"):
        shooting = SYSTEM.action("shooting").describe()
        melee = SYSTEM.action("melee").describe()
    assert shooting["result_labels"]["worst_result"] == "Худший ущерб от выстрела"
    assert shooting["value_labels"]["worst_result"] == {
        "no_damage": "без ущерба",
        "knocked_down": "Оглушен",
        "out_of_fight": "Выведен из строя",
        "dead": "Убит",
    }
    assert melee["value_labels"]["fighter_status"]["dead"] == "Убит"
