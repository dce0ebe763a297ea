"""The book's tests played from the board: builds the rules inputs from the units' states, resolves (server roll
or typed-in dice), and maps the outcome's effects to units.

Adapters here because the rules API does not cover a battle-level need:
- a vehicle destroyed with a living pilot: the pilot is put on foot ("dismounted"; spec §4.3, p.20);
- a soldier's "shot_fired" is dropped: the squad state counts his shot through action_used "shoot";
- the grenade's second call (victims at a burst already recorded) skips the thrower's bookkeeping effects, which
  the first call recorded; the throws still to burst are kept in the game state (game["grenades"]);
- a move the mover has not the speed points for is refused (400): nothing happened at the table;
- towing stops when the HELIX or what it tows is destroyed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import NotYours, RuleInputError
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tables, tracker
from rules.systems.bronepekhota.actions import ACTIONS as RULES_ACTIONS
from rules.systems.bronepekhota.battle.inputs import (
    _armour_test_inputs,
    _jump_inputs,
    _move_inputs,
    _repair_inputs,
    _soldier_test_inputs,
    _tow_inputs,
    _vehicle_unit,
)
from rules.systems.bronepekhota.battle.units import (
    PERSONAL,
    _pick_soldier,
    _soldier_state,
    actor_key,
    element,
    infantry_element,
    machine_element,
    solo_soldiers,
    system_settings,
)

#: The tests a player starts from the board (each is a battle command of the same name).
BATTLE_ACTIONS = (
    "shoot",
    "melee",
    "grenade",
    "grenade_burst",
    "repair",
    "capture",
    "ammo_refresh",
    "move",
    "jump",
    "tow",
    "survival_test",
    "armour_test",
    "emergency_landing",
    "panic",
)
#: The tests that attack: a hit vehicle's pilot test may be asked of its own player (setting pilot_tests).
ATTACKS = ("shoot", "melee", "grenade", "grenade_burst")
#: The rules action behind each battle command whose name differs (shoot: virtual_shot or real_shot by mode).
RULES_KEYS = {"move": "movement", "tow": "towing", "grenade_burst": "grenade"}


@dataclass
class Resolved:
    outcome: dict
    inputs: dict
    roles: dict
    effects: list[dict]
    actor_unit: str | None = None
    by: str | None = None
    notices: list[str] = field(default_factory=list)
    questions: list[dict] = field(default_factory=list)


def _weapon(unit, key, soldier_profile: dict | None) -> dict:
    if unit.state["kind"] == "squad":
        if not soldier_profile.get("range") or not soldier_profile.get("power"):
            raise RuleInputError({"weapon": tr("This soldier has no ranged weapon (a dash on his Armlist).")})
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
    if key is None:
        raise RuleInputError({"weapon": tr("Choose the weapon that fires.")})
    for w in weapons:
        if w["key"] == key and w["key"] in fitted:
            return {k: w[k] for k in ("key", "name", "range", "power", "special", "charges", "melee") if k in w}
    raise RuleInputError(
        {"weapon": tr("{name} has no fitted weapon {weapon}.").format(name=unit.profile["name"], weapon=key)}
    )


def _shooter(ctx, inputs: dict) -> tuple[dict, dict, object, list]:
    """The shooter element and weapon, and the unit that acts (a gun acts through its crew's squad)."""
    unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
    st = unit.state
    settings = system_settings(ctx.settings)
    if st["kind"] == "squad":
        sst, spr = _pick_soldier(unit, inputs.get("soldier"), "soldier")
        el = infantry_element(unit, inputs.get("soldier"), "soldier")
        if sst["role"] == "pilot":
            raise RuleInputError({"soldier": tr("This soldier pilots a vehicle: he shoots with the vehicle.")})
        if sst["panicked"]:
            raise RuleInputError({"soldier": tr("A panicked soldier takes no actions this round.")})
        el.update(
            actions_used=list(sst["actions"]),
            shots_this_round=1 if "shoot" in sst["actions"] else 0,
            aimed=bool(inputs.get("aimed")),
        )
        return el, _weapon(unit, inputs.get("weapon"), spr), unit, [(unit, inputs.get("soldier"))]
    if st["destroyed"]:
        raise RuleInputError({"unit": tr("{name} is destroyed.").format(name=unit.profile["name"])})
    el = machine_element(unit)
    el.update(
        rof=unit.profile["data"].get("rof", 0),
        ammo=st["ammo"] if settings["ammo_limited"] else None,
        shots_this_round=st["shots_this_round"],
        weapons_fired=list(st["weapons_fired"]),
        actions_used=list(st["actions"]),
    )
    acting = [(unit, None)]
    if st["kind"] == "gun":
        crew = ctx.own_unit(inputs.get("crew_unit"), field_name="crew_unit")
        cst, cpr = _pick_soldier(crew, inputs.get("crew_soldier"), "crew_soldier")
        if cst["role"] == "pilot":
            raise RuleInputError({"crew_soldier": tr("A pilot does not leave his vehicle to fire a gun.")})
        el.update(
            crew_rank=cpr["rank"], crew_ref=crew.key, crew_soldier=cpr["num"], crew_actions_used=list(cst["actions"])
        )
        el["mortar"] = any("mine" in (w.get("charges") or []) for w in unit.profile["data"].get("weapons", []))
        acting = [(crew, inputs.get("crew_soldier")), (unit, None)]
    return el, _weapon(unit, inputs.get("weapon"), None), unit, acting


def _distance(inputs: dict) -> dict:
    if "distance_cm" in inputs and inputs["distance_cm"] is not None:
        return {"distance_cm": inputs["distance_cm"]}
    if "distance_steps" in inputs and inputs["distance_steps"] is not None:
        value = inputs["distance_steps"]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return {"distance_steps": value}
    raise RuleInputError({"distance_steps": tr("Give the distance to the target, in steps or in cm.")})


def _target(ctx, inputs: dict, field_name: str = "target"):
    """The unit attacked and the element it offers: a vehicle or a gun, or one soldier of a squad. A squad named
    without a soldier offers its first soldier who can be attacked (alive, on the field, not in a vehicle), as the
    board's sheet picks him; a "which target?" ranking compares squads so."""
    unit = ctx.unit(inputs.get(field_name), field_name=field_name)
    num = inputs.get(f"{field_name}_soldier")
    if num is None and unit.state["kind"] == "squad":
        num = next(
            (s["num"] for s in unit.state["soldiers"] if s["alive"] and s["on_field"] and s["role"] != "pilot"), None
        )
    return unit, element(unit, num, field_name)


@dataclass
class Plan:
    """A test as its command would roll it: the rules action and its inputs built from the live state, after every
    check the command makes (whose turn, the units' state); the roles of the units and who acts. The odds at the
    moment of the roll (at_roll.py) come from the very same plan."""

    action: str
    rules_key: str
    rules_inputs: dict
    roles: dict
    acting: list
    inputs: dict
    skip_kinds: set = field(default_factory=set)


def _with_target_soldier(inputs: dict, target: dict) -> dict:
    """The inputs as played: the soldier attacked, also when the squad's first one was taken by default."""
    if target["kind"] == "infantry" and inputs.get("target_soldier") is None:
        return {**inputs, "target_soldier": target["soldier"]}
    return inputs


def resolve_action(ctx, *, action: str, inputs: dict, require_turn) -> Resolved:
    """Runs one of the book's tests for a battle: builds the rules inputs from the units' states, resolves (server
    roll or typed-in dice), and maps the effects to units."""
    plan = plan_action(ctx, action=action, inputs=inputs, require_turn=require_turn)
    return play(ctx, plan)


def plan_action(ctx, *, action: str, inputs: dict, require_turn) -> Plan:
    """The rules action and inputs of a battle test, from the units' states, with every check of its command; no
    die is rolled."""
    if action not in BATTLE_ACTIONS:
        raise RuleInputError(
            {
                "action": tr("Unknown action {action}; one of: {known}.").format(
                    action=action, known=", ".join(BATTLE_ACTIONS)
                )
            }
        )
    if not isinstance(inputs, dict):
        raise RuleInputError({"inputs": tr("Inputs must be an object.")})
    settings = system_settings(ctx.settings)
    roles: dict[str, str] = {}
    skip_kinds: set[str] = set()
    acting = []
    if action == "shoot":
        shooter, weapon, unit, acting = _shooter(ctx, inputs)
        target_unit, target = _target(ctx, inputs)
        inputs = _with_target_soldier(inputs, target)
        roles = {"shooter": unit.key, "target": target_unit.key}
        if len(acting) > 1:
            roles["crew"] = acting[0][0].key
        if settings["mode"] == "real":
            rules_key = "real_shot"
            hit = inputs.get("hit")
            if not isinstance(hit, bool):
                raise RuleInputError({"hit": tr("Say whether the projectile hit the target directly.")})
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
                raise RuleInputError({"soldier": tr("This soldier pilots a vehicle: he fights with the vehicle.")})
            attacker = infantry_element(unit, inputs.get("soldier"), "soldier")
            attacker["actions_used"] = list(sst["actions"])
        else:
            attacker = machine_element(unit)
            attacker["actions_used"] = list(unit.state.get("actions", []))
        target_unit, defender = _target(ctx, inputs)
        inputs = _with_target_soldier(inputs, defender)
        roles = {"attacker": unit.key, "defender": target_unit.key}
        rules_key = "melee"
        rules_inputs = {"attacker": attacker, "defender": defender, "surprise": bool(inputs.get("surprise"))}
        acting = [(unit, inputs.get("soldier") if unit.state["kind"] == "squad" else None)]
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
        acting = [(unit, inputs.get("soldier"))]
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
            raise RuleInputError({"soldier": tr("This soldier already pilots a vehicle.")})
        target_unit = ctx.unit(inputs.get("target"), field_name="target")
        if target_unit.state["kind"] == "squad":
            raise RuleInputError({"target": tr("Only a vehicle or a gun can be captured.")})
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
        acting = [(unit, inputs.get("soldier"))]
    elif action == "move":
        rules_inputs, roles, acting = _move_inputs(ctx, inputs)
    elif action == "jump":
        rules_inputs, roles, acting = _jump_inputs(ctx, inputs)
    elif action == "tow":
        rules_inputs, roles, acting = _tow_inputs(ctx, inputs)
    elif action in ("survival_test", "panic"):
        rules_inputs, roles, acting = _soldier_test_inputs(ctx, action, inputs)
    elif action == "armour_test":
        rules_inputs, roles, acting = _armour_test_inputs(ctx, inputs)
    elif action == "emergency_landing":
        unit = _vehicle_unit(ctx, inputs)
        if unit.state.get("locomotion") != "flying":
            raise RuleInputError(
                {"unit": tr("{name} does not fly: only a flyer makes a landing.").format(name=unit.profile["name"])}
            )
        rules_inputs = {"strength": unit.state["strength"], "ref": unit.key}
        roles, acting = {"vehicle": unit.key}, []
    elif action == "ammo_refresh":
        unit = ctx.own_unit(inputs.get("unit"), field_name="unit")
        if unit.state["kind"] == "squad":
            raise RuleInputError({"unit": tr("Infantry ammo is never tracked (p.35).")})
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
    if action != "shoot":
        rules_key = RULES_KEYS.get(action, action)

    for unit, num in acting:
        if unit.state["kind"] != "gun":
            require_turn(ctx, unit, num if unit.state["kind"] == "squad" else None)
    return Plan(action, rules_key, rules_inputs, roles, acting, inputs, skip_kinds)


def play(ctx, plan: Plan) -> Resolved:
    """A planned test rolled (server roll or typed-in dice) and its effects mapped to units."""
    action, rules_key, rules_inputs = plan.action, plan.rules_key, plan.rules_inputs
    roles, acting, inputs, skip_kinds = plan.roles, plan.acting, plan.inputs, plan.skip_kinds
    settings = system_settings(ctx.settings)
    rules_settings = settings
    if action in ATTACKS and settings.get("pilot_tests") == "owner":
        rules_settings = {**settings, "defer_pilot_refs": deferred_pilots(ctx)}
    outcome = RULES_ACTIONS[rules_key].resolve(rules_inputs, rules_settings, ctx.dice()).as_dict()
    if action == "move" and not outcome["result"]["ok"]:
        raise RuleInputError({"path": outcome["summary"]})
    effects, questions = [], []
    for effect in outcome["effects"]:
        if effect.get("role") == "game" or effect["kind"] in skip_kinds:
            continue
        key = _effect_unit(effect, roles)
        if effect["kind"] == "pilot_test_due" and key in ctx.state.units:
            questions.append(_question(ctx, key, effect, action=action, by=next(iter(roles.values()), None)))
            continue
        if key is None or key not in ctx.state.units:
            raise RuleInputError(
                {"effect": tr("Cannot tell which unit the effect {effect} concerns.").format(effect=effect["kind"])}
            )
        if effect["kind"] == "shot_fired" and ctx.state.units[key].state["kind"] == "squad":
            continue  # a soldier's shot is his "shoot" action_used (the squad state has no shot counter)
        effects.append({"unit": key, "effect": effect})
    effects += _consequences(ctx, effects)
    actor = next(
        (
            actor_key(u.key, num, solo=num in solo_soldiers(u.state, settings))
            for u, num in acting
            if u.state["kind"] != "gun"
        ),
        None,
    )
    by = next(iter(roles.values()), None)  # the first role is the one who acts (shooter, attacker, thrower…)
    notices = []
    if action == "grenade" and "burst_steps" not in inputs:
        notices.append(
            tr("The grenade bursts {steps} steps away: say who is within 1 step of it.").format(
                steps=outcome["result"]["burst_steps"]
            )
        )
    return Resolved(
        outcome=outcome,
        inputs={**inputs, "rules_action": rules_key},
        roles=roles,
        by=by,
        effects=effects,
        actor_unit=actor,
        notices=notices,
        questions=questions,
    )


def deferred_pilots(ctx) -> list[str]:
    """The piloted vehicles whose pilot tests their own player takes (setting pilot_tests "owner"): those of the
    other players. A player's own vehicle hit by his own attack (a blast, a grenade) is tested with the attack."""
    return [
        key
        for key, unit in ctx.state.units.items()
        if unit.state["kind"] == "vehicle" and unit.state.get("pilot") and ctx.owner(key) not in ctx.sides
    ]


def _question(ctx, vehicle_key: str, effect: dict, *, action: str, by: str | None) -> dict:
    """A pilot's test asked of the vehicle's player (the fold keeps it in game["questions"] until answered). A
    destroyed vehicle's pilot is on foot: his survival test is the question (an armour of 0 is always pierced)."""
    pilot = effect.get("pilot") or {}
    destroyed = bool(effect.get("destroyed"))
    question = {
        "unit": vehicle_key,
        "side": ctx.owner(vehicle_key),
        "test": "survival" if destroyed else effect.get("test", "survival"),
        "pilot": {"unit": pilot.get("ref"), "soldier": pilot.get("soldier")},
        "destroyed": destroyed,
        "flying": bool(ctx.state.units[vehicle_key].state.get("flying")),
        "action": action,
        "by": by,
    }
    if question["test"] == "armour":
        question["die"] = effect.get("die", 12)
    return question


def _victims(ctx, inputs: dict, roles: dict) -> list[dict]:
    victims = []
    for i, v in enumerate(inputs.get("victims") or []):
        if not isinstance(v, dict):
            raise RuleInputError({f"victims.{i}": tr("Each victim is {example}.").format(example="{unit, soldier?}")})
        vu = ctx.unit(v.get("unit"), field_name=f"victims.{i}.unit")
        el = element(vu, v.get("soldier"), f"victims.{i}")
        if "cover" in v:  # counts only with the setting blast_cover (A6, A15)
            el["cover"] = v["cover"]
        victims.append(el)
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
                "throw": tr(
                    "Name a grenade throw (its event number) whose burst is still to resolve: it was undone, "
                    "already resolved, or never thrown."
                )
            }
        )
    if ctx.owner(throw["unit"]) not in ctx.sides:
        raise NotYours(tr("Only the thrower's player resolves his grenade."))
    return throw


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
        if st["kind"] != "squad" and st["destroyed"]:
            # Towing ends when the HELIX or what it tows is gone (p.49).
            for here, there, key in (("towing", "towed_by", "object"), ("towed_by", "towing", "helix")):
                other = st.get(here)
                if other in states and states[other].get(there) == unit_key:
                    for k, effect in (
                        (unit_key, {"kind": "tow_stop", key: other, "reason": "destroyed"}),
                        (other, {"kind": "tow_stop", ("helix" if key == "object" else "object"): unit_key}),
                    ):
                        extra.append({"unit": k, "effect": effect})
                        states[k] = tracker.apply_effect(states[k], effect)
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
