"""One rule, two forms: every action's resolver, over many seeded rolls, lands within 4 standard errors of its exact
odds; procedures without dice answer the same ruling from resolve() and odds()."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from rules.dice import SeededDice
from rules.systems.zvezdny_desant.system import SYSTEM
from rules.systems.zvezdny_desant.tests.support import assert_matches, boolean, dist, frac, odds, run, sample, settings

N = 4000


def test_first_player_roll():
    counts = sample("first_player", {}, {"winner": lambda o: o.result["winner"]}, N, seed=1)
    answer = odds("first_player", {})
    assert_matches("first", {0: frac(answer["p_first"]["Игрок 1"]), 1: frac(answer["p_first"]["Игрок 2"])},
                   counts["winner"], N)  # fmt: skip
    kept = sample("first_player", {"previous": 0}, {"w": lambda o: o.result["winner"]}, N, seed=2,
                  rolloff_ties="keep_previous")  # fmt: skip
    p = frac(odds("first_player", {"previous": 0}, rolloff_ties="keep_previous")["p_first"]["Игрок 1"])
    assert_matches("kept", {0: p, 1: 1 - p}, kept["w"], N)


def test_deployment_roll():
    inputs = {"units": [3, 2]}
    counts = sample("deployment", inputs, {"w": lambda o: o.result["winner"],
                                           "rerolled": lambda o: len(o.result["rounds"]) > 1}, N, seed=3)  # fmt: skip
    answer = odds("deployment", inputs)
    assert_matches("chooser", {0: Fraction(1, 2), 1: Fraction(1, 2)}, counts["w"], N)
    assert_matches("tie", boolean(answer["p_tie_on_first_roll"]), counts["rerolled"], N)


@pytest.mark.parametrize(
    "inputs",
    [
        {"shooter_order": "defence", "dice": 6},
        {"shooter_order": "attack", "target_order": "defence", "cover": "heavy", "dice": 4},
        {"shooter_order": "defence", "target_order": "attack", "target_kind": "vehicle", "dice": 3},
    ],
)
def test_hit_test(inputs):
    counts = sample("hit_test", inputs, {"hits": lambda o: o.result["hits"]}, N, seed=4)
    assert_matches("hits", dist(odds("hit_test", inputs)["hits"]), counts["hits"], N)


def test_wound_test():
    inputs = {"hits": 5, "hrk": "A8 В12 С16", "armour": "С", "msch": 2}
    counts = sample("wound_test", inputs, {"wounds": lambda o: o.result["wounds"]}, N, seed=5)
    assert_matches("wounds", dist(odds("wound_test", inputs)["wounds"]), counts["wounds"], N)


SHOOTING = {
    "shooter": {"order": "attack", "groups": [
        {"count": 4, "weapon": {"name": "Автомат", "dln": 30, "skr": 2, "hrk": "A8 В12"}},
        {"count": 1, "weapon": {"name": "Пулемет", "dln": 40, "skr": 3, "msch": 2, "hrk": "В10"}}]},
    "target": {"order": "move", "armour": "В", "stk": 2, "markers": 1, "groups": [
        {"count": 3, "cover": "light", "distance": 25}, {"count": 2, "distance": 35}, {"count": 1, "seen_by": []}]},
}  # fmt: skip


def test_shooting_hits_wounds_and_casualties():
    extract = {
        "hits": lambda o: o.result["hits"],
        "wounds": lambda o: o.result["wounds"],
        "removed": lambda o: o.result["removed"],
        "markers": lambda o: o.result["markers"],
    }
    counts = sample("shooting", SHOOTING, extract, N, seed=6)
    answer = odds("shooting", SHOOTING)
    for name in extract:
        assert_matches(name, dist(answer[name]), counts[name], N)


def test_reroll():
    inputs = {"need": 12, "rolls": [3, 15, 5], "reroll": [0, 2]}
    counts = sample("reroll", inputs, {"passes": lambda o: o.result["passes"]}, N, seed=7)
    assert_matches("passes", dist(odds("reroll", inputs)["passes"]), counts["passes"], N)


MELEE = {"units": [
    {"unit": "a", "side": 0, "figures": 4, "bsp": 9, "stk": 1, "in_contact": 3, "near": 1, "strikes_per_figure": 2,
     "targets": {"b": 3, "c": 1}},
    {"unit": "b", "side": 1, "figures": 3, "bsp": 7, "stk": 2, "markers": 1, "in_contact": 2, "targets": {"a": 2}},
    {"unit": "c", "side": 1, "figures": 2, "bsp": 12, "stk": 1, "in_contact": 1, "near": 1, "targets": {"a": 2}}]}  # fmt: skip


@pytest.mark.parametrize("rule", ["manual", "more_wounds"])
def test_multi_sided_melee(rule):
    extract = {f"{u}_removed": (lambda o, u=u: o.result["units"][u]["removed"]) for u in "abc"}
    extract["winner"] = lambda o: o.result["winner"]
    counts = sample("melee", MELEE, extract, N, seed=8, melee_result=rule)
    answer = odds("melee", MELEE, melee_result=rule)
    for u in "abc":
        assert_matches(u, dist(answer["units"][u]["removed"]), counts[f"{u}_removed"], N)
    wins = {0: frac(answer["p_side_wins"][0]), 1: frac(answer["p_side_wins"][1]), None: frac(answer["p_no_winner"])}
    assert_matches("winner", wins, counts["winner"], N)


DETERMINISTIC = {
    "order_cards": {"units": [{"unit": "a", "order": "attack", "initiative": 6}, {"unit": "b", "order": "move",
                                                                                  "initiative": 4}]},
    "activation_order": {"first_player": 1, "units": [{"unit": "a", "side": 0, "initiative": 4},
                                                      {"unit": "b", "side": 1, "initiative": 4}]},
    "movement": {"pdv": 7, "order": "attack", "terrain": [{"grade": "light"}]},
    "sight": {"between": [{"kind": "terrain", "size": "medium"}]},
    "cover": {"figures": [{"count": 2, "cover": "light"}, {"count": 1}]},
    "casualties": {"stk": 2, "wounds": 3, "groups": [{"count": 3}]},
    "assault": {"order": "move", "target": {"unit": "B"}, "figures": [{"pdv": 6, "distance": 8}]},
    "closing_in": {"first_player": 0, "units": [{"unit": "a", "side": 1, "figures": [{"pdv": 4, "distance": 6}]}]},
    "victory_points": {"units": [{"side": 0, "cost": 90, "start": 5, "alive": 0}]},
}  # fmt: skip


def test_every_action_is_checked_here():
    sampled = {"first_player", "deployment", "hit_test", "wound_test", "shooting", "reroll", "melee"}
    assert sampled | set(DETERMINISTIC) == set(SYSTEM.actions)


@pytest.mark.parametrize("key", sorted(DETERMINISTIC))
def test_procedures_without_dice_answer_the_same_ruling(key):
    resolved = run(key, DETERMINISTIC[key])
    answer = odds(key, DETERMINISTIC[key])
    assert resolved.dice == []
    assert answer["deterministic"] is True
    assert frac(answer["p"]) == 1
    assert answer["result"] == resolved.result
    assert answer["summary"] == resolved.summary


weapons = st.fixed_dictionaries(
    {"skr": st.integers(1, 3), "msch": st.integers(1, 3), "dln": st.integers(10, 40),
     "hrk": st.dictionaries(st.sampled_from("ABCDE"), st.integers(1, 22), min_size=1, max_size=3)}
)  # fmt: skip
shooters = st.lists(st.fixed_dictionaries({"count": st.integers(1, 4), "weapon": weapons}), min_size=1, max_size=2)
targets = st.lists(
    st.fixed_dictionaries({"count": st.integers(1, 4), "cover": st.sampled_from(["open", "light", "medium", "heavy"]),
                           "distance": st.integers(5, 45)}), min_size=1, max_size=2)  # fmt: skip


@hyp_settings(max_examples=40, deadline=None)
@given(
    groups=shooters,
    target_groups=targets,
    order=st.sampled_from(["defence", "attack"]),
    armour=st.sampled_from(["А", "B", "С", "D", "Е"]),
    stk=st.integers(1, 3),
    markers=st.integers(0, 2),
    seed=st.integers(0, 1000),
)
def test_any_valid_shooting_has_exact_odds_that_cover_what_it_rolls(groups, target_groups, order, armour, stk,
                                                                     markers, seed):  # fmt: skip
    inputs = {"shooter": {"order": order, "groups": groups},
              "target": {"armour": armour, "stk": stk, "markers": markers, "groups": target_groups}}  # fmt: skip
    answer = odds("shooting", inputs)
    for name in ("hits", "wounds", "removed", "markers"):
        assert sum(dist(answer[name]).values()) == 1
    outcome = SYSTEM.action("shooting").resolve(inputs, settings(), SeededDice(seed))
    assert dist(answer["removed"]).get(outcome.result["removed"], 0) > 0
    assert dist(answer["wounds"]).get(outcome.result["wounds"], 0) > 0
    assert outcome.result["removed"] <= sum(g["count"] for g in target_groups)
