"""Issue 17, the simulator's last blind spot: capture (§3.12, p.42 §9.1–9.2; A11). A pilotless vehicle is taken by
the first soldier of rank >= its own to reach it; taken by the enemy it changes sides (its twin column). The
vectorised engine agrees with the plain-Python reference, capture changes outcomes, and the A11 setting counts."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from rules.systems.bronepekhota.simulate import MODEL_VERSION, Battle, BattleParams, summarise
from rules.systems.bronepekhota.tests.test_simulate import PACK, _agree

N = 20_000
# A GRIFFIN (rank 2) whose own army has only rank-1 militia: nobody of its side can drive it (it never acts),
# but the enemy's rank-3 assault troops can take it (p.42).
UNPILOTED = (["griffin", "protectorate_opolchenie_planety_gelion"], ["polaris_lyogkiy_shturmovoy_desant"])
# A HURRICANE beside rank-1 infantry against two rank 2–3 squads: pilots die, both sides may take it.
CONTESTED = (
    ["hurricane", "protectorate_kosari", "protectorate_ruteniyskaya_gvardiya"],
    ["polaris_lyogkiy_shturmovoy_desant", "polaris_lineynaya_klon_pehota"],
)
# Bench pair 5 (benchmarks/bench_bronepekhota_blind_spots.py): four vehicles, re-crewing by both sides.
MANY = (
    ["protectorate_kiberspetsnaz", "spider", "puma", "viper", "protectorate_opolchenie_planety_gelion"],
    ["polaris_spetsnaz_planety_shidu", "hornet", "polaris_lineynaya_klon_pehota"],
)


@pytest.fixture(scope="module")
def profiles() -> dict:
    return {p["slug"]: p for p in json.loads(PACK.read_text(encoding="utf-8"))["profiles"]}


def _battle(profiles, pair, params=None, settings=None) -> Battle:
    side = [
        [{"key": f"e{i}", "profile": profiles[s], "count": 1, "options": {}} for i, s in enumerate(x)] for x in pair
    ]
    return Battle(side[0], side[1], params or BattleParams(distance=10, initiative="b"), settings or {})


def _ignore_capture(battle: Battle) -> Battle:
    battle.capture_cols = []
    battle.capture_col_array = np.zeros(0, np.intp)
    return battle


def _run(battle: Battle, n: int = N, seed: int = 3) -> tuple[dict, dict]:
    raw = battle.run(n, np.random.default_rng(seed))
    out = summarise(raw, rounds=battle.params.rounds, cost=battle.cost)
    out["p_a"] = (out["wins_a"] + 0.5 * out["draws"]) / n
    return raw, out


def test_model_version_and_twins(profiles):
    assert MODEL_VERSION >= 3  # 3: capture
    battle = _battle(profiles, UNPILOTED)
    griffin = next(el for el in battle.els if el.name == profiles["griffin"]["name"])
    twin = griffin.twin
    assert twin is not None
    assert twin.side == 1
    assert battle.e_dormant[twin.index]
    assert battle.e_twin[griffin.index] == twin.index
    assert battle.e_twin[twin.index] == griffin.index
    assert twin not in battle.els  # the rosters' elements; the twin is a column only
    # twins come last on their side, so the engine can leave them out while none is on the field
    assert battle.roster_cols[1] == (battle.nA, twin.index)
    assert battle.side_cols[1][1] == twin.index + 1
    names = [u["name"] for side in battle.describe()["sides"] for u in side["units"]]
    assert not any("captured" in name for name in names)
    assert battle.cost.tolist() == [110.0, 90.0]


@pytest.mark.parametrize(
    ("pair", "settings", "params"),
    [
        pytest.param(UNPILOTED, {}, {"distance": 10, "initiative": "b"}, id="taken-by-the-enemy"),
        pytest.param(CONTESTED, {"captured_acts_next_round": False}, {"distance": 8}, id="contested-acts-at-once"),
        pytest.param(MANY, {"panic": True}, {"rounds": 10}, id="many-vehicles-panic"),
        pytest.param(MANY, {"grenades": True, "ammo_limited": True}, {"approach": "hold"}, id="many-vehicles-hold"),
    ],
)
def test_engine_agrees_with_reference_with_capture(profiles, pair, settings, params):
    _agree(_battle(profiles, pair, BattleParams(**params), settings), 1500, 20000, seed=5)


def test_capture_changes_the_outcome(profiles):
    raw, with_capture = _run(_battle(profiles, UNPILOTED))
    _, without = _run(_ignore_capture(_battle(profiles, UNPILOTED)))
    se = math.sqrt(2 * 0.25 / N)
    assert without["p_a"] - with_capture["p_a"] > 10 * se, (with_capture["p_a"], without["p_a"])
    # The taken GRIFFIN fights for side B: B keeps more than its own army ever cost.
    assert (raw["surviving_b"] > 90).mean() > 0.5


def test_a_vehicle_taken_by_the_enemy_changes_sides_in_the_reference_too(profiles):
    battle = _battle(profiles, UNPILOTED)
    ref = battle.run_python(400, seed=9)
    assert (ref["surviving_b"] > 90).mean() > 0.5  # would be 0 if capture were ignored
    plain = _ignore_capture(_battle(profiles, UNPILOTED)).run_python(400, seed=9)
    assert (plain["surviving_b"] > 90).sum() == 0


def test_captured_acts_next_round_is_honoured(profiles):
    # A11: a captured vehicle acts from the next round (on) or at once (off); here the HURRICANE is re-crewed or
    # taken in mid-battle, and acting a round earlier changes how long the battles last.
    n = 40_000
    params = BattleParams(distance=8, initiative="b")
    raw_on, _ = _run(_battle(profiles, CONTESTED, params), n)
    raw_off, _ = _run(_battle(profiles, CONTESTED, params, {"captured_acts_next_round": False}), n)
    diff = raw_off["rounds"].mean() - raw_on["rounds"].mean()
    se = math.sqrt(raw_on["rounds"].var() / n + raw_off["rounds"].var() / n)
    assert abs(diff) > 4 * se, (diff, se)
