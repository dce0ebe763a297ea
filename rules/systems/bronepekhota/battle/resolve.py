"""The book's tests played from the board: builds the rules inputs from the units' states, resolves (server roll
or typed-in dice), and maps the outcome's effects to units.

Adapters here because the rules API does not cover a battle-level need:
- a vehicle destroyed with a living pilot: the pilot is put on foot ("dismounted"; spec §4.3, p.20);
- a soldier's "shot_fired" is dropped: the squad state counts his shot through action_used "shoot";
- the grenade's second call (victims at a burst already recorded) skips the thrower's bookkeeping effects, which
  the first call recorded; the throws still to burst are kept in the game state (game["grenades"]).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import NotYours, RuleInputError
from rules.systems.bronepekhota import tables, tracker
from rules.systems.bronepekhota.actions import ACTIONS as RULES_ACTIONS
from rules.systems.bronepekhota.actions.support import has_repair
from rules.systems.bronepekhota.battle.units import (
    PERSONAL,
    _pick_soldier,
    _soldier_profile,
    _soldier_state,
    element,
    infantry_element,
    machine_element,
    system_settings,
)

#: The tests a player starts from the board (each is a battle command of the same name).
BATTLE_ACTIONS = ("shoot", "melee", "grenade", "grenade_burst", "repair", "capture", "ammo_refresh")


@dataclass
class Resolved:
    outcome: dict
    inputs: dict
    roles: dict
    effects: list[dict]
    actor_unit: str | None = None
    by: str | None = None
    notices: list[str] = field(default_factory=list)


def _weapon(unit, key, soldier_profile: dict | None) -> dict:
    if unit.state["kind"] == "squad":
        if not soldier_profile.get("range") or not soldier_profile.get("power"):
            raise RuleInputError({"weapon": "This soldier has no ranged weapon (a dash on his Armlist)."})
        return {
            "key": PERSONAL,
            "name": "personal weapon",
            "range": soldier_profile["range"],
            "power": soldier_profile["power"],
        }
    data = unit.profile["data"]
    weapons = data.get("arsenal", []) if unit.state["kind"] == "vehicle" else data.get("weapons", [])
    fitted = set(unit.state.get("weapons", []))
    if key is None and len([w for w in weapons if w["key"] in fitted and w.get("range")]) == 1:
        key = next(w["key"] for w in weapons if w["key"] in fitted and w.get("range"))
    for w in weapons:
        if w["key"] == key and w["key"] in fitted:
            return {k: w[k] for k in ("key", "name", "range", "power", "special", "charges", "melee") if k in w}
    raise RuleInputError({"weapon": f"{unit.profile['name']} has no fitted weapon {key!r}."})


def _shooter(ctx, inputs: dict) -> tuple[dict, dict, object, list]:
    """The shooter element and weapon, and the unit that acts (a gun acts through its crew's squad)."""
    unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
    st = unit.state
    settings = system_settings(ctx.settings)
    if st["kind"] == "squad":
        sst, spr = _pick_soldier(unit, inputs.get("soldier"), "soldier")
        el = infantry_element(unit, inputs.get("soldier"), "soldier")
        if sst["role"] == "pilot":
            raise RuleInputError({"soldier": "This soldier pilots a vehicle: he shoots with the vehicle."})
        if sst["panicked"]:
            raise RuleInputError({"soldier": "A panicked soldier takes no actions this round."})
        el.update(
            actions_used=list(sst["actions"]),
            shots_this_round=1 if "shoot" in sst["actions"] else 0,
            aimed=bool(inputs.get("aimed")),
        )
        return el, _weapon(unit, inputs.get("weapon"), spr), unit, [unit]
    if st["destroyed"]:
        raise RuleInputError({"unit": f"{unit.profile['name']} is destroyed."})
    el = machine_element(unit)
    el.update(
        rof=unit.profile["data"].get("rof", 0),
        ammo=st["ammo"] if settings["ammo_limited"] else None,
        shots_this_round=st["shots_this_round"],
        weapons_fired=list(st["weapons_fired"]),
        actions_used=list(st["actions"]),
    )
    acting = [unit]
    if st["kind"] == "gun":
        crew = ctx.own_unit(inputs.get("crew_unit"), field_name="crew_unit")
        cst, cpr = _pick_soldier(crew, inputs.get("crew_soldier"), "crew_soldier")
        if cst["role"] == "pilot":
            raise RuleInputError({"crew_soldier": "A pilot does not leave his vehicle to fire a gun."})
        el.update(
            crew_rank=cpr["rank"], crew_ref=crew.key, crew_soldier=cpr["num"], crew_actions_used=list(cst["actions"])
        )
        el["mortar"] = any("mine" in (w.get("charges") or []) for w in unit.profile["data"].get("weapons", []))
        acting = [crew, unit]
    return el, _weapon(unit, inputs.get("weapon"), None), unit, acting


def _distance(inputs: dict) -> dict:
    if "distance_cm" in inputs and inputs["distance_cm"] is not None:
        return {"distance_cm": inputs["distance_cm"]}
    if "distance_steps" in inputs and inputs["distance_steps"] is not None:
        value = inputs["distance_steps"]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return {"distance_steps": value}
    raise RuleInputError({"distance_steps": "Give the distance to the target, in steps or in cm."})


def _target(ctx, inputs: dict, field_name: str = "target"):
    unit = ctx.unit(inputs.get(field_name), field_name=field_name)
    return unit, element(unit, inputs.get(f"{field_name}_soldier"), field_name)


def resolve_action(ctx, *, action: str, inputs: dict, require_turn) -> Resolved:
    """Runs one of the book's tests for a battle: builds the rules inputs from the units' states, resolves (server
    roll or typed-in dice), and maps the effects to units."""
    if action not in BATTLE_ACTIONS:
        raise RuleInputError({"action": f"Unknown action {action!r}; one of: {', '.join(BATTLE_ACTIONS)}."})
    if not isinstance(inputs, dict):
        raise RuleInputError({"inputs": "Inputs must be an object."})
    settings = system_settings(ctx.settings)
    roles: dict[str, str] = {}
    skip_kinds: set[str] = set()
    acting = []
    if action == "shoot":
        shooter, weapon, unit, acting = _shooter(ctx, inputs)
        target_unit, target = _target(ctx, inputs)
        roles = {"shooter": unit.key, "target": target_unit.key}
        if len(acting) > 1:
            roles["crew"] = acting[0].key
        if settings["mode"] == "real":
            rules_key = "real_shot"
            hit = inputs.get("hit")
            if not isinstance(hit, bool):
                raise RuleInputError({"hit": "Say whether the projectile hit the target directly."})
            rules_inputs = {
                "shooter": shooter,
                "weapon": {k: weapon[k] for k in ("key", "name", "charges") if k in weapon},
                "charge": inputs.get("charge"),
                "hit": hit,
                "fell": bool(inputs.get("fell")),
            }
            if hit:
                rules_inputs["target"] = target
            crushed = []
            for i, c in enumerate(inputs.get("crushed") or []):
                cu = ctx.unit(c.get("unit"), field_name=f"crushed.{i}.unit")
                _pick_soldier(cu, c.get("soldier"), f"crushed.{i}.soldier")
                crushed.append({"ref": cu.key, "soldier": c["soldier"]})
            if crushed:
                rules_inputs["crushed"] = crushed
        else:
            rules_key = "virtual_shot"
            rules_inputs = {
                "shooter": shooter,
                "weapon": weapon,
                "target": target,
                "cover": inputs.get("cover", tables.COVER_NONE),
                **_distance(inputs),
            }
            blast = []
            for i, b in enumerate(inputs.get("blast") or []):
                bu = ctx.unit(b.get("unit"), field_name=f"blast.{i}.unit")
                el = element(bu, b.get("soldier"), f"blast.{i}")
                roles[f"blast.{i}"] = bu.key
                if "cover" in b:
                    el["cover"] = b["cover"]
                blast.append(el)
            if blast:
                rules_inputs["blast"] = blast
    elif action == "melee":
        unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
        if unit.state["kind"] == "squad":
            sst, _ = _pick_soldier(unit, inputs.get("soldier"), "soldier")
            if sst["role"] == "pilot":
                raise RuleInputError({"soldier": "This soldier pilots a vehicle: he fights with the vehicle."})
            attacker = infantry_element(unit, inputs.get("soldier"), "soldier")
            attacker["actions_used"] = list(sst["actions"])
        else:
            attacker = machine_element(unit)
            attacker["actions_used"] = list(unit.state.get("actions", []))
        target_unit, defender = _target(ctx, inputs)
        roles = {"attacker": unit.key, "defender": target_unit.key}
        rules_key = "melee"
        rules_inputs = {"attacker": attacker, "defender": defender, "surprise": bool(inputs.get("surprise"))}
        acting = [unit]
        if "by_movement" in inputs:
            rules_inputs["by_movement"] = bool(inputs["by_movement"])
    elif action == "grenade":
        unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
        sst, _ = _pick_soldier(unit, inputs.get("soldier"), "soldier")
        thrower = infantry_element(unit, inputs.get("soldier"), "soldier")
        thrower.update(actions_used=list(sst["actions"]), shots_this_round=1 if "shoot" in sst["actions"] else 0)
        rules_key = "grenade"
        rules_inputs = {"thrower": thrower}
        roles = {"thrower": unit.key}
        acting = [unit]
        if "burst_steps" in inputs:  # burst measured at the table: victims in the same call
            rules_inputs["burst_steps"] = inputs["burst_steps"]
            rules_inputs["victims"] = _victims(ctx, inputs, roles)
    elif action == "grenade_burst":
        throw = _grenade_throw(ctx, inputs.get("throw"))
        unit = ctx.unit(throw["unit"])
        num = throw["soldier"]
        thrower = infantry_element(unit, num, "soldier")
        sst = _soldier_state(unit.state, num)
        # The throw already used his grenade and shot: the first call recorded that.
        thrower["actions_used"] = [a for a in sst["actions"] if a not in ("grenade", "shoot")]
        rules_key = "grenade"
        burst = throw["burst_steps"]
        rules_inputs = {"thrower": thrower, "burst_steps": burst, "victims": _victims(ctx, inputs, {})}
        roles = {"thrower": unit.key}
        skip_kinds = {"action_used"}
        inputs = {**inputs, "unit": unit.key, "soldier": num}
    elif action == "repair":
        rules_key = "repair"
        rules_inputs, roles, acting = _repair_inputs(ctx, inputs)
    elif action == "capture":
        unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
        sst, spr = _pick_soldier(unit, inputs.get("soldier"), "soldier")
        if sst["role"] == "pilot":
            raise RuleInputError({"soldier": "This soldier already pilots a vehicle."})
        target_unit = ctx.unit(inputs.get("target"), field_name="target")
        if target_unit.state["kind"] == "squad":
            raise RuleInputError({"target": "Only a vehicle or a gun can be captured."})
        ts = target_unit.state
        obj = {
            "kind": ts["kind"],
            "rank": target_unit.profile["data"].get("rank", 0),
            "ref": target_unit.key,
            "strength": ts["strength"],
            "destroyed": ts["destroyed"],
            "shots_this_round": ts["shots_this_round"],
        }
        if ts["kind"] == "vehicle":
            obj["pilot"] = machine_element(target_unit)["pilot"]
            obj["flyer"] = ts.get("locomotion") == "flying"
        soldier = {
            "rank": spr["rank"],
            "armour": spr["armour"],
            "ref": unit.key,
            "soldier": spr["num"],
            "actions_used": list(sst["actions"]),
            "owner": ctx.owner(unit.key),
        }
        rules_key = "capture"
        rules_inputs = {"soldier": soldier, "object": obj}
        roles = {"soldier": unit.key, "object": target_unit.key}
        acting = [unit]
    else:  # ammo_refresh
        unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
        if unit.state["kind"] == "squad":
            raise RuleInputError({"unit": "Infantry ammo is never tracked (p.35)."})
        st = unit.state
        rules_key = "ammo_refresh"
        rules_inputs = {
            "element": {
                "ref": unit.key,
                "ammo": st["ammo"],
                "ammo_max": st["ammo_max"],
                "refreshes_used": st["ammo_refreshes_used"],
                "destroyed": st["destroyed"],
            }
        }
        roles = {"element": unit.key}
        acting = []

    for unit in acting:
        if unit.state["kind"] != "gun":
            require_turn(ctx, unit)
    outcome = RULES_ACTIONS[rules_key].resolve(rules_inputs, settings, ctx.dice()).as_dict()
    effects = []
    for effect in outcome["effects"]:
        if effect.get("role") == "game" or effect["kind"] in skip_kinds:
            continue
        key = _effect_unit(effect, roles)
        if key is None or key not in ctx.state.units:
            raise RuleInputError({"effect": f"Cannot tell which unit the effect {effect['kind']!r} concerns."})
        if effect["kind"] == "shot_fired" and ctx.state.units[key].state["kind"] == "squad":
            continue  # a soldier's shot is his "shoot" action_used (the squad state has no shot counter)
        effects.append({"unit": key, "effect": effect})
    effects += _consequences(ctx, effects)
    actor = next((u.key for u in acting if u.state["kind"] != "gun"), None)
    by = next(iter(roles.values()), None)  # the first role is the one who acts (shooter, attacker, thrower…)
    notices = []
    if action == "grenade" and "burst_steps" not in inputs:
        notices.append(
            f"The grenade bursts {outcome['result']['burst_steps']} steps away: say who is within 1 step of it."
        )
    return Resolved(
        outcome=outcome,
        inputs={**inputs, "rules_action": rules_key},
        roles=roles,
        by=by,
        effects=effects,
        actor_unit=actor,
        notices=notices,
    )


def _victims(ctx, inputs: dict, roles: dict) -> list[dict]:
    victims = []
    for i, v in enumerate(inputs.get("victims") or []):
        if not isinstance(v, dict):
            raise RuleInputError({f"victims.{i}": "Each victim is {unit, soldier?}."})
        vu = ctx.unit(v.get("unit"), field_name=f"victims.{i}.unit")
        victims.append(element(vu, v.get("soldier"), f"victims.{i}"))
        roles[f"victims.{i}"] = vu.key
    return victims


def _grenade_throw(ctx, seq) -> dict:
    """A throw whose burst is still to resolve (kept in the game state by the fold until its burst is recorded;
    an undone throw or burst is replayed away with it)."""
    pending = ctx.game.get("grenades", {})
    throw = pending.get(str(seq)) if isinstance(seq, int) and not isinstance(seq, bool) else None
    if throw is None:
        raise RuleInputError(
            {
                "throw": "Name a grenade throw (its event number) whose burst is still to resolve: it was undone, "
                "already resolved, or never thrown."
            }
        )
    if ctx.owner(throw["unit"]) not in ctx.sides:
        raise NotYours("Only the thrower's player resolves his grenade.")
    return throw


def _repair_inputs(ctx, inputs: dict):
    unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
    target_unit = ctx.unit(inputs.get("target"), field_name="target")
    if target_unit.state["kind"] == "squad":
        raise RuleInputError({"target": "Only vehicles and guns are repaired."})
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
        acting = [unit]
    elif unit.state["kind"] == "vehicle" and unit.state.get("repair_platform"):
        repairer = {
            "kind": "helix",
            "ref": unit.key,
            "repair_platform": True,
            "pilot": machine_element(unit)["pilot"],
            "actions_used": list(unit.state.get("actions", [])),
            "in_melee": unit.state["in_melee"],
        }
        acting = [unit]
    elif unit.state["kind"] == "vehicle" and own:
        pilot = unit.state.get("pilot")
        if not pilot:
            raise RuleInputError({"unit": "A vehicle without a pilot cannot repair itself."})
        squad = ctx.state.units.get(pilot.get("ref"))
        abilities = _soldier_profile(squad.profile, pilot.get("soldier")).get("abilities", []) if squad else []
        repairer = {"kind": "pilot", "ref": unit.key, "abilities": abilities, "in_melee": unit.state["in_melee"]}
        acting = [unit]
    else:
        raise RuleInputError(
            {"unit": "Repairs are made by a «Рм» soldier, a «Рм» pilot (own vehicle) or a HELIX platform."}
        )
    if not has_repair(repairer.get("abilities", [])) and repairer["kind"] != "helix":
        raise RuleInputError({"soldier": "Only a soldier with «Рм» (repair) in «Св» can repair."})
    rules_inputs = {"repairer": repairer, "target": target, "touching": True, "self": own}
    return rules_inputs, {"repairer": unit.key, "target": target_unit.key}, acting


def _effect_unit(effect: dict, roles: dict) -> str | None:
    ref = effect.get("ref")
    if isinstance(ref, str):
        return ref
    role = effect.get("role", "")
    return roles.get(role) or roles.get(role.split(".")[0])


def _consequences(ctx, effects: list[dict]) -> list[dict]:
    """What the rules leave to the tracker: a vehicle destroyed with its pilot alive puts him on foot (p.20)."""
    states = {k: u.state for k, u in ctx.state.units.items()}
    for item in effects:
        states[item["unit"]] = tracker.apply_effect(states[item["unit"]], item["effect"])
    extra = []
    for item in effects:
        unit_key = item["unit"]
        st = states[unit_key]
        if st["kind"] == "vehicle" and st["destroyed"] and st.get("pilot"):
            pilot = st["pilot"]
            squad = pilot.get("ref")
            if squad in states and states[squad]["kind"] == "squad":
                soldier = next((s for s in states[squad]["soldiers"] if s["num"] == pilot.get("soldier")), None)
                extra.append({"unit": unit_key, "effect": {"kind": "pilot_left", "reason": "vehicle destroyed"}})
                states[unit_key] = tracker.apply_effect(st, extra[-1]["effect"])
                if soldier and soldier["alive"] and soldier["role"] == "pilot":
                    effect = {"kind": "dismounted", "soldier": soldier["num"], "reason": "vehicle destroyed"}
                    extra.append({"unit": squad, "effect": effect})
                    states[squad] = tracker.apply_effect(states[squad], effect)
    return extra


def effect_event_type(effect: dict) -> str:
    return f"unit.{effect['kind']}"[:40]
