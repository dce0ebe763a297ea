"""The inputs of the board's non-attack tests (repair, move, jump, tow, the soldiers' and the pilots' tests, the armour
test) built from the live state: which unit, which soldier, which vehicle, checked against who may act
(battle/resolve.py plans each test from them)."""

from __future__ import annotations

from rules.errors import RuleInputError
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.actions.support import has_repair
from rules.systems.bronepekhota.battle.units import (
    _pick_soldier,
    _soldier_profile,
    machine_element,
)


def _repair_inputs(ctx, inputs: dict):
    unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
    target_unit = ctx.unit(inputs.get("target"), field_name="target")
    if target_unit.state["kind"] == "squad":
        raise RuleInputError({"target": tr("Only vehicles and guns are repaired.")})
    ts = target_unit.state
    target = {
        "kind": ts["kind"],
        "ref": target_unit.key,
        "strength": ts["strength"],
        "strength_max": ts["strength_max"],
        "destroyed": ts["destroyed"],
        "lying": ts["lying"],
        "in_melee": ts["in_melee"],
        "actions_used": list(ts.get("actions", [])),
        "activated": bool(ts.get("activated")),
    }
    own = target_unit.key == unit.key
    if unit.state["kind"] == "squad":
        sst, spr = _pick_soldier(unit, inputs.get("soldier"), "soldier")
        repairer = {
            "kind": "soldier",
            "ref": unit.key,
            "soldier": spr["num"],
            "abilities": spr.get("abilities", []),
            "actions_used": list(sst["actions"]),
            "in_melee": sst["in_melee"],
        }
        acting = [(unit, spr["num"])]
    elif unit.state["kind"] == "vehicle" and unit.state.get("repair_platform"):
        repairer = {
            "kind": "helix",
            "ref": unit.key,
            "repair_platform": True,
            "pilot": machine_element(unit)["pilot"],
            "actions_used": list(unit.state.get("actions", [])),
            "in_melee": unit.state["in_melee"],
        }
        acting = [(unit, None)]
    elif unit.state["kind"] == "vehicle" and own:
        pilot = unit.state.get("pilot")
        if not pilot:
            raise RuleInputError({"unit": tr("A vehicle without a pilot cannot repair itself.")})
        squad = ctx.state.units.get(pilot.get("ref"))
        abilities = _soldier_profile(squad.profile, pilot.get("soldier")).get("abilities", []) if squad else []
        repairer = {"kind": "pilot", "ref": unit.key, "abilities": abilities, "in_melee": unit.state["in_melee"]}
        acting = [(unit, None)]
    else:
        raise RuleInputError(
            {"unit": tr("Repairs are made by a «Rpr» soldier, a «Rpr» pilot (own vehicle) or a HELIX platform.")}
        )
    if not has_repair(repairer.get("abilities", [])) and repairer["kind"] != "helix":
        raise RuleInputError({"soldier": tr("Only a soldier with «Rpr» (repair) in «Abl.» can repair.")})
    rules_inputs = {"repairer": repairer, "target": target, "touching": True, "self": own}
    return rules_inputs, {"repairer": unit.key, "target": target_unit.key}, acting


def _actor_soldier(unit, inputs: dict, field_name: str = "soldier", *, moving: bool = False):
    """A soldier of one's own squad who acts now: alive, on the field, not a pilot, not panicked."""
    sst, spr = _pick_soldier(unit, inputs.get(field_name), field_name)
    if sst["role"] == "pilot":
        raise RuleInputError({field_name: tr("This soldier pilots a vehicle: he acts with the vehicle.")})
    if sst["panicked"]:
        raise RuleInputError({field_name: tr("A panicked soldier takes no actions this round (p.51).")})
    if moving and sst["aimed"]:
        raise RuleInputError({field_name: tr("He declared aimed fire: he may not move this round (p.49).")})
    return sst, spr


def _vehicle_unit(ctx, inputs: dict, *, own: bool = False):
    unit = (ctx.own_unit if own else ctx.unit)(inputs.get("unit"), field_name="unit")
    if unit.state["kind"] != "vehicle":
        raise RuleInputError({"unit": tr("{name} is not a vehicle.").format(name=unit.profile["name"])})
    if unit.state["destroyed"]:
        raise RuleInputError({"unit": tr("{name} is destroyed.").format(name=unit.profile["name"])})
    return unit


def _move_inputs(ctx, inputs: dict):
    """A move measured at the table (§3.3): the soldier's Ск, or the vehicle's speed from its sector."""
    unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
    path = inputs.get("path")
    if not isinstance(path, list):
        raise RuleInputError(
            {
                "path": tr("Describe the move: a list of segments, e.g. {example}.").format(
                    example="[{'kind': 'flat', 'steps': 3}]"
                )
            }
        )
    st = unit.state
    if st["kind"] == "squad":
        sst, spr = _actor_soldier(unit, inputs, moving=True)
        mover = {
            "kind": "infantry",
            "ref": unit.key,
            "soldier": spr["num"],
            "speed": spr["speed"],
            "actions_used": list(sst["actions"]),
            "aimed": bool(sst["aimed"]),
        }
        return {"mover": mover, "path": path}, {"mover": unit.key}, [(unit, spr["num"])]
    if st["kind"] == "gun":
        raise RuleInputError(
            {"unit": tr("A gun moves with a soldier touching it (a move 'with_gun') or towed by a HELIX (p.14, p.49).")}
        )
    if st["destroyed"]:
        raise RuleInputError({"unit": tr("{name} is destroyed.").format(name=unit.profile["name"])})
    if st.get("acts_next_round"):
        raise RuleInputError({"unit": tr("Captured this round: it acts from next round (p.42, A11).")})
    mover = {
        "kind": "vehicle",
        "ref": unit.key,
        "speed": tables.speed_for_strength(unit.profile["data"].get("speed_sectors", []), st["strength"]),
        "actions_used": list(st["actions"]),
        "pilot": machine_element(unit)["pilot"],
        "lying": st["lying"],
        "towed": st.get("towed_by") is not None,
        "sp_used": st.get("sp_used", 0),
    }
    if st.get("locomotion"):
        mover["locomotion"] = st["locomotion"]
    return {"mover": mover, "path": path}, {"mover": unit.key}, [(unit, None)]


def _jump_inputs(ctx, inputs: dict):
    """A jump pack «ПрN» (§3.3.2): the length and the rise measured at the table."""
    unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
    if unit.state["kind"] != "squad":
        raise RuleInputError({"unit": tr("Only infantrymen wear jump packs.")})
    sst, spr = _actor_soldier(unit, inputs, moving=True)
    soldier = {
        "ref": unit.key,
        "soldier": spr["num"],
        "abilities": spr.get("abilities", []),
        "actions_used": list(sst["actions"]),
    }
    rules_inputs = {"soldier": soldier}
    for key in ("length_steps", "rise_steps"):
        if inputs.get(key) is not None:
            rules_inputs[key] = inputs[key]
    if "length_steps" not in rules_inputs:
        raise RuleInputError({"length_steps": tr("Give the jump's length in steps (from the take-off point).")})
    return rules_inputs, {"soldier": unit.key}, [(unit, spr["num"])]


def _tow_inputs(ctx, inputs: dict):
    """A HELIX with the repair-transport platform starts or stops towing (§3.13). Stopping needs no turn: the owner
    may stop at any moment (p.49)."""
    helix = _vehicle_unit(ctx, inputs, own=True)
    op = inputs.get("op", "start")
    if op not in ("start", "stop"):
        raise RuleInputError({"op": tr("must be «start» or «stop»")})
    if op == "stop":
        towing = helix.state.get("towing")
        if towing is None or towing not in ctx.state.units:
            raise RuleInputError({"op": tr("{name} is not towing anything.").format(name=helix.profile["name"])})
        target = ctx.state.units[towing]
    else:
        target = ctx.unit(inputs.get("target"), field_name="target")
        if target.key == helix.key:
            raise RuleInputError({"target": tr("A HELIX does not tow itself.")})
        if target.state["kind"] == "squad":
            raise RuleInputError({"target": tr("A HELIX tows vehicles and mobile guns (p.49).")})
    ts = target.state
    helix_el = {
        "ref": helix.key,
        "repair_platform": bool(helix.state.get("repair_platform")),
        "pilot": machine_element(helix)["pilot"],
        "towing": helix.state.get("towing"),
        "in_melee": helix.state["in_melee"],
    }
    obj = {"kind": ts["kind"], "ref": target.key, "destroyed": ts["destroyed"], "towed_by": ts.get("towed_by")}
    if ts["kind"] == "gun":
        obj["mobile"] = bool(ts.get("mobile"))
    acting = [(helix, None)] if op == "start" else []
    return {"op": op, "helix": helix_el, "object": obj}, {"helix": helix.key, "object": target.key}, acting


def _pilot_subject(ctx, vehicle) -> dict:
    """A vehicle's pilot as the subject of a test: his Бр, his squad and number, and his vehicle."""
    pilot = vehicle.state.get("pilot")
    if not pilot:
        raise RuleInputError({"unit": tr("{name} has no pilot.").format(name=vehicle.profile["name"])})
    subject = {
        "armour": machine_element(vehicle)["pilot"]["armour"],
        "is_pilot": True,
        "vehicle_ref": vehicle.key,
        "vehicle_flying": bool(vehicle.state.get("flying")),
        "vehicle_strength": vehicle.state["strength"],
    }
    subject.update({k: pilot[k] for k in ("ref", "soldier") if k in pilot})
    return subject


def _soldier_test_inputs(ctx, action: str, inputs: dict):
    """A survival test (§3.4) or a panic flight (§3.4.1) of a soldier: one of a squad, or a vehicle's pilot (name
    the vehicle). A pilot's vehicle is affected too: it loses its pilot, and a flyer lands (p.19)."""
    unit = ctx.unit(inputs.get("unit"), field_name="unit")
    if unit.state["kind"] == "gun":
        raise RuleInputError({"unit": tr("A gun has no soldier: name the squad, or the vehicle for its pilot.")})
    if unit.state["kind"] == "vehicle":
        if unit.state["destroyed"]:
            raise RuleInputError({"unit": tr("{name} is destroyed.").format(name=unit.profile["name"])})
        subject = _pilot_subject(ctx, unit)
        squad = ctx.state.units.get(subject.get("ref"))
        speed = _soldier_profile(squad.profile, subject.get("soldier")).get("speed", 0) if squad else 0
        roles = {"subject": subject.get("ref"), "soldier": subject.get("ref"), "vehicle": unit.key}
    else:
        sst, spr = _pick_soldier(unit, inputs.get("soldier"), "soldier")
        subject = {"armour": spr["armour"], "ref": unit.key, "soldier": spr["num"]}
        speed = spr.get("speed", 0)
        roles = {"subject": unit.key, "soldier": unit.key}
        if sst["role"] == "pilot" and sst.get("pilot_of") in ctx.state.units:
            vehicle = ctx.state.units[sst["pilot_of"]]
            subject = {**_pilot_subject(ctx, vehicle), "ref": unit.key, "soldier": spr["num"]}
            roles["vehicle"] = vehicle.key
    if action == "survival_test":
        rules_inputs = {"subject": subject}
        if inputs.get("die") is not None:
            rules_inputs["die"] = inputs["die"]
        return rules_inputs, roles, []
    reaches = inputs.get("reaches_edge")
    if not isinstance(reaches, bool):
        raise RuleInputError({"reaches_edge": tr("Say whether his flight of «Spd» steps takes him off the field.")})
    soldier = {k: subject[k] for k in ("ref", "soldier", "is_pilot", "vehicle_ref", "vehicle_flying") if k in subject}
    return {"soldier": {**soldier, "speed": speed}, "reaches_edge": reaches}, roles, []


def _armour_test_inputs(ctx, inputs: dict):
    """A real-shooting armour test (§3.5) on a piloted vehicle whose damage is already marked: Д12, or Д20 if it
    fell or was lying."""
    unit = _vehicle_unit(ctx, inputs)
    die = inputs.get("die", 20 if unit.state["lying"] else 12)
    pilot = _pilot_subject(ctx, unit)
    rules_inputs = {
        "strength": unit.state["strength"],
        "die": die,
        "pilot": {k: pilot[k] for k in ("armour", "ref", "soldier", "vehicle_flying") if k in pilot},
        "vehicle_ref": unit.key,
    }
    return rules_inputs, {"vehicle": unit.key, "vehicle.pilot": pilot.get("ref")}, []
