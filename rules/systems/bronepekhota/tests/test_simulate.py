"""The balance simulator: its dice primitives against the exact odds of the actions (one rule, three forms), its
vectorised engine against the plain-Python reference of the same model, determinism, and the model's rules."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from rules.errors import RuleInputError
from rules.registry import get_system
from rules.systems.bronepekhota.simulate import (
    Battle,
    BattleParams,
    entries_from_profile,
    resolve_settings,
    simulate,
    simulate_melee,
    simulate_virtual_shot,
    summarise,
)
from rules.systems.bronepekhota.simulate.model import roll_initiative

PACK = Path(__file__).resolve().parents[1] / "data" / "tehnolog-classic.json"
N = 60_000


@pytest.fixture(scope="module")
def profiles() -> dict:
    return {p["slug"]: p for p in json.loads(PACK.read_text(encoding="utf-8"))["profiles"]}


def entry(profiles, slug, count=1, key=None, pilot=None, loadout=None):
    return {
        "key": key or slug,
        "profile": profiles[slug],
        "count": count,
        "loadout": loadout or {},
        "pilot": pilot or [],
    }


def exact(odds_value) -> float:
    return float(odds_value["p"])


def assert_close(simulated: float, expected: float, n: int, what: str) -> None:
    """Within 4 standard errors of the exact probability (exactly equal when it is 0 or 1)."""
    se = math.sqrt(expected * (1 - expected) / n)
    if se == 0:
        assert simulated == pytest.approx(expected, abs=1e-12), what
    else:
        assert abs(simulated - expected) <= 4 * se, (
            f"{what}: simulated {simulated:.5f}, exact {expected:.5f}, SE {se:.5f}"
        )


def assert_distribution(simulated: dict, exact_list: list, n: int, what: str) -> None:
    values = {d["value"] for d in exact_list} | set(simulated)
    for v in values:
        p = next((float(d["p"]) for d in exact_list if d["value"] == v), 0.0)
        assert_close(simulated.get(v, 0.0), p, n, f"{what}[{v}]")


# One rule, three forms: a single virtual shot against actions["virtual_shot"].odds() -------------------------
SHOTS = [
    pytest.param(
        {
            "shooter": {"kind": "infantry"},
            "weapon": {"range": "Д6+2", "power": "2Д6"},
            "target": {"kind": "infantry", "armour": 2},
            "distance_steps": 5,
            "cover": "over_half_visible",
        },
        {},
        id="infantry-2d6-vs-br2-cover1",
    ),
    pytest.param(
        {
            "shooter": {"kind": "vehicle", "rof": 2, "ammo": 10},
            "weapon": {"range": "Д12", "power": "4Д12"},
            "target": {"kind": "vehicle", "strength": 7, "strength_max": 7, "pilot": {"armour": 3}},
            "distance_steps": 6,
        },
        {"panic": True},
        id="aviation-rocket-vs-salamander-panic",
    ),
    pytest.param(
        {
            "shooter": {"kind": "gun", "rof": 2, "ammo": 16, "crew_rank": 2, "rank": 2},
            "weapon": {"range": "Д12", "power": "3Д20"},
            "target": {"kind": "vehicle", "strength": 4, "strength_max": 14, "pilot": {"armour": 2}, "flying": True},
            "distance_steps": 3,
            "cover": "under_half_visible",
        },
        {},
        id="flyer-emergency-landing",
    ),
    pytest.param(
        {
            "shooter": {"kind": "infantry", "aimed": True},
            "weapon": {"range": "Д6+1", "power": "1Д12"},
            "target": {"kind": "infantry", "armour": 3},
            "distance_steps": 9,
        },
        {"aimed_fire": True},
        id="aimed-fire-g26",
    ),
    pytest.param(
        {
            "shooter": {"kind": "infantry"},
            "weapon": {"range": "Д20", "power": "2Д12"},
            "target": {"kind": "infantry", "armour": 4},
            "distance_steps": 11,
        },
        {"virtual_infantry_damage": "survival_test", "panic": True},
        id="house-rule-infantry-survival",
    ),
    pytest.param(
        {
            "shooter": {"kind": "vehicle", "rof": 1},
            "weapon": {"range": "Д12", "power": "Д12+2"},
            "target": {"kind": "gun", "strength": 8, "strength_max": 8},
            "distance_steps": 2,
        },
        {"survival_die": 12},
        id="per-die-modifier-vs-gun",
    ),
]


@pytest.mark.parametrize(("inputs", "rule_settings"), SHOTS)
def test_simulated_virtual_shot_matches_exact_odds(inputs, rule_settings):
    odds = get_system("bronepekhota").actions["virtual_shot"].odds(inputs, rule_settings)
    sim = simulate_virtual_shot(inputs, rule_settings, n=N, seed=11)
    assert_close(sim["p_hit"], exact(odds["p_hit"]), N, "p_hit")
    assert_distribution(sim["damage"], odds["damage"], N, "damage")
    for key in ("p_destroyed", "p_pilot_killed", "p_panic"):
        assert_close(sim[key], exact(odds[key]), N, key)
    if "strength_loss" in odds:
        assert_distribution(sim["strength_loss"], odds["strength_loss"], N, "strength_loss")


MELEES = [
    pytest.param(
        {"attacker": {"kind": "infantry", "melee": 2, "armour": 3}, "defender": {"kind": "infantry", "armour": 3}},
        {},
        id="g19-bb2-vs-br3",
    ),
    pytest.param(
        {
            "attacker": {"kind": "vehicle", "strength": 12, "melee": 2, "pilot": {"armour": 3}},
            "defender": {"kind": "vehicle", "strength": 10, "melee": 3, "pilot": {"armour": 2}},
        },
        {"panic": True},
        id="vehicle-vs-piloted-vehicle-panic",
    ),
    pytest.param(
        {
            "attacker": {"kind": "vehicle", "strength": 9, "melee_weapons": ["ББ/2", "ББ/1"], "pilot": {"armour": 3}},
            "defender": {"kind": "gun", "strength": 9, "strength_max": 9},
        },
        {},
        id="g18-vehicle-vs-gun-flat",
    ),
    pytest.param(
        {
            "attacker": {"kind": "infantry", "melee": 5, "armour": 2},
            "defender": {"kind": "vehicle", "strength": 4, "strength_max": 10, "pilot": None},
        },
        {},
        id="infantry-vs-pilotless-vehicle",
    ),
]


@pytest.mark.parametrize(("inputs", "rule_settings"), MELEES)
def test_simulated_melee_matches_exact_odds(inputs, rule_settings):
    odds = get_system("bronepekhota").actions["melee"].odds(inputs, rule_settings)
    sim = simulate_melee(inputs, rule_settings, n=N, seed=5)
    assert_close(sim["p_attacker_wins"], exact(odds["p_attacker_wins"]), N, "p_attacker_wins")
    assert_close(sim["p_defender_destroyed"], exact(odds["p_defender_destroyed"]), N, "p_defender_destroyed")
    assert_close(sim["p_pilot_killed"], exact(odds["p_pilot_killed"]), N, "p_pilot_killed")
    assert_close(sim["p_panic"], exact(odds["p_panic"]), N, "p_panic")
    if "damage" in odds:
        assert_distribution(sim["damage"], odds["damage"], N, "damage")
        assert_distribution(sim["strength_loss"], odds["strength_loss"], N, "strength_loss")


def test_g18_vehicle_always_beats_the_gun():
    inputs = MELEES[2].values[0]
    sim = simulate_melee(inputs, {}, n=5000, seed=1)
    assert sim["p_attacker_wins"] == 1.0
    assert set(sim["damage"]) == {4, 5, 6, 7, 8, 9}  # Д6 + 12 − 9


def test_initiative_is_fair_with_rerolls():
    n = 200_000
    first = roll_initiative(np.random.default_rng(3), n)
    assert_close(float(first.mean()), 0.5, n, "P(side B wins the initiative)")


# The battle model -------------------------------------------------------------------------------------------
ARMY_A = ["protectorate_kiberpehota", "trex", "griffin", "protectorate_regulyary_planety_velian"]
ARMY_B = ["polaris_lineynaya_klon_pehota", "helix", "polaris_lyogkiy_shturmovoy_desant", "raptor"]


def armies(profiles, a=ARMY_A, b=ARMY_B):
    return [entry(profiles, s) for s in a], [entry(profiles, s) for s in b]


def test_same_seed_same_numbers_and_another_seed_differs(profiles):
    side_a, side_b = armies(profiles)
    params = BattleParams()
    one = simulate(side_a, side_b, params, {}, n=3000, seed=np.random.SeedSequence(42, spawn_key=(0,)))
    two = simulate(side_a, side_b, params, {}, n=3000, seed=np.random.SeedSequence(42, spawn_key=(0,)))
    other = simulate(side_a, side_b, params, {}, n=3000, seed=np.random.SeedSequence(42, spawn_key=(1,)))
    assert one == two
    assert one != other
    assert one["wins_a"] + one["wins_b"] + one["draws"] == 3000
    assert sum(one["rounds_hist"]) == 3000


def test_same_seed_same_numbers_across_many_small_batches(profiles):
    # Several batches, with finished battles dropped between rounds: still one stream per seed.
    side_a, side_b = armies(profiles)
    battle = Battle(side_a, side_b, BattleParams(), {"panic": True})
    one = battle.run(2500, np.random.default_rng(8), batch=600)
    two = battle.run(2500, np.random.default_rng(8), batch=600)
    for key in one:
        assert np.array_equal(one[key], two[key]), key
    assert set(np.unique(one["rounds"])) <= set(range(1, 9))
    assert (one["rounds"] < 8).any()  # some battles ended early and were dropped from their batch


@pytest.mark.parametrize("rule_settings", [{}, {"grenades": True, "aimed_fire": True}])
def test_target_keys_hold_the_reference_scores_and_pick_the_first_best(profiles, rule_settings):
    # The engine chooses targets by one max() over int64 keys: they must decode to its scores (a shot: float32
    # tables multiplied in float32, exact in the key; the grenade: float64, to within its rank bits) and rank the
    # enemies so that a tie goes to the first one, like the reference's strict `>` scan.
    from rules.systems.bronepekhota.simulate.engine import _best

    side_a, side_b = armies(profiles)
    battle = Battle(side_a, side_b, BattleParams(distance=9), rule_settings)
    mask, T, L, D, W = battle.key_mask, battle.T, battle.key_stride, battle.D, battle.W
    for enemy, (e0, e1) in enumerate(battle.side_cols):
        for w in range(W + 1):
            for aimed in (False, True) if w < W else (False,):
                keys = battle.score_keys(enemy, w, aimed).reshape(e1 - e0, T, L)[:, :, : 2 * D + 1]
                if w == W:
                    want = (battle.VAL[w, e0:e1][:, :, None] * battle.GHITX).view(np.int64) & ~mask
                else:
                    hit = battle.HITX32[w + (W if aimed else 0)]
                    want = (battle.VAL32[w, e0:e1][:, :, None] * hit).astype(np.float64).view(np.int64)
                    assert not (want & mask).any()  # a float32 score widened to float64: the rank bits held zeros
                assert np.array_equal(keys & ~mask, want)
                assert ((keys & mask) == (mask - np.arange(e1 - e0))[:, None, None]).all()
    rng = np.random.default_rng(1)
    scores = rng.choice([0.0, 0.25, 0.5, 1.5], size=(battle.nA, 400))  # many ties
    keys = (scores.view(np.int64) & ~mask) | (mask - np.arange(battle.nA))[:, None]
    best, top = _best(keys, mask)
    assert np.array_equal(best, scores.argmax(0))  # numpy's argmax also returns the first maximum
    assert np.array_equal(top, scores.max(0))


def _agree(battle: Battle, n_python: int, n_numpy: int, seed: int):
    ref = summarise(battle.run_python(n_python, seed), rounds=battle.params.rounds, cost=battle.cost)
    vec = summarise(battle.run(n_numpy, np.random.default_rng(seed)), rounds=battle.params.rounds, cost=battle.cost)
    for key in ("wins_a", "wins_b", "draws"):
        p_ref, p_vec = ref[key] / n_python, vec[key] / n_numpy
        se = math.sqrt(p_ref * (1 - p_ref) / n_python + p_vec * (1 - p_vec) / n_numpy) or 1e-12
        assert abs(p_ref - p_vec) <= 4 * se, f"{key}: reference {p_ref:.4f}, numpy {p_vec:.4f}"
    for side in ("a", "b"):
        m_ref, m_vec = ref[f"surviving_{side}_sum"] / n_python, vec[f"surviving_{side}_sum"] / n_numpy
        var = ref[f"surviving_{side}_sumsq"] / n_python - m_ref**2
        se = math.sqrt(max(var, 0) / n_python) + 1e-9
        assert abs(m_ref - m_vec) <= 4.5 * se, f"surviving {side}: reference {m_ref:.2f}, numpy {m_vec:.2f}"
    mean_ref = sum((i + 1) * c for i, c in enumerate(ref["rounds_hist"])) / n_python
    mean_vec = sum((i + 1) * c for i, c in enumerate(vec["rounds_hist"])) / n_numpy
    assert abs(mean_ref - mean_vec) < 0.15
    return ref, vec


@pytest.mark.parametrize(
    ("rule_settings", "params"),
    [
        pytest.param({}, {}, id="defaults"),
        pytest.param({"panic": True, "grenades": True, "aimed_fire": True}, {"approach": "hold"}, id="options-hold"),
        pytest.param(
            {
                "ammo_short_shot": "strict",
                "ammo_refreshes": 1,
                "survival_die": 12,
                "virtual_infantry_damage": "survival_test",
            },
            {"distance": 20, "cover_a": "under_half_visible", "initiative": "b"},
            id="house-rules",
        ),
    ],
)
def test_vectorised_engine_agrees_with_plain_python_reference(profiles, rule_settings, params):
    side_a, side_b = armies(profiles)
    battle = Battle(side_a, side_b, BattleParams(**params), rule_settings)
    _agree(battle, 1500, 20000, seed=7)


def test_engine_agrees_with_reference_with_flyers_guns_and_panic(profiles):
    # THUNDER flies; a mortar needs a crew; panic makes pilots bail out and re-board.
    side_a, side_b = armies(
        profiles,
        a=["protectorate_kiberpehota", "octopus", "protectorate_spetsnaz_planety_felitsiya", "minomet"],
        b=["polaris_lineynaya_klon_pehota", "thunder", "polaris_tyazhyolyy_shturmovoy_desant", "stilet"],
    )
    battle = Battle(side_a, side_b, BattleParams(rounds=10), {"panic": True, "ammo_refreshes": 1})
    flyers = [el.name for el in battle.els if el.flyer]
    assert flyers == [profiles["octopus"]["name"], profiles["thunder"]["name"]]
    assert all(g.crew is not None for f in battle.forces for g in f.guns)
    _agree(battle, 1500, 20000, seed=3)


def test_pilots_named_by_the_roster_are_used_else_the_cheapest_qualified(profiles):
    squad = entry(profiles, "protectorate_spetsnaz_planety_felitsiya", key="s1")  # six rank-3 soldiers
    named = entry(profiles, "trex", key="v1", pilot=[{"entry": "s1", "soldier": 4, "copy": 1}])
    auto = entry(profiles, "griffin", key="v2")
    battle = Battle([squad, named, auto], [entry(profiles, "aborigeny")], BattleParams(), {})
    pilots = {v["vehicle"]: v["pilot"] for v in battle.describe()["sides"][0]["pilots"]}
    assert pilots["T-REX"].endswith("#4")
    assert pilots["GRYPHON"] is not None
    assert not pilots["GRYPHON"].endswith("#4")
    assert battle.warnings == []


def test_a_vehicle_nobody_can_pilot_never_acts_and_is_reported(profiles):
    # Rank-1 militia cannot pilot a rank-3 VARAN: the vehicle never acts, so the militia fights alone.
    side_a = [entry(profiles, "protectorate_opolchenie_planety_gelion"), entry(profiles, "varan")]
    battle = Battle(side_a, [entry(profiles, "aborigeny")], BattleParams(), {})
    assert any("VARAN" in w and "never acts" in w for w in battle.warnings)
    res = summarise(battle.run(2000, np.random.default_rng(1)), rounds=8, cost=battle.cost)
    alone = Battle([side_a[0]], [entry(profiles, "aborigeny")], BattleParams(), {})
    res_alone = summarise(alone.run(2000, np.random.default_rng(1)), rounds=8, cost=alone.cost)
    assert abs(res["wins_a"] - res_alone["wins_a"]) / 2000 < 0.05


def test_an_army_of_uncrewed_guns_has_no_soldier_and_loses_at_once(profiles):
    battle = Battle([entry(profiles, "minomet")], [entry(profiles, "aborigeny")], BattleParams(), {})
    assert any("stays silent" in w for w in battle.warnings)
    res = summarise(battle.run(100, np.random.default_rng(1)), rounds=8, cost=battle.cost)
    assert res["wins_b"] == 100
    assert res["rounds_hist"][0] == 100
    ref = summarise(battle.run_python(20, 1), rounds=8, cost=battle.cost)
    assert ref["wins_b"] == 20


def test_out_of_reach_for_one_round_is_a_draw(profiles):
    # 100 steps apart and one round: nobody can reach anybody.
    side_a, side_b = armies(profiles)
    res = simulate(side_a, side_b, BattleParams(distance=100, rounds=1), {}, n=500, seed=1)
    assert res["draws"] == 500
    assert res["surviving_a_sum"] == pytest.approx(500 * 310)


def test_melee_only_squads_close_in_and_fight(profiles):
    # Aborigines have no guns at all: every battle is decided in melee, so nobody survives untouched.
    res = simulate(
        [entry(profiles, "aborigeny")],
        [entry(profiles, "protectorate_kosari")],
        BattleParams(rounds=20),
        {},
        n=2000,
        seed=2,
    )
    assert res["wins_a"] + res["wins_b"] > 1900  # 20 rounds is plenty to finish a melee
    assert res["rounds_hist"][0] == 0  # 14 steps apart at speed 4–5: no contact in round 1


def test_duel_stand_ins_let_vehicles_and_guns_fight(profiles):
    battle = Battle(
        entries_from_profile(profiles["trex"]),
        entries_from_profile(profiles["minomet"]),
        BattleParams(),
        {},
        stand_ins=True,
    )
    assert [u.name for u in battle.units if u.cost == 0] == ["stand-in crew of T-REX", "stand-in crew of МИНОМЕТ"]
    res = summarise(battle.run(2000, np.random.default_rng(4)), rounds=8, cost=battle.cost)
    assert res["wins_a"] > res["wins_b"]  # a walking battle tank against a mortar


def test_bad_parameters_name_their_field():
    with pytest.raises(RuleInputError) as err:
        BattleParams(distance=0, rounds=0, cover_a="hidden", initiative="x", approach="run").check()
    assert set(err.value.errors) == {"distance", "rounds", "cover_a", "initiative", "approach"}


def test_real_shooting_and_unknown_settings_are_refused():
    with pytest.raises(RuleInputError) as err:
        resolve_settings({"mode": "real"})
    assert "settings.mode" in err.value.errors
    with pytest.raises(RuleInputError) as err:
        resolve_settings({"no_such_rule": True})
    assert "settings.no_such_rule" in err.value.errors
    with pytest.raises(RuleInputError):
        resolve_settings({"panic": "yes"})


def test_every_setting_is_either_simulated_or_explained():
    from rules.systems.bronepekhota.settings import SETTINGS
    from rules.systems.bronepekhota.simulate import IGNORED_SETTINGS, SIMULATED_SETTINGS

    keys = {s.key for s in SETTINGS}
    assert set(SIMULATED_SETTINGS) | set(IGNORED_SETTINGS) == keys
    assert not set(SIMULATED_SETTINGS) & set(IGNORED_SETTINGS)
