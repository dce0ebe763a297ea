"""The simulator: its primitives against the exact odds of the actions (one rule, three forms with the resolver
tests of test_odds.py), the vectorised engine against the plain-Python reference of the same model, determinism,
and the part's contract (params, settings, warnings, unit-against-unit sides)."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from django.utils import translation

from rules.contract import RuleInputError
from rules.systems.squads.simulate import SIMULATOR, simulate_activation, simulate_bout, simulate_reference
from rules.systems.squads.tests.support import assert_matches, dist, frac, odds

PACK = Path(__file__).resolve().parents[1] / "data" / "squads-core.json"
PROFILES = {p["slug"]: p for p in json.loads(PACK.read_text(encoding="utf-8"))["profiles"]}

RIFLES = {"armour": "light", "figures": [{"weapon": "assault_rifle", "count": 5}, {"weapon": "lmg", "count": 1}],
          "leader": {"level": "veteran", "weapon": "smg"}}  # fmt: skip
GUNNERS = {"armour": "medium", "figures": [{"weapon": "rifle", "count": 4}, {"weapon": "hmg", "count": 2}]}
MIXED = {"armour": "light", "figures": [{"weapon": "rifle", "count": 3}, {"weapon": "smg", "count": 2, "armour": "power"},
                                         {"weapon": "flamethrower", "count": 1}]}  # fmt: skip


def side(*builds):
    return {"entries": [{"key": f"e{i}", "profile": PROFILES[slug], "count": 1, "options": opts}
                        for i, (slug, opts) in enumerate(builds)]}  # fmt: skip


def prepare(a, b, params=None, settings=None):
    return SIMULATOR.prepare(a, b, params or {}, settings or {})


def test_bout_of_fire_matches_the_shooting_odds():
    """The engine's roll_hits and roll_unsaved against shooting.odds() for the same fire and target."""
    prepared = prepare(side(("squad-regular", MIXED)), side(("squad-veteran", GUNNERS)),
                       {"distance": 7, "cover_b": "light"})  # fmt: skip
    n = 60_000
    hits, unsaved = simulate_bout(prepared.model, 0, 1, aimed=True, n=n, rng=np.random.default_rng(3))
    inputs = {
        "shooter": {"level": "regular", "action": "aimed_fire", "groups": [
            {"weapon": "rifle", "count": 3, "distance": 7}, {"weapon": "smg", "count": 2, "distance": 7},
            {"weapon": "flamethrower", "count": 1, "distance": 7}]},
        "target": {"groups": [{"count": 8, "armour": "medium", "cover": "light"}]},
    }  # fmt: skip
    answer = odds("shooting", inputs)
    assert_matches("hits", dist(answer["hits"]), Counter(hits.tolist()), n)
    assert_matches("unsaved", dist(answer["unsaved"]), Counter(unsaved.tolist()), n)


def test_bout_on_mixed_armour_gives_hits_to_the_best_armour_first():
    prepared = prepare(side(("squad-elite", GUNNERS)), side(("squad-regular", MIXED)), {"distance": 10})
    n = 60_000
    hits, unsaved = simulate_bout(prepared.model, 0, 1, aimed=False, n=n, rng=np.random.default_rng(4))
    inputs = {
        "shooter": {"level": "elite", "action": "walk", "groups": [{"weapon": "rifle", "count": 4, "distance": 10}]},
        "target": {"groups": [{"count": 2, "armour": "power"}, {"count": 4, "armour": "light"}]},
    }  # the walk table: the HMG (support) stays silent on a Walk
    answer = odds("shooting", inputs)
    assert_matches("hits", dist(answer["hits"]), Counter(hits.tolist()), n)
    assert_matches("unsaved", dist(answer["unsaved"]), Counter(unsaved.tolist()), n)


@pytest.mark.parametrize(("suppressed", "settings"), [(0, {}), (2, {}), (3, {"natural_one_six": True})])
def test_activation_roll_matches_the_activation_odds(suppressed, settings):
    prepared = prepare(side(("squad-regular", RIFLES)), side(("squad-veteran", GUNNERS)), settings=settings)
    n = 40_000
    ok = simulate_activation(prepared.model, 0, suppressed, n, np.random.default_rng(5))
    unit = {"level": "regular", "leader": {"level": "veteran"}, "suppressed": suppressed, "figures": 7}
    p = frac(odds("activation", {"unit": unit}, **settings)["p_success"])
    assert_matches("activation", {True: p, False: 1 - p}, Counter(ok.tolist()), n)


def _close(a: np.ndarray, b: np.ndarray, what: str) -> None:
    """Means of two samples within 4 standard errors of their difference."""
    se = math.sqrt(a.var() / a.size + b.var() / b.size)
    assert abs(a.mean() - b.mean()) <= 4 * se + 1e-12, f"{what}: engine {a.mean():.4f}, reference {b.mean():.4f}"


MATCHES = {
    "duel": ((("squad-regular", RIFLES),), (("squad-veteran", GUNNERS),), {}, {}),
    "cover-hold-after-action": ((("squad-elite", MIXED),), (("squad-regular", RIFLES),),
                                {"distance": 20, "cover_a": "medium", "approach": "hold"},
                                {"on_guard_timing": "after_action", "on_guard_until": "end_of_turn"}),
    "platoon-cm-strict": ((("squad-regular", RIFLES), ("squad-recruit", MIXED)), (("squad-veteran", GUNNERS),),
                          {"distance": 70, "split": "casualties_only"},
                          {"units": "cm", "suppressed_then_casualty": "never_while_suppressed",
                           "save_allocation": "majority_armour"}),
}  # fmt: skip


@pytest.mark.parametrize("name", MATCHES)
def test_engine_agrees_with_the_plain_python_reference(name):
    a, b, params, settings = MATCHES[name]
    prepared = prepare(side(*a), side(*b), params, settings)
    engine = SIMULATOR.run(prepared, 20_000, np.random.default_rng(6))
    reference = simulate_reference(prepared.model, 2_500, seed=6)
    for outcome in (0, 1, -1):
        _close(
            (engine["winner"] == outcome).astype(float), (reference["winner"] == outcome).astype(float), f"P({outcome})"
        )
    for key in ("rounds", "left_a", "left_b"):
        _close(engine[key].astype(float), reference[key].astype(float), key)
    assert np.unique(engine["winner"]).size >= 2  # a real contest, not one foregone result


def test_same_seed_same_battles_and_array_shapes():
    prepared = prepare(side(("squad-regular", RIFLES)), side(("squad-veteran", GUNNERS)))
    first = SIMULATOR.run(prepared, 5_000, np.random.default_rng(11))
    again = SIMULATOR.run(prepared, 5_000, np.random.default_rng(11))
    for key in ("winner", "rounds", "left_a", "left_b"):
        assert first[key].shape == (5_000,)
        assert np.array_equal(first[key], again[key])
    assert set(np.unique(first["winner"])) <= {-1, 0, 1}
    assert first["left_a"].max() <= prepared.cost[0]
    winners_a = first["winner"] == 0
    assert np.all(first["left_b"][winners_a] == 0)  # the loser has no figure left


def test_out_of_reach_squads_holding_never_fight():
    prepared = prepare(
        side(("squad-regular", RIFLES)), side(("squad-veteran", GUNNERS)), {"distance": 100, "approach": "hold"}
    )
    result = SIMULATOR.run(prepared, 2_000, np.random.default_rng(1))
    assert np.all(result["winner"] == -1)
    assert np.all(result["left_a"] == prepared.cost[0])


def test_suppression_keeps_figures_standing():
    a, b = side(("squad-regular", RIFLES)), side(("squad-veteran", GUNNERS))
    suppress = SIMULATOR.run(prepare(a, b, {"turns": 3}), 20_000, np.random.default_rng(2))
    kill = SIMULATOR.run(prepare(a, b, {"turns": 3, "split": "casualties_only"}), 20_000, np.random.default_rng(2))
    assert suppress["left_a"].mean() > kill["left_a"].mean()
    assert suppress["left_b"].mean() > kill["left_b"].mean()


def test_prepare_lists_forces_warns_of_vehicles_and_refuses_an_empty_side():
    truck = {"key": "t", "profile": PROFILES["vehicle-unarmoured"], "count": 1, "options": {"crew_level": "regular"}}
    a = side(("squad-regular", RIFLES))
    a["entries"].append(truck)
    prepared = prepare(a, side(("squad-veteran", GUNNERS)))
    assert any("not simulated" in w for w in prepared.warnings)
    assert prepared.cost == (7.0, 6.0)  # no points: a squad is worth its figures
    assert prepared.forces[0]["squads"][0]["figures"] == 7
    assert prepared.rounds == 12
    with translation.override("ru"):
        lines = SIMULATOR.describe_forces(json.loads(json.dumps(prepared.forces)))
    assert [s["side"] for s in lines] == ["A", "B"]
    assert lines[0]["lines"] == [
        "Отряд: Рядовой: 7 фигур (Штурмовая винтовка/автомат ×5, Ручной пулемет ×1, Пистолет-пулемет ×1)"
    ]
    with pytest.raises(RuleInputError) as exc:
        prepare({"entries": [truck]}, side(("squad-veteran", GUNNERS)))
    assert "side_a" in exc.value.errors


def test_the_vehicle_warning_comes_out_in_russian():
    truck = {"key": "t", "profile": PROFILES["vehicle-unarmoured"], "count": 1, "options": {"crew_level": "regular"}}
    a = side(("squad-regular", RIFLES))
    a["entries"].append(truck)
    with translation.override("ru"):
        prepared = prepare(a, side(("squad-veteran", GUNNERS)))
    assert prepared.warnings == ["ТС: Грузовики, Автомобили, Механизмы: ТС не моделируются; запись пропущена."]


def test_params_and_settings_are_checked():
    with pytest.raises(RuleInputError) as exc:
        SIMULATOR.check_params({"distance": 0})
    assert "params.distance" in exc.value.errors
    assert SIMULATOR.check_params({})["turns"] == 12
    with pytest.raises(RuleInputError):
        SIMULATOR.check_settings({"luck": True})
    assert SIMULATOR.check_settings({"units": "cm"})["units"] == "cm"
    from rules.systems.squads.settings import SETTINGS_BY_KEY
    from rules.systems.squads.simulate.model import SIMULATED_SETTINGS

    assert set(SIMULATOR.ignored_settings) == set(SETTINGS_BY_KEY) - set(SIMULATED_SETTINGS)
    assert "melee is not simulated" in SIMULATOR.ignored_settings["melee_lock"]
    described = SIMULATOR.describe()
    assert "units" in described["job_kinds"]
    assert described["simulated"]
    assert described["left_out"]


def test_unit_against_unit_from_a_profile_with_a_build():
    build = {**PROFILES["squad-veteran"], "slug": "custom", "data": {"level": "veteran", **GUNNERS}}
    prepared = SIMULATOR.prepare(
        SIMULATOR.side_from_profile(build), SIMULATOR.side_from_profile(PROFILES["squad-regular"]), {}, {}
    )
    assert prepared.cost == (6.0, 1.0)  # the template's default build is one rifleman
    result = SIMULATOR.run(prepared, 2_000, np.random.default_rng(3))
    assert np.mean(result["winner"] == 0) > 0.9
