"""Issue 17, the simulator's blind spots: surprise attacks (a share of melee attacks, p.41), obstacles (a share of
infantry moves, Table 1, A9) and repair (§3.11: the HELIX platform, a «Рм» pilot) are simulated. Each is bound
to the exact odds where it is one roll, the vectorised engine agrees with the plain-Python reference with all of
them on, and each changes the outcome."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from rules.errors import RuleInputError
from rules.registry import get_system
from rules.systems.bronepekhota.simulate import Battle, BattleParams, simulate_melee, summarise
from rules.systems.bronepekhota.tests.test_simulate import PACK, _agree, assert_close, entry, exact

N = 60_000


@pytest.fixture(scope="module")
def profiles() -> dict:
    return {p["slug"]: p for p in json.loads(PACK.read_text(encoding="utf-8"))["profiles"]}


@pytest.mark.parametrize(
    "inputs",
    [
        pytest.param(
            {
                "attacker": {"kind": "infantry", "melee": 2, "armour": 3},
                "defender": {"kind": "infantry", "armour": 3},
                "surprise": True,
            },
            id="infantry",
        ),
        pytest.param(
            {
                "attacker": {"kind": "infantry", "melee": 4, "armour": 3},
                "defender": {"kind": "vehicle", "strength": 4, "strength_max": 9, "melee": 3, "pilot": {"armour": 3}},
                "surprise": True,
            },
            id="vehicle-loses-its-bb",
        ),
    ],
)
def test_a_surprise_melee_matches_the_exact_odds(inputs):
    odds = get_system("bronepekhota").actions["melee"].odds(inputs, {})
    sim = simulate_melee(inputs, {}, n=N, seed=11)
    assert_close(sim["p_attacker_wins"], exact(odds["p_attacker_wins"]), N, "p_attacker_wins")
    assert_close(sim["p_defender_destroyed"], exact(odds["p_defender_destroyed"]), N, "p_defender_destroyed")
    assert_close(sim["p_pilot_killed"], exact(odds["p_pilot_killed"]), N, "p_pilot_killed")
    plain = simulate_melee({**inputs, "surprise": False}, {}, n=N, seed=11)
    assert sim["p_attacker_wins"] > plain["p_attacker_wins"] + 0.05  # two dice, the higher


def _armies(profiles, *, helix="repair"):
    """Blue: «Рм» special forces of Felicia (one drives the OCTOPUS) and assault troops; red: heavy clone infantry
    with «Рм» (one drives the HELIX), melee troops and the HELIX with the repair platform (or its rockets)."""
    blue = [
        entry(profiles, "protectorate_spetsnaz_planety_felitsiya", key="b1"),
        entry(profiles, "octopus", key="b2", pilot=[{"entry": "b1", "soldier": 2}]),
        entry(profiles, "protectorate_shturmovoy_otryad_stervyatniki", key="b3"),
    ]
    red = [
        entry(profiles, "polaris_tyazhyolaya_klon_pehota", key="r1"),
        entry(profiles, "helix", key="r2", pilot=[{"entry": "r1", "soldier": 3}], loadout={"variant": helix}),
        entry(profiles, "polaris_lyogkaya_shturmovaya_klon_pehota", key="r3"),
    ]
    return blue, red


def test_engine_agrees_with_reference_with_surprise_obstacles_and_repair(profiles):
    blue, red = _armies(profiles)
    battle = Battle(blue, red, BattleParams(rounds=10, surprise=50, obstacles=50), {"panic": True})
    helix = next(el for el in battle.els if el.name == profiles["helix"]["name"])
    octopus = next(el for el in battle.els if el.name == profiles["octopus"]["name"])
    assert battle.e_repair[helix.index] == 2
    assert battle.e_repair[octopus.index] == 1
    _agree(battle, 1500, 20000, seed=5)


def _score(battle: Battle, n: int = 20_000, seed: int = 3) -> dict:
    out = summarise(battle.run(n, np.random.default_rng(seed)), rounds=battle.params.rounds, cost=battle.cost)
    out["p_a"] = (out["wins_a"] + 0.5 * out["draws"]) / n
    out["mean_rounds"] = sum((i + 1) * c for i, c in enumerate(out["rounds_hist"])) / n
    return out


def _differ(x: float, y: float, n: int, what: str) -> None:
    se = math.sqrt(2 * 0.25 / n)
    assert abs(x - y) > 4 * se, f"{what}: {x:.4f} against {y:.4f} (SE {se:.4f})"


def test_surprise_attacks_change_the_outcome(profiles):
    # Two assault squads that close in and fight: with every attack a surprise, melee kills sooner.
    blue = [entry(profiles, "protectorate_shturmovoy_otryad_stervyatniki", key="b1")]
    red = [entry(profiles, "polaris_tyazhyolyy_shturmovoy_desant", key="r1")]
    none = _score(Battle(blue, red, BattleParams(distance=6), {}))
    every = _score(Battle(blue, red, BattleParams(distance=6, surprise=100), {}))
    assert every["mean_rounds"] < none["mean_rounds"] - 0.2, (none["mean_rounds"], every["mean_rounds"])


def test_obstacles_slow_the_infantry_down(profiles):
    blue, red = _armies(profiles)
    none = _score(Battle(blue, red, BattleParams(rounds=12), {}))
    every = _score(Battle(blue, red, BattleParams(rounds=12, obstacles=100), {}))
    assert every["mean_rounds"] > none["mean_rounds"] + 0.1
    # A9 off: an obstacle costs 1 SP more, not 2, so the battles are shorter than with the additive reading
    lighter = _score(Battle(blue, red, BattleParams(rounds=12, obstacles=100), {"obstacle_cost_additive": False}))
    assert lighter["mean_rounds"] < every["mean_rounds"] - 0.05


def test_repair_keeps_the_helix_going(profiles):
    # A HUNTER and cyber-infantry shoot from where they stand; the HELIX (repair platform) restores 2 a round.
    blue = [entry(profiles, "hunter", key="b1"), entry(profiles, "protectorate_kiberpehota", key="b2")]
    red = [
        entry(profiles, "polaris_tyazhyolaya_klon_pehota", key="r1"),
        entry(profiles, "helix", key="r2", pilot=[{"entry": "r1", "soldier": 3}], loadout={"variant": "repair"}),
    ]
    params = BattleParams(rounds=10, distance=20, approach="hold")
    with_repair = Battle(blue, red, params, {})
    without = Battle(blue, red, params, {})
    without.e_repair[:] = 0  # the same battle with nobody repairing
    for plan in without.plans:
        plan.repair = 0
    n = 20_000
    rep, bare = _score(with_repair, n), _score(without, n)
    means, ses = [], []
    for out in (rep, bare):
        mean = out["surviving_b_sum"] / n
        means.append(mean)
        ses.append(math.sqrt(max(out["surviving_b_sumsq"] / n - mean**2, 0) / n))
    assert means[0] - means[1] > 4 * math.hypot(*ses), (means, ses)


def test_the_new_parameters_are_checked():
    for key in ("surprise", "obstacles"):
        for bad in (-1, 101, 2.5, True):
            with pytest.raises(RuleInputError) as exc:
                BattleParams(**{key: bad}).check()
            assert key in exc.value.errors
    part = get_system("bronepekhota").simulator
    assert part.check_params({"surprise": 30})["surprise"] == 30
    assert part.check_params({})["obstacles"] == 0
