"""The simulator: one rule in three forms. The vectorised duel agrees with the plain-Python loop of the same model,
and its shooting and melee steps agree with the exact odds of the `shoot` and `melee` actions (4 standard errors).
Also: seeds, parameters, the REQ value report, and what the job page is told."""

import json
import math
import re

import numpy as np
import pytest
from django.utils import translation

from rules.errors import RuleInputError
from rules.systems.enforcers import tables
from rules.systems.enforcers.simulate import SIMULATOR, value_report
from rules.systems.enforcers.simulate.model import simulate_melee, simulate_shot
from rules.systems.enforcers.tests.helpers import as_dist, frac, odds, settings

APPRENTICE = next(p for p in tables.PACK["profiles"] if p["slug"] == "apprentice")
STATS = dict.fromkeys(tables.STATS, 10)
GUN = {"name": "Autogun", "damage": 4, "ranged": True, "range_bands_cm": {"short": 10, "medium": 25, "long": 50}}
BLADE = {"name": "Blade", "damage": 5, "reach_cm": 2, "traits": ["kinetic"]}
KNIFE = {"name": "Knife", "damage": 3, "reach_cm": 1}


def side(stats=None, **options):
    options = {"stats": {**STATS, **(stats or {})}, **options}
    return {"faction": "enforcers", "entries": [{"key": "e", "profile": APPRENTICE, "count": 1, "options": options}]}


GUNNER = side({"BS": 12}, stat_bump=1, armour="enforcer-gear", weapons=[GUN])
FENCER = side({"WS": 13}, armour="police-riot-gear", weapons=[BLADE])
BRAWLER = side({"WS": 12, "HL": 12}, armour="kevlar-vest", weapons=[KNIFE])


def within(p_ref, a, b, n_a, n_b, name):
    se = math.sqrt(p_ref * (1 - p_ref) * (1 / n_a + 1 / n_b)) or 1e-12
    assert abs(a - b) <= 4 * se, (name, a, b, se)


@pytest.mark.parametrize(
    ("a", "b", "overrides"),
    [(GUNNER, FENCER, {}), (FENCER, BRAWLER, {}), (BRAWLER, FENCER, {"counter_on_counter": False,
                                                                     "homerule_max_only": True})],
)  # fmt: skip
def test_numpy_and_the_plain_python_loop_agree(a, b, overrides):
    s = settings(**overrides)
    prepared = SIMULATOR.prepare(a, b, {"distance_cm": 18}, s)
    n_np, n_py = 40_000, 3_000
    fast = SIMULATOR.run(prepared, n_np, np.random.default_rng(5))
    slow = SIMULATOR.run_reference(prepared, n_py, 5)
    for outcome in (0, 1, -1):
        p_np, p_py = np.mean(fast["winner"] == outcome), np.mean(slow["winner"] == outcome)
        within(p_np, p_np, p_py, n_np, n_py, f"winner {outcome}")
    for key in ("rounds", "hp_a", "hp_b"):
        sd = max(np.std(fast[key]), 1e-9)
        assert abs(fast[key].mean() - slow[key].mean()) <= 4 * sd * math.sqrt(1 / n_np + 1 / n_py), key


def _shooter_inputs(distance):
    band = "short" if distance <= 10 else "medium" if distance <= 25 else "long"
    return {
        "shooter": {"stats": {**STATS, "BS": 12, "HL": 11}},
        "weapon": {"damage": 6},
        "target": {"stats": {**STATS, "WS": 13}, "armour": "police-riot-gear"},
        "range_band": band,
        "cover": "partial",
    }


@pytest.mark.parametrize("distance", [6, 30])
def test_the_simulated_shot_agrees_with_the_exact_odds(distance):
    prepared = SIMULATOR.prepare(side({"BS": 12}, weapons=[{**GUN, "damage": 6}]), FENCER, {"cover": "partial"},
                                 settings())  # fmt: skip
    n = 40_000
    shot = simulate_shot(prepared.model, n, np.random.default_rng(distance), distance=distance)
    exact = odds("shoot", _shooter_inputs(distance))
    p_hit = float(frac(exact["p_hit"]))
    within(p_hit, p_hit, shot["hit"].mean(), 10**12, n, "p_hit")
    for hp, p in as_dist(exact["target_hp"]).items():
        within(float(p), float(p), np.mean(shot["hp_b"] == hp), 10**12, n, f"hp {hp}")


@pytest.mark.parametrize(("distance", "start"), [(1, None), (1, 9)])
def test_the_simulated_melee_agrees_with_the_exact_odds(distance, start):
    prepared = SIMULATOR.prepare(BRAWLER, FENCER, {}, settings())
    n = 40_000
    fight = simulate_melee(prepared.model, n, np.random.default_rng(11), distance=distance, start=start)
    inputs = {
        "attacker": {"stats": {**STATS, "WS": 12, "HL": 12}, "armour": "kevlar-vest"},
        "attacker_weapon": {"damage": 3, "reach_cm": 1},
        "defender": {"stats": {**STATS, "WS": 13}, "armour": "police-riot-gear"},
        "defender_weapon": {"damage": 5, "reach_cm": 2, "traits": ["kinetic"]},
        "distance_cm": distance,
    }
    if start is not None:
        inputs["start_distance_cm"] = start
    exact = odds("melee", inputs)
    hits = float(frac(exact["p_attacker_hits"]))
    countered = float(frac(exact["p_defender_hit_by_counter"]))
    back = float(frac(exact["p_attacker_hit_back"]))
    within(hits + back, hits + back, np.mean(fight["landed"] == 0), 10**12, n, "attacker's blows")
    within(countered, countered, np.mean(fight["landed"] == 1), 10**12, n, "counter")
    for hp, p in as_dist(exact["attacker_hp"]).items():
        within(float(p), float(p), np.mean(fight["hp_a"] == hp), 10**12, n, f"attacker hp {hp}")


def test_the_same_seed_gives_the_same_duels():
    prepared = SIMULATOR.prepare(GUNNER, FENCER, {}, settings())
    one = SIMULATOR.run(prepared, 5_000, np.random.default_rng(9))
    two = SIMULATOR.run(prepared, 5_000, np.random.default_rng(9))
    assert all(np.array_equal(one[k], two[k]) for k in one)
    assert set(one) >= {"winner", "rounds", "left_a", "left_b"}
    assert all(len(v) == 5_000 for v in one.values())


def test_prices_come_from_the_formula_and_the_value_report_reads_them():
    prepared = SIMULATOR.prepare(GUNNER, FENCER, {}, settings())
    assert prepared.cost == (50.0, 40.0)  # +1 to all stats and its own gear; own gear only
    out = SIMULATOR.run(prepared, 20_000, np.random.default_rng(1))
    report = value_report(prepared, out)
    assert report["p_a"] + report["p_b"] + report["p_draw"] == pytest.approx(1)
    assert report["expected_req_left_a"] == pytest.approx(50 * np.mean(out["hp_a"] > 0))
    assert report["req_value_a"] == pytest.approx(40 * report["p_a"] / report["p_b"])


def test_parameters_and_sides_are_checked():
    with pytest.raises(RuleInputError) as caught:
        SIMULATOR.prepare(GUNNER, FENCER, {"distance_cm": -1}, settings())
    assert "params.distance_cm" in caught.value.errors
    no_stats = {"faction": "enforcers", "entries": [{"key": "e", "profile": APPRENTICE, "count": 1}]}
    with pytest.raises(RuleInputError, match="no stats"):
        SIMULATOR.prepare(no_stats, FENCER, {}, settings())
    two = {**GUNNER, "entries": GUNNER["entries"] * 2}
    assert "only the first agent fights" in SIMULATOR.prepare(two, FENCER, {}, settings()).warnings[0]


def test_a_russian_player_reads_the_warnings_and_the_forces_in_russian():
    """Warnings, errors and the forces' lines in the book's words, the sides named as a person names them; English
    stays the default."""
    two = {**GUNNER, "entries": GUNNER["entries"] * 2}
    unarmed = side({"WS": 12})
    nobody = {"faction": "enforcers", "entries": []}
    with translation.override("ru"):
        prepared = SIMULATOR.prepare(two, unarmed, {}, settings())
        with pytest.raises(RuleInputError) as caught:
            SIMULATOR.prepare(nobody, FENCER, {}, settings())
    assert prepared.warnings == [
        "Сторона A: в дуэли сражается только первый агент.",
        "Сторона B: нет оружия; агент сражается кулаками (урон 1).",
    ]
    with translation.override("ru"):  # a job stores the fighters as data; the page words them for its reader
        gunner, brawler = (force["lines"][0] for force in SIMULATOR.describe_forces(prepared.forces))
    assert json.loads(json.dumps(prepared.forces)) == prepared.forces
    assert "движение" in gunner
    assert "Autogun, урон 4" in gunner
    assert gunner.endswith(" REQ")
    assert "без стрелкового оружия; кулаки, урон 1 (дальность оружия 0 см)" in brawler
    assert caught.value.errors["side_a"] == "На этой стороне нет нанятых агентов: для дуэли добавьте архетип."
    shown = " ".join([*prepared.warnings, gunner, brawler])
    assert "side_" not in shown
    assert not re.search(r"\b(?:move|cm|reach|fists|weapons?|agent|Side)\b", shown), shown
    english = SIMULATOR.prepare(two, unarmed, {}, settings())
    assert english.warnings == [
        "Side A: only the first agent fights the duel.",
        "Side B: no weapons; it fights with its fists (1 damage).",
    ]
    assert "no ranged weapon; fists 1 (reach 0)" in SIMULATOR.describe_forces(english.forces)[1]["lines"][0]
    assert SIMULATOR.describe_forces(prepared.forces) == SIMULATOR.describe_forces(english.forces)  # the same data
    older = [{"side": "A", "cost": 20, "text": "Kate: BS 12"}, {"side": "B", "cost": 30, "text": "Thug: WS 13"}]
    assert [s["lines"] for s in SIMULATOR.describe_forces(older)] == [["Kate: BS 12"], ["Thug: WS 13"]]


def test_the_job_page_is_told_what_is_simulated_and_left_out():
    described = SIMULATOR.describe()
    assert described["simulated"]
    assert any("status traits" in line for line in described["left_out"])
    assert set(described["params_schema"]["properties"]) >= {"distance_cm", "rounds", "cover"}


def test_a_gun_outranges_a_blade_at_distance_and_settings_reach_the_model():
    prepared = SIMULATOR.prepare(GUNNER, FENCER, {"distance_cm": 40}, settings())
    far = value_report(prepared, SIMULATOR.run(prepared, 20_000, np.random.default_rng(2)))
    assert far["p_a"] > 0.8
    homerule = SIMULATOR.prepare(GUNNER, FENCER, {"distance_cm": 40}, settings(homerule_max_only=True))
    assert homerule.model.settings["homerule_max_only"] is True


def test_counter_limit():
    """One counter per round, or per activation (A7): more counters end an even knife fight sooner."""
    rounds = {}
    even = side({"WS": 12}, weapons=[KNIFE])
    for limit in ("round", "activation"):
        prepared = SIMULATOR.prepare(even, even, {"distance_cm": 0}, settings(counter_limit=limit))
        rounds[limit] = SIMULATOR.run(prepared, 20_000, np.random.default_rng(3))["rounds"].mean()
    assert rounds["activation"] < rounds["round"] - 0.1
