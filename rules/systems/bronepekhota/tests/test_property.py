"""The resolver and the exact odds are one rule: for each action, exact distributions sum to 1 and the
frequencies of 20,000 seeded resolutions match them within 4 standard errors (exactly where p is 0 or 1)."""

from fractions import Fraction

import pytest

from rules.contract.testing import assert_matches, boolean, dist, frac, sample
from rules.dice import SeededDice
from rules.systems.bronepekhota.actions.common import full_settings
from rules.systems.bronepekhota.system import SYSTEM

N = 20_000


def run_case(action, inputs, settings, events, seed):
    """events: name -> (extractor(outcome), exact distribution built from the odds answer)."""
    settings = full_settings(settings)
    odds = SYSTEM.action(action).odds(inputs, settings)
    expected = {name: build(odds) for name, (_, build) in events.items()}
    counts = sample(SYSTEM.action(action), inputs, {name: fn for name, (fn, _) in events.items()}, N, seed, settings)
    for name in events:
        assert_matches(name, expected[name], counts[name], N)
    return odds


def effect_count(outcome, kind, role=None):
    return sum(1 for e in outcome.effects if e["kind"] == kind and (role is None or e["role"] == role))


def strength_loss(outcome, role="target"):
    """What the slider loses: the damage effects, clamped at 0 like the tracker does."""
    total = sum(e["amount"] for e in outcome.effects if e["kind"] == "damage" and e["role"] == role)
    return min(total, outcome.result["target"]["strength_before"]) if outcome.result["hit"] else 0


def shot_damage(outcome):
    return outcome.result["target"]["damage"] if outcome.result["hit"] else 0


def target_destroyed(outcome):
    return bool(outcome.result["hit"] and outcome.result["target"]["destroyed"])


SHOT_EVENTS = {
    "damage": (shot_damage, lambda o: dist(o["damage"])),
    "destroyed": (target_destroyed, lambda o: boolean(o["p_destroyed"])),
    "hit": (lambda out: out.result["hit"], lambda o: boolean(o["p_hit"])),
}
VEHICLE_SHOT_EVENTS = {
    **SHOT_EVENTS,
    "strength_loss": (strength_loss, lambda o: dist(o["strength_loss"])),
    "pilot_killed": (lambda out: effect_count(out, "pilot_killed") == 1, lambda o: boolean(o["p_pilot_killed"])),
    "panic": (lambda out: effect_count(out, "panic") == 1, lambda o: boolean(o["p_panic"])),
}


@pytest.mark.parametrize(
    ("inputs", "settings", "events"),
    [
        pytest.param(
            {
                "shooter": {"kind": "infantry"},
                "weapon": {"range": "Д6+2", "power": "2Д6"},
                "distance_cm": 21,
                "target": {"kind": "infantry", "armour": 2},
                "cover": "over_half_visible",
            },
            {},
            SHOT_EVENTS,
            id="infantry-vs-infantry-in-cover",
        ),
        pytest.param(
            {
                "shooter": {"kind": "vehicle", "rof": 2, "ammo": 10},
                "weapon": {"range": "Д12", "power": "4Д12"},
                "distance_steps": 6,
                "target": {"kind": "vehicle", "strength": 5, "flying": True, "pilot": {"armour": 2}},
            },
            {"panic": True},
            VEHICLE_SHOT_EVENTS,
            id="rockets-vs-flyer-with-landing-and-panic",
        ),
        pytest.param(
            {
                "shooter": {"kind": "infantry", "aimed": True},
                "weapon": {"range": "Д6+1", "power": "1Д20"},
                "distance_steps": 9,
                "target": {"kind": "infantry", "armour": 3},
            },
            {"aimed_fire": True},
            SHOT_EVENTS,
            id="aimed-fire",
        ),
        pytest.param(
            {
                "shooter": {"kind": "gun", "rof": 2, "ammo": 16, "crew_rank": 2, "rank": 2},
                "weapon": {"range": "Д12", "power": "3Д20"},
                "distance_steps": 4,
                "target": {"kind": "gun", "strength": 4},
                "cover": "under_half_visible",
            },
            {},
            {**SHOT_EVENTS, "strength_loss": (strength_loss, lambda o: dist(o["strength_loss"]))},
            id="gun-vs-gun-heavy-cover",
        ),
        pytest.param(
            {
                "shooter": {"kind": "infantry"},
                "weapon": {"range": "Д20", "power": "2Д12"},
                "distance_steps": 5,
                "target": {"kind": "infantry", "armour": 4},
            },
            {"virtual_infantry_damage": "survival_test", "panic": True},
            {
                **SHOT_EVENTS,
                "panic": (lambda out: effect_count(out, "panic") == 1, lambda o: boolean(o["p_panic"])),
            },
            id="house-rule-infantry-survival-test",
        ),
    ],
)
def test_virtual_shot_resolver_matches_exact_odds(inputs, settings, events):
    run_case("virtual_shot", inputs, settings, events, seed=101)


def test_virtual_shot_blast_victims_match_exact_odds():
    inputs = {
        "shooter": {"kind": "vehicle", "rof": 1, "ammo": None},
        "weapon": {"range": "Д12", "power": "4Д20", "special": {"blast_steps": 2, "blast_power": "1Д20"}},
        "distance_steps": 7,
        "target": {"kind": "vehicle", "strength": 9, "pilot": {"armour": 3}},
        "blast": [
            {"kind": "infantry", "armour": 3},
            {"kind": "vehicle", "strength": 12, "pilot": {"armour": 1}},
        ],
    }

    def blast_destroyed(i):
        return lambda out: bool(out.result["hit"] and out.result["blast"][i]["destroyed"])

    odds = run_case(
        "virtual_shot",
        inputs,
        {"special_properties": True, "blast_hits_target": True},
        {
            **VEHICLE_SHOT_EVENTS,
            "blast0": (blast_destroyed(0), lambda o: boolean(o["blast"][0]["p_destroyed"])),
            "blast1_pilot": (
                lambda out: effect_count(out, "pilot_killed", "blast.1") == 1,
                lambda o: boolean(o["blast"][1]["p_pilot_killed"]),
            ),
        },
        seed=102,
    )
    assert frac(odds["blast"][0]["p_destroyed"]) == Fraction(1, 2) * Fraction(17, 20)  # hit at 7 steps: 6/12


@pytest.mark.parametrize(
    ("inputs", "settings"),
    [
        ({"shooter": {"kind": "vehicle", "rof": 1}, "charge": "rocket", "hit": True,
          "target": {"kind": "vehicle", "strength": 12, "pilot": {"armour": 3}}}, {"panic": True}),
        ({"shooter": {"kind": "vehicle", "rof": 1}, "charge": "shell", "hit": True, "fell": True,
          "target": {"kind": "vehicle", "strength": 9, "pilot": {"armour": 4}}}, {}),
        ({"shooter": {"kind": "gun", "rof": 1, "crew_rank": 1, "mortar": True}, "charge": "mine", "hit": True,
          "target": {"kind": "infantry", "armour": 2}}, {"panic": True}),
    ],
)  # fmt: skip
def test_real_shot_resolver_matches_exact_odds(inputs, settings):
    run_case(
        "real_shot",
        inputs,
        {"mode": "real", **settings},
        {
            "destroyed": (
                lambda out: bool(out.result.get("destroyed")) or effect_count(out, "soldier_killed", "target") == 1,
                lambda o: boolean(o["p_destroyed"]),
            ),
            "pilot_killed": (
                lambda out: effect_count(out, "pilot_killed") == 1,
                lambda o: boolean(o["p_pilot_killed"]),
            ),
            "panic": (lambda out: effect_count(out, "panic") == 1, lambda o: boolean(o["p_panic"])),
        },
        seed=103,
    )


@pytest.mark.parametrize(("armour", "die", "panic"), [(3, 6, True), (5, 12, False), (0, 6, True), (12, 20, True)])
def test_survival_test_resolver_matches_exact_odds(armour, die, panic):
    odds = run_case(
        "survival_test",
        {"subject": {"armour": armour}, "die": die},
        {"panic": panic},
        {"result": (lambda out: out.result["result"], lambda o: dist(o["outcomes"]))},
        seed=104,
    )
    assert frac(odds["p_survived"]) + frac(odds["p_killed"]) == 1


@pytest.mark.parametrize(("strength", "die"), [(7, 12), (7, 20), (0, 12)])
def test_armour_test_resolver_matches_exact_odds(strength, die):
    def pilot(out):
        return "safe" if out.result["safe"] else out.result["pilot"]

    run_case(
        "armour_test",
        {"strength": strength, "die": die, "pilot": {"armour": 3}},
        {"mode": "real", "panic": True},
        {
            "pilot": (
                pilot,
                lambda o: {
                    "safe": frac(o["p_safe"]),
                    "killed": frac(o["p_pilot_killed"]),
                    "panic": frac(o["p_panic"]),
                    "survived": frac(o["p_pilot_survives"]) - frac(o["p_safe"]) - frac(o["p_panic"]),
                },
            )
        },
        seed=105,
    )


MELEE_EVENTS = {
    "win": (lambda out: out.result["attacker_won"], lambda o: boolean(o["p_attacker_wins"])),
    "destroyed": (lambda out: out.result["defender_destroyed"], lambda o: boolean(o["p_defender_destroyed"])),
    "pilot_killed": (lambda out: effect_count(out, "pilot_killed") == 1, lambda o: boolean(o["p_pilot_killed"])),
    "panic": (lambda out: effect_count(out, "panic") == 1, lambda o: boolean(o["p_panic"])),
}
MELEE_DAMAGE = {"damage": (lambda out: out.result["damage"], lambda o: dist(o["damage"]))}


@pytest.mark.parametrize(
    ("inputs", "events"),
    [
        pytest.param(
            {"attacker": {"kind": "infantry", "melee": 2}, "defender": {"kind": "infantry", "armour": 3}},
            MELEE_EVENTS,
            id="infantry-vs-infantry",
        ),
        pytest.param(
            {
                "attacker": {"kind": "infantry", "melee": 2},
                "defender": {"kind": "infantry", "armour": 3},
                "surprise": True,
            },
            MELEE_EVENTS,
            id="surprise",
        ),
        pytest.param(
            {
                "attacker": {"kind": "vehicle", "strength": 8, "melee": 2, "pilot": {"armour": 3}},
                "defender": {"kind": "vehicle", "strength": 6, "melee": 1, "pilot": {"armour": 2}},
            },
            {**MELEE_EVENTS, **MELEE_DAMAGE},
            id="vehicle-vs-vehicle",
        ),
        pytest.param(
            {
                "attacker": {"kind": "infantry", "melee": 5},
                "defender": {"kind": "vehicle", "strength": 4, "melee": 3, "pilot": {"armour": 3}},
                "surprise": True,
            },
            {**MELEE_EVENTS, **MELEE_DAMAGE},
            id="surprise-vs-vehicle",
        ),
        pytest.param(
            {"attacker": {"kind": "infantry", "melee": 3}, "defender": {"kind": "gun", "strength": 6}},
            {**MELEE_EVENTS, **MELEE_DAMAGE},
            id="infantry-vs-gun",
        ),
    ],
)
def test_melee_resolver_matches_exact_odds(inputs, events):
    run_case("melee", inputs, {"panic": True}, events, seed=106)


def test_grenade_resolver_matches_exact_odds():
    inputs = {
        "thrower": {"kind": "infantry", "armour": 3, "ref": "me"},
        "victims": [
            {"kind": "infantry", "armour": 2, "ref": "a", "bursts": [3, 4, 5]},
            {"kind": "vehicle", "strength": 6, "pilot": {"armour": 3}, "ref": "b", "bursts": [5, 6]},
        ],
    }

    def destroyed(role):
        return lambda out: any(v["role"] == role and v["destroyed"] for v in out.result["victims"])

    def attacked(role):
        return lambda out: any(v["role"] == role for v in out.result["victims"])

    def victim(o, role):
        return next(v for v in o["victims"] if v["role"] == role)

    run_case(
        "grenade",
        inputs,
        {"grenades": True, "panic": True},
        {
            "burst": (lambda out: out.result["burst_steps"], lambda o: dist(o["burst"])),
            "a_destroyed": (destroyed("victims.0"), lambda o: boolean(victim(o, "victims.0")["p_destroyed"])),
            "b_attacked": (attacked("victims.1"), lambda o: boolean(victim(o, "victims.1")["p_attacked"])),
            "thrower": (destroyed("thrower"), lambda o: boolean(victim(o, "thrower")["p_destroyed"])),
            "b_pilot": (
                lambda out: effect_count(out, "pilot_killed", "victims.1") == 1,
                lambda o: boolean(victim(o, "victims.1")["p_pilot_killed"]),
            ),
        },
        seed=107,
    )


def test_emergency_landing_resolver_matches_exact_odds():
    run_case(
        "emergency_landing",
        {"strength": 4},
        {},
        {
            "damage": (lambda out: out.result["damage"], lambda o: dist(o["damage"])),
            "destroyed": (lambda out: out.result["destroyed"], lambda o: boolean(o["p_destroyed"])),
        },
        seed=108,
    )


@pytest.mark.parametrize(("action", "players", "settings"), [
    ("initiative", ["A", "B", "C"], {}),
    ("initiative", ["A", "B"], {"initiative_reroll": "everyone"}),
    ("dispute", ["A", "B", "C", "D"], {"dispute_die": 6}),
])  # fmt: skip
def test_roll_offs_resolver_matches_exact_odds(action, players, settings):
    events = {
        f"win_{p}": ((lambda out, p=p: out.result["winner"] == p), (lambda o, p=p: boolean(o["p_win"][p])))
        for p in players
    }
    events["first_roll"] = (lambda out: len(out.result["rounds"]) == 1, lambda o: boolean(o["p_decided_first_roll"]))
    run_case(action, {"players": players}, settings, events, seed=109)


def test_public_resolve_equals_the_clean_path():
    """The property tests drive resolve_clean; the public resolve gives the same outcome for the same seed."""
    act = SYSTEM.action("virtual_shot")
    settings = full_settings({"panic": True})
    inputs = {
        "shooter": {"kind": "vehicle", "rof": 1, "ammo": 9},
        "weapon": {"range": "Д12", "power": "3Д12"},
        "distance_steps": 4,
        "target": {"kind": "vehicle", "strength": 6, "pilot": {"armour": 3}},
    }
    for seed in range(30):
        public = act.resolve(inputs, settings, SeededDice(seed))
        dice = SeededDice(seed)
        clean = act.resolve_clean(act.validate(inputs, settings), settings, dice)
        assert public.result == clean.result
        assert public.effects == clean.effects
        assert public.dice == [r.as_dict() for r in dice.rolls]


@pytest.mark.parametrize(
    ("action", "inputs", "settings", "agree"),
    [
        ("jump", {"soldier": {"jump": 5}, "length_steps": 3, "rise_steps": 2}, {"jump_packs": True},
         lambda out, o: out.result["ok"] == (frac(o["p_ok"]) == 1)),
        ("jump", {"soldier": {"jump": 5}, "length_steps": 4, "rise_steps": 2}, {"jump_packs": True},
         lambda out, o: out.result["ok"] == (frac(o["p_ok"]) == 1)),
        ("repair", {"repairer": {"kind": "helix", "repair_platform": True},
                    "target": {"kind": "gun", "strength": 3, "strength_max": 4}}, {},
         lambda out, o: out.result["strength_after"] == o["strength_after"] == 4),
        ("panic", {"soldier": {"speed": 4}, "reaches_edge": True}, {"panic": True},
         lambda out, o: out.result["deserted"] == (frac(o["p_deserted"]) == 1)),
        ("capture", {"soldier": {"rank": 1}, "object": {"kind": "gun", "rank": 3}}, {},
         lambda out, o: out.result["captured"] == (frac(o["p_captured"]) == 1)),
        ("towing", {"op": "start", "helix": {"repair_platform": True}, "object": {"kind": "vehicle"}}, {},
         lambda out, o: out.result["towing"] == (frac(o["p_ok"]) == 1)),
        ("ammo_refresh", {"element": {"ammo": 3, "ammo_max": 9}}, {"ammo_refreshes": 2},
         lambda out, o: out.result["ammo_after"] == o["ammo_after"] == 9),
    ],
)  # fmt: skip
def test_actions_without_dice_agree_with_their_odds(action, inputs, settings, agree):
    settings = full_settings(settings)
    odds = SYSTEM.action(action).odds(inputs, settings)
    outcome = SYSTEM.action(action).resolve(inputs, settings, SeededDice(1))
    assert outcome.dice == []  # no die is rolled
    assert agree(outcome, odds)
