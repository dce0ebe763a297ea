"""Issue 17, rules and settings: the emergency landing after a real shot or an armour test (p.19, §3.10), a flyer's
second move (p.11), the movement costs (§3.3, Tables 1–2) with the obstacle settings (A8, A9), and the settings that
used to do nothing: deployment_order (A3), dismounted_pilot_rejoins_squad (A19), enforce_mount_limit (A30).
Battles are played in memory through the battle part (rules.contract.testing.Table)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from rules.contract.testing import Table
from rules.dice import SeededDice, TableDice
from rules.errors import GameConflict, RuleInputError
from rules.systems.bronepekhota import tracker
from rules.systems.bronepekhota.system import SYSTEM

BASE = SYSTEM.default_settings()
REAL = {**BASE, "mode": "real"}
PACK = json.loads((Path(__file__).resolve().parents[1] / "data" / "tehnolog-classic.json").read_text())
PROFILES = {p["slug"]: {k: p[k] for k in ("slug", "name", "faction", "kind", "cost", "data")} for p in PACK["profiles"]}


def run(action, inputs, dice, settings=None):
    return SYSTEM.action(action).resolve(inputs, settings or BASE, TableDice(dice))


def kinds(outcome):
    return [(e["kind"], e["role"]) for e in outcome.effects]


def entry(key, slug, count=1, **options):
    return {"key": key, "profile": copy.deepcopy(PROFILES[slug]), "count": count, "options": options}


def pilot(entry_key, soldier):
    return [{"entry": entry_key, "soldier": soldier, "copy": 1}]


# Blue: assault commandos with jump packs «Пр5» (rank 4, Бр 4, Ск 5; soldier 2 flies the CONDOR), the CONDOR flyer
# (rank 3, strength 14, speed 6), a mortar.
# Red: heavy clone infantry with «Рм» (soldier 3 drives the HELIX with the repair platform), the HELIX.
BLUE = {
    "faction": "protectorate",
    "entries": [
        entry("e1", "protectorate_shturmovoy_otryad_stervyatniki"),
        entry("e2", "condor", pilot=pilot("e1", 2)),
        entry("e3", "minomet"),
    ],
}
RED = {
    "faction": "polaris",
    "entries": [
        entry("e1", "polaris_tyazhyolaya_klon_pehota"),
        entry("e2", "helix", variant="repair", pilot=pilot("e1", 3)),
    ],
}
CONDOR, HELIX, BLUE_SQUAD, RED_SQUAD, MORTAR = "0.e2.1", "1.e2.1", "0.e1.1", "1.e1.1", "0.e3.1"


def table(*, turns=False, rosters=(BLUE, RED), **settings) -> Table:
    t = Table(SYSTEM, rosters=list(rosters), settings=settings)
    t.settings["enforce_turns"] = turns
    return t


def state(t, key):
    return t.state.units[key].state


def soldier(t, key, num):
    return next(s for s in state(t, key)["soldiers"] if s["num"] == num)


# 1. Emergency landing after a real shot or an armour test (p.19, §3.10) ---------------------------------------
FLYER = {
    "kind": "vehicle",
    "ref": "v",
    "strength": 10,
    "flying": True,
    "pilot": {"armour": 2, "ref": "s", "soldier": 2},
}
ROCKET = {"shooter": {"kind": "vehicle", "rof": 1}, "charge": "rocket", "hit": True, "target": FLYER}


def test_real_shot_that_kills_a_flying_pilot_lands_the_vehicle_with_d6_damage():
    # Rocket, power 4: 10 -> 6; Д12 armour test 9 > 6: pierced; pilot Бр 2 rolls 5: killed; landing d6 = 3: 6 -> 3.
    outcome = run("real_shot", ROCKET, [9, 5, 3], REAL)
    assert outcome.result["pilot"] == "killed"
    assert outcome.result["emergency_landing"] == {"roll": 3, "strength_after": 3}
    assert outcome.result["strength_after"] == 3
    assert ("landed", "target") in kinds(outcome)
    assert {
        "kind": "damage",
        "role": "target",
        "amount": 3,
        "cause": "emergency landing",
        "ref": "v",
    } in outcome.effects
    assert [d["purpose"] for d in outcome.dice] == ["armour test", "pilot survival test", "emergency landing damage"]
    # The tracker: grounded, pilotless, and 4 + 3 damage marked.
    st = {**tracker.initial_unit_state(PROFILES["condor"], {}), "strength": 10, "flying": True, "pilot": {"soldier": 2}}
    for e in outcome.effects:
        if e["role"] == "target":
            st = tracker.apply_effect(st, e)
    assert (st["strength"], st["flying"], st["pilot"]) == (3, False, None)


def test_real_shot_emergency_landing_can_destroy_and_a_grounded_vehicle_does_not_land():
    low = {**ROCKET, "target": {**FLYER, "strength": 6}}  # 6 -> 2, pierced, killed, landing 5: destroyed
    outcome = run("real_shot", low, [12, 6, 5], REAL)
    assert outcome.result["destroyed"] is True
    assert ("destroyed", "target") in kinds(outcome)
    grounded = {**ROCKET, "target": {**FLYER, "flying": False}}
    outcome = run("real_shot", grounded, [12, 6], REAL)  # no landing die is asked for
    assert "emergency_landing" not in outcome.result
    assert ("landed", "target") not in kinds(outcome)


def test_real_shot_panicking_flying_pilot_lands_safely():
    outcome = run("real_shot", ROCKET, [12, 2], {**REAL, "panic": True})  # Бр 2 = roll 2: panic (§11.2)
    assert ("panic", "target.pilot") in kinds(outcome)
    assert ("landed", "target") in kinds(outcome)
    assert "emergency_landing" not in outcome.result


def test_real_shot_odds_count_the_landing():
    odds = SYSTEM.action("real_shot").odds({**ROCKET, "target": {**FLYER, "strength": 6}}, REAL)
    # 6 -> 2 after the rocket: P(pierced) = 10/12, P(killed | pierced) = 4/6; the landing's d6 1 leaves 1, 2+ destroys.
    p_killed = Fraction(10, 12) * Fraction(4, 6)
    assert Fraction(odds["p_emergency_landing"]["exact"]) == p_killed
    assert Fraction(odds["p_destroyed"]["exact"]) == p_killed * Fraction(5, 6)
    loss = {d["value"]: Fraction(d["exact"]) for d in odds["strength_loss"]}
    assert loss == {4: 1 - p_killed, 5: p_killed * Fraction(1, 6), 6: p_killed * Fraction(5, 6)}


def test_real_shot_on_a_flyer_resolver_matches_its_exact_odds():
    # One rule, two forms: 20,000 seeded resolutions against the exact strength loss (4 standard errors).
    inputs = {**ROCKET, "target": {**FLYER, "strength": 9}}
    action = SYSTEM.action("real_shot")
    settings = {**REAL, "panic": True}
    odds = action.odds(inputs, settings)
    clean = action.validate(inputs, settings)
    dice, counts, n = SeededDice(17), Counter(), 20_000
    for _ in range(n):
        dice.rolls.clear()
        out = action.resolve_clean(clean, settings, dice)
        counts[9 - out.result["strength_after"]] += 1
    expected = {d["value"]: float(Fraction(d["exact"])) for d in odds["strength_loss"]}
    assert set(counts) <= set(expected)
    for value, p in expected.items():
        se = (p * (1 - p) / n) ** 0.5
        assert abs(counts[value] / n - p) <= 4 * se + 1e-12, (value, counts[value] / n, p)


def test_armour_test_that_kills_a_flying_pilot_lands_the_vehicle():
    inputs = {
        "strength": 5,
        "die": 12,
        "pilot": {"armour": 2, "ref": "s", "soldier": 2, "vehicle_flying": True},
        "vehicle_ref": "v",
    }
    outcome = run("armour_test", inputs, [11, 6, 4], REAL)  # pierced, killed, landing 4: 5 -> 1
    assert outcome.result["emergency_landing"] == {"roll": 4, "strength_after": 1}
    assert ("pilot_killed", "vehicle") in kinds(outcome)
    assert {
        "kind": "damage",
        "role": "vehicle",
        "amount": 4,
        "cause": "emergency landing",
        "ref": "v",
    } in outcome.effects
    odds = SYSTEM.action("armour_test").odds(inputs, REAL)
    assert Fraction(odds["p_emergency_landing"]["exact"]) == Fraction(7, 12) * Fraction(4, 6)
    assert Fraction(odds["p_vehicle_destroyed"]["exact"]) == Fraction(7, 12) * Fraction(4, 6) * Fraction(2, 6)


def test_a_pilot_survival_test_in_flight_lands_the_vehicle_too():
    subject = {"armour": 1, "is_pilot": True, "vehicle_ref": "v", "vehicle_flying": True, "vehicle_strength": 3}
    outcome = run("survival_test", {"subject": subject}, [6, 3])  # killed; landing 3: destroyed
    assert ("landed", "vehicle") in kinds(outcome)
    assert ("destroyed", "vehicle") in kinds(outcome)
    safe = run("survival_test", {"subject": subject}, [1])
    assert ("landed", "vehicle") not in kinds(safe)


def test_board_real_shot_grounds_the_condor_with_landing_damage():
    t = table(mode="real")
    # A ruling at the table: blue's own mortar hits the CONDOR (crewed by soldier 4, rank 4 >= 1).
    events = t.command(
        0,
        "shoot",
        {"unit": MORTAR, "crew_unit": BLUE_SQUAD, "crew_soldier": 4, "target": CONDOR, "charge": "mine", "hit": True},
        dice=[12, 6, 2],  # mine 3: 14 -> 11; Д12 12 > 11 pierced; pilot Бр 4 rolls 6: killed; landing d6 2
    )
    condor = state(t, CONDOR)
    assert (condor["flying"], condor["pilot"], condor["strength"]) == (False, None, 14 - 3 - 2)
    assert "unit.landed" in [e["type"] for e in events]
    assert soldier(t, BLUE_SQUAD, 2)["alive"] is False
    assert t.replay_matches()


# 2. A flyer's second move (p.11) ---------------------------------------------------------------------------------
def test_tracker_flyer_moves_twice_then_no_more():
    condor = tracker.initial_unit_state(PROFILES["condor"], {"pilot": pilot("e1", 2)})
    move = {"kind": "action_used", "action": "move"}
    once = tracker.apply_effect(condor, move)
    assert tracker.unit_view(once, PROFILES["condor"])["can_move"] is True  # move, shoot, move
    twice = tracker.apply_effect(tracker.apply_effect(once, {"kind": "shot_fired", "weapon": "x"}), move)
    view = tracker.unit_view(twice, PROFILES["condor"])
    assert view["can_move"] is False
    assert "twice" in view["move_reason"]
    assert tracker.moves_used(tracker.apply_effect(twice, move)) == 2  # a third never counts
    assert tracker.unit_view(tracker.apply_effect(twice, {"kind": "new_round"}), PROFILES["condor"])["can_move"]
    ground = tracker.initial_unit_state(PROFILES["salamander"], {"pilot": pilot("e1", 2)})
    assert tracker.unit_view(tracker.apply_effect(ground, move), PROFILES["salamander"])["can_move"] is False


def test_board_flyer_moves_shoots_moves_and_no_third_move():
    t = table()
    speed = 6  # CONDOR at full strength
    t.command(0, "move", {"unit": CONDOR, "path": [{"kind": "forward", "steps": speed}]})
    t.command(0, "move", {"unit": CONDOR, "path": [{"kind": "turn", "degrees": 180}, {"kind": "forward", "steps": 4}]})
    assert t.last_outcome["result"]["cost"] == 6  # a flyer turns 90° per SP (Table 2)
    with pytest.raises(RuleInputError) as exc:
        t.command(0, "move", {"unit": CONDOR, "path": [{"kind": "forward", "steps": 1}]})
    assert "twice" in str(exc.value.errors)
    assert tracker.unit_view(state(t, CONDOR), PROFILES["condor"])["can_move"] is False


# 3. Movement costs (§3.3) and the obstacle settings (A8, A9) ----------------------------------------------------
def move(mover, path, settings=None):
    return SYSTEM.action("movement").resolve({"mover": mover, "path": path}, settings or BASE, TableDice([]))


INFANTRY = {"kind": "infantry", "speed": 4}


def test_g03_climbing_one_and_a_half_steps_costs_three():  # p.13, Рис.19
    assert move(INFANTRY, [{"kind": "climb", "steps": 1.5}]).result["cost"] == 3


def test_g04_one_step_then_the_mortar_at_half_speed():  # p.14, Рис.20: 1 + 3 SP × ½ step = 7.5 cm with the gun
    outcome = move(INFANTRY, [{"kind": "flat", "steps": 1}, {"kind": "with_gun", "steps": 1.5}])
    assert outcome.result == {**outcome.result, "cost": 4, "ok": True}
    assert not move(INFANTRY, [{"kind": "flat", "steps": 1}, {"kind": "with_gun", "steps": 2}]).result["ok"]


def test_g06_bronekhod_back_turn_forward_costs_four():  # p.16–17, Рис.22
    bronekhod = {"kind": "vehicle", "speed": 4, "locomotion": "tracked"}
    path = [{"kind": "backward", "steps": 1}, {"kind": "turn"}, {"kind": "forward", "steps": 2}]
    assert move(bronekhod, path).result["cost"] == 4
    walker = {**bronekhod, "locomotion": "walker"}
    assert move(walker, path).result["cost"] == 5  # a walker backs at ½ step per SP (Table 2)


@pytest.mark.parametrize(("free", "cost"), [(True, 3), (False, 5)])
def test_a8_an_obstacle_of_exactly_half_a_step(free, cost):
    path = [{"kind": "flat", "steps": 3}, {"kind": "obstacle", "height_cm": 2.5}]
    outcome = move(INFANTRY, path, {**BASE, "half_step_obstacle_free": free})
    assert outcome.result["cost"] == cost
    assert outcome.result["ok"] is (cost <= 4)


@pytest.mark.parametrize(("additive", "cost"), [(True, 4), (False, 3)])
def test_a9_a_half_to_one_step_obstacle_is_added_or_is_the_whole_step(additive, cost):
    path = [{"kind": "flat", "steps": 2}, {"kind": "obstacle", "height_cm": 4}]
    assert move(INFANTRY, path, {**BASE, "obstacle_cost_additive": additive}).result["cost"] == cost


def test_movement_refusals():
    with pytest.raises(RuleInputError) as exc:
        SYSTEM.action("movement").validate({"mover": INFANTRY, "path": [{"kind": "obstacle", "height_cm": 6}]}, BASE)
    assert "impassable" in exc.value.errors["path.0.height_cm"]
    for mover, path, field in (
        (INFANTRY, [{"kind": "flat", "steps": 1}, {"kind": "stairs", "steps": 1}], "path"),
        ({**INFANTRY, "actions_used": ["jump"]}, [{"kind": "flat", "steps": 1}], "mover.actions_used"),
        ({"kind": "vehicle", "speed": 5, "locomotion": "flying"}, [{"kind": "backward", "steps": 1}], "path.0"),
        ({"kind": "vehicle", "speed": 5, "locomotion": "tracked"}, [{"kind": "sideways", "steps": 1}], "path.0"),
        ({"kind": "vehicle", "speed": 5, "locomotion": "tracked", "pilot": None}, [{"kind": "forward"}], "mover.pilot"),
        (INFANTRY, [{"kind": "with_gun", "steps": 1}, {"kind": "platform_jump", "steps": 1}], "path.1"),
    ):
        with pytest.raises(RuleInputError) as exc:
            SYSTEM.action("movement").validate({"mover": mover, "path": path}, BASE)
        assert field in exc.value.errors, (path, exc.value.errors)


def test_a10_flyer_speed_each_move_or_shared():
    flyer = {"kind": "vehicle", "speed": 6, "locomotion": "flying", "actions_used": ["move"], "sp_used": 4}
    path = [{"kind": "forward", "steps": 3}]
    assert move(flyer, path).result["ok"] is True
    shared = move(flyer, path, {**BASE, "flyer_full_speed_each_move": False})
    assert (shared.result["ok"], shared.result["budget"]) == (False, 2)


def test_board_move_records_the_move_and_refuses_too_long_a_move():
    t = table()
    t.command(0, "move", {"unit": BLUE_SQUAD, "soldier": 1, "path": [{"kind": "flat", "steps": 2},
                                                                     {"kind": "obstacle", "height_cm": 3}]})  # fmt: skip
    assert "move" in soldier(t, BLUE_SQUAD, 1)["actions"]
    speed = 5  # Ск of every commando
    version = t.version
    with pytest.raises(RuleInputError) as exc:
        t.command(0, "move", {"unit": BLUE_SQUAD, "soldier": 3, "path": [{"kind": "flat", "steps": speed + 1}]})
    assert "not possible" in exc.value.errors["path"]
    assert t.version == version
    with pytest.raises(RuleInputError):  # he already moved
        t.command(0, "move", {"unit": BLUE_SQUAD, "soldier": 1, "path": [{"kind": "flat", "steps": 1}]})


# 4. deployment_order (A3) ---------------------------------------------------------------------------------------
def test_a3_alternate_deployment_one_unit_at_a_time_after_a_roll_off():
    t = table()
    with pytest.raises(GameConflict):  # who starts is rolled first
        t.command(0, "deploy", {"unit": BLUE_SQUAD})
    t.command(0, "deployment", {}, dice=[4, 9])  # red wins the d12 roll-off
    assert t.state.game["deployment"]["next"] == 1
    with pytest.raises(GameConflict) as exc:
        t.command(0, "deploy", {"unit": BLUE_SQUAD})
    assert "alternates" in exc.value.message
    t.command(1, "deploy", {"unit": RED_SQUAD})
    t.command(0, "deploy", {"unit": BLUE_SQUAD})
    t.command(1, "deploy", {"unit": HELIX})
    with pytest.raises(GameConflict):  # once started, every unit is placed before initiative
        t.command(0, "initiative", {}, dice=[5, 3])
    t.command(0, "deploy", {"unit": CONDOR})  # red has nothing left: blue places the rest
    t.command(0, "deploy", {"unit": MORTAR})
    assert t.state.game["deployment"]["open"] is False
    t.command(0, "initiative", {}, dice=[5, 3])
    assert t.replay_matches()


def test_a3_free_deployment_in_any_order():
    t = table(deployment_order="free")
    with pytest.raises(RuleInputError):
        t.command(0, "deployment", {}, dice=[4, 9])
    t.command(0, "deploy", {"unit": BLUE_SQUAD})
    t.command(0, "deploy", {"unit": CONDOR})  # the same side twice in a row
    assert t.state.game["deployment"]["placed"] == [BLUE_SQUAD, CONDOR]


def test_deployment_is_over_once_initiative_is_rolled():
    t = table()
    t.command(0, "initiative", {}, dice=[5, 3])
    with pytest.raises(GameConflict):
        t.command(0, "deployment", {}, dice=[4, 9])


# 5. dismounted_pilot_rejoins_squad (A19) -------------------------------------------------------------------------
def _dismount_helix_pilot(t):
    """The HELIX is destroyed; its pilot, red soldier 3, survives and is on foot (p.20)."""
    t.command(1, "adjust", {"unit": HELIX, "changes": {"strength": 1}})
    t.command(0, "melee", {"unit": BLUE_SQUAD, "soldier": 1, "target": HELIX}, dice=[6, 1])
    t.command(1, "answer", {}, dice=[1])  # the pilot's survival test is his player's (setting pilot_tests)
    assert state(t, HELIX)["destroyed"]
    assert soldier(t, RED_SQUAD, 3)["role"] == "dismounted"


def _red_pending(t):
    return t.state.game["pending"]["1"]


def test_a19_on_the_pilot_acts_with_his_squad():
    t = table(turns=False)
    _dismount_helix_pilot(t)
    t.settings["enforce_turns"] = True
    t.command(0, "initiative", {}, dice=[3, 5])
    t.command(1, "order", {"order": [1, 0]})
    assert _red_pending(t) == 1  # the squad (with him)
    t.command(1, "done", {"unit": RED_SQUAD})
    assert _red_pending(t) == 0
    with pytest.raises(RuleInputError):
        t.command(1, "done", {"unit": RED_SQUAD, "soldier": 3})


def test_a19_off_the_pilot_is_a_one_man_unit():
    t = table(turns=False, dismounted_pilot_rejoins_squad=False)
    _dismount_helix_pilot(t)
    t.settings["enforce_turns"] = True
    t.command(0, "initiative", {}, dice=[3, 5])
    t.command(1, "order", {"order": [1, 0]})
    assert _red_pending(t) == 2  # the squad, and the pilot on his own
    t.command(1, "done", {"unit": RED_SQUAD})
    assert _red_pending(t) == 1
    # Blue acts in between (turns alternate unit by unit), then the pilot acts alone and is done.
    t.command(0, "done", {"unit": BLUE_SQUAD})
    t.command(1, "move", {"unit": RED_SQUAD, "soldier": 3, "path": [{"kind": "flat", "steps": 1}]})
    assert t.state.game["active_unit"] == f"{RED_SQUAD}/3"
    t.command(1, "done", {"unit": RED_SQUAD, "soldier": 3})
    assert _red_pending(t) == 0
    assert t.state.game["active_unit"] is None
    assert t.replay_matches()


# 6. enforce_mount_limit (A30) ------------------------------------------------------------------------------------
def _limited_roster(weapons=None):
    condor = copy.deepcopy(PROFILES["condor"])
    condor["data"]["mounts"] = 1
    options = {"pilot": pilot("e1", 2)}
    if weapons is not None:
        options["weapons"] = weapons
    return {
        "faction": "protectorate",
        "entries": [entry("e1", "protectorate_shturmovoy_otryad_stervyatniki"), {**entry("e2", "condor", **options),
                                                                       "profile": condor}],
    }  # fmt: skip


def test_a30_mount_limit_refuses_or_trims_when_on_and_allows_all_when_off():
    arsenal = [w["key"] for w in PROFILES["condor"]["data"]["arsenal"]]
    assert len(arsenal) > 1
    with pytest.raises(RuleInputError) as exc:
        table(rosters=(_limited_roster(arsenal), RED))
    assert "mount 1" in exc.value.errors["rosters"]
    trimmed = table(rosters=(_limited_roster(), RED))
    assert state(trimmed, CONDOR)["weapons"] == arsenal[:1]
    free = table(rosters=(_limited_roster(arsenal), RED), enforce_mount_limit=False)
    assert state(free, CONDOR)["weapons"] == arsenal


# 7. Every action the rules API resolves is on the board, at most three taps from the unit's row -----------------
#: Which board entry starts each rules action: (command name, act of the action sheet or None for a direct button).
BOARD_ROUTE = {
    "initiative": "initiative",
    "virtual_shot": "shoot",
    "real_shot": "shoot",
    "survival_test": "survival_test",
    "armour_test": "armour_test",
    "melee": "melee",
    "grenade": "grenade",
    "emergency_landing": "emergency_landing",
    "repair": "repair",
    "capture": "capture",
    "towing": "tow",
    "jump": "jump",
    "panic": "panic",
    "dispute": "dispute",
    "ammo_refresh": "ammo_refresh",
    "movement": "move",
}
ALL_OPTIONS = {"grenades": True, "jump_packs": True, "panic": True, "ammo_refreshes": 1}


def board_state(t: Table, viewer: set[int]) -> dict:
    """What the state API gives a viewer (battles.selectors.battle_state), from the in-memory table."""
    part = SYSTEM.battle
    units = []
    for key, u in t.state.units.items():
        owner = part.owner(t.state, key)
        view = part.unit_view(t.state, u, frozenset(viewer))
        units.append(
            {"key": key, "name": u.name, "kind": u.kind, "side": u.side, "owner": owner,
             "owner_name": f"Side {owner}", "mine": owner in viewer, "view": view}
        )  # fmt: skip
    sides = [{"index": i, "name": f"Side {i}", "faction": "", "player": "p", "mine": i in viewer} for i in (0, 1)]
    return {"game": t.state.game, "settings": t.settings, "sides": sides, "units": units, "version": t.version}


def taps_to_start(board: dict) -> dict[str, int]:
    """The fewest taps from an opened unit card (or the turn bar) to send each command: a direct button is 1; a
    sheet button is 2 (the button, then Roll); behind a folded group one more."""
    best: dict[str, int] = {}

    def seen(name, taps):
        best[name] = min(taps, best.get(name, taps))

    def walk(widgets):
        for widget in widgets:
            if widget["type"] not in ("buttons", "prompt"):
                continue
            fold = 1 if widget.get("folded") else 0
            for b in widget["items"] if widget["type"] == "buttons" else widget["options"]:
                if b.get("disabled"):
                    continue
                if b["command"]:
                    seen(b["command"], 1 + fold)
                elif b["attrs"].get("act"):
                    seen(b["attrs"]["act"], 2 + fold)

    walk(board["turnbar"])
    for group in board["groups"]:
        for card in group["units"]:
            walk(card["widgets"])
    return best


@pytest.mark.parametrize("mode", ["virtual", "real"])
def test_every_rules_action_starts_from_the_board_in_three_taps(mode):
    t = table(mode=mode, **ALL_OPTIONS)
    sheet_actions = set()
    taps: dict[str, int] = {}
    for viewer in ({0}, {1}):
        view = board_state(t, viewer)
        for name, n in taps_to_start(SYSTEM.battle.board(view, frozenset(viewer), can_write=True)).items():
            taps[name] = min(n, taps.get(name, n))
        sheet_actions |= set(SYSTEM.battle.client_data(view)["actions"])
    assert set(BOARD_ROUTE) == set(SYSTEM.actions)  # a new rules action needs its way onto the board
    # The actions these settings allow (each action states its modes, p.2, and its optional rule, §1.8).
    wanted = {k: v for k, v in BOARD_ROUTE.items() if mode in SYSTEM.actions[k].modes}
    assert len(wanted) == len(BOARD_ROUTE) - 2  # virtual: no real shot, no armour test; real: no virtual shot, grenade
    for action, command in wanted.items():
        assert command in SYSTEM.battle.commands, action
        assert taps.get(command, 99) <= 3, (action, command, taps)
        if command != "initiative":
            assert command in sheet_actions, (action, command)  # the action sheet can fill its inputs
    assert taps["tow"] == 2  # on the HELIX's row: Tow, then Roll
    assert taps["jump"] == 2
    assert taps["dispute"] <= 3


def test_the_helix_row_offers_stop_towing_in_one_tap():
    t = table()
    t.command(1, "tow", {"unit": HELIX, "target": MORTAR})
    board = SYSTEM.battle.board(board_state(t, {1}), frozenset({1}), can_write=True)
    card = next(c for g in board["groups"] for c in g["units"] if c["key"] == HELIX)
    stop = [b for w in card["widgets"] if w["type"] == "buttons" for b in w["items"] if b["command"] == "tow"]
    assert stop
    assert stop[0]["inputs"] == {"unit": HELIX, "op": "stop"}
    assert stop[0]["label"].startswith("Stop towing")


# 8. Grenades under blast_cover (A6, A15): the action and its odds apply cover, as the simulator does -------------
GRENADE = {
    "thrower": {"kind": "infantry", "armour": 3, "ref": "t", "soldier": 1},
    "burst_steps": 3,
    "victims": [{"kind": "infantry", "armour": 2, "ref": "v", "soldier": 4, "cover": "under_half_visible"}],
}


@pytest.mark.parametrize(("blast_cover", "armour"), [(False, 2), (True, 5)])
def test_grenade_cover_counts_only_with_blast_cover(blast_cover, armour):
    settings = {**BASE, "grenades": True, "blast_cover": blast_cover}
    odds = SYSTEM.action("grenade").odds(GRENADE, settings)
    assert Fraction(odds["victims"][0]["p_destroyed"]["exact"]) == Fraction(20 - armour, 20)  # 1Д20 > armour
    outcome = run("grenade", GRENADE, [armour + 1 if blast_cover else 3], settings)
    assert outcome.result["victims"][0]["armour"] == armour
    assert outcome.result["victims"][0]["destroyed"] is True
    held = run("grenade", GRENADE, [5], settings)  # 5 beats Бр 2, not Бр 2 + 3 for cover
    assert held.result["victims"][0]["destroyed"] is (not blast_cover)


# The three forms of the grenade rule agree (A6, A15): the resolver rolled many times, the exact odds and the
# simulator's primitives (simulate_grenade, with blast_armour as the battles use it), with blast_cover off and on.
GRENADE_ROLLED = {
    "thrower": {"kind": "infantry", "armour": 3, "ref": "t", "soldier": 1},
    "victims": [
        {"kind": "infantry", "armour": 2, "ref": "v", "soldier": 4, "cover": "under_half_visible", "bursts": [3, 4]},
        {
            "kind": "vehicle",
            "ref": "w",
            "strength": 9,
            "strength_max": 12,
            "pilot": {"armour": 3},
            "cover": "over_half_visible",
            "bursts": [2, 3, 4],
        },
    ],
}


@pytest.mark.parametrize("blast_cover", [False, True])
def test_grenade_resolver_odds_and_simulator_agree(blast_cover):
    from rules.systems.bronepekhota import tables
    from rules.systems.bronepekhota.simulate import simulate_grenade

    settings = {**BASE, "grenades": True, "blast_cover": blast_cover, "panic": True}
    odds = SYSTEM.action("grenade").odds(GRENADE_ROLLED, settings)
    n, rolled = 20_000, 1_000  # the resolver is slow (validation, log lines): fewer rolls, wider bounds
    sim = simulate_grenade(GRENADE_ROLLED, settings, n=n, seed=5)
    dice, counts = SeededDice(29), Counter()
    keys = ("destroyed", "pilot_killed", "panic")
    for _ in range(rolled):
        outcome = SYSTEM.action("grenade").resolve(GRENADE_ROLLED, settings, dice)
        for v in outcome.result["victims"]:
            counts[(v["role"], "attacked")] += 1
            counts[(v["role"], "damaged")] += v["damage"] > 0
            counts[(v["role"], "destroyed")] += v["destroyed"]
            counts[(v["role"], "pilot_killed")] += v.get("pilot") == tables.KILLED
            counts[(v["role"], "panic")] += tables.PANIC in (v.get("pilot"), v.get("survival"))
    assert [v["role"] for v in odds["victims"]] == [v["role"] for v in sim["victims"]]
    for exact, simulated in zip(odds["victims"], sim["victims"], strict=True):
        role = exact["role"]
        for key in ("attacked", "damaged", *keys):
            p = float(Fraction(exact[f"p_{key}"]["exact"]))
            for got, size, form in (
                (simulated[f"p_{key}"], n, "simulator"),
                (counts[(role, key)] / rolled, rolled, "resolver"),
            ):
                assert abs(got - p) <= 4 * max((p * (1 - p) / size) ** 0.5, 1 / size), (role, key, form)
    # the setting matters: the soldier in cover (+3) is destroyed less often with it on
    soldier = Fraction(odds["victims"][0]["p_destroyed"]["exact"])
    assert soldier == Fraction(2, 6) * Fraction(20 - (5 if blast_cover else 2), 20)
