"""The simulator: seeded and deterministic; the vectorised engine agrees with the plain-Python reference loop of the
same model; and its volley and melee round agree with the exact odds of the `shooting` and `melee` actions (one rule,
three forms: resolver, odds, simulator)."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from rules.contract import RuleInputError
from rules.systems.zvezdny_desant.simulate.engine import simulate_melee_round, simulate_volley
from rules.systems.zvezdny_desant.simulate.reference import simulate_reference
from rules.systems.zvezdny_desant.system import SYSTEM
from rules.systems.zvezdny_desant.tables import hrk_text
from rules.systems.zvezdny_desant.tests.support import assert_matches, dist, odds

SIM = SYSTEM.simulator
PACK = json.loads((Path(__file__).parents[1] / "data" / "demo-examples.json").read_text(encoding="utf-8"))
SQUAD = {
    "slug": "squad", "name": "Отделение", "faction": "humans", "kind": "infantry", "cost": 0,
    "data": {"figures": [{"key": "boec", "name": "Боец", "pdv": 6, "stk": 2, "kbr": "В", "bsp": 8, "cost": 15,
                          "min": 1, "max": 10, "weapons": ["avtomat", "pulemet"]}],
             "weapons": [{"key": "avtomat", "name": "Автомат", "dln": 30, "skr": 2, "msch": 1, "hrk": "A8 В12 С15"},
                         {"key": "pulemet", "name": "Пулемет", "dln": 40, "skr": 3, "msch": 2, "hrk": "В10 С13"}]},
}  # fmt: skip
HEAVY = {
    "slug": "heavy", "name": "Тяжелые", "faction": "forcers", "kind": "infantry", "cost": 0, "data": {
        "strikes_per_figure": 2, "wounds_per_strike": 1,
        "figures": [{"key": "f", "name": "Форсер", "pdv": 5, "stk": 3, "kbr": "С", "bsp": 11, "cost": 40, "min": 1,
                     "max": 6, "weapons": ["shtur"]}],
        "weapons": [{"key": "shtur", "name": "Штурмовик", "dln": 20, "skr": 1, "msch": 1, "hrk": "В8 С12"}]},
}  # fmt: skip


def side(*entries):
    return {"faction": "x", "entries": [{"key": f"e{i}", "profile": p, "count": 1, "options": o}
                                        for i, (p, o) in enumerate(entries)]}  # fmt: skip


SIDE_A = side((SQUAD, {"loadout": [{"figure": "boec", "weapon": "avtomat", "count": 4},
                                   {"figure": "boec", "weapon": "pulemet", "count": 1}]}),
              (SQUAD, {"loadout": [{"figure": "boec", "weapon": "avtomat", "count": 3}]}))  # fmt: skip
SIDE_B = side((HEAVY, {"loadout": [{"figure": "f", "weapon": "shtur", "count": 4}]}))


def prepared(params=None, settings=None, a=SIDE_A, b=SIDE_B):
    return SIM.prepare(
        a, b, SIM.check_params(params or {}), SIM.check_settings(SYSTEM.resolve_settings(settings or {}))
    )


def rng(seed: int):
    return np.random.default_rng(np.random.SeedSequence(seed))


def test_same_seed_same_battles_and_costs_from_the_cards():
    match = prepared()
    assert match.cost == (4 * 15 + 15 + 3 * 15, 4 * 40)
    first, again = SIM.run(match, 300, rng(5)), SIM.run(match, 300, rng(5))
    for key in ("winner", "rounds", "left_a", "left_b"):
        assert np.array_equal(first[key], again[key])
        assert len(first[key]) == 300
    assert set(np.unique(first["winner"])) <= {-1, 0, 1}


def close(name: str, a: np.ndarray, b: np.ndarray) -> None:
    """Two samples of the same model: their means differ by less than 4 standard errors of the difference."""
    se = math.sqrt(a.var() / a.size + b.var() / b.size) or 1e-9
    assert abs(a.mean() - b.mean()) <= 4 * se, (name, a.mean(), b.mean(), se)


@pytest.mark.parametrize(
    "params", [{}, {"order_a": "attack", "cover_b": "light", "distance": 35}, {"mode": "melee"}], ids=str
)
def test_engine_agrees_with_the_plain_python_reference(params):
    match = prepared(params)
    fast = SIM.run(match, 6000, rng(1))
    slow = simulate_reference(match.model, 800, seed=2)
    for key in ("left_a", "left_b", "rounds", "vp_a", "vp_b"):
        close(key, fast[key].astype(float), slow[key].astype(float))
    for outcome in (-1, 0, 1):
        close(f"winner {outcome}", (fast["winner"] == outcome).astype(float), (slow["winner"] == outcome).astype(float))


def volley_inputs(match, u: int, t: int, markers: int) -> dict:
    """The `shooting` action's inputs for unit u of the model shooting at unit t, all in sight and range."""
    orders = (match.params["order_a"], match.params["order_b"])
    covers = (match.params["cover_a"], match.params["cover_b"])
    s = int(match.side[u])
    groups = [{"count": g["count"], "weapon": {"name": g["name"], "dln": g["dln"], "skr": g["skr"], "msch": g["msch"],
                                               "hrk": hrk_text(g["hrk"])}} for g in match.groups[u]]  # fmt: skip
    return {"shooter": {"order": orders[s], "groups": groups},
            "target": {"order": orders[1 - s], "armour": match.kbr[t], "stk": int(match.stk[t]), "markers": markers,
                       "groups": [{"count": int(match.start[t]), "cover": covers[1 - s],
                                   "distance": match.params["distance"]}]}}  # fmt: skip


@pytest.mark.parametrize(
    ("params", "u", "markers"),
    [
        ({}, 0, 0),
        ({"order_a": "attack", "order_b": "attack", "cover_b": "medium", "distance": 35}, 0, 2),
        ({"cover_a": "heavy", "distance": 20}, 2, 1),
        ({"distance": 21}, 2, 0),
    ],
)
def test_a_volley_agrees_with_the_exact_odds_of_the_shooting_action(params, u, markers):
    match = prepared(params).model
    n = 20000
    got = simulate_volley(match, n, rng(3), u=u, markers_before=markers)
    answer = odds("shooting", volley_inputs(match, u, got["target"], markers))
    assert (answer["hits"][-1]["value"] == 0) == (params.get("distance") == 21)  # Длн 20 cannot reach 21 steps
    assert_matches("removed", dist(answer["removed"]), Counter(got["removed"].tolist()), n)
    assert_matches("markers", dist(answer["markers"]), Counter(got["markers"].tolist()), n)


def test_a_melee_round_agrees_with_the_exact_odds_of_the_melee_action():
    match = prepared({"mode": "melee"}).model
    names = [f"u{i}" for i in range(match.units)]
    units = []
    for i in range(match.units):
        enemy = next(j for j in range(match.units) if match.side[j] != match.side[i])
        units.append({"unit": names[i], "side": int(match.side[i]), "figures": int(match.start[i]),
                      "bsp": int(match.bsp[i]), "stk": int(match.stk[i]), "strikes_per_figure": int(match.strikes[i]),
                      "wounds_per_strike": int(match.wounds_per_strike[i]),
                      "targets": {names[enemy]: int(match.start[i])}})  # fmt: skip
    answer = odds("melee", {"units": units})
    n = 20000
    got = simulate_melee_round(match, n, rng(4))
    for i, name in enumerate(names):
        assert_matches(name, dist(answer["units"][name]["removed"]), Counter(got["removed"][:, i].tolist()), n)


def test_max_turns_setting_sets_the_game_length():
    long_range = {"distance": 100}  # nobody reaches: every game lasts the whole length
    assert set(SIM.run(prepared(long_range), 50, rng(6))["rounds"]) == {5}
    assert set(SIM.run(prepared(long_range, {"max_turns": 3}), 50, rng(6))["rounds"]) == {3}
    assert set(SIM.run(prepared({**long_range, "turns": 2}, {"max_turns": 3}), 50, rng(6))["rounds"]) == {2}


def test_the_example_pack_simulates_and_says_what_it_leaves_out():
    a, b = (SYSTEM.army.example_roster(PACK["profiles"], s) for s in (0, 1))
    match = prepared({}, None, a, b)
    assert match.cost == (500.0, 500.0)
    assert not match.warnings
    result = SIM.run(match, 200, rng(7))
    assert result["left_a"].max() <= 500
    assert result["rounds"].max() <= 5
    assert SIM.simulated
    assert SIM.left_out


@pytest.mark.parametrize(("params", "field"), [({"mode": "chess"}, "params.mode"), ({"distance": 0}, "params.distance"),
                                               ({"turns": "5"}, "params.turns"), ({"range": 3}, "params")])  # fmt: skip
def test_bad_parameters_are_refused_with_their_field(params, field):
    with pytest.raises(RuleInputError) as exc:
        SIM.check_params(params)
    assert any(k.startswith(field) for k in exc.value.errors)


def test_a_unit_whose_cost_is_not_typed_is_refused_not_priced_at_zero():
    """Victory points are the units' costs (L794–796): with a cost taken as 0 every simulated battle would be a
    draw, so a roster whose ЛБХ cost is missing is refused, naming what to type."""
    a, b = (SYSTEM.army.example_roster(PACK["profiles"], s) for s in (0, 1))
    del b["entries"][0]["options"]["card_costs"]
    with pytest.raises(RuleInputError) as exc:
        prepared({}, None, a, b)
    assert "«Пехотинец»" in exc.value.errors["sides"]


def test_a_duel_of_cards_without_printed_costs_weighs_each_figure_one_point():
    """Unit-against-unit jobs take a card as it is: the demo's example cards print no cost, so each figure counts
    1 point (victory points then weigh the figures lost) and the job says so; a battle is not a draw by default."""
    humans, forcers = PACK["profiles"]
    match = SIM.prepare(SIM.side_from_profile(humans), SIM.side_from_profile(forcers), SIM.check_params({}), {})
    assert match.cost == (5.0, 5.0)
    assert any("1 point" in w for w in match.warnings)
    result = SIM.run(match, 200, rng(8))
    assert (result["winner"] != -1).any()


def test_the_job_page_lists_each_sides_units_in_words():
    a, b = (SYSTEM.army.example_roster(PACK["profiles"], s) for s in (0, 1))
    sides = SIM.describe_forces(prepared({}, None, a, b).forces)
    assert [s["side"] for s in sides] == ["A", "B"]
    assert [s["cost"] for s in sides] == [500, 500]
    assert sides[0]["lines"][0] == "Штурмовое звено форсеров (пример): 5 figures, cost 250"
    assert not any("units:" in line for s in sides for line in s["lines"])
