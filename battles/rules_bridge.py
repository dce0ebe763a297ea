"""Everything the battle tracker needs from the rules engine, in one place.

The rules (rules/systems/bronepekhota: tracker.py for unit states and effects, actions/ for the tests) are pure and
know nothing of battles. This module maps between the two worlds:
- a roster snapshot -> battle units (keys "<side>.<entry>.<copy>") with the tracker's initial state;
- a unit's state -> the `element` dicts the actions take ("ref" = the unit key, so every effect names its unit);
- an action's Outcome -> unit effects [{"unit", "effect"}] that the battle records as events;
- a unit's state -> what the phone shows (sliders, soldiers, flags) and what the turn logic needs.

Adapters added here because the rules API does not cover a battle-level need (named in the report):
- a vehicle destroyed with a living pilot: the pilot is put on foot ("dismounted"; spec §4.3, p.20);
- a soldier's "shot_fired" is dropped: the squad state counts his shot through action_used "shoot";
- the grenade's second call (victims at a burst already recorded) skips the thrower's bookkeeping effects, which
  the first call recorded;
- who controls a unit: the vehicle/gun state's "owner" (changed by "captured"), else the side that brought it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules import dice as dicelib
from rules.registry import get_system
from rules.systems.base import RuleInputError
from rules.systems.bronepekhota import tables, tracker
from rules.systems.bronepekhota.actions.support import has_repair

__all__ = ["RuleInputError"]

ADJUST_HELP = (
    "What to set by hand. Vehicle or gun: {'strength': n, 'ammo': n, 'flags': {'lying': true, …}, "
    "'action_used': 'move'}. Squad: {'soldier': n, 'alive': false, 'on_field': false, 'flags': {'in_melee': true}, "
    "'action_used': 'move'}. Any unit: {'activated': false}."
)
ACTION_HELP = (
    "Battle-level inputs, units by key. shoot: {unit, soldier?, weapon, target, target_soldier?, distance_steps | "
    "distance_cm, cover, aimed?, crew_unit?, crew_soldier?} (real mode: charge, hit, fell). melee: {unit, soldier?, "
    "target, target_soldier?, surprise?}. grenade: {unit, soldier}; grenade_burst: {throw: seq, victims: [{unit, "
    "soldier?}]}. repair: {unit, soldier?, target}. capture: {unit, soldier, target}. ammo_refresh: {unit}."
)
PERSONAL = "personal"
COVER_LABELS = tables.COVER_LABELS


def system_settings(settings: dict) -> dict:
    """The rules' settings out of a battle's settings ({"system": {...}, "enforce_turns": …})."""
    from rules.systems.bronepekhota.actions.common import full_settings

    return full_settings((settings or {}).get("system", settings or {}))


# Settings ------------------------------------------------------------------------------------------------------
def resolve_settings(system: str, overrides: dict) -> dict:
    return get_system(system).resolve_settings(overrides)


def settings_for_form(system: str) -> list[dict]:
    return [s.describe() for s in get_system(system).settings]


# Building units ------------------------------------------------------------------------------------------------
def unit_key(side: int, entry: str, copy_no: int) -> str:
    return f"{side}.{entry}.{copy_no}"


def build_units(system: str, *, side_index: int, snapshot: dict) -> list[dict]:
    """Every unit of one side: one per copy of each roster entry, with the tracker's initial state."""
    get_system(system)  # unknown systems fail here, with a readable message
    entries = snapshot.get("entries", [])
    # Which soldier of which squad copy pilots which vehicle copy.
    pilots_of: dict[tuple[str, int], list[dict]] = {}
    for e in entries:
        if e["profile"]["kind"] != "vehicle":
            continue
        refs = e.get("pilot") or []
        refs = [refs] if isinstance(refs, dict) else refs
        for copy_no in range(1, int(e.get("count", 1)) + 1):
            ref = refs[copy_no - 1] if copy_no - 1 < len(refs) else None
            if ref:
                squad = (ref["entry"], int(ref.get("copy", 1)))
                pilots_of.setdefault(squad, []).append(
                    {"soldier": ref["soldier"], "vehicle": unit_key(side_index, e["key"], copy_no)}
                )
    units = []
    for e in entries:
        profile = e["profile"]
        count = int(e.get("count", 1))
        for copy_no in range(1, count + 1):
            key = unit_key(side_index, e["key"], copy_no)
            entry = {"key": e["key"], "copy": copy_no, "loadout": e.get("loadout") or {}, "owner": side_index}
            if profile["kind"] == "vehicle":
                pilot = (
                    [dict(p) for p in (e.get("pilot") or [])] if isinstance(e.get("pilot"), list) else e.get("pilot")
                )
                if isinstance(pilot, dict):
                    pilot = [dict(pilot)]
                for p in pilot or []:
                    if p:
                        p["ref"] = unit_key(side_index, p["entry"], int(p.get("copy", 1)))
                        p.update(_soldier_stats(entries, p))
                entry["pilot"] = pilot or []
            elif profile["kind"] == "squad":
                entry["pilots"] = pilots_of.get((e["key"], copy_no), [])
            name = profile["name"] + (f" #{copy_no}" if count > 1 else "")
            units.append(
                {
                    "key": key,
                    "name": name,
                    "kind": profile["kind"],
                    "profile": profile,
                    "entry": entry,
                    "state": tracker.initial_unit_state(profile, entry),
                }
            )
    return units


def _soldier_stats(entries: list[dict], ref: dict) -> dict:
    for e in entries:
        if e["key"] == ref.get("entry") and e["profile"]["kind"] == "squad":
            for s in e["profile"]["data"]["soldiers"]:
                if s["num"] == ref.get("soldier"):
                    return {"armour": s["armour"], "rank": s["rank"]}
    return {}


# States ---------------------------------------------------------------------------------------------------------
def apply_effect(state: dict, effect: dict, profile: dict | None = None) -> dict:
    return tracker.apply_effect(state, effect)


def owner_of(state: dict, side: int) -> int:
    owner = state.get("owner")
    return owner if isinstance(owner, int) else side


def new_round_effect(round_: int) -> dict:
    return {"kind": "new_round", "round": round_}


def done_effect() -> dict:
    return {"kind": "activated", "value": True}


def soldiers_alive(state: dict) -> int:
    if state.get("kind") != "squad":
        return 0
    return sum(1 for s in state["soldiers"] if s["alive"] and s["on_field"] and not s["deserted"])


def unit_facts(state: dict, profile: dict, *, settings: dict, round_: int | None = None) -> dict:
    """What the game logic needs: soldiers alive (§3.15), done this round, and whether it still has to act (§3.2)."""
    kind = state["kind"]
    if kind == "squad":
        view = tracker.unit_view(state, profile, system_settings(settings))
        able = any(s["can_act"] for s in view["soldiers"])
        reason = "" if able else "no soldier can act"
        return {
            "soldiers_alive": soldiers_alive(state),
            "activated": state["activated"],
            "activatable": able,
            "reason": reason,
        }
    if kind == "gun":
        return {"soldiers_alive": 0, "activated": False, "activatable": False, "reason": "a gun is not a unit"}
    reason = ""
    if state["destroyed"]:
        reason = "destroyed"
    elif state["pilot"] is None:
        reason = "no pilot"
    elif state.get("acts_next_round"):
        reason = "captured this round: acts from next round"
    return {"soldiers_alive": 0, "activated": state["activated"], "activatable": not reason, "reason": reason}


def unit_label(unit) -> str:
    return f"{unit.profile.get('name', unit.key)} ({unit.key})"


def _weapon_text(w: dict) -> str:
    if w.get("melee") and not w.get("range"):
        return f"{w['name']} ББ/{w['melee']}"
    return f"{w['name']} {w.get('range') or '–'} / {w.get('power') or '–'}"


def _cells(value: int, maximum: int, sectors: list[dict]) -> list[dict]:
    """The strength track as cells max..1, the slider on the current one, each cell coloured by its sector."""
    cells = []
    for n in range(maximum, 0, -1):
        colour = next((s.get("colour", "") for s in sectors if s["min"] <= n <= s["max"]), "")
        cells.append({"n": n, "on": n == value, "lost": n > value, "colour": colour})
    return cells


def unit_view(state: dict, profile: dict, *, settings: dict, round_: int | None = None) -> dict:
    """What the phone shows for one unit (normalized for the templates), from the tracker's view."""
    rules_settings = system_settings(settings)
    view = tracker.unit_view(state, profile, rules_settings)
    data = profile.get("data", {})
    facts = unit_facts(state, profile, settings=settings, round_=round_)
    out = {
        "kind": state["kind"],
        "activated": facts["activated"],
        "activatable": facts["activatable"],
        "reason": facts["reason"],
        "flags": [],
        "soldiers": [],
        "weapons": [],
        "alive": True,
    }
    if state["kind"] == "squad":
        by_num = {s["num"]: s for s in data.get("soldiers", [])}
        tv = {s["num"]: s for s in view["soldiers"]}
        for s in state["soldiers"]:
            p = by_num.get(s["num"], {})
            flags = []
            if s["role"] == "pilot":
                flags.append(("pilot", "good"))
            if s["role"] == "dismounted":
                flags.append(("on foot", ""))
            if s["panicked"]:
                flags.append(("panicked", "warn"))
            if s["deserted"]:
                flags.append(("deserted", "bad"))
            if s["in_melee"]:
                flags.append(("in melee", "warn"))
            if s["aimed"]:
                flags.append(("aiming", ""))
            flags += [(a, "") for a in s["actions"]]
            out["soldiers"].append(
                {
                    "num": s["num"],
                    "alive": s["alive"] and s["on_field"],
                    "rank": p.get("rank"),
                    "speed": p.get("speed"),
                    "armour": p.get("armour"),
                    "melee": p.get("melee"),
                    "range": p.get("range"),
                    "power": p.get("power"),
                    "abilities": p.get("abilities", []),
                    "role": s["role"],
                    "pilot_of": s.get("pilot_of"),
                    "flags": flags,
                    "flag_names": [label for label, _ in flags],
                    "can_act": tv.get(s["num"], {}).get("can_act", False),
                    "actions": s["actions"],
                }
            )
            if p.get("range") and p.get("power"):
                out["weapons"].append(
                    {"key": PERSONAL, "soldier": s["num"], "label": f"#{s['num']}: {p['range']} / {p['power']}"}
                )
        out["soldiers_alive"] = view["alive"]
        out["alive"] = view["alive"] > 0
        out["summary"] = f"{view['alive']}/{len(state['soldiers'])} alive"
        if state["activated"]:
            out["flags"].append(("done", "good"))
        out["flag_names"] = [label for label, _ in out["flags"]]
        return out
    sectors = data.get("speed_sectors", [])
    out["strength"] = {
        "value": state["strength"],
        "max": state["strength_max"],
        "armour": view["armour"],
        "speed": view.get("speed", 0),
        "cells": _cells(state["strength"], state["strength_max"], sectors),
    }
    out["ammo"] = {
        "value": state["ammo"],
        "max": state["ammo_max"],
        "tracked": bool(rules_settings.get("ammo_limited", True)),
    }
    out["alive"] = not state["destroyed"]
    out["shots"] = {"used": state["shots_this_round"], "rof": data.get("rof", 0)}
    weapons = data.get("arsenal", []) if state["kind"] == "vehicle" else data.get("weapons", [])
    fitted = set(state.get("weapons", []))
    for w in weapons:
        if w["key"] in fitted:
            fired = w["key"] in state["weapons_fired"]
            out["weapons"].append(
                {
                    "key": w["key"],
                    "label": _weapon_text(w) + (" (fired)" if fired else ""),
                    "ranged": bool(w.get("range")),
                }
            )
    flags = []
    if state["destroyed"]:
        flags.append(("destroyed", "bad"))
    if state.get("activated"):
        flags.append(("done", "good"))
    if state["lying"]:
        flags.append(("lying", "warn"))
    if state.get("may_stand_up"):
        flags.append(("may stand up", ""))
    if state["in_melee"]:
        flags.append(("in melee", "warn"))
    if state["kind"] == "vehicle":
        if state["pilot"] is None and not state["destroyed"]:
            flags.append(("no pilot", "bad"))
        if state.get("flying"):
            flags.append(("flying", ""))
        if state.get("acts_next_round"):
            flags.append(("captured: acts next round", "warn"))
        if state.get("repair_platform"):
            flags.append(("repair platform", ""))
        pilot = state.get("pilot")
        out["pilot"] = (
            {"unit": pilot.get("ref"), "soldier": pilot.get("soldier"), "armour": pilot.get("armour")}
            if pilot
            else None
        )
        out["melee_value"] = view.get("melee_value", 0)
    if not view.get("can_shoot") and view.get("shoot_reason") and not state["destroyed"]:
        out["shoot_reason"] = view["shoot_reason"]
    out["flags"].extend(flags)
    out["flag_names"] = [label for label, _ in out["flags"]]
    out["summary"] = f"strength {state['strength']}/{state['strength_max']}"
    return out


# Manual adjustments -----------------------------------------------------------------------------------------------
def adjust_effects(state: dict, profile: dict, changes: dict) -> list[dict]:
    """Turns a change by hand into tracker effects, checked by applying them (a slider outside its scale, an unknown
    flag or soldier raise RuleInputError). Values already in place are left out."""
    if not isinstance(changes, dict) or not changes:
        raise RuleInputError({"changes": "Say what to change, e.g. {'strength': 5}."})
    known = {"strength", "ammo", "flags", "soldier", "alive", "on_field", "activated", "action_used", "in_melee"}
    unknown = sorted(set(changes) - known)
    if unknown:
        raise RuleInputError({"changes": f"Cannot change {', '.join(unknown)} by hand here."})
    effects: list[dict] = []
    kind = state["kind"]
    if kind == "squad":
        if {"strength", "ammo"} & set(changes):
            raise RuleInputError({"changes": "A squad has no strength or ammo slider."})
        if "activated" in changes:
            effects.append({"kind": "activated", "value": _bool(changes, "activated")})
        soldier_keys = {"alive", "on_field", "flags", "action_used", "in_melee"} & set(changes)
        if soldier_keys:
            num = changes.get("soldier")
            if isinstance(num, bool) or not isinstance(num, int):
                raise RuleInputError({"changes.soldier": "Say which soldier (his number)."})
            if not any(s["num"] == num for s in state["soldiers"]):
                raise RuleInputError({"changes.soldier": f"This squad has no soldier {num}."})
            person = {k: _bool(changes, k) for k in ("alive", "on_field") if k in changes}
            if person:
                effects.append({"kind": "set_soldier", "soldier": num, **person})
            flags = dict(changes.get("flags") or {})
            if "in_melee" in changes:
                flags["in_melee"] = changes["in_melee"]
            for flag in flags:
                effects.append({"kind": "set_flag", "soldier": num, "flag": flag, "value": _bool(flags, flag)})
            if "action_used" in changes:
                effects.append({"kind": "action_used", "soldier": num, "action": changes["action_used"]})
    else:
        if "soldier" in changes or "alive" in changes or "on_field" in changes:
            raise RuleInputError({"changes": f"A {kind} has no soldiers; change its strength instead."})
        if "strength" in changes:
            effects.append({"kind": "set_strength", "value": _int(changes, "strength")})
        if "ammo" in changes:
            effects.append({"kind": "set_ammo", "value": _int(changes, "ammo")})
        flags = dict(changes.get("flags") or {})
        if "activated" in changes:
            flags["activated"] = changes["activated"]
        if "in_melee" in changes:
            flags["in_melee"] = changes["in_melee"]
        for flag in flags:
            effects.append({"kind": "set_flag", "flag": flag, "value": _bool(flags, flag)})
        if "action_used" in changes:
            effects.append({"kind": "action_used", "action": changes["action_used"]})
    # Check by applying; keep only the effects that change something.
    kept, current = [], state
    for effect in effects:
        try:
            after = tracker.apply_effect(current, effect)
        except RuleInputError as exc:
            raise RuleInputError({"changes": next(iter(exc.errors.values()))}) from exc
        if after != current:
            kept.append(effect)
            current = after
    return kept


def _bool(d: dict, key: str) -> bool:
    if not isinstance(d.get(key), bool):
        raise RuleInputError({f"changes.{key}": "must be true or false"})
    return d[key]


def _int(d: dict, key: str) -> int:
    value = d.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleInputError({f"changes.{key}": "must be a whole number"})
    return value


# Initiative -------------------------------------------------------------------------------------------------------
def roll_initiative(system: str, contenders: list[int], *, names: dict, settings: dict, dice=None, seed=None):
    """Every standing player rolls d12; ties re-roll (§3.1). Returns (rolls per attempt, winner side, dice)."""
    labels = _unique_labels({s: names.get(s, f"Side {s}") for s in contenders})
    by_label = {v: k for k, v in labels.items()}
    action = get_system(system).action("initiative")
    source = dicelib.dice_source(seed=seed, dice=dice)
    outcome = action.resolve({"players": [labels[s] for s in contenders]}, system_settings(settings), source)
    rounds = [{str(by_label[p]): v for p, v in r["rolls"].items()} for r in outcome.result["rounds"]]
    return rounds, by_label[outcome.result["winner"]], outcome.dice, outcome.steps


def _unique_labels(names: dict) -> dict:
    seen: dict[str, int] = {}
    for n in names.values():
        seen[n] = seen.get(n, 0) + 1
    return {s: (n if seen[n] == 1 else f"{n} ({s})") for s, n in names.items()}


# Actions ----------------------------------------------------------------------------------------------------------
@dataclass
class Resolved:
    outcome: dict
    inputs: dict
    roles: dict
    effects: list[dict]
    actor_unit: str | None = None
    by: str | None = None
    notices: list[str] = field(default_factory=list)


ACTIONS = ("shoot", "melee", "grenade", "grenade_burst", "repair", "capture", "ammo_refresh")


def available_actions(settings: dict) -> dict:
    """The actions the phone offers, with the fields each one needs."""
    s = system_settings(settings)
    real = s["mode"] == "real"
    actions = {
        "shoot": {
            "label": "Shoot (real)" if real else "Shoot",
            "actor_soldier": True,
            "weapon": True,
            "target": True,
            "target_soldier": True,
            "distance": not real,
            "cover": not real,
            "charge": real,
            "hit_result": real,
            "crew": True,
            "aimed": bool(s["aimed_fire"]) and not real,
        },
        "melee": {"label": "Melee", "actor_soldier": True, "target": True, "target_soldier": True, "surprise": True},
    }
    if s["grenades"] and not real:
        actions["grenade"] = {"label": "Throw a grenade", "actor_soldier": True, "target": False}
    actions["repair"] = {"label": "Repair", "actor_soldier": True, "target": True}
    actions["capture"] = {"label": "Capture", "actor_soldier": True, "target": True}
    if s["ammo_limited"] and s["ammo_refreshes"] > 0:
        actions["ammo_refresh"] = {"label": "Refill ammo", "target": False}
    return actions


def _soldier_state(state: dict, num) -> dict:
    for s in state.get("soldiers", []):
        if s["num"] == num:
            return s
    raise RuleInputError({"soldier": f"This squad has no soldier {num!r}."})


def _soldier_profile(profile: dict, num) -> dict:
    for s in profile["data"].get("soldiers", []):
        if s["num"] == num:
            return s
    raise RuleInputError({"soldier": f"This squad has no soldier {num!r}."})


def _pick_soldier(unit, num, field_name: str, *, alive: bool = True) -> tuple[dict, dict]:
    if unit.state["kind"] != "squad":
        raise RuleInputError({field_name: f"{unit.profile['name']} is not an infantry squad."})
    if isinstance(num, bool) or not isinstance(num, int):
        raise RuleInputError({field_name: "Say which soldier (his number)."})
    st, pr = _soldier_state(unit.state, num), _soldier_profile(unit.profile, num)
    if alive and not (st["alive"] and st["on_field"]):
        raise RuleInputError({field_name: f"Soldier {num} of {unit.profile['name']} is dead or off the field."})
    return st, pr


def infantry_element(unit, num, field_name: str) -> dict:
    st, pr = _pick_soldier(unit, num, field_name)
    return {
        "kind": "infantry",
        "ref": unit.key,
        "soldier": num,
        "name": f"{unit.profile['name']} #{num}",
        "armour": pr["armour"],
        "melee": pr["melee"],
        "rank": pr["rank"],
        "in_melee": st["in_melee"],
    }


def machine_element(unit) -> dict:
    st, data = unit.state, unit.profile["data"]
    el = {
        "kind": st["kind"],
        "ref": unit.key,
        "name": unit.profile["name"],
        "strength": st["strength"],
        "strength_max": st["strength_max"],
        "rank": data.get("rank", 0),
        "lying": st["lying"],
        "destroyed": st["destroyed"],
        "in_melee": st["in_melee"],
    }
    if st["kind"] == "vehicle":
        pilot = st.get("pilot")
        el["pilot"] = {k: pilot[k] for k in ("armour", "rank", "ref", "soldier") if k in pilot} if pilot else None
        if el["pilot"] is not None and "armour" not in el["pilot"]:
            el["pilot"]["armour"] = 0
        el["flying"] = bool(st.get("flying"))
        el["melee_weapons"] = [
            w["melee"] for w in data.get("arsenal", []) if w["key"] in st["weapons"] and w.get("melee")
        ]
    return el


def element(unit, num=None, field_name: str = "target") -> dict:
    """A target, defender or blast victim."""
    if unit.state["kind"] == "squad":
        name = f"{field_name}_soldier" if field_name != "soldier" else field_name
        st, _ = _pick_soldier(unit, num, name)
        if st["role"] == "pilot":
            raise RuleInputError({name: f"Soldier {num} sits in a vehicle as its pilot: attack the vehicle instead."})
        return infantry_element(unit, num, name)
    return machine_element(unit)


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


def resolve_action(ctx, *, action: str, inputs: dict, dice=None, seed=None) -> Resolved:
    """Runs one of the book's tests for a battle: builds the rules inputs from the units' states, resolves (server
    roll or typed-in dice), and maps the effects to units."""
    if action not in ACTIONS:
        raise RuleInputError({"action": f"Unknown action {action!r}; one of: {', '.join(ACTIONS)}."})
    if not isinstance(inputs, dict):
        raise RuleInputError({"inputs": "Inputs must be an object."})
    settings = system_settings(ctx.settings)
    system = get_system(ctx.battle.system)
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
        unit = ctx.unit(throw.payload["inputs"]["unit"])
        num = throw.payload["inputs"]["soldier"]
        thrower = infantry_element(unit, num, "soldier")
        sst = _soldier_state(unit.state, num)
        # The throw already used his grenade and shot: the first call recorded that.
        thrower["actions_used"] = [a for a in sst["actions"] if a not in ("grenade", "shoot")]
        rules_key = "grenade"
        burst = (throw.payload.get("outcome") or {}).get("result", {}).get("burst_steps")
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
            "owner": ctx.projection.owner(unit.key),
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
            ctx.require_turn(unit)
    source = dicelib.dice_source(seed=seed, dice=dice)
    outcome = system.action(rules_key).resolve(rules_inputs, settings, source).as_dict()
    effects = []
    for effect in outcome["effects"]:
        if effect.get("role") == "game" or effect["kind"] in skip_kinds:
            continue
        key = _effect_unit(effect, roles)
        if key is None or key not in ctx.projection.units:
            raise RuleInputError({"effect": f"Cannot tell which unit the effect {effect['kind']!r} concerns."})
        if effect["kind"] == "shot_fired" and ctx.projection.units[key].state["kind"] == "squad":
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


def _grenade_throw(ctx, seq):
    from battles.models import BattleEvent

    throw = (
        BattleEvent.objects.filter(battle=ctx.battle, seq=seq, type="action.resolved").first()
        if isinstance(seq, int) and not isinstance(seq, bool)
        else None
    )
    if throw is None or throw.payload.get("action") != "grenade" or "burst_steps" in throw.payload.get("inputs", {}):
        raise RuleInputError({"throw": "Name the grenade throw (its event number) whose burst you resolve."})
    from battles.services import undone_heads

    undone = undone_heads(ctx.battle)
    if throw.seq in undone:
        raise RuleInputError({"throw": f"Throw #{seq} was undone."})
    bursts = BattleEvent.objects.filter(
        battle=ctx.battle, type="action.resolved", payload__action="grenade_burst", payload__inputs__throw=seq
    ).values_list("seq", flat=True)
    if any(b not in undone for b in bursts):
        raise RuleInputError({"throw": f"The burst of throw #{seq} was already resolved."})
    if ctx.projection.owner(throw.payload["inputs"]["unit"]) not in ctx.user_sides:
        from django.core.exceptions import PermissionDenied

        raise PermissionDenied("Only the thrower's player resolves his grenade.")
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
        squad = ctx.projection.units.get(pilot.get("ref"))
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
    states = {k: u.state for k, u in ctx.projection.units.items()}
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


# The readable log ------------------------------------------------------------------------------------------------
EFFECT_TEXT = {
    "damage": "{unit}: {amount} damage",
    "destroyed": "{unit} is destroyed",
    "repair": "{unit}: repaired {amount}",
    "ammo_spent": "{unit}: ammo −{amount}",
    "ammo_refresh": "{unit}: ammo refilled",
    "shot_fired": "{unit} fired",
    "pilot_killed": "{unit}: the pilot is killed, the vehicle has no pilot",
    "pilot_left": "{unit}: the pilot is out, the vehicle has no pilot",
    "pilot_boarded": "{unit}: a new pilot takes the controls",
    "landed": "{unit} lands",
    "flying": "{unit} takes off",
    "lying": "{unit} falls over",
    "stood_up": "{unit} stands up",
    "captured": "{unit} is captured",
    "soldier_killed": "{unit}: soldier {soldier} killed",
    "panic": "{unit}: soldier {soldier} panics",
    "deserted": "{unit}: soldier {soldier} deserts",
    "became_pilot": "{unit}: soldier {soldier} becomes a pilot",
    "dismounted": "{unit}: soldier {soldier} is on foot",
    "action_used": "{unit}: {action} used",
    "activation_used": "{unit} spends its whole activation",
    "activated": "{unit} is done for the round",
    "new_round": "{unit}: new round",
    "tow_start": "{unit}: towing starts",
    "tow_stop": "{unit}: towing stops",
    "set_strength": "{unit}: strength set to {value}",
    "set_ammo": "{unit}: ammo set to {value}",
    "set_flag": "{unit}: {flag} {onoff}",
    "set_soldier": "{unit}: soldier {soldier} {what}",
    "in_melee": "{unit}: in melee {onoff}",
}


def effect_text(effect: dict, unit_name: str) -> str:
    template = EFFECT_TEXT.get(effect.get("kind"), "{unit}: " + str(effect.get("kind")))
    what = ", ".join(f"{k} {'yes' if v else 'no'}" for k, v in effect.items() if k in ("alive", "on_field"))
    flag = effect.get("flag", "")
    if effect.get("soldier") is not None and effect.get("kind") == "set_flag":
        flag = f"soldier {effect['soldier']} {flag}"
    values = {
        "unit": unit_name,
        "amount": effect.get("amount", ""),
        "soldier": effect.get("soldier", ""),
        "action": effect.get("action", ""),
        "value": effect.get("value", ""),
        "flag": flag,
        "onoff": "on" if effect.get("value", True) else "off",
        "what": what,
    }
    return template.format(**values)


def describe_event(event_type: str, payload: dict, *, units: dict, sides: dict) -> str:
    def unit(key):
        return units.get(key, key or "?")

    def side(index):
        return sides.get(index, sides.get(str(index), f"side {index}"))

    if event_type == "battle.started":
        return "The battle starts: " + " vs ".join(s["name"] for s in payload.get("sides", [])) + "."
    if event_type == "side.joined":
        return f"{payload.get('player')} joins as {side(payload.get('side'))}."
    if event_type == "round.started":
        return f"Round {payload.get('round')} begins."
    if event_type == "initiative.rolled":
        rolls = "; ".join(", ".join(f"{side(int(s))} {v}" for s, v in r.items()) for r in payload.get("rolls", []))
        return f"Initiative (d12): {rolls}. {side(payload.get('winner'))} wins."
    if event_type == "order.set":
        return "Order of play: " + ", ".join(side(s) for s in payload.get("order", [])) + "."
    if event_type == "unit.done":
        return f"{unit(payload.get('unit'))} is done for the round."
    if event_type == "unit.adjusted":
        parts = [effect_text(a["effect"], unit(a["unit"])) for a in payload.get("apply", [])]
        note = f" ({payload['note']})" if payload.get("note") else ""
        return "By hand: " + "; ".join(parts) + note + "."
    if event_type == "action.resolved":
        label = payload.get("action", "action").replace("_", " ")
        who = unit(payload.get("by"))
        return f"{label.capitalize()} by {who}: {payload.get('summary', '')}".strip()
    if event_type == "undo":
        verb = "Redo" if payload.get("undone_type") == "undo" else "Undo"
        return f"{verb} of #{payload.get('undoes')}: {payload.get('undone_summary', '')}"
    if event_type == "mission.completed":
        note = f" ({payload['note']})" if payload.get("note") else ""
        return f"{side(payload.get('side'))} completes the mission{note}: the game ends."
    if event_type.startswith("unit.") and payload.get("apply"):
        return "; ".join(effect_text(a["effect"], unit(a["unit"])) for a in payload["apply"]) + "."
    return event_type


# What the phone's forms need -----------------------------------------------------------------------------------
def client_data(battle, state: dict) -> dict:
    """Units (with soldiers and weapons) and actions for the action sheet; JSON-safe."""
    units = []
    for u in state["units"]:
        view = u["view"]
        soldiers = [
            {
                "num": s["num"],
                "alive": s["alive"],
                "pilot": s["role"] == "pilot",
                "label": f"#{s['num']} А{s['rank']} Бр{s['armour']} ББ{s['melee']}"
                + (f" {s['range']}/{s['power']}" if s.get("range") else "")
                + (" (pilot)" if s["role"] == "pilot" else ""),
            }
            for s in view.get("soldiers", [])
        ]
        units.append(
            {
                "key": u["key"],
                "label": f"{u['name']} · {u['owner_name']}",
                "kind": u["kind"],
                "mine": u["mine"],
                "alive": view.get("alive", True),
                "soldiers": soldiers,
                "weapons": view.get("weapons", []),
            }
        )
    return {
        "units": units,
        "actions": available_actions(battle.settings),
        "covers": [{"value": k, "label": v} for k, v in COVER_LABELS.items()],
        "mode": system_settings(battle.settings)["mode"],
    }
