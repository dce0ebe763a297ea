"""The odds say everything (issue «joint outcomes»): shooting and close combat give the figures removed and the
markers left together, the First Player roll who rolls higher on the first roll and who ends up First Player
together. Each joint sums to 1 exactly, its marginals are the older fields exactly, the resolver with typed-in dice
lands only on outcomes of positive probability and, sampled, within 4 standard errors of them. Refusals whose limit
is the rule's carry it as data."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from rules.contract import RuleInputError
from rules.dice import ProbeDice, TableDice
from rules.systems.zvezdny_desant.actions.common import RESULT_LABELS, VALUE_LABELS
from rules.systems.zvezdny_desant.settings import full_settings
from rules.systems.zvezdny_desant.system import SYSTEM
from rules.systems.zvezdny_desant.tests.support import assert_matches, dist, frac, odds, sample, settings
from rules.systems.zvezdny_desant.tests.test_odds import MELEE, SHOOTING, shooters, targets

N = 4000
TWO = ("removed", "markers")


def joint(items: list[dict], names: tuple[str, ...] = TWO) -> dict[tuple, Fraction]:
    """A joint answer as {(part, …): exact probability}; each value names exactly these parts."""
    out = {}
    for item in items:
        assert set(item["value"]) == set(names), item
        key = tuple(item["value"][n] for n in names)
        assert key not in out, item  # each outcome once
        out[key] = Fraction(item["exact"])
        assert out[key] > 0, item
        assert abs(item["p"] - float(out[key])) < 1e-12, item
    return out


def marginal(d: dict[tuple, Fraction], i: int) -> dict:
    out: dict = {}
    for key, p in d.items():
        out[key[i]] = out.get(key[i], Fraction(0)) + p
    return out


def typed(action: str, inputs: dict, faces: list[int], **over):
    """Resolves with dice typed in from the table: the given faces first, then (past them, as a probe would) the
    rest; every die typed is used."""
    act, st_ = SYSTEM.action(action), settings(**over)
    probe = ProbeDice(faces, seed=len(faces))
    act.resolve(inputs, st_, probe)
    return act.resolve(inputs, st_, TableDice([r.value for r in probe.rolls]))


def check_removed_and_markers(answer: dict, alive: int) -> dict[tuple, Fraction]:
    """The joint of (figures removed, markers left) sums to 1 and gives back removed, markers and p_destroyed."""
    both = joint(answer["removed_and_markers"])
    assert sum(both.values()) == 1
    assert marginal(both, 0) == dist(answer["removed"])
    assert marginal(both, 1) == dist(answer["markers"])
    destroyed = sum((p for (removed, _m), p in both.items() if removed == alive), Fraction(0))
    assert destroyed == frac(answer["p_destroyed"])
    assert [tuple(x["value"][n] for n in TWO) for x in answer["removed_and_markers"]] == sorted(both)
    return both


# Shooting ---------------------------------------------------------------------------------------------------
SHOTS = [
    SHOOTING,
    {"shooter": {"order": "defence", "groups": [{"count": 5, "weapon": {"skr": 2, "hrk": "В10", "msch": 3}}]},
     "target": {"armour": "В", "stk": 4, "markers": 3, "groups": [{"count": 3}]}},
    {"shooter": {"order": "attack", "groups": [{"count": 2, "weapon": {"skr": 3, "hrk": "A4 В6"}}]},
     "target": {"armour": "A", "stk": 3, "markers": 2, "groups": [{"count": 1}, {"count": 2, "seen_by": [],
                                                                               "cover": "heavy"}]}},
    {"shooter": {"order": "defence", "groups": [{"count": 3, "weapon": {"hrk": "С14"}}]},
     "target": {"armour": "В", "stk": 2, "groups": [{"count": 2}]}},  # no Хрк for В: nothing can happen
]  # fmt: skip


@pytest.mark.parametrize("over", [{}, {"leftover_markers": "keep_remainder"}, {"killable_basis": "whole_unit"}])
@pytest.mark.parametrize("inputs", SHOTS)
def test_shooting_removed_and_markers_joint_sums_to_one_and_gives_back_each_field(inputs, over):
    answer = odds("shooting", inputs, **over)
    alive = sum(g["count"] for g in inputs["target"]["groups"])
    both = check_removed_and_markers(answer, alive)
    assert all(0 <= m < inputs["target"]["stk"] for (_r, m) in both)  # markers left never reach a whole figure


def test_shooting_removed_and_markers_are_not_independent():
    """The reason for the joint: one wound total decides both, so the product of the marginals is wrong."""
    answer = odds("shooting", SHOTS[1])
    both = joint(answer["removed_and_markers"])
    removed, markers = dist(answer["removed"]), dist(answer["markers"])
    assert any(both.get((r, m), 0) != removed[r] * markers[m] for r in removed for m in markers)


def test_shooting_resolver_samples_the_joint():
    counts = sample("shooting", SHOOTING, {"both": lambda o: (o.result["removed"], o.result["markers"])}, N, seed=30)
    assert_matches("removed_and_markers", joint(odds("shooting", SHOOTING)["removed_and_markers"]), counts["both"], N)


@hyp_settings(max_examples=40, deadline=None)
@given(
    groups=shooters,
    target_groups=targets,
    order=st.sampled_from(["defence", "attack"]),
    armour=st.sampled_from(["А", "B", "С", "D", "Е"]),
    stk=st.integers(1, 4),
    markers=st.integers(0, 3),
    leftover=st.sampled_from(["discard", "keep_remainder"]),
    faces=st.lists(st.integers(1, 20), min_size=60, max_size=60),
)
def test_any_shooting_typed_in_lands_on_a_joint_outcome_of_positive_probability(
    groups, target_groups, order, armour, stk, markers, leftover, faces
):
    inputs = {"shooter": {"order": order, "groups": groups},
              "target": {"armour": armour, "stk": stk, "markers": markers, "groups": target_groups}}  # fmt: skip
    answer = odds("shooting", inputs, leftover_markers=leftover)
    both = check_removed_and_markers(answer, sum(g["count"] for g in target_groups))
    outcome = typed("shooting", inputs, faces, leftover_markers=leftover)
    assert both.get((outcome.result["removed"], outcome.result["markers"]), 0) > 0


# Close combat -----------------------------------------------------------------------------------------------
MELEES = [
    MELEE,
    {"units": [{"unit": "Штурмовики", "side": 0, "figures": 5, "bsp": 8, "stk": 2, "markers": 1},
               {"unit": "Жуки", "side": 1, "figures": 3, "bsp": 6, "stk": 3, "markers": 2, "hidden": 1,
                "strikes_per_figure": 2, "wounds_per_strike": 2}]},
    {"units": [{"unit": "a", "side": 0, "figures": 2, "bsp": 20, "stk": 1},
               {"unit": "b", "side": 1, "figures": 6, "bsp": 3, "stk": 4, "markers": 3, "near": 2, "in_contact": 4}]},
]  # fmt: skip


@pytest.mark.parametrize(
    "over", [{}, {"melee_result": "more_wounds"}, {"leftover_markers": "keep_remainder"}, {"bsp_floor": 5}]
)
@pytest.mark.parametrize("inputs", MELEES)
def test_melee_gives_each_units_removed_and_markers_joint_exactly(inputs, over):
    answer = odds("melee", inputs, **over)
    for u in inputs["units"]:
        per = answer["units"][u["unit"]]
        both = check_removed_and_markers(per, u["figures"])
        assert all(0 <= m < u["stk"] for (_r, m) in both)
    wins = {s: frac(answer["p_side_wins"][s]) for s in (0, 1)}
    names = list(answer["p_wins"])
    assert [frac(answer["p_wins"][n]) for n in names] == [wins[0], wins[1]]  # side 0 first, by its units' names
    assert wins[0] + wins[1] + frac(answer["p_no_winner"]) == 1
    for s, name in enumerate(names):
        assert name == ", ".join(u["unit"] for u in inputs["units"] if u["side"] == s)


def test_melee_markers_carry_the_markers_from_before():
    """The markers from shooting stay in the pool (L675): a unit that takes no wound keeps them."""
    answer = odds("melee", MELEES[2])  # «b» has more figures (+1) and more in contact (+2): БСП 6; «a» stays 20
    a = joint(answer["units"]["a"]["removed_and_markers"])
    assert a[(0, 0)] == Fraction(19, 20) ** 6  # six strikers of «b» (4 in contact, 2 near), none a 20
    b = joint(answer["units"]["b"]["removed_and_markers"])
    assert b[(0, 3)] == Fraction(5, 20) ** 2  # both of «a»'s strikes miss 6+: its 3 markers stay
    assert b[(1, 0)] == 2 * Fraction(15, 20) * Fraction(5, 20)  # one wound: 3 + 1 = СТК 4, one figure dies


def test_melee_resolver_samples_each_units_joint():
    extract = {u: (lambda o, u=u: (o.result["units"][u]["removed"], o.result["units"][u]["markers"])) for u in "abc"}
    counts = sample("melee", MELEE, extract, N, seed=31)
    answer = odds("melee", MELEE)
    for u in "abc":
        assert_matches(u, joint(answer["units"][u]["removed_and_markers"]), counts[u], N)


@hyp_settings(max_examples=40, deadline=None)
@given(
    figures=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    bsp=st.tuples(st.integers(0, 20), st.integers(0, 20)),
    stk=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    markers=st.tuples(st.integers(0, 2), st.integers(0, 2)),
    strikes=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    leftover=st.sampled_from(["discard", "keep_remainder"]),
    faces=st.lists(st.integers(1, 20), min_size=30, max_size=30),
)
def test_any_melee_typed_in_lands_on_each_units_joint_outcome(figures, bsp, stk, markers, strikes, leftover, faces):
    inputs = {"units": [{"unit": name, "side": s, "figures": figures[s], "bsp": bsp[s], "stk": stk[s],
                         "markers": markers[s], "strikes_per_figure": strikes[s]}
                        for s, name in enumerate(("Десант", "Жуки"))]}  # fmt: skip
    answer = odds("melee", inputs, leftover_markers=leftover)
    outcome = typed("melee", inputs, faces, leftover_markers=leftover)
    for u in inputs["units"]:
        both = check_removed_and_markers(answer["units"][u["unit"]], u["figures"])
        got = outcome.result["units"][u["unit"]]
        assert both.get((got["removed"], got["markers"]), 0) > 0


def test_the_melee_says_its_units_odds_stand_alone():
    """Two units' results are given as each unit's own: the schema says they are independent (the units roll
    apart), so a client multiplies them rather than guessing."""
    description = SYSTEM.action("melee").describe()["description"]
    assert "product of their chances" in description


# First Player and deployment roll-offs ----------------------------------------------------------------------
ROLL_OFF = ("first_roll", "first_player")


@pytest.mark.parametrize(
    ("inputs", "over"),
    [({}, {}), ({"previous": 0}, {}), ({"previous": 1}, {"rolloff_ties": "keep_previous"}),
     ({"players": ["Аня", "Борис"], "previous": 0}, {"rolloff_ties": "keep_previous"}),
     ({"players": ["Аня", "Борис"]}, {"rolloff_ties": "keep_previous"})],
)  # fmt: skip
def test_first_player_joint_gives_back_the_first_roll_the_tie_and_the_first_player(inputs, over):
    answer = odds("first_player", inputs, **over)
    players = inputs.get("players", ["Игрок 1", "Игрок 2"])
    both = joint(answer["roll_off"], ROLL_OFF)
    assert sum(both.values()) == 1
    assert marginal(both, 1) == {p: frac(answer["p_first"][p]) for p in players}
    first = marginal(both, 0)
    assert first == {**{p: frac(answer["p_wins_first_roll"][p]) for p in players},
                     None: frac(answer["p_tie_on_first_roll"])}  # fmt: skip
    assert first[players[0]] == first[players[1]] == Fraction(19, 40)  # 190 of the 400 pairs each
    assert all(roll is None or roll == first_player for roll, first_player in both)  # the higher roll is First


@pytest.mark.parametrize(
    ("faces", "over", "expected"),
    [([12, 3], {}, ("Игрок 1", "Игрок 1")), ([5, 17], {}, ("Игрок 2", "Игрок 2")),
     ([9, 9, 2, 14], {}, (None, "Игрок 2")), ([20, 20, 8, 1], {}, (None, "Игрок 1")),
     ([9, 9], {"rolloff_ties": "keep_previous"}, (None, "Игрок 2"))],
)  # fmt: skip
def test_first_player_typed_in_lands_on_its_joint_outcome(faces, over, expected):
    inputs = {"previous": 1}
    outcome = typed("first_player", inputs, faces, **over)
    assert len(outcome.dice) == len(faces)
    players = ["Игрок 1", "Игрок 2"]
    rounds = outcome.result["rounds"]
    got = (None if rounds[0][0] == rounds[0][1] else players[0 if rounds[0][0] > rounds[0][1] else 1],
           players[outcome.result["winner"]])  # fmt: skip
    assert got == expected
    assert joint(odds("first_player", inputs, **over)["roll_off"], ROLL_OFF)[got] > 0


@pytest.mark.parametrize("over", [{}, {"rolloff_ties": "keep_previous"}])
def test_first_player_resolver_samples_the_joint(over):
    players = ["Игрок 1", "Игрок 2"]

    def first(o):
        r = o.result["rounds"][0]
        return None if r[0] == r[1] else players[0 if r[0] > r[1] else 1]

    counts = sample("first_player", {"previous": 0}, {"both": lambda o: (first(o), players[o.result["winner"]])},
                    N, seed=32, **over)  # fmt: skip
    both = joint(odds("first_player", {"previous": 0}, **over)["roll_off"], ROLL_OFF)
    assert_matches("roll_off", both, counts["both"], N)


def test_deployment_gives_who_rolls_higher_first_and_the_tie():
    answer = odds("deployment", {"units": [3, 2], "players": ["Аня", "Борис"]})
    first = {p: frac(answer["p_wins_first_roll"][p]) for p in ("Аня", "Борис")}
    assert sum(first.values()) + frac(answer["p_tie_on_first_roll"]) == 1
    assert first["Аня"] == first["Борис"] == Fraction(19, 40)


# The odds page names every key ---------------------------------------------------------------------------------
def drawn(answer: dict, nested: bool = False) -> tuple[set, set]:
    """What the odds page (static/rules/odds_form.js) draws: the keys it labels, and the (key, case) codes it
    names through value_labels (a case that is a player's or a unit's name is the reader's own word)."""
    keys, cases = set(), set()
    for key, value in answer.items():
        if isinstance(value, dict) and ("p" in value or {"value", "exact"} <= set(value)):
            keys.add(key)
        elif isinstance(value, list) and value and isinstance(value[0], dict) and "p" in value[0]:
            keys.add(key)
            for item in value:
                if isinstance(item["value"], dict):
                    keys |= set(item["value"])
                    cases |= {(part, "null") for part, v in item["value"].items() if v is None}
        elif isinstance(value, dict) and value and all(isinstance(v, dict) and "p" in v for v in value.values()):
            keys.add(key)
            cases |= {(key, str(code)) for code in value if isinstance(code, int)}
        elif not nested and isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            for inner in value.values():
                more_keys, more_cases = drawn(inner, nested=True)
                keys, cases = keys | more_keys, cases | more_cases
    return keys, cases


@pytest.mark.parametrize(
    ("key", "inputs"),
    [("shooting", SHOOTING), ("melee", MELEE), ("first_player", {"previous": 0}), ("deployment", {"units": [2, 2]})],
)
def test_every_key_and_code_the_odds_page_draws_has_words(key, inputs):
    keys, cases = drawn(odds(key, inputs))
    assert {"removed_and_markers", "roll_off"} & keys or key == "deployment"
    assert keys <= set(RESULT_LABELS), keys - set(RESULT_LABELS)
    words = SYSTEM.action(key).describe()["value_labels"]
    assert all(code in words.get(part, {}) for part, code in cases), (cases, words)
    assert set(VALUE_LABELS) <= set(words)


# Limits as data ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "inputs", "over", "field", "limits"),
    [
        ("reroll", {"need": 10, "rolls": [3], "already_rerolled": True}, {}, "already_rerolled",
         {"rerolls_per_test": 1}),
        ("reroll", {"need": 10, "rolls": [3, 4], "reroll": [0, 1]}, {"reroll_scope": "one_die"}, "reroll",
         {"dice_per_reroll": 1}),
        ("melee", {"units": [{"unit": "a", "side": 0, "figures": 3, "bsp": 9, "stk": 1, "in_contact": 3, "near": 1},
                             {"unit": "b", "side": 1, "figures": 2, "bsp": 9, "stk": 1}]}, {}, "units.0.in_contact",
         {"figures": 3}),
        ("melee", {"units": [{"unit": "a", "side": 0, "figures": 3, "bsp": 9, "stk": 1, "targets": {"b": 2}},
                             {"unit": "b", "side": 1, "figures": 2, "bsp": 9, "stk": 1}]}, {}, "units.0.targets",
         {"striking_figures": 3}),
        ("melee", {"units": [{"unit": "a", "side": 0, "figures": 3, "bsp": 9, "stk": 1, "targets": {"b": 2, "c": 1}},
                             {"unit": "b", "side": 1, "figures": 2, "bsp": 9, "stk": 1},
                             {"unit": "c", "side": 1, "figures": 2, "bsp": 9, "stk": 1}]},
         {"multi_sided_strikes": "per_unit"}, "units.0.targets", {"enemy_units": 1}),
        ("order_cards", {"units": [{"unit": "a", "order": "move", "initiative": 4}]}, {"cp_underspend": "refuse"},
         "units", {"command_points": 10}),
        ("order_cards", {"units": [{"unit": "a", "order": "move", "initiative": 12}], "reductions": {"a": 1}}, {},
         "reductions", {"overspend": 2}),
        ("order_cards", {"units": [{"unit": "a", "order": "move", "initiative": 3}], "command_points": 1,
                         "reductions": {"a": 4}}, {}, "reductions.a", {"reduction_max": 3}),
        ("deployment", {"units": [2, 2], "table_length": 48}, {"deployment_geometry": "thirds"}, "table_length",
         {"table_length_min": 60, "deployment_gap": 20}),
        ("deployment", {"units": [2, 2], "table_length": 24}, {}, None, None),  # 24 > 20: allowed
        ("victory_points", {"units": [{"side": 0, "cost": 90, "start": 5, "alive": 6}]}, {}, "units.0.alive",
         {"alive_max": 5}),
    ],
)  # fmt: skip
def test_a_refusal_whose_limit_is_the_rules_gives_it_as_data(action, inputs, over, field, limits):
    act = SYSTEM.action(action)
    if field is None:
        act.validate(inputs, full_settings(settings(**over)))
        return
    with pytest.raises(RuleInputError) as exc:
        act.validate(inputs, full_settings(settings(**over)))
    assert field in exc.value.errors, exc.value.errors
    assert exc.value.data == {"limits": limits}


def test_a_refusal_without_a_rules_limit_carries_no_data():
    with pytest.raises(RuleInputError) as exc:
        SYSTEM.action("first_player").validate({"players": ["Аня", "Аня"]}, full_settings(settings()))
    assert exc.value.data == {}


@pytest.mark.django_db
def test_the_api_answers_the_limit_beside_the_message(client):
    url = "/api/v1/systems/zvezdny-desant/actions/reroll/odds/"
    body = {"inputs": {"need": 10, "rolls": [3], "already_rerolled": True}}
    refused = client.post(url, json.dumps(body), content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 400
    answer = refused.json()
    assert answer["limits"] == {"rerolls_per_test": 1}
    assert "already_rerolled" in answer["errors"]
