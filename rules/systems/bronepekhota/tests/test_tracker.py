"""tracker.py: the unit state at deployment, every effect kind, manual adjustments, rounds, derived views."""

import pytest

from rules.contract import SideSetup
from rules.dice import TableDice
from rules.errors import RuleInputError
from rules.systems.bronepekhota import tracker
from rules.systems.bronepekhota.system import SYSTEM

SQUAD = {
    "slug": "sq",
    "name": "Squad",
    "faction": "polaris",
    "kind": "squad",
    "cost": 50,
    "data": {
        "soldiers": [
            {"num": n, "rank": 2, "speed": 4, "range": "Д6+1", "power": "2Д6", "melee": 2, "armour": 3}
            for n in range(1, 7)
        ]
    },
}
VEHICLE = {
    "slug": "helix",
    "name": "HELIX",
    "faction": "protectorate",
    "kind": "vehicle",
    "cost": 90,
    "data": {
        "rank": 2,
        "weight": "heavy",
        "locomotion": "flying",
        "rof": 2,
        "ammo_max": 16,
        "strength_max": 12,
        "speed_sectors": [{"min": 7, "max": 12, "speed": 6}, {"min": 1, "max": 6, "speed": 4}],
        "arsenal": [
            {"key": "rockets-1", "name": "R1", "range": "Д6+3", "power": "2Д20"},
            {"key": "rockets-2", "name": "R2", "range": "Д6+3", "power": "2Д20"},
            {"key": "saw", "name": "Saw", "melee": 2},
        ],
        "variants": [
            {"key": "rockets", "name": "Rockets", "weapons": ["rockets-1", "rockets-2"]},
            {"key": "repair", "name": "Repair platform", "weapons": [], "repair_platform": True},
        ],
    },
}
GUN = {
    "slug": "mortar",
    "name": "МИНОМЕТ",
    "faction": "green",
    "kind": "gun",
    "cost": 20,
    "data": {
        "rank": 1,
        "mobile": True,
        "rof": 1,
        "ammo_max": 12,
        "strength_max": 4,
        "weapons": [
            {"key": "mortar", "name": "Mortar", "range": "Д6+2", "power": "3Д20", "charges": ["shell", "mine"]}
        ],
    },
}
PILOT = {"entry": "e1", "soldier": 2, "copy": 1}


def vehicle_state(**over):
    state = tracker.initial_unit_state(VEHICLE, {"pilot": [PILOT], "loadout": {"variant": "rockets"}})
    return {**state, **over}


def test_initial_states():
    squad = tracker.initial_unit_state(SQUAD, {"pilots": [{"soldier": 2, "vehicle": "v1"}]})
    assert len(squad["soldiers"]) == 6
    assert all(s["alive"] for s in squad["soldiers"])
    assert squad["soldiers"][1]["role"] == "pilot"
    assert squad["soldiers"][1]["pilot_of"] == "v1"
    v = vehicle_state()
    assert (v["strength"], v["ammo"], v["pilot"], v["flying"]) == (12, 16, PILOT, True)
    assert v["weapons"] == ["rockets-1", "rockets-2"]
    assert v["repair_platform"] is False
    repair = tracker.initial_unit_state(VEHICLE, {"pilot": [PILOT], "loadout": {"variant": "repair"}})
    assert repair["weapons"] == []
    assert repair["repair_platform"] is True
    second_copy = tracker.initial_unit_state(VEHICLE, {"pilot": [PILOT, {"entry": "e1", "soldier": 3}], "copy": 2})
    assert second_copy["pilot"]["soldier"] == 3
    no_pilot = tracker.initial_unit_state(VEHICLE, {})
    assert no_pilot["pilot"] is None
    assert no_pilot["flying"] is False
    gun = tracker.initial_unit_state(GUN, {})
    assert gun["kind"] == "gun"
    assert gun["strength"] == 4
    assert gun["mobile"] is True
    # The battle part builds a unit from a roster entry with the same initial state.
    side = SideSetup(0, "A", "protectorate", {"entries": [{"key": "g", "profile": GUN, "count": 1, "options": {}}]})
    start = SYSTEM.battle.start(sides=[side], settings={"system": SYSTEM.default_settings()})
    assert start.units[0].state == {**gun, "owner": 0}  # the side that brought it


def test_apply_effect_never_mutates():
    state = vehicle_state()
    new = tracker.apply_effect(state, {"kind": "damage", "amount": 3})
    assert state["strength"] == 12
    assert new["strength"] == 9


def test_damage_destroy_and_repair_with_cap():
    s = tracker.apply_effect(vehicle_state(), {"kind": "damage", "amount": 20})
    assert s["strength"] == 0
    assert s["destroyed"]
    with pytest.raises(RuleInputError):
        tracker.apply_effect(s, {"kind": "repair", "amount": 1})
    s = tracker.apply_effect(vehicle_state(strength=11), {"kind": "repair", "amount": 2})
    assert s["strength"] == 12


def test_ammo_spent_clamps_and_refresh():
    s = tracker.apply_effect(vehicle_state(ammo=2), {"kind": "ammo_spent", "amount": 3})
    assert s["ammo"] == 0
    s = tracker.apply_effect(s, {"kind": "ammo_refresh"})
    assert s["ammo"] == 16
    assert s["ammo_refreshes_used"] == 1


def test_shots_and_new_round():
    s = tracker.apply_effect(vehicle_state(), {"kind": "shot_fired", "weapon": "rockets-1"})
    s = tracker.apply_effect(s, {"kind": "activated", "value": True})
    assert s["shots_this_round"] == 1
    assert s["weapons_fired"] == ["rockets-1"]
    assert "shoot" in s["actions"]
    s = tracker.apply_effect(s, {"kind": "new_round"})
    assert (s["shots_this_round"], s["weapons_fired"], s["actions"], s["activated"]) == (0, [], [], False)


def test_pilot_lifecycle_and_flying():
    s = tracker.apply_effect(vehicle_state(), {"kind": "pilot_killed"})
    assert s["pilot"] is None
    assert s["flying"] is False
    s = tracker.apply_effect(
        s, {"kind": "pilot_boarded", "pilot": {"entry": "e2", "soldier": 1}, "acts_next_round": True}
    )
    assert s["pilot"]["entry"] == "e2"
    assert s["flying"] is True
    assert s["acts_next_round"] is True
    view = tracker.unit_view(s, VEHICLE)
    assert view["can_move"] is False
    assert "next round" in view["move_reason"]
    s = tracker.apply_effect(s, {"kind": "new_round"})
    assert tracker.unit_view(s, VEHICLE)["can_move"] is True
    s = tracker.apply_effect(s, {"kind": "landed"})
    assert s["flying"] is False


def test_lying_stand_up_only_after_repair():
    s = tracker.apply_effect(vehicle_state(strength=8), {"kind": "lying", "value": True})
    assert tracker.unit_view(s, VEHICLE)["can_shoot"] is False
    with pytest.raises(RuleInputError):
        tracker.apply_effect(s, {"kind": "stood_up"})
    s = tracker.apply_effect(s, {"kind": "repair", "amount": 1})
    s = tracker.apply_effect(s, {"kind": "stood_up"})
    assert s["lying"] is False


def test_squad_effects():
    squad = tracker.initial_unit_state(SQUAD, {"pilots": [{"soldier": 2, "vehicle": "v1"}]})
    s = tracker.apply_effect(squad, {"kind": "soldier_killed", "soldier": 1})
    assert s["soldiers"][0]["alive"] is False
    s = tracker.apply_effect(s, {"kind": "panic", "soldier": 2})
    assert s["soldiers"][1]["panicked"]
    assert s["soldiers"][1]["role"] == "dismounted"
    s = tracker.apply_effect(s, {"kind": "deserted", "soldier": 2})
    assert s["soldiers"][1]["deserted"]
    assert not s["soldiers"][1]["on_field"]
    s = tracker.apply_effect(s, {"kind": "action_used", "soldier": 3, "action": "shoot"})
    s = tracker.apply_effect(s, {"kind": "became_pilot", "soldier": 4, "of": "v9"})
    view = tracker.unit_view(s, SQUAD)
    assert view["alive"] == 5
    by_num = {x["num"]: x for x in view["soldiers"]}
    assert by_num[1]["reason"] == "dead"
    assert by_num[2]["reason"] == "deserted"
    assert by_num[3]["can_shoot"] is False
    assert by_num[3]["can_move"] is True
    assert by_num[4]["can_act"] is False
    assert "pilot" in by_num[4]["reason"]
    s = tracker.apply_effect(s, {"kind": "panic", "soldier": 5})
    s = tracker.apply_effect(s, {"kind": "new_round"})
    assert s["soldiers"][4]["panicked"] is False
    assert s["soldiers"][2]["actions"] == []


def test_manual_adjustments_within_the_scale():
    s = tracker.apply_effect(vehicle_state(), {"kind": "set_strength", "value": 5})
    assert s["strength"] == 5
    s = tracker.apply_effect(s, {"kind": "set_ammo", "value": 0})
    assert tracker.unit_view(s, VEHICLE)["shoot_reason"] == "out of ammo for the rest of the game"
    for bad in ({"kind": "set_strength", "value": 13}, {"kind": "set_strength", "value": -1},
                {"kind": "set_ammo", "value": 17}, {"kind": "set_ammo", "value": "3"}):  # fmt: skip
        with pytest.raises(RuleInputError) as exc:
            tracker.apply_effect(s, bad)
        assert "effect" in exc.value.errors
    s = tracker.apply_effect(s, {"kind": "set_flag", "flag": "in_melee", "value": True})
    assert s["in_melee"] is True


@pytest.mark.parametrize(
    ("state_fn", "effect"),
    [
        (vehicle_state, {"kind": "soldier_killed", "soldier": 1}),
        (vehicle_state, {"kind": "teleport"}),
        (vehicle_state, {"kind": "initiative", "winner": "A"}),
        (vehicle_state, {"kind": "set_flag", "flag": "invisible", "value": True}),
        (lambda: tracker.initial_unit_state(SQUAD, {}), {"kind": "damage", "amount": 1, "soldier": 1}),
        (lambda: tracker.initial_unit_state(SQUAD, {}), {"kind": "soldier_killed", "soldier": 9}),
        (lambda: tracker.initial_unit_state(GUN, {}), {"kind": "pilot_killed"}),
        (vehicle_state, {"no": "kind"}),
    ],
)
def test_effects_that_do_not_fit_raise(state_fn, effect):
    with pytest.raises(RuleInputError):
        tracker.apply_effect(state_fn(), effect)


def test_views_speed_and_reasons():
    v = vehicle_state(strength=5)
    view = tracker.unit_view(v, VEHICLE)
    assert view["armour"] == 5
    assert view["speed"] == 4
    assert view["can_shoot"] is True
    assert view["can_melee"] is False
    assert view["melee_reason"] == "flying vehicles never melee"
    frozen = tracker.unit_view(vehicle_state(pilot=None, flying=False), VEHICLE)
    assert frozen["can_move"] is False
    assert "no pilot" in frozen["move_reason"]
    rof = tracker.unit_view(vehicle_state(shots_this_round=2), VEHICLE)
    assert rof["can_shoot"] is False
    assert "rate of fire" in rof["shoot_reason"]
    gun = tracker.initial_unit_state(GUN, {})
    assert tracker.unit_view(gun, GUN)["can_move"] is True
    unlimited = tracker.unit_view(vehicle_state(ammo=0), VEHICLE, {"ammo_limited": False})
    assert unlimited["can_shoot"] is True


def test_every_effect_the_actions_emit_applies_to_some_state():
    """Run representative outcomes and apply each unit effect to a fitting state: nothing is left unknown."""
    settings = {**SYSTEM.default_settings(), "panic": True, "special_properties": True}
    outcomes = [
        SYSTEM.action("virtual_shot").resolve(
            {
                "shooter": {"kind": "vehicle", "rof": 2, "ammo": 9},
                "weapon": {"key": "r", "range": "Д12", "power": "2Д12"},
                "distance_steps": 1,
                "target": {"kind": "vehicle", "strength": 3, "flying": True, "pilot": {"armour": 2, "soldier": 2}},
            },
            settings,
            TableDice([5, 12, 12, 2]),
        ),
        SYSTEM.action("melee").resolve(
            {
                "attacker": {"kind": "infantry", "melee": 2, "soldier": 1},
                "defender": {"kind": "infantry", "armour": 6, "soldier": 3},
            },
            settings,
            TableDice([1, 6]),
        ),
    ]
    squad = tracker.initial_unit_state(SQUAD, {"pilots": [{"soldier": 2, "vehicle": "v"}]})
    for outcome in outcomes:
        for effect in outcome.effects:
            soldierish = "soldier" in effect or effect["role"].endswith(".pilot")
            state = squad if soldierish else vehicle_state()
            if soldierish and "soldier" not in effect:
                effect = {**effect, "soldier": 2}
            tracker.apply_effect(state, effect)


def test_panic_ends_actions_setting():
    squad = tracker.apply_effect(tracker.initial_unit_state(SQUAD, {}), {"kind": "panic", "soldier": 1})
    assert tracker.unit_view(squad, SQUAD)["soldiers"][0]["can_act"] is False
    assert tracker.unit_view(squad, SQUAD, {"panic_ends_actions": False})["soldiers"][0]["can_act"] is True


def test_cost_roster_is_delegated_to_the_army_module():
    from rules.contract import RosterReport

    report = SYSTEM.cost_roster({"faction": "polaris", "entries": [{"key": "e1", "profile": SQUAD, "count": 2}]})
    assert isinstance(report, RosterReport)
    assert report.total == 100
    assert report.entry_costs == {"e1": 100}
