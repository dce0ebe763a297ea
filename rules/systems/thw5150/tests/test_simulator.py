"""One rule, three forms: the vectorised simulator against its plain-Python reference (the same model, dice rolled
one by one) and against the exact odds of the Shooting, Received Fire and Recovery actions (spec §3.5–§3.11)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from rules.errors import RuleInputError
from rules.systems.thw5150 import core
from rules.systems.thw5150.simulate import SIMULATOR, engine
from rules.systems.thw5150.simulate.model import DUCK, KD, Battle
from rules.systems.thw5150.simulate.reference import run_python
from rules.systems.thw5150.tests.helpers import frac, odds

PACK = json.loads((Path(__file__).resolve().parents[1] / "data" / "normals.json").read_text(encoding="utf-8"))
PROFILES = {p["slug"]: p for p in PACK["profiles"]}
CONDITION = {0: "fine", 1: "knocked_down", 2: "duck_back", 3: "hunker_down", 4: "runaway", 5: "out_of_fight",
             6: "dead"}  # fmt: skip


def entry(key, slug, count=1, **options):
    return {"key": key, "profile": PROFILES[slug], "count": count, "options": options}


POLICE = {"faction": "police", "entries": [
    entry("a", "police-u5", weapon="assault_rifle", armour="light", leader=True),
    entry("b", "police-u4", 3, weapon="semi_auto_rifle", armour="heavy"),
    entry("c", "police-u3", 2, weapon="smg", group="2", star=True),
]}  # fmt: skip
GANG = {"faction": "criminals", "entries": [
    entry("a", "criminals-u4", weapon="machine_gun", leader=True),
    entry("b", "criminals-u4", 3, weapon="pump_shotgun", armour="light"),
    entry("c", "criminals-u3", 3, weapon="pistol", second_weapon="pistol", armour="absorbing"),
]}  # fmt: skip


def within(p1: float, n1: int, p2: float, n2: int, k: float = 4.0) -> bool:
    se = math.sqrt(max(p1 * (1 - p1), 1e-9) / n1 + max(p2 * (1 - p2), 1e-9) / n2)
    return abs(p1 - p2) <= k * se


@pytest.mark.parametrize(
    ("params", "overrides"),
    [
        ({}, {}),
        ({"cover_b": True, "max_turns": 6}, {"damage_every_hit": False, "lucky_shot_rep": "base"}),
        ({"cover_a": True}, {"outgunned_stationary_in_open": "fire", "activation_rep": "highest", "stars": False}),
    ],
)
def test_vectorised_engine_and_plain_python_reference_agree(params, overrides):
    prepared = SIMULATOR.prepare(POLICE, GANG, params, overrides)
    fast = SIMULATOR.run(prepared, 20_000, np.random.default_rng(3))
    slow = run_python(prepared.model, 2_500, seed=4)
    n1, n2 = len(fast["winner"]), len(slow["winner"])
    for outcome in (0, 1, -1):
        p1 = float(np.mean(fast["winner"] == outcome))
        p2 = float(np.mean(np.array(slow["winner"]) == outcome))
        assert within(p1, n1, p2, n2), (outcome, p1, p2)
    for key in ("rounds", "left_a", "left_b"):
        a, b = np.asarray(fast[key], float), np.asarray(slow[key], float)
        se = math.sqrt(a.var() / n1 + b.var() / n2)
        assert abs(a.mean() - b.mean()) <= 4 * se + 1e-9, (key, a.mean(), b.mean())


def _duel(shooter: dict, target: dict, params=None, settings=None) -> Battle:
    a = {"entries": [{"key": "s", "profile": PROFILES["police-u5"] | {"data": {"rep": shooter.pop("rep")}},
                      "count": 1, "options": shooter}]}  # fmt: skip
    b = {"entries": [{"key": "t", "profile": PROFILES["police-u5"] | {"data": {"rep": target.pop("rep")}},
                      "count": 1, "options": target}]}  # fmt: skip
    return SIMULATOR.prepare(a, b, params or {}, settings or {}).model


N = 40_000


@pytest.mark.parametrize(
    ("shooter", "target", "cover", "rep_mod", "lying"),
    [
        ({"rep": 4, "weapon": "assault_rifle"}, {"rep": 4, "weapon": "pistol", "armour": "light"}, False, 0, False),
        ({"rep": 3, "weapon": "machine_gun"}, {"rep": 5, "weapon": "rifle", "armour": "absorbing", "leader": True},
         True, -1, False),
        ({"rep": 5, "weapon": "smg", "second_weapon": "smg"}, {"rep": 3, "weapon": "smg", "armour": "heavy"}, False,
         0, True),
    ],
)  # fmt: skip
def test_a_volley_and_received_fire_match_the_exact_odds(shooter, target, cover, rep_mod, lying):
    shot = {"rep": shooter["rep"], "weapon": shooter["weapon"], "rep_modifier": rep_mod}
    if "second_weapon" in shooter:
        shot["second_weapon"] = shooter["second_weapon"]
    tgt = {"armour": target.get("armour", "none"), "in_cover": cover, "prone": lying}
    rf_member = {"rep": target["rep"], "in_cover": cover, "leader": bool(target.get("leader"))}
    bt = _duel(dict(shooter), dict(target), {"cover_b": cover})
    exact = odds("shooting", {"shooter": shot, "targets": [{"dice": int(bt.rof[0]), **tgt}]})
    got = engine.sample_exchange(bt, N, np.random.default_rng(11), 0, 1, rep_mod=rep_mod, lying=lying)
    status = {"dead": "dead", "out_of_fight": "out_of_fight", "knocked_down": "knocked_down", "fine": "no_damage",
              "duck_back": "no_damage", "hunker_down": "no_damage", "runaway": "no_damage"}  # fmt: skip
    seen = [status[CONDITION[int(c)]] for c in got["condition"]]
    for key in core.DAMAGE_ORDER:
        p = float(frac(exact["targets"][0][f"p_{key}"]))
        assert within(seen.count(key) / N, N, p, 10**9), (key, seen.count(key) / N, p)
    p_empty = float(frac(exact["p_out_of_ammo"]))
    assert within(float(got["out_of_ammo"].mean()), N, p_empty, 10**9)
    if lying:
        return  # a lying target's Received Fire is checked without the prone flag below
    rf_member["outgunned"] = bool(bt.outgun[0] > bt.own_outgun[1])
    rf = odds("received_fire", {"members": [rf_member]})["members"][0]
    tested = got["received_fire"] != ""
    results = got["received_fire"][tested]
    for name, p in rf["outcomes"].items():
        assert within(float(np.mean(results == name)), int(tested.sum()), float(frac(p)), 10**9), name
    p_hero = float(frac(rf["p_becomes_hero"]))
    assert within(float(got["hero"][tested].mean()), int(tested.sum()), p_hero, 10**9)


@pytest.mark.parametrize(("state", "name"), [(KD, "knocked_down"), (DUCK, "duck_back")])
def test_recovery_matches_the_exact_odds(state, name):
    bt = _duel({"rep": 4, "weapon": "rifle", "leader": True}, {"rep": 4, "weapon": "rifle"})
    after = engine.sample_recovery(bt, N, np.random.default_rng(5), 0, state)
    exact = odds("recovery", {"figure": {"rep": 4, "leader": True, "state": name}})["outcomes"]
    for outcome, p in exact.items():
        cond = {"returns_may_act": "fine"}.get(outcome, outcome)
        freq = float(np.mean([CONDITION[int(c)] == cond for c in after]))
        assert within(freq, N, float(frac(p)), 10**9), (outcome, freq)


def test_the_simulator_part_contract():
    prepared = SIMULATOR.prepare(POLICE, GANG, {}, {})
    assert prepared.cost == (float(83 + 41 + 27 + 3 * (66 + 28 + 68) + 2 * (50 + 7)), float(66 + 58 + 3 * (66 + 22 + 27)
                                                                                          + 3 * (50 + 8 + 102)))  # fmt: skip
    one = SIMULATOR.run(prepared, 500, np.random.default_rng(9))
    two = SIMULATOR.run(prepared, 500, np.random.default_rng(9))
    assert set(one) == {"winner", "rounds", "left_a", "left_b"}
    assert all(len(v) == 500 for v in one.values())
    assert all(np.array_equal(one[k], two[k]) for k in one)
    assert set(np.unique(one["winner"])) <= {-1, 0, 1}
    assert (one["left_a"] <= prepared.cost[0]).all()
    with pytest.raises(RuleInputError) as caught:
        SIMULATOR.prepare(POLICE, GANG, {"max_turns": 0}, {})
    assert "params.max_turns" in caught.value.errors
    duel = SIMULATOR.prepare(SIMULATOR.side_from_profile(PROFILES["police-u5"]),
                             SIMULATOR.side_from_profile(PROFILES["colonists-u3"]), {}, {})  # fmt: skip
    assert duel.forces[0]["figures"] == 1
    assert SIMULATOR.describe()["simulated"]
    assert SIMULATOR.describe()["left_out"]


def test_every_setting_is_simulated_or_named_as_ignored():
    from rules.systems.thw5150.settings import INTERPRETATION, SETTINGS
    from rules.systems.thw5150.simulate import IGNORED_SETTINGS, SIMULATED_SETTINGS

    choosable = {s.key for s in SETTINGS if s.category != INTERPRETATION}
    assert SIMULATED_SETTINGS | set(IGNORED_SETTINGS) == choosable
    assert not SIMULATED_SETTINGS & set(IGNORED_SETTINGS)
    assert SIMULATOR.prepare(POLICE, GANG, {"max_turns": 7}, {}).rounds == 7


def test_params_and_settings_change_the_numbers():
    base = SIMULATOR.run(SIMULATOR.prepare(POLICE, GANG, {}, {}), 4000, np.random.default_rng(2))
    covered = SIMULATOR.run(SIMULATOR.prepare(POLICE, GANG, {"cover_a": True}, {}), 4000, np.random.default_rng(2))
    assert covered["winner"].tolist().count(0) > base["winner"].tolist().count(0)


def test_the_job_page_lists_each_sides_figures_in_the_readers_words():
    """The forces a job stored are worded when shown: never the stored keys («list: … figures: 2»)."""
    from django.utils import translation

    forces = json.loads(json.dumps(SIMULATOR.prepare(POLICE, GANG, {}, {}).forces))  # as the job stores them
    with translation.override("ru"):
        ru = SIMULATOR.describe_forces(forces)
    with translation.override("en"):
        en = SIMULATOR.describe_forces(forces)
    assert [s["side"] for s in ru] == ["A", "B"]
    assert ru[0]["cost"] == forces[0]["cost"]
    assert forces[0]["figures"] == 6
    assert ru[0]["lines"] == ["6 фигурок: " + ", ".join(forces[0]["list"])]
    assert en[0]["lines"] == ["6 figures: " + ", ".join(forces[0]["list"])]
    assert "list" not in " ".join(ru[0]["lines"] + ru[1]["lines"])
