"""The group's joint result (issue «The odds say everything»): every group test of «5150» answers, beside each
figure's own odds, how the whole group comes out together (`joint`: each tester's level, row and Hero; `joint_passed`:
how many figures passed by 2, 1 and 0 dice; `joint_outcomes`: how many figures on each row of the table). Exact: each
sums to 1, gives back every figure's own fields, and is what the resolver does with every typed-in roll."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.dice import SeededDice, TableDice
from rules.errors import RuleInputError
from rules.systems.thw5150.actions import ACTIONS
from rules.systems.thw5150.actions.common import GroupTestAction
from rules.systems.thw5150.actions.reactions import TABLES
from rules.systems.thw5150.tests.helpers import assert_matches, frac, settings_with

GROUP_TESTS = (
    "group_reaction_test", "in_sight", "received_fire", "wanting_to_charge", "being_charged", "rally", "fast_move",
    "stay_or_run",
)  # fmt: skip


def joint_of(answer: dict) -> dict[tuple, Fraction]:
    """{(levels, outcomes, heroes) of the testers: P} from the odds' `joint`."""
    return {(tuple(c["value"]["levels"]), tuple(c["value"]["outcomes"]), tuple(c["value"]["heroes"])): frac(c)
            for c in answer["joint"]["distribution"]}  # fmt: skip


def tally(entries: list[dict]) -> dict[tuple, Fraction]:
    return {tuple(sorted(e["value"].items())): frac(e) for e in entries}


def add(into: dict, key, p: Fraction) -> None:
    into[key] = into.get(key, Fraction(0)) + p


def assert_joint_consistent(key: str, answer: dict) -> None:
    """Each joint sums to 1 exactly, lists no impossible case, and its marginals are the older fields exactly."""
    joint = joint_of(answer)
    assert sum(joint.values()) == 1
    assert all(p > 0 for p in joint.values())
    assert len(joint) == len(answer["joint"]["distribution"])  # each case once
    tested = [r for r in answer["members"] if "level" in r]
    assert answer["joint"]["members"] == [r["index"] for r in tested]
    for pos, row in enumerate(tested):
        levels, outcomes, heroes = {}, {}, Fraction(0)
        for (lv, out, hero), p in joint.items():
            add(levels, str(lv[pos]), p)
            add(outcomes, out[pos], p)
            heroes += p if hero[pos] else 0
        assert levels == {k: frac(v) for k, v in row["level"].items() if frac(v)}, (key, row["name"])
        assert outcomes == {k: frac(v) for k, v in row["outcomes"].items()}, (key, row["name"])
        assert heroes == frac(row["p_becomes_hero"]), (key, row["name"])
    # joint_passed and joint_outcomes are the joint counted up (untested figures with their certain row)
    passed, rows = {}, {}
    fixed = Counter(next(iter(r["outcomes"])) for r in answer["members"] if "level" not in r)
    for (lv, out, _hero), p in joint.items():
        add(passed, (("passed_0", lv.count(0)), ("passed_1", lv.count(1)), ("passed_2", lv.count(2))), p)
        add(rows, tuple(sorted((Counter(out) + fixed).items())), p)
    assert tally(answer["joint_passed"]) == passed
    assert tally(answer["joint_outcomes"]) == rows
    assert sum(frac(e) for e in answer["joint_passed"]) == 1 == sum(frac(e) for e in answer["joint_outcomes"])
    # every row the joint names has its words on the odds page (result_labels of the action)
    codes = {c for e in answer["joint_outcomes"] for c in e["value"]}
    assert codes <= set(ACTIONS[key].outcome_codes), (key, codes - set(ACTIONS[key].outcome_codes))


def resolved_case(outcome, testers: list[int]) -> tuple:
    rows = {r["index"]: r for r in outcome.result["members"] if "level" in r}
    assert sorted(rows) == sorted(testers)
    return (tuple(rows[i]["level"] for i in testers), tuple(rows[i]["outcome"] for i in testers),
            tuple(rows[i]["became_hero"] for i in testers))  # fmt: skip


def dice_used(act, clean: dict, conf: dict) -> int:
    """How many dice the test rolls: the same for every roll (the group's, the Leader's own, the Leader Die)."""
    dice = SeededDice(1)
    act.resolve_clean(clean, conf, dice)
    return len(dice.rolls)


# Cases by hand and from the book ---------------------------------------------------------------------------
def test_two_figures_reading_one_roll_go_together():
    """Rep 4 and Rep 3 read the same 2d6: a die of 1–3 passes both, a 4 only the Rep 4, a 5–6 neither (L557–566).
    Their joint is not the product of their own odds, and double 1s make both Heroes at once."""
    inputs = {"table": "received_fire", "members": [{"rep": 4}, {"rep": 3}]}
    answer = ACTIONS["group_reaction_test"].odds(inputs, settings_with())
    levels = {}
    for (lv, _out, _hero), p in joint_of(answer).items():
        add(levels, lv, p)
    assert levels == {(2, 2): Fraction(9, 36), (2, 1): Fraction(6, 36), (2, 0): Fraction(1, 36),
                      (1, 1): Fraction(12, 36), (1, 0): Fraction(4, 36), (0, 0): Fraction(4, 36)}  # fmt: skip
    assert frac(answer["members"][0]["level"]["2"]) * frac(answer["members"][1]["level"]["2"]) != levels[2, 2]
    heroes = {}
    for (_lv, _out, hero), p in joint_of(answer).items():
        add(heroes, hero, p)
    assert heroes == {(True, True): Fraction(1, 36), (False, False): Fraction(35, 36)}
    assert tally(answer["joint_passed"])[("passed_0", 0), ("passed_1", 0), ("passed_2", 2)] == Fraction(1, 4)
    assert_joint_consistent("group_reaction_test", answer)


def test_the_leader_die_raises_the_whole_group_together():
    """The book's Leader Die (L273–282): Leader Rep 4 (he does not test), 1d6 ≤ 4 adds a pass to every other
    tester. Rep 4 and Rep 3 charging in the open: by hand, 1/3 × the plain joint + 2/3 × the joint raised by one."""
    inputs = {"members": [{"rep": 4, "leader": True, "tests": False}, {"rep": 4}, {"rep": 3}]}
    answer = ACTIONS["wanting_to_charge"].odds(inputs, settings_with())
    levels = {}
    for (lv, _out, _hero), p in joint_of(answer).items():
        add(levels, lv, p)
    assert levels == {(2, 2): Fraction(7, 12), (2, 1): Fraction(4, 27), (2, 0): Fraction(1, 108),
                      (1, 1): Fraction(5, 27), (1, 0): Fraction(1, 27), (0, 0): Fraction(1, 27)}  # fmt: skip
    assert tally(answer["joint_outcomes"]) == {(("charge", 2),): Fraction(11, 12),
                                               (("charge", 1), ("stay", 1)): Fraction(5, 108),
                                               (("stay", 2),): Fraction(1, 27)}  # fmt: skip
    assert answer["joint_passed"][0] == {"value": {"passed_2": 2, "passed_1": 0, "passed_0": 0}, "exact": "7/12",
                                         "p": 7 / 12}  # fmt: skip
    assert_joint_consistent("wanting_to_charge", answer)


def test_hunkered_figures_fired_on_run_away_in_the_joint_untested():
    """A hunkered-down figure fired on runs away without a test (L998): counted in joint_outcomes for sure, never a
    tester; when every figure fired on was hunkered down, nobody tests and the joint is certain."""
    act = ACTIONS["received_fire"]
    mixed = {"members": [{"rep": 4, "condition": "hunker_down"}, {"rep": 5, "in_cover": True}]}
    for readers in ("triggered", "whole_group"):
        answer = act.odds(mixed, settings_with(group_test_readers=readers))
        assert answer["joint"]["members"] == [1]
        assert all(e["value"].get("runaway", 0) >= 1 for e in answer["joint_outcomes"])
        assert_joint_consistent("received_fire", answer)
        case = resolved_case(act.resolve(mixed, settings_with(group_test_readers=readers), TableDice([3, 3])), [1])
        assert joint_of(answer)[case] > 0
    alone = act.odds({"members": [{"rep": 4, "condition": "hunker_down"}]}, settings_with())
    assert alone["joint"] == {"members": [], "distribution": [{"value": {"levels": [], "outcomes": [], "heroes": []},
                                                               "exact": "1/1", "p": 1.0}]}  # fmt: skip
    assert alone["joint_outcomes"] == [{"value": {"runaway": 1}, "exact": "1/1", "p": 1.0}]
    assert alone["joint_passed"] == [{"value": {"passed_2": 0, "passed_1": 0, "passed_0": 0}, "exact": "1/1",
                                      "p": 1.0}]  # fmt: skip
    assert_joint_consistent("received_fire", alone)


# The resolver with every roll typed in gives exactly the joint -------------------------------------------------
EXHAUSTIVE = [
    ("group_reaction_test", {"table": "wanting_to_charge", "members": [{"rep": 4, "leader": True}, {"rep": 3},
                                                                      {"rep": 5, "hero_choice": 2}]}, {}),
    ("group_reaction_test", {"table": "in_sight", "members": [{"rep": 3, "covering_fire": True}, {"rep": 4}]}, {}),
    ("in_sight", {"members": [{"rep": 3, "covering_fire": True, "in_cover": True}, {"rep": 5, "hidden": True},
                              {"rep": 2, "leader": True}]}, {"hidden_deployment": True}),
    ("received_fire", {"shooter_outgun": 4, "members": [
        {"rep": 4, "leader": True, "in_cover": True, "weapons": [{"weapon": "assault_rifle"}]},
        {"rep": 3, "flank_or_rear": True, "moving": "normal", "hero_choice": 2},
        {"rep": 5, "in_cover": True, "flank_or_rear": True, "can_fire": False, "can_charge": True},
        {"rep": 4, "condition": "hunker_down"}]}, {}),
    ("wanting_to_charge", {"members": [{"rep": 5, "leader": True}, {"rep": 3, "in_cover": True}, {"rep": 4}]},
     {"leader_die_on_leader": True}),
    ("being_charged", {"members": [{"rep": 4, "in_cover": True, "flank_or_rear": True},
                                   {"rep": 4, "flank_or_rear": True}, {"rep": 6, "star": True, "hero_choice": 0}]}, {}),
    ("rally", {"members": [{"rep": 4, "condition": "runaway", "in_cover": True}, {"rep": 3, "condition": "runaway"},
                           {"rep": 5, "condition": "hunker_down", "leader": True}]}, {}),
    ("fast_move", {"members": [{"rep": 5, "leader": True}, {"rep": 4}, {"rep": 3, "sees_leader": False}]},
     {"hero_tests": "all_tables"}),
    ("stay_or_run", {"members": [{"rep": 5, "leader": True}, {"rep": 3}, {"rep": 4}], "initial_count": 9,
                     "casualties": 4, "motivation": "religious"}, {}),
    ("stay_or_run", {"members": [{"rep": 4}, {"rep": 3, "hero": True}], "initial_count": 6, "casualties": 3,
                     "motivation": "profit", "use_leader_die": False}, {"hero_choice": "any_test"}),
]  # fmt: skip


@pytest.mark.parametrize(("key", "inputs", "overrides"), EXHAUSTIVE, ids=[f"{k}-{i}" for i, (k, *_) in
                                                                         enumerate(EXHAUSTIVE)])  # fmt: skip
def test_every_typed_in_roll_gives_exactly_the_joint(key, inputs, overrides):
    conf = settings_with(**overrides)
    act = ACTIONS[key]
    answer = act.odds(inputs, conf)
    assert_joint_consistent(key, answer)
    clean = act.validate(inputs, conf)
    n = dice_used(act, clean, conf)
    assert n <= 5
    testers = answer["joint"]["members"]
    seen: dict[tuple, Fraction] = {}
    for roll in product(range(1, 7), repeat=n):
        add(seen, resolved_case(act.resolve_clean(clean, conf, TableDice(list(roll))), testers), Fraction(1, 6**n))
    assert seen == joint_of(answer)


def test_a_leaders_own_three_dice_sampled_within_four_standard_errors():
    """§5 A2 «own_three_dice»: the Leader's own 3d6 beside the group's 2d6 and the Leader Die (6 dice: too many to
    type every roll), so the seeded resolver's joint lands within 4 standard errors of the exact one."""
    conf = settings_with(leader_dice="own_three_dice", leader_die_on_leader=True)
    inputs = {"table": "wanting_to_charge", "members": [{"rep": 3, "leader": True}, {"rep": 4}, {"rep": 5}]}
    act = ACTIONS["group_reaction_test"]
    answer = act.odds(inputs, conf)
    assert_joint_consistent("group_reaction_test", answer)
    clean, dice, n = act.validate(inputs, conf), SeededDice(11), 6000
    counts: Counter = Counter()
    for _ in range(n):
        dice.rolls.clear()
        levels = resolved_case(act.resolve_clean(clean, conf, dice), [0, 1, 2])[0]
        counts[(("passed_0", levels.count(0)), ("passed_1", levels.count(1)), ("passed_2", levels.count(2)))] += 1
    assert_matches("joint_passed", tally(answer["joint_passed"]), counts, n)


# Any group, any settings: consistent, and the resolver's roll is a case the joint gives ------------------------
SETTING_CHOICES = {
    "leader_dice": ["shared_extra_die", "own_three_dice"], "leader_die_on_leader": [False, True],
    "group_test_readers": ["triggered", "whole_group"], "hero_from_shared_roll": ["every_reader", "off"],
    "hero_tests": ["all_tables", "reaction_tests"], "hero_choice": ["per_table", "any_test"], "stars": [True, False],
    "received_fire_order": ["printed", "flank_first"], "being_charged_order": ["printed", "flank_first"],
    "outgunned_stationary_in_open": ["prone", "fire"], "hunker_down_recovery": ["rally_house_rule", "never"],
}  # fmt: skip
MEMBER_FLAGS = {
    "group_reaction_test": ("covering_fire", "sees_leader"), "in_sight": ("hidden", "in_cover", "covering_fire"),
    "received_fire": ("in_cover", "outgunned", "flank_or_rear", "cover_within_3", "active", "can_fire", "can_charge",
                      "cover_reachable"),
    "wanting_to_charge": ("in_cover",), "being_charged": ("in_cover", "flank_or_rear", "can_fire"),
    "rally": ("in_cover",), "fast_move": ("sees_leader",), "stay_or_run": (),
}  # fmt: skip


@st.composite
def group_case(draw):
    key = draw(st.sampled_from(GROUP_TESTS))
    conf = {k: draw(st.sampled_from(v)) for k, v in SETTING_CHOICES.items()}
    conf["hidden_deployment"] = True
    size = draw(st.integers(1, 5))
    leader = draw(st.sampled_from([None, *range(size)]))
    members = []
    for i in range(size):
        m = {"rep": draw(st.integers(1, 7)), "leader": i == leader}
        for flag in (*MEMBER_FLAGS[key], "hero", "star", "tests"):
            if draw(st.booleans()):
                m[flag] = draw(st.booleans())
        if draw(st.booleans()):
            m["hero_choice"] = draw(st.integers(0, 2))
        if key == "received_fire":
            m["moving"] = draw(st.sampled_from(["none", "normal", "fast"]))
            m["condition"] = draw(st.sampled_from(["fine", "duck_back", "hunker_down"]))
        if key == "rally":
            m["condition"] = draw(st.sampled_from(["runaway", "hunker_down"]))
        members.append(m)
    members[draw(st.integers(0, size - 1))]["tests"] = True  # someone takes the test
    inputs = {"members": members}
    if key == "group_reaction_test":
        inputs["table"] = draw(st.sampled_from(sorted(TABLES)))
    if key in ("group_reaction_test", "wanting_to_charge", "fast_move", "stay_or_run"):
        inputs["use_leader_die"] = draw(st.booleans())
    if key == "in_sight":
        for m in members:
            m.pop("hero_choice", None)  # In Sight has no Hero (its schema has no hero_choice)
    if key == "received_fire" and draw(st.booleans()):
        inputs["shooter_outgun"] = draw(st.integers(1, 5))
    if key == "wanting_to_charge":
        inputs["rescuing"] = draw(st.booleans())
    if key == "stay_or_run":
        start = draw(st.integers(1, 30))
        inputs.update(initial_count=start, casualties=draw(st.integers(0, start)),
                      motivation=draw(st.sampled_from(["conquest", "colonization", "religious", "profit"])),
                      profit_goal_met=draw(st.booleans()))  # fmt: skip
    return key, inputs, conf


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=group_case(), data=st.data())
def test_any_group_joint_is_exact_and_holds_the_typed_in_roll(case, data):
    key, inputs, overrides = case
    conf = settings_with(**overrides)
    act = ACTIONS[key]
    try:
        answer = act.odds(inputs, conf)
    except RuleInputError:
        with pytest.raises(RuleInputError):  # a refusal is the same refusal for the resolver
            act.resolve(inputs, conf, SeededDice(1))
        return
    assert_joint_consistent(key, answer)
    clean = act.validate(inputs, conf)
    n = dice_used(act, clean, conf)
    roll = data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n), label="typed-in dice")
    outcome = act.resolve(inputs, conf, TableDice(roll))
    case_ = resolved_case(outcome, answer["joint"]["members"])
    assert joint_of(answer).get(case_, 0) > 0, (case_, roll)
    levels, outcomes = case_[0], Counter(case_[1])
    outcomes += Counter(r["outcome"] for r in outcome.result["members"] if "level" not in r)
    assert {"passed_2": levels.count(2), "passed_1": levels.count(1), "passed_0": levels.count(0)} in [
        e["value"] for e in answer["joint_passed"]]  # fmt: skip
    assert dict(outcomes) in [e["value"] for e in answer["joint_outcomes"]]


def test_every_group_test_answers_the_joint():
    """Each action that tests several figures on one roll is a GroupTestAction, and each answers the joint."""
    assert sorted(k for k, a in ACTIONS.items() if isinstance(a, GroupTestAction)) == sorted(GROUP_TESTS)
    for key in GROUP_TESTS:
        inputs = {"members": [{"rep": 4}, {"rep": 3}]}
        if key == "stay_or_run":
            inputs.update(initial_count=6, casualties=2, motivation="conquest")
        if key == "rally":
            inputs["members"] = [{"rep": 4, "condition": "runaway"}, {"rep": 3, "condition": "runaway"}]
        answer = ACTIONS[key].odds(inputs, settings_with())
        assert {"joint", "joint_passed", "joint_outcomes", "members"} <= set(answer), key
        assert_joint_consistent(key, answer)


# Words and limits ---------------------------------------------------------------------------------------------
def test_the_joint_is_named_in_russian_on_the_odds_page():
    """The odds page names each key it draws and each part of a joint value by result_labels."""
    with translation.override("ru"):
        described = {a["key"]: a for a in (ACTIONS[k].describe() for k in GROUP_TESTS)}
    for key, a in described.items():
        labels = a["result_labels"]
        assert labels["joint_passed"] == "Вся группа вместе: сколько фигурок прошли тест"
        assert labels["joint_outcomes"] == "Вся группа вместе: сколько фигурок на каждой строке таблицы"
        assert [labels[k] for k in ("passed_2", "passed_1", "passed_0")] == [
            "прошли по 2 кубикам", "прошли по 1 кубику", "прошли по 0 кубиков"]  # fmt: skip
        for code in ACTIONS[key].outcome_codes:
            assert re.search("[а-я]", labels[code]), (key, code)
            assert not re.search("[A-Za-z]", labels[code]), (key, code)
    assert described["wanting_to_charge"]["result_labels"]["charge"] == "атакуют"
    assert described["group_reaction_test"]["result_labels"]["pass 2"] == "пройден по 2"
    assert described["stay_or_run"]["result_labels"]["loss"] == "Доля потерь стороны"


@pytest.mark.parametrize(
    ("key", "inputs", "field", "limits"),
    [
        ("wanting_to_charge", {"members": [{"rep": 4, "leader": True}, {"rep": 5, "leader": True}]}, "members",
         {"leaders": 1}),
        ("received_fire", {"members": [{"rep": 4, "leader": True}, {"rep": 5, "leader": True}]}, "members",
         {"leaders": 1}),
        ("stay_or_run", {"members": [{"rep": 4}], "initial_count": 6, "casualties": 7, "motivation": "profit"},
         "casualties", {"casualties": 6}),
        ("stay_or_run", {"members": [{"rep": 4}], "initial_count": 6, "casualties": 2, "tested_at": 3,
                         "motivation": "profit"}, "tested_at", {"tested_at": 2}),
        ("shooting", {"shooter": {"rep": 4, "weapon": "pistol"}, "targets": [{"dice": 2}, {"dice": 1}]}, "targets",
         {"dice": 2}),
    ],
)  # fmt: skip
def test_a_refusal_whose_limit_is_the_rules_gives_it_as_data(key, inputs, field, limits):
    for run in (lambda: ACTIONS[key].odds(inputs, settings_with()),
                lambda: ACTIONS[key].resolve(inputs, settings_with(), SeededDice(1))):  # fmt: skip
        with pytest.raises(RuleInputError) as refused:
            run()
        assert list(refused.value.errors) == [field]
        assert refused.value.data == {"limits": limits}


def test_the_api_answers_the_joint_and_the_limit(client):
    base = "/api/v1/systems/5150/actions"
    inputs = {"members": [{"rep": 4, "leader": True, "tests": False}, {"rep": 4}, {"rep": 3}]}
    body = client.post(f"{base}/wanting_to_charge/odds/", {"inputs": inputs}, content_type="application/json").json()
    assert body["odds"]["joint_passed"][0]["exact"] == "7/12"
    assert body["odds"]["joint"]["members"] == [1, 2]
    refused = client.post(f"{base}/wanting_to_charge/odds/", {"inputs": {"members": [{"rep": 4, "leader": True},
                          {"rep": 3, "leader": True}]}}, content_type="application/json")  # fmt: skip
    assert refused.status_code == 400
    assert refused.json()["limits"] == {"leaders": 1}
    assert "members" in refused.json()["errors"]
