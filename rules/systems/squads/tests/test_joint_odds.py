"""The odds say everything (issue «joint outcomes»): a vehicle attack gives the most severe effect it causes (what the
damage table decides) beside each effect's chance to happen at least once; the activation chain («Инициатива», L12:
a player goes on activating units until a roll fails) gives how many of n units activate, and resolves with dice
typed in from the table. Each distribution sums to 1 exactly, its marginals are the older fields exactly, and the
resolver agrees with it: exhaustively for the chain, within 4 standard errors for the vehicle. Refusals whose limit
is the rule's carry it as data."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from rules.contract import RuleInputError
from rules.dice import TableDice
from rules.systems.squads import tables
from rules.systems.squads.actions.common import RESULT_LABELS
from rules.systems.squads.actions.hits import SEVERITY
from rules.systems.squads.settings import full_settings
from rules.systems.squads.system import SYSTEM
from rules.systems.squads.tests.support import assert_matches, dist, frac, odds, run, sample, settings

N = 6000


def ordered(items: list[dict]) -> dict:
    """A distribution answered in its own order, as {value: exact}; each value once, p and exact agreeing."""
    out = {}
    for item in items:
        assert item["value"] not in out, item
        out[item["value"]] = Fraction(item["exact"])
        assert abs(item["p"] - float(out[item["value"]])) < 1e-12, item
    return out


# The worst effect on a vehicle ---------------------------------------------------------------------------------
def worst_by_enumeration(unsaved: dict[int, Fraction], facing: str, over: dict) -> dict[str, Fraction]:
    """Independently of the action: every sequence of damage results for u unsaved hits, the worst of them (rolling
    stops at "destroyed", which is the worst anyway)."""
    per_hit = tables.damage_effect_probabilities(facing, full_settings(settings(**over)))
    out = dict.fromkeys(SEVERITY, Fraction(0))
    for u, pu in unsaved.items():
        for seq in itertools.product(per_hit.items(), repeat=u):
            p = pu
            for _effect, pe in seq:
                p *= pe
            worst = max((e for e, _ in seq), key=SEVERITY.index, default="none")
            out[worst] += p
    return out


def check_worst(answer: dict, facing: str, over: dict) -> dict:
    worst = ordered(answer["worst_effect"])
    assert list(worst) == list(SEVERITY)  # mildest first, every row named
    assert sum(worst.values()) == 1
    unsaved = dist(answer["unsaved"])
    assert worst["none"] == unsaved.get(0, 0)  # nothing through the armour: no damage
    if answer["p_effect"]:
        assert worst["destroyed"] == frac(answer["p_effect"]["destroyed"])  # the worst row: the older field
        for effect in SEVERITY[1:]:  # the worst is at least e whenever e happens at least once
            at_least = sum(worst[e] for e in SEVERITY[SEVERITY.index(effect) :])
            assert at_least >= frac(answer["p_effect"][effect])
    assert worst == worst_by_enumeration(unsaved, facing, over)
    return worst


FACINGS = st.sampled_from(tables.FACINGS)
RULES = st.fixed_dictionaries(
    {
        "facing_doubles": st.sampled_from(["reroll", "keep"]),
        "facing_best": st.sampled_from(["front_lower", "front_higher"]),
    }
)


@hyp_settings(max_examples=40, deadline=None)
@given(
    armour=st.sampled_from(list(tables.VEHICLE_ARMOUR)),
    facing=FACINGS,
    hits=st.integers(0, 5),
    weapon=st.sampled_from(["rpg", "heavy_cannon", "rifle", "hmg", "grenade_launcher"]),
    over=RULES,
)
def test_a_vehicle_hits_worst_effect_sums_to_one_and_gives_back_the_older_fields(armour, facing, hits, weapon, over):
    inputs = {"vehicle": {"armour": armour, "facing": facing}, "hits": hits, "weapon": weapon}
    answer = odds("vehicle_hit", inputs, **over)
    worst = check_worst(answer, facing, over)
    if answer["immune"]:
        assert worst["none"] == 1


@hyp_settings(max_examples=25, deadline=None)
@given(
    level=st.sampled_from(list(tables.LEVELS)),
    facing=FACINGS,
    guns=st.lists(st.sampled_from(["rpg", "light_cannon", "lmg", "light_at_gun"]), min_size=1, max_size=2),
    over=RULES,
)
def test_shooting_at_a_vehicle_gives_the_worst_effect_too(level, facing, guns, over):
    inputs = {
        "shooter": {"level": level, "groups": [{"weapon": g, "count": 1, "distance": 6} for g in guns]},
        "target": {"kind": "vehicle", "armour": "light", "facing": facing},
    }
    answer = odds("shooting", inputs, **over)
    check_worst(answer, facing, over)
    assert frac(answer["p_any_unsaved"]) == 1 - dist(answer["unsaved"]).get(0, 0)


@pytest.mark.parametrize(
    ("action", "inputs", "over"),
    [
        ("vehicle_hit", {"vehicle": {"armour": "medium", "facing": "front"}, "hits": 3, "weapon": "rpg"}, {}),
        ("vehicle_hit", {"vehicle": {"armour": "unarmoured", "facing": "rear"}, "hits": 2, "weapon": "rifle"},
         {"facing_doubles": "keep"}),
        ("shooting", {"shooter": {"kind": "vehicle", "level": "veteran",
                                  "groups": [{"weapon": "heavy_cannon", "count": 1, "distance": 30}]},
                      "target": {"kind": "vehicle", "armour": "medium", "facing": "side"}}, {}),
    ],
)  # fmt: skip
def test_the_resolver_lands_on_the_worst_effect_as_often_as_the_odds_say(action, inputs, over):
    expected = ordered(odds(action, inputs, **over)["worst_effect"])
    counts = sample(action, inputs, {"worst": lambda out: out.result["worst_effect"]}, N, 11, **over)
    assert_matches("worst", expected, counts["worst"], N)


def test_the_worst_effect_of_typed_dice_is_the_worst_row_rolled():
    inputs = {"vehicle": {"armour": "light", "facing": "side"}, "hits": 3, "weapon": "rpg"}
    outcome = run("vehicle_hit", inputs, [1, 5, 4, 5, 3])  # saves 5+: 1, 5, 4 (one saved), damage 5 then 3
    assert [d["effect"] for d in outcome.result["damage"]] == ["immobilised", "weapon_destroyed"]
    assert outcome.result["worst_effect"] == "immobilised"
    immune = run("vehicle_hit", {**inputs, "weapon": "rifle"}, [])
    assert immune.result["worst_effect"] == "none"


# The activation chain ------------------------------------------------------------------------------------------
UNIT = st.fixed_dictionaries(
    {"level": st.sampled_from(list(tables.LEVELS))},
    optional={
        "suppressed": st.integers(0, 2),
        "out_of_coherency": st.integers(0, 2),
        "sees_enemy": st.booleans(),
        "leader": st.fixed_dictionaries({"level": st.sampled_from(list(tables.LEVELS))}),
        "count": st.integers(1, 3),
    },
).map(lambda u: {**u, "figures": 6, "strength": 8, "casualties": 2} if u.get("suppressed") else u)
CHAIN_RULES = st.fixed_dictionaries({"natural_one_six": st.booleans()})


def expanded(units: list[dict]) -> list[dict]:
    out = []
    for u in units:
        u = dict(u)
        out += [u] * u.pop("count", 1)
    return out


@hyp_settings(max_examples=60, deadline=None)
@given(units=st.lists(UNIT, min_size=1, max_size=4), over=CHAIN_RULES)
def test_the_chain_sums_to_one_and_gives_back_each_units_activation_odds(units, over):
    answer = odds("activation_chain", {"units": units}, **over)
    activated = dist(answer["activated"])
    assert sum(activated.values()) == 1
    singles = [odds("activation", {"unit": u}, **over) for u in expanded(units)]
    n = len(singles)
    p = [frac(s["p_success"]) for s in singles]
    assert frac(answer["p_first_activates"]) == p[0]
    assert sum(v for k, v in activated.items() if k >= 1) == p[0]  # at least one: the first roll succeeds
    every = Fraction(1)
    for i in range(n):  # exactly k: the first k succeed and the next fails, each by its own odds
        assert activated.get(i, 0) == every * frac(singles[i]["p_fail"])
        every *= p[i]
    assert activated.get(n, 0) == every == frac(answer["p_all"])
    assert Fraction(answer["expected_activated"]["exact"]) == sum(k * v for k, v in activated.items())
    ends = {k: frac(v) for k, v in answer["chain_end"].items()}
    assert sum(ends.values()) == 1
    assert ends["all_activated"] == every
    reach, withdraw = Fraction(1), Fraction(0)
    for i, single in enumerate(singles):  # a failed unit above 50 % casualties retreats (L25)
        withdraw += reach * frac(single["p_withdraw"])
        reach *= p[i]
    assert ends["withdraw"] == withdraw
    first = dist(answer["first_roll"])
    assert sum(first.values()) == 1
    assert set(first) == {d + singles[0]["modifier"] for d in range(1, 7)}


def chain_by_every_roll(units: list[dict], over: dict) -> dict[int, Fraction]:
    """Every sequence of n dice resolved with the dice typed in (the chain uses as many as it needs): how many
    activate, each sequence weighing 6^-n."""
    act = SYSTEM.action("activation_chain")
    st_ = full_settings(settings(**over))
    clean = act.validate({"units": units}, st_)
    n = len(clean["units"])
    out: dict[int, Fraction] = {}
    for seq in itertools.product(range(1, 7), repeat=n):
        outcome = act.resolve_clean(clean, st_, TableDice(list(seq)))
        k = outcome.result["activated"]
        out[k] = out.get(k, Fraction(0)) + Fraction(1, 6**n)
    return out


@pytest.mark.parametrize(
    ("units", "over"),
    [
        ([{"level": "veteran"}, {"level": "recruit", "count": 2}], {}),
        ([{"level": "regular", "suppressed": 2, "figures": 4}, {"level": "elite", "sees_enemy": False},
          {"kind": "vehicle", "level": "regular", "crew_stunned": 1}], {}),
        ([{"level": "recruit", "leader": {"level": "veteran"}}, {"level": "regular", "out_of_coherency": 3}],
         {"natural_one_six": True}),
    ],
)  # fmt: skip
def test_the_chain_resolved_with_every_roll_of_the_dice_is_its_odds_exactly(units, over):
    assert chain_by_every_roll(units, over) == dist(odds("activation_chain", {"units": units}, **over)["activated"])


def test_the_chain_with_typed_dice_stops_at_the_first_failure_and_passes_the_initiative():
    units = [{"name": "Альфа", "level": "veteran"}, {"name": "Браво", "level": "recruit"},
             {"name": "Чарли", "level": "regular", "strength": 6, "casualties": 4}]  # fmt: skip
    outcome = run("activation_chain", {"units": units}, [3, 5, 2])
    assert outcome.result["activated"] == 2
    assert outcome.result["failed"] == 2
    assert outcome.result["consequence"] == "withdraw"  # 4 of 6 lost: it retreats (L25)
    assert outcome.result["chain_end"] == "withdraw"
    assert [r["success"] for r in outcome.result["rolls"]] == [True, True, False]
    assert {"kind": "initiative_passes", "role": "game"} in outcome.effects
    everyone = run("activation_chain", {"units": units[:2]}, [6, 6])
    assert (everyone.result["activated"], everyone.result["failed"], everyone.result["chain_end"]) == (
        2, None, "all_activated")  # fmt: skip
    with pytest.raises(RuleInputError):  # a die left over: the chain stopped before it
        run("activation_chain", {"units": units}, [1, 6])


def test_a_unit_locked_in_melee_is_not_in_the_chain():
    with pytest.raises(RuleInputError) as exc:
        SYSTEM.action("activation_chain").validate(
            {"units": [{"level": "regular"}, {"level": "regular", "in_melee": True, "melee_role": "defender"}]},
            full_settings(settings()),
        )
    assert "units.1.in_melee" in exc.value.errors


def test_every_new_key_is_named_for_the_odds_page():
    for action, inputs in (
        ("activation_chain", {"units": [{"level": "regular"}]}),
        ("vehicle_hit", {"vehicle": {"armour": "light", "facing": "side"}, "hits": 1, "weapon": "rpg"}),
    ):
        keys = set(odds(action, inputs))
        assert keys <= set(RESULT_LABELS), keys - set(RESULT_LABELS)
    words = SYSTEM.action("vehicle_hit").describe()["value_labels"]
    assert set(words["worst_effect"]) == set(SEVERITY)
    ends = SYSTEM.action("activation_chain").describe()["value_labels"]["chain_end"]
    assert set(ends) == {"on_guard", "withdraw", "all_activated"}


# Limits as data ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "inputs", "over", "field", "limits"),
    [
        ("split_hits", {"unsaved": 4, "suppress": 3, "target": {"level": "regular", "figures": 8}}, {}, "suppress",
         {"suppress": 2}),
        ("split_hits", {"unsaved": 4, "suppress": 2, "target": {"level": "regular", "figures": 8, "suppressed": 1}},
         {}, "suppress", {"suppress": 1}),
        ("split_hits", {"unsaved": 4, "suppress": 2, "target": {"level": "recruit", "figures": 8}},
         {"suppression_cap_recruit": 0}, "suppress", {"suppress": 0}),
        ("shooting", {"shooter": {"level": "regular", "action": "aimed_fire",
                                  "groups": [{"weapon": "rifle", "count": 2, "distance": 25}]},
                      "target": {"groups": [{"count": 3}]}}, {}, "shooter.groups.0.distance", {"distance": 24}),
        ("shooting", {"shooter": {"level": "regular", "action": "aimed_fire",
                                  "groups": [{"weapon": "rifle", "count": 2, "distance": 61}]},
                      "target": {"groups": [{"count": 3}]}}, {"units": "cm"}, "shooter.groups.0.distance",
         {"distance": 60}),
        ("shooting", {"shooter": {"level": "regular", "action": "aimed_fire",
                                  "groups": [{"weapon": "rifle", "count": 2, "distance": 8}]},
                      "target": {"groups": [{"count": 3, "cover": "light"}], "same_cover": True}}, {},
         "shooter.groups.0.distance", {"distance": 6}),
        ("shooting", {"shooter": {"kind": "vehicle", "level": "regular", "vehicle_move": "open",
                                  "groups": [{"weapon": "hmg", "count": 2, "distance": 8}]},
                      "target": {"groups": [{"count": 3}]}}, {}, "shooter.groups", {"weapons": 1}),
        ("shooting", {"shooter": {"level": "regular", "action": "on_guard",
                                  "groups": [{"weapon": "rifle", "count": 2, "distance": 8}]},
                      "target": {"groups": [{"count": 3}]},
                      "reaction": {"enemy_action": "declared", "used_this_turn": True}}, {},
         "reaction.used_this_turn", {"reactions_per_turn": 1}),
        ("vehicle_move", {"vehicle": {"armour": "light"}, "move": "light_cover", "distance": 7}, {}, "distance",
         {"distance": 6}),
        ("unit_action", {"action": "walk", "moved": 16}, {"units": "cm"}, "moved", {"moved": 15}),
    ],
)  # fmt: skip
def test_a_refusal_whose_limit_is_the_rules_gives_it_as_data(action, inputs, over, field, limits):
    with pytest.raises(RuleInputError) as exc:
        SYSTEM.action(action).validate(inputs, full_settings(settings(**over)))
    assert field in exc.value.errors, exc.value.errors
    assert exc.value.data == {"limits": limits}


def test_a_refusal_without_a_rules_limit_carries_no_data():
    with pytest.raises(RuleInputError) as exc:
        SYSTEM.action("split_hits").validate(
            {"unsaved": 1, "suppress": 0, "target": {"level": "regular", "figures": 2, "suppressed": 3}},
            full_settings(settings()),
        )
    assert exc.value.data == {}


@pytest.mark.django_db
def test_the_api_answers_the_limit_beside_the_message(client):
    url = "/api/v1/systems/squads/actions/split_hits/odds/"
    body = {"inputs": {"unsaved": 4, "suppress": 3, "target": {"level": "regular", "figures": 8}}}
    refused = client.post(url, json.dumps(body), content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 400
    answer = refused.json()
    assert answer["limits"] == {"suppress": 2}
    assert "Рядовой" in answer["errors"]["suppress"]
