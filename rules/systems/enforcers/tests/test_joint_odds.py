"""The odds say everything (issue «joint outcomes»): every action that changes a character sheet also answers
`sheet_after`, the exact joint distribution of what the players write on the sheets after the test (HP, AP, wound
state, the statuses a hit may give, a lost aim, the model on the line of fire; for the injuries the tiers, the days
out, the WL and the stat lost). Each joint sums to 1 exactly, lists each outcome once, and its marginals are the
older fields exactly; the resolver lands only on outcomes of positive probability and, sampled, within 4 standard
errors of them.

And «a higher tier implies the lower»: a character that was dying also takes the light and the medium injury tests
(its HP fell through 0 and to half on the way, L222, L242–246, L321), flags that contradict each other are refused
with the HP limits as data, and the tracker keeps the lowest HP so the campaign tests what the character went
through."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from rules import dice as dicelib
from rules.contract.testing import Table
from rules.dice import SeededDice
from rules.errors import RuleInputError
from rules.systems.enforcers import tables
from rules.systems.enforcers.actions.after import Injuries
from rules.systems.enforcers.actions.common import sheet_parts
from rules.systems.enforcers.actions.labels import result_labels, value_labels
from rules.systems.enforcers.actions.melee import Melee
from rules.systems.enforcers.actions.shooting import Shoot, tracked_statuses
from rules.systems.enforcers.campaign import CAMPAIGN
from rules.systems.enforcers.system import SYSTEM
from rules.systems.enforcers.tests.helpers import agent, as_dist, frac, odds, resolve, settings

N = 2000


def joint(items: list[dict]) -> dict[tuple, Fraction]:
    """A joint answer as {((part, value), …): exact}; every value names the same parts, each outcome once."""
    names = list(items[0]["value"])
    out: dict[tuple, Fraction] = {}
    for item in items:
        assert list(item["value"]) == names, item
        key = tuple(item["value"].items())
        assert key not in out, item
        out[key] = Fraction(item["exact"])
        assert out[key] > 0, item
        assert abs(item["p"] - float(out[key])) < 1e-12, item
    assert sum(out.values()) == 1
    return out


def marginal(d: dict[tuple, Fraction], part: str) -> dict:
    out: dict = {}
    for key, p in d.items():
        value = dict(key)[part]
        out[value] = out.get(value, Fraction(0)) + p
    return out


def chance(d: dict[tuple, Fraction], predicate) -> Fraction:
    return sum((p for key, p in d.items() if predicate(dict(key))), Fraction(0))


def check_sheet(answer: dict, prefix: str, statuses=(), dists=("hp", "ap", "state")) -> dict[tuple, Fraction]:
    """The joint gives back the sheet's older fields exactly: HP, AP and state, and each status's chance."""
    both = joint(answer["sheet_after"])
    for name in dists:
        assert marginal(both, f"{prefix}{name}") == as_dist(answer[f"{prefix}{name}"]), name
    for status in statuses:
        assert chance(both, lambda v, s=status: v[f"{prefix}{s}"]) == frac(answer[f"p_{status}"]), status
    return both


# Shooting ---------------------------------------------------------------------------------------------------------
THUG = agent("Thug", HL=6, TN=8, WL=7, armour="kevlar-vest", aim=1)
SHOTS = [
    {"shooter": agent("Kate", BS=12, aim=1, rerolls=1), "weapon": {"damage": 5, "traits": ["bleeding", "stunned"]},
     "target": THUG, "range_band": "long", "stray_victim": agent("Bystander", HL=8, TN=9), "use_reroll": True},
    {"shooter": agent(BS=14), "weapon": {"damage": 9, "traits": ["kinetic", "poisoned"]},
     "target": agent("Riot", HL=8, armour="police-riot-gear", hp=3), "cover": "partial"},
    {"shooter": agent(BS=9), "weapon": {"damage": 3}, "target": agent("Down", HL=6, hp=-2,
                                                                      statuses={"seriously_wounded": {}})},
]  # fmt: skip


@pytest.mark.parametrize("inputs", SHOTS)
@pytest.mark.parametrize("over", [{}, {"fear_test_on_hp_loss": "always", "crit_effect": "double_damage"}])
def test_a_shot_gives_every_sheet_together(inputs, over):
    answer = odds("shoot", inputs, **over)
    tracked = tracked_statuses(inputs["weapon"], settings(**over))
    both = check_sheet(answer, "target_", dists=("hp", "ap", "state"))
    for status in tracked:
        if f"p_{status}" in answer:
            assert chance(both, lambda v, s=status: v[f"target_{s}"]) == frac(answer[f"p_{status}"])
    if "fear" in tracked and not inputs["target"].get("statuses"):
        assert any(dict(k)["target_fear"] for k in both)  # a hit that costs HP may frighten the target
    if inputs["target"].get("aim"):
        assert chance(both, lambda v: v["aim_lost"]) == frac(answer["p_aim_lost"])
    if inputs.get("stray_victim"):
        assert chance(both, lambda v: v["stray_hit"]) == frac(answer["p_stray_hit"])
        assert chance(both, lambda v: v["stray_hit"] and v["stray_hp"] < 8) == frac(answer["p_stray_hit"])
    down = chance(both, lambda v: v["target_state"] != "none")
    assert down == frac(answer["p_target_down"])
    assert json.loads(json.dumps(answer["sheet_after"])) == answer["sheet_after"]


def test_a_lost_aim_and_bleeding_go_together_as_the_dice_make_them():
    """The parts are not independent: the target keeps its aim on its own WL test, but bleeds only when hit."""
    answer = odds("shoot", SHOTS[0])
    both = joint(answer["sheet_after"])
    bleeding_unhit = chance(both, lambda v: v["target_bleeding"] and v["target_hp"] == 6 and v["target_ap"] == 2)
    assert bleeding_unhit == 0
    assert chance(both, lambda v: v["stray_hit"] and v["target_hp"] < 6) == 0  # a stray shot is a miss


@hyp_settings(max_examples=25, deadline=None)
@given(bs=st.integers(1, 20), hl=st.integers(2, 12), damage=st.integers(0, 12), ap=st.integers(0, 2),
       cover=st.sampled_from(["none", "partial", "full"]), traits=st.sets(st.sampled_from(["bleeding", "burning"])),
       aim=st.integers(0, 1))  # fmt: skip
def test_shots_of_any_kind_sum_to_one_and_give_back_the_fields(bs, hl, damage, ap, cover, traits, aim):
    inputs = {"shooter": agent(BS=bs), "weapon": {"damage": damage, "traits": sorted(traits)},
              "target": agent("T", HL=hl, armour="kevlar-vest", ap=ap, aim=aim), "cover": cover}  # fmt: skip
    answer = odds("shoot", inputs)
    check_sheet(answer, "target_")
    both = joint(answer["sheet_after"])
    for status in traits:
        assert chance(both, lambda v, s=status: v[f"target_{s}"]) == frac(answer[f"p_{status}"])


def test_a_thrown_weapon_gives_the_target_sheet_together():
    inputs = {"thrower": agent(BS=9, TN=10), "weapon": {"damage": 7, "traits": ["burning"]},
              "target": agent("T", HL=6, TN=7, armour="kevlar-vest"), "distance_cm": 12}  # fmt: skip
    answer = odds("throw", inputs)
    both = check_sheet(answer, "target_")
    assert chance(both, lambda v: v["target_burning"]) > 0
    assert chance(both, lambda v: v["target_state"] != "none") == frac(answer["p_target_down"])


# Melee: both fighters' sheets -------------------------------------------------------------------------------------
MELEE = [
    {"attacker": agent(WS=13, HL=8), "attacker_weapon": {"damage": 3, "reach_cm": 2, "traits": ["stunned"]},
     "defender": agent(WS=11, HL=8, armour="kevlar-vest"), "defender_weapon": {"damage": 9, "reach_cm": 1,
                                                                               "traits": ["bleeding"]}},
    {"attacker": agent(WS=8, HL=4), "attacker_weapon": {"damage": 6, "reach_cm": 1},
     "defender": agent(WS=15, HL=5), "defender_weapon": {"damage": 6, "reach_cm": 3}},
]  # fmt: skip


@pytest.mark.parametrize("inputs", MELEE)
def test_a_melee_gives_both_sheets_together(inputs):
    answer = odds("melee", inputs)
    both = joint(answer["sheet_after"])
    for role in ("attacker", "defender"):
        for name in ("hp", "ap", "state"):
            assert marginal(both, f"{role}_{name}") == as_dist(answer[f"{role}_{name}"])
    assert chance(both, lambda v: v["defender_state"] != "none") == frac(answer["p_defender_down"])
    statuses = [k for k in answer["sheet_after"][0]["value"] if k.endswith(("stunned", "bleeding"))]
    assert statuses == (["attacker_bleeding", "defender_stunned"] if "traits" in inputs["attacker_weapon"] else [])


# Medical aid, a fall, damage, the status tick -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("target", "mode"),
    [(agent(HL=10, hp=2, statuses={"bleeding": {}}), "restore_hp"),
     (agent(HL=8, hp=-3, statuses={"seriously_wounded": {}}), "revive"),
     (agent(HL=8, hp=-6, statuses={"dying": {"turns": 1}}), "stabilize")],
)  # fmt: skip
def test_medical_aid_gives_hp_and_state_together(target, mode):
    answer = odds("medical_aid", {"healer": agent(HL=9), "target": target, "mode": mode})
    both = check_sheet(answer, "", dists=("hp", "state"))
    assert chance(both, lambda v: v["state"] != dict(max(both, key=lambda k: dict(k)["hp"]))["state"]) < 1


@pytest.mark.parametrize("height", [3, 6, 14])
@pytest.mark.parametrize("over", [{}, {"fall_damage": "excess", "fall_damage_armour": False}])
def test_a_fall_gives_hp_ap_state_and_the_stun_together(height, over):
    inputs = {"agent": agent(DX=8, TN=11, HL=10, armour="kevlar-vest"), "height_cm": height}
    answer = odds("fall", inputs, **over)
    both = check_sheet(answer, "")  # AP and state are fields of their own now
    assert chance(both, lambda v: v["stunned"]) == frac(answer["p_stunned"])
    if height > 4 and not over:
        assert marginal(both, "ap") == {0: 1}  # the whole height: the Kevlar's 2 AP go first (L220)


def test_damage_and_the_status_tick_give_their_sheets_together():
    hit = odds("damage", {"target": agent(HL=8, WL=9), "amount": 3}, fear_test_on_hp_loss="always")
    both = check_sheet(hit, "")
    assert chance(both, lambda v: v["fear"]) == frac(hit["p_afraid"])
    tick = odds("status_tick", {"agent": agent(HL=8, TN=9, WL=8, hp=1, armour="kevlar-vest",
                                               statuses={"poisoned": {}, "burning": {"turns": 2}})})  # fmt: skip
    both = check_sheet(tick, "")
    assert chance(both, lambda v: not v["poisoned"]) == frac(tick["p_poison_ends"])
    assert chance(both, lambda v: v["fear"]) == frac(tick["p_afraid"])
    assert chance(both, lambda v: v["state"] == "dead") == frac(tick["p_dead"])


# Resolved outcomes fall on the joint ------------------------------------------------------------------------------
def test_resolved_shots_land_on_the_joint_within_4_standard_errors():
    inputs = SHOTS[0]
    s = settings()
    exact = joint(odds("shoot", inputs)["sheet_after"])
    counts: Counter = Counter()
    for seed in range(N):
        outcome = SYSTEM.action("shoot").resolve(inputs, s, SeededDice(seed))
        key = tuple(Shoot.sheet_after(inputs, s, SimpleNamespace(result=outcome.result)).items())
        assert key in exact, key  # never an outcome the odds call impossible
        counts[key] += 1
    for key, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / N)
        assert abs(counts[key] / N - float(p)) <= 4 * se + 1e-9, (dict(key), counts[key] / N, float(p))


def test_resolved_blows_land_on_the_joint():
    inputs, s = MELEE[0], settings()
    exact = joint(odds("melee", inputs)["sheet_after"])
    for seed in range(300):
        outcome = SYSTEM.action("melee").resolve(inputs, s, SeededDice(seed))
        assert tuple(Melee.sheet_after(inputs, s, SimpleNamespace(result=outcome.result)).items()) in exact


# Injuries ---------------------------------------------------------------------------------------------------------
INJURED = [
    agent(TN=9, flags={"half_hp": True, "seriously_wounded": True, "dying": True}),
    agent(TN=9, flags={"dying": True}),
    agent(TN=12, HL=8, hp=-1, flags={}),
    agent(TN=3, lowest_hp=4, flags={}),
]


@pytest.mark.parametrize("sheet", INJURED)
@pytest.mark.parametrize("over", [{}, {"injury_tiers": "worst_only"}])
def test_injuries_give_tiers_days_and_stats_together(sheet, over):
    answer = odds("injuries", {"agent": sheet}, **over)
    both = joint(answer["sheet_after"])
    assert marginal(both, "days") == as_dist(answer["days"])
    assert chance(both, lambda v: v["injuries"] != "none") == frac(answer["p_injured"])
    for tier, p in answer["p_tier"].items():
        assert chance(both, lambda v, t=tier: t in v["injuries"].split("+")) == frac(p)
    for stat, p in answer["p_stat_loss"].items():
        lost = (lambda v: v["wl_lost"] > 0) if stat == "WL" else (lambda v, s=stat: v["stat_lost"] == s)
        assert chance(both, lost) == frac(p)
    assert sum(p * dict(k)["days"] for k, p in both.items()) == frac(answer["expected_days"])
    assert chance(both, lambda v: v["injuries"] == "none" and v["days"] > 0) == 0


def test_the_injuries_joint_is_the_same_by_tiers_and_by_every_run():
    inputs, s = {"agent": agent(TN=9, flags={"seriously_wounded": True})}, settings()  # two tiers: every run
    action = SYSTEM.action("injuries")
    assert action.odds(inputs, s) == action.summarise(inputs, s, action.runs(inputs, s))


def test_a_resolved_injury_lands_on_the_joint():
    inputs, s = {"agent": INJURED[0]}, settings()
    exact = joint(odds("injuries", inputs)["sheet_after"])
    for seed in range(200):
        outcome = SYSTEM.action("injuries").resolve(inputs, s, SeededDice(seed))
        assert tuple(Injuries.sheet_after(outcome.result).items()) in exact


@pytest.mark.parametrize(
    ("sheet", "tests"),
    [({"flags": {"dying": True}}, ["light", "medium", "critical"]),
     ({"flags": {"seriously_wounded": True}}, ["light", "medium"]),
     ({"flags": {"half_hp": True}}, ["light"]),
     ({"statuses": {"dying": {"turns": 1}}, "hp": -6}, ["light", "medium", "critical"]),
     ({"hp": 0}, ["light", "medium"]),
     ({"hp": 5}, ["light"]),
     ({"hp": 6}, []),
     ({"hp": 6, "lowest_hp": -6}, ["light", "medium", "critical"]),
     ({"hp": 6, "lowest_hp": -5}, ["light", "medium"])],
)  # fmt: skip
def test_a_higher_tier_implies_the_lower(sheet, tests):
    """HL 10: half is 5, seriously wounded at 0, dying below −5 (L222, A6)."""
    character = agent(TN=9, **sheet)
    assert odds("injuries", {"agent": character})["tests"] == tests
    assert odds("injuries", {"agent": character}, injury_tiers="worst_only")["tests"] == tests[-1:]
    outcome = resolve("injuries", {"agent": character}, seed=1)
    assert [t["tier"] for t in outcome.result["tests"]] == tests
    given = {f for f, on in (sheet.get("flags") or {}).items() if on}
    implied = {"light": "half_hp", "medium": "seriously_wounded", "critical": "dying"}
    assert set(outcome.result["implied"]) == {implied[t] for t in tests} - given


def test_the_literal_dying_threshold_and_the_at_half_reading_differ():
    character = agent(TN=9, HL=6, lowest_hp=-3)
    assert odds("injuries", {"agent": character})["tests"] == ["light", "medium"]
    assert odds("injuries", {"agent": character}, dying_threshold="at_half")["tests"] == ["light", "medium",
                                                                                          "critical"]  # fmt: skip


@pytest.mark.parametrize(
    ("sheet", "field", "limits"),
    [({"flags": {"dying": True, "half_hp": False}}, "agent.flags.half_hp", None),
     ({"flags": {"dying": True, "seriously_wounded": False}}, "agent.flags.seriously_wounded", None),
     ({"hp": -1, "flags": {"seriously_wounded": False}}, "agent.flags.seriously_wounded", None),
     ({"statuses": {"dying": {}}, "hp": -7, "flags": {"dying": False}}, "agent.flags.dying", None),
     ({"lowest_hp": 3, "flags": {"dying": True}}, "agent.lowest_hp", None),
     ({"lowest_hp": 2, "hp": 1}, "agent.lowest_hp", {"lowest_hp_max": 1}),
     ({"lowest_hp": -11}, "agent.lowest_hp", None)],
)  # fmt: skip
def test_flags_that_contradict_each_other_are_refused_with_the_limits(sheet, field, limits):
    with pytest.raises(RuleInputError) as refused:
        odds("injuries", {"agent": agent(TN=9, **sheet)})
    assert list(refused.value.errors) == [field]
    expected = {"hl": 10, "half_hp": 5, "seriously_wounded": 0, "dying": -6, "dead": -11, **(limits or {})}
    assert refused.value.data == {"limits": expected}
    with pytest.raises(RuleInputError):
        resolve("injuries", {"agent": agent(TN=9, **sheet)}, seed=1)


@pytest.mark.django_db
def test_the_api_answers_a_contradiction_with_its_limits(client):
    body = {"inputs": {"agent": agent(TN=9, HL=6, flags={"dying": True, "half_hp": False})}}
    response = client.post("/api/v1/systems/enforcers/actions/injuries/odds/", json.dumps(body),
                           content_type="application/json")  # fmt: skip
    assert response.status_code == 400
    assert response.json()["limits"] == {"hl": 6, "half_hp": 3, "seriously_wounded": 0, "dying": -4, "dead": -7}
    assert "agent.flags.half_hp" in response.json()["errors"]


# The tracker passes what the character went through ---------------------------------------------------------------
APPRENTICE = next(p for p in tables.PACK["profiles"] if p["slug"] == "apprentice")
STATS = dict.fromkeys(tables.STATS, 10)


def test_the_tracker_keeps_the_lowest_hp_and_the_campaign_tests_every_tier_it_went_through():
    """Thug (HL 6) falls from 6 HP to −4 at one blow, past 0: dying, so also seriously wounded and at half HP. Kate
    heals him to 0 HP (stabilized): the lowest HP stays −4 and the campaign takes three tests."""
    gun = {"name": "Gun", "damage": 10, "ranged": True, "capacity": 6}
    kate = {
        "key": "kate",
        "profile": APPRENTICE,
        "count": 1,
        "options": {"name": "Kate", "stats": {**STATS, "BS": 15}, "weapons": [gun], "medkit": True},
    }
    thug = {"key": "thug", "profile": APPRENTICE, "count": 1, "options": {"name": "Thug", "stats": {**STATS, "HL": 6}}}
    t = Table(SYSTEM, rosters=[{"faction": "enforcers", "entries": [kate]},
                               {"faction": "enforcers", "entries": [thug]}])  # fmt: skip
    t.command(0, "activate", {"unit": "s0-kate"}, dice=[])
    t.command(0, "shoot", {"target": "s1-thug", "weapon": 0}, dice=[5])
    down = t.state.units["s1-thug"].state
    assert (down["hp"], down["lowest_hp"], sorted(down["statuses"])) == (-4, -4, ["dying"])
    assert down["flags"] == {"half_hp": True, "seriously_wounded": True, "dying": True}
    t.command(0, "medical_aid", {"target": "s1-thug", "mode": "stabilize"}, dice=[3])
    saved = t.state.units["s1-thug"].state
    assert (saved["hp"], saved["lowest_hp"], sorted(saved["statuses"])) == (0, -4, ["seriously_wounded"])
    assert t.replay_matches()
    # The tracker's sheet goes to the injuries action as it is, and to the campaign.
    sheet = {k: saved[k] for k in ("stats", "hp", "ap", "statuses", "flags", "lowest_hp")}
    assert odds("injuries", {"agent": sheet})["tests"] == ["light", "medium", "critical"]
    final = {"game": {}, "units": {"s1-thug": {"side": 1, "profile": APPRENTICE,
                                               "state": {**saved, "flags": {"dying": True}}}}}  # fmt: skip
    roster = {"faction": "enforcers", "entries": [thug]}
    out = CAMPAIGN.after_battle(roster=roster, side_index=1, final=final, settings=settings(),
                                dice=dicelib.dice_source(seed=4))  # fmt: skip
    tested = [line for line in out["record"]["lines"] if "TN test against" in line]
    assert len(tested) == 3
    assert [t in tested[i] for i, t in enumerate(("light", "medium", "critical"))] == [True] * 3


def test_a_status_set_by_hand_counts_in_the_campaign_without_a_refusal():
    """The GM may give Dying by hand at positive HP: the campaign takes the record leniently (three tests)."""
    thug = {"key": "thug", "profile": APPRENTICE, "count": 1, "options": {"name": "Thug", "stats": STATS}}
    state = {"entry": "thug", "name": "Thug", "stats": STATS, "hp": 4, "ap": 0, "lowest_hp": 4,
             "statuses": {"dying": {"turns": 0}}, "flags": {}}  # fmt: skip
    final = {"game": {}, "units": {"s1-thug": {"side": 1, "profile": APPRENTICE, "state": state}}}
    out = CAMPAIGN.after_battle(roster={"faction": "enforcers", "entries": [thug]}, side_index=1, final=final,
                                settings=settings(), dice=dicelib.dice_source(seed=2))  # fmt: skip
    assert len([line for line in out["record"]["lines"] if "TN test against" in line]) == 3


# Words ------------------------------------------------------------------------------------------------------------
def test_every_part_of_every_joint_has_a_label_and_its_codes_words():
    labels, values = result_labels(), value_labels()
    cases = [("shoot", SHOTS[0], {"fear_test_on_hp_loss": "always"}), ("melee", MELEE[0], {}),
             ("fall", {"agent": agent(), "height_cm": 9}, {}), ("injuries", {"agent": INJURED[0]}, {}),
             ("status_tick", {"agent": agent(statuses={"poisoned": {}})}, {}),
             ("medical_aid", {"healer": agent(), "target": agent(hp=3), "mode": "restore_hp"}, {}),
             ("damage", {"target": agent(), "amount": 2}, {}),
             ("throw", {"thrower": agent(), "weapon": {"damage": 2, "traits": ["burning"]}, "target": agent(),
                        "distance_cm": 5}, {})]  # fmt: skip
    for action, inputs, over in cases:
        answer = odds(action, inputs, **over)
        assert "sheet_after" in labels
        for item in answer["sheet_after"]:
            for part, value in item["value"].items():
                assert part in labels, (action, part)
                if isinstance(value, bool):
                    assert str(value).lower() in values[part], (action, part)
                elif isinstance(value, str) and part != "stat_lost":
                    assert value in values[part], (action, part, value)


def test_sheet_parts_name_the_wound_state_by_the_worst_status():
    assert sheet_parts("x_", 1, 0, ["bleeding", "dying"], ("bleeding", "burning")) == {
        "x_hp": 1, "x_ap": 0, "x_state": "dying", "x_bleeding": True, "x_burning": False}  # fmt: skip


# Refusals whose limit is the rule's carry it as data ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "inputs", "field", "limits"),
    [("throw", {"thrower": agent(TN=6), "weapon": {"damage": 2}, "target": agent(), "distance_cm": 10},
      "distance_cm", {"throw_range_cm": 9}),
     ("shoot", {"shooter": agent(), "weapon": {"damage": 2, "ammo": 2}, "target": agent(), "mode": "auto"},
      "weapon.ammo", {"ammo_needed": 3}),
     ("melee", {"attacker": agent(), "attacker_weapon": {"damage": 2, "reach_cm": 1}, "defender": agent(),
                "defender_weapon": {"damage": 2, "reach_cm": 1}, "distance_cm": 3}, "distance_cm", {"reach_cm": 1}),
     ("move", {"agent": agent(DX=8), "distance_cm": 9}, "distance_cm", {"move_cm": 8}),
     ("move", {"agent": agent(DX=8), "jump_across_cm": 5}, "jump_across_cm", {"jump_across_cm": 4}),
     ("move", {"agent": agent(DX=8), "jump_up_cm": 3}, "jump_up_cm", {"jump_up_cm": 2}),
     ("suppressive_fire", {"agent": agent(), "weapon": {"damage": 1, "ammo": 2, "capacity": 7},
                           "targets": [agent()]}, "weapon.ammo", {"ammo_min": 4}),
     ("damage", {"target": agent(HL=6, hp=7), "amount": 1}, "target.hp", {"hp_max": 6}),
     ("damage", {"target": agent(armour="kevlar-vest", ap=3), "amount": 1}, "target.ap", {"ap_max": 2})],
)  # fmt: skip
def test_a_rule_limit_is_given_as_data(action, inputs, field, limits):
    with pytest.raises(RuleInputError) as refused:
        odds(action, inputs, **({"auto_ammo": 3} if action == "shoot" else {}))
    assert field in refused.value.errors
    assert refused.value.data == {"limits": limits}
