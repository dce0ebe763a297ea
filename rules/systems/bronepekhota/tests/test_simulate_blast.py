"""Issue 17, the simulator's last blind spot: blast specials (§7.4 IV, p.33–34; A6), an optional rule. With
special_properties on, a hit of a weapon with a blast (the heavy rocket: 2 steps, 1Д20) attacks every other
element within its radius, of either side, each with its own II/III; blast_hits_target adds the pool to the
target's, blast_cover gives the victims their cover. The three forms agree (resolver, exact odds, the simulator's
primitives), the vectorised engine agrees with the plain-Python reference, and the rule changes the battles."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from rules.dice import SeededDice
from rules.registry import get_system
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.simulate import (
    IGNORED_SETTINGS,
    MODEL_VERSION,
    SIMULATED_SETTINGS,
    Battle,
    BattleParams,
    simulate_virtual_shot,
    summarise,
)
from rules.systems.bronepekhota.tests.test_simulate import PACK, _agree, entry

SYSTEM = get_system("bronepekhota")
BASE = SYSTEM.default_settings()
ON = {**BASE, "special_properties": True}


@pytest.fixture(scope="module")
def profiles() -> dict:
    return {p["slug"]: p for p in json.loads(PACK.read_text(encoding="utf-8"))["profiles"]}


# One rule, three forms --------------------------------------------------------------------------------------
ROCKET_SHOT = {
    "shooter": {"kind": "vehicle", "rof": 2},
    "weapon": {"range": "Д12", "power": "4Д20", "special": {"blast_steps": 2, "blast_power": "1Д20"}},
    "target": {"kind": "vehicle", "strength": 12, "strength_max": 14, "pilot": {"armour": 3}},
    "distance_steps": 4,
    "cover": "under_half_visible",
    "blast": [
        {"kind": "infantry", "armour": 3, "ref": "s", "soldier": 2, "cover": "under_half_visible"},
        {"kind": "vehicle", "strength": 9, "strength_max": 12, "pilot": {"armour": 3}, "cover": "over_half_visible"},
    ],
}


@pytest.mark.parametrize(
    ("hits_target", "blast_cover", "infantry"),
    [(False, False, "destroyed"), (True, False, "destroyed"), (True, True, "survival_test")],
)
def test_blast_resolver_odds_and_simulator_agree(hits_target, blast_cover, infantry):
    settings = {
        **ON,
        "blast_hits_target": hits_target,
        "blast_cover": blast_cover,
        "panic": True,
        "virtual_infantry_damage": infantry,
    }
    action = SYSTEM.action("virtual_shot")
    odds = action.odds(ROCKET_SHOT, settings)
    n, rolled = 40_000, 1_500  # the resolver is slow (validation, log lines): fewer rolls, wider bounds
    sim = simulate_virtual_shot(ROCKET_SHOT, settings, n=n, seed=7)
    dice, counts = SeededDice(31), Counter()
    for _ in range(rolled):
        result = action.resolve(ROCKET_SHOT, settings, dice).result
        counts["target", "destroyed"] += bool(result["target"] and result["target"]["destroyed"])
        counts["target", "pilot_killed"] += bool(result["target"] and result["target"].get("pilot") == tables.KILLED)
        for i, v in enumerate(result["blast"]):
            counts[i, "attacked"] += 1
            counts[i, "destroyed"] += v["destroyed"]
            counts[i, "pilot_killed"] += v.get("pilot") == tables.KILLED
            counts[i, "panic"] += tables.PANIC in (v.get("pilot"), v.get("survival"))

    def close(got: float, p: float, size: int, what) -> None:
        assert abs(got - p) <= 4 * max((p * (1 - p) / size) ** 0.5, 1 / size), (what, got, p)

    for key in ("destroyed", "pilot_killed"):
        p = float(Fraction(odds[f"p_{key}"]["exact"]))
        close(sim[f"p_{key}"], p, n, ("target", key, "simulator"))
        close(counts["target", key] / rolled, p, rolled, ("target", key, "resolver"))
    assert len(sim["blast"]) == len(odds["blast"]) == 2
    for i, (exact, simulated) in enumerate(zip(odds["blast"], sim["blast"], strict=True)):
        for key in ("attacked", "destroyed", "pilot_killed", "panic"):
            p = float(Fraction(exact[f"p_{key}"]["exact"]))
            close(simulated[f"p_{key}"], p, n, (i, key, "simulator"))
            close(counts[i, key] / rolled, p, rolled, (i, key, "resolver"))
    # the settings matter: the soldier (Бр 3, under half visible) is attacked on a hit (Д12 >= 4: 3/4) by 1Д20
    soldier = 20 - (3 + (tables.cover_bonus("under_half_visible") if blast_cover else 0))
    killed = Fraction(soldier, 20)
    if infantry == "survival_test":
        killed *= tables.survival_probabilities(3, 6, panic_rule=True)[tables.KILLED]
    assert Fraction(odds["blast"][0]["p_destroyed"]["exact"]) == Fraction(3, 4) * killed


def test_without_special_properties_a_shot_has_no_blast():
    shot = {k: v for k, v in ROCKET_SHOT.items() if k != "blast"}
    sim = simulate_virtual_shot(shot, BASE, n=20_000, seed=3)
    on = simulate_virtual_shot(shot, {**ON, "blast_hits_target": True}, n=20_000, seed=3)
    assert sim["blast"] == []
    # the blast's own die against the target: more damage with blast_hits_target
    assert on["p_destroyed"] + on["p_pilot_killed"] > sim["p_destroyed"] + sim["p_pilot_killed"] + 0.02


# Battles -----------------------------------------------------------------------------------------------------
def _armies(profiles):
    """Blue: a WEREWOLF (heavy rocket, 2-step blast) and infantry; red: two squads that bunch up as they close in,
    and a HUNTER."""
    blue = [
        entry(profiles, "werewolf", key="b1"),
        entry(profiles, "protectorate_shturmovoy_otryad_stervyatniki", key="b2"),
    ]
    red = [
        entry(profiles, "polaris_lineynaya_klon_pehota", key="r1"),
        entry(profiles, "polaris_lyogkaya_shturmovaya_klon_pehota", key="r2"),
        entry(profiles, "hunter", key="r3"),
    ]
    return blue, red


def test_the_heavy_rocket_carries_its_blast_only_with_special_properties(profiles):
    blue, red = _armies(profiles)
    on, off = Battle(blue, red, BattleParams(), ON), Battle(blue, red, BattleParams(), BASE)
    assert [w.blast_steps for w in on.weapons if w.blast_steps] == [2]
    assert not any(w.blast_steps for w in off.weapons)
    rocket = next(s for p in on.plans for s in p.slots if s["blast"])
    assert rocket["blast"] == (2, 1, 20, 0)


@pytest.mark.parametrize(
    "rule_settings",
    [
        pytest.param({}, id="blast"),
        pytest.param(
            {"blast_hits_target": True, "blast_cover": True, "virtual_infantry_damage": "survival_test", "panic": True},
            id="blast-target-cover-house-rule",
        ),
    ],
)
def test_engine_agrees_with_reference_with_blasts(profiles, rule_settings):
    blue, red = _armies(profiles)
    battle = Battle(blue, red, BattleParams(rounds=8, cover_b="under_half_visible"), {**ON, **rule_settings})
    _agree(battle, 1500, 20_000, seed=9)


def _victims_by_hand(battle: Battle, adv: list[int], t: int, steps: int) -> set[int]:
    """Who stands within `steps` of target t, read straight from the model's geometry."""
    out = set()
    for j in range(battle.N):
        if j == t or battle.e_dormant[j]:
            continue
        same = battle.e_side[j] == battle.e_side[t]
        dist = abs(adv[j] - adv[t]) if same else abs(battle.D - adv[j] - adv[t])
        if dist <= steps:
            out.add(j)
    return out


def test_blast_victims_are_everyone_within_the_radius_of_either_side(profiles):
    from rules.systems.bronepekhota.simulate.engine.combat import _blast_victims
    from rules.systems.bronepekhota.simulate.engine.state import _State

    blue, red = _armies(profiles)
    battle = Battle(blue, red, BattleParams(distance=14), ON)
    S = _State(battle, 1, 0)
    rng = np.random.default_rng(4)
    for _ in range(20):
        adv = rng.integers(0, 8, battle.N + 1).tolist()
        S.adv[:, 0] = adv
        for t in range(battle.nA, battle.N):  # red targets
            if battle.e_dormant[t] or S.aboard[t, 0]:
                continue
            got = set(np.flatnonzero(_blast_victims(battle, S, np.array([0]), np.array([t]), 2)[:, 0]).tolist())
            want = _victims_by_hand(battle, adv, t, 2) - set(np.flatnonzero(S.aboard[:, 0]).tolist())
            assert got == want
    # the shooter's own side is caught too: a blue soldier 1 step from a red target
    S.adv[:, 0] = 0
    t, own = battle.soldier_cols[1][0], next(c for c in battle.soldier_cols[0] if not S.aboard[c, 0])
    S.adv[t, 0], S.adv[own, 0] = 6, 7  # 14 − 6 − 7 = 1 step apart
    victims = _blast_victims(battle, S, np.array([0]), np.array([t]), 2)[:, 0]
    assert victims[own]
    assert not victims[t]
    S.adv[own, 0] = 4  # 4 steps apart: out of the radius
    assert not _blast_victims(battle, S, np.array([0]), np.array([t]), 2)[own, 0]


def _score(battle: Battle, n: int, seed: int) -> dict:
    out = summarise(battle.run(n, np.random.default_rng(seed)), rounds=battle.params.rounds, cost=battle.cost)
    out["mean_b"] = out["surviving_b_sum"] / n
    out["se_b"] = math.sqrt(max(out["surviving_b_sumsq"] / n - out["mean_b"] ** 2, 0) / n)
    return out


def test_blasts_change_the_battles(profiles):
    # The rocket's blast kills bystanders of the red squads: red keeps less of its army with the rule on. Fails
    # if the engine ignores special_properties.
    blue, red = _armies(profiles)
    n = 20_000
    off = _score(Battle(blue, red, BattleParams(), BASE), n, 5)
    on = _score(Battle(blue, red, BattleParams(), ON), n, 5)
    assert off["mean_b"] - on["mean_b"] > 4 * math.hypot(off["se_b"], on["se_b"]), (off["mean_b"], on["mean_b"])


def test_the_job_page_lists_blasts_as_simulated():
    part = SYSTEM.simulator
    assert MODEL_VERSION >= 4
    assert part.model_version == MODEL_VERSION
    for key in ("special_properties", "blast_hits_target"):
        assert key in SIMULATED_SETTINGS
        assert key not in IGNORED_SETTINGS
    assert any("§7.4 IV" in str(line) for line in part.simulated)
    assert not any("Blast specials" in str(line) for line in part.left_out)
