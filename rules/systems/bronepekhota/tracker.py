"""The battle tracker's unit state for «Бронепехота» (spec §4) and how each effect changes it.

States are plain JSON dicts. `apply_effect` never mutates its input: it returns a new state.

Squad state
    {"kind": "squad", "activated": bool,
     "soldiers": [{"num", "alive", "on_field", "role": "squad" | "pilot" | "dismounted", "pilot_of": ref | None,
                   "panicked", "deserted", "in_melee", "aimed", "actions": ["move", "shoot", …] this round}]}
Vehicle state
    {"kind": "vehicle", "strength", "strength_max", "ammo", "ammo_max", "pilot": ref | None,
     "weapons": [fitted weapon keys], "variant": key | None, "repair_platform": bool, "locomotion",
     "activated", "lying", "flying", "in_melee", "destroyed", "may_stand_up", "acts_next_round",
     "shots_this_round", "weapons_fired": [...], "actions": [...], "ammo_refreshes_used", "towing", "towed_by",
     "owner"}
    A pilot ref is the roster's {"entry", "soldier", "copy"}.
Gun state
    {"kind": "gun", "strength", "strength_max", "ammo", "ammo_max", "mobile", "weapons", "lying", "in_melee",
     "destroyed", "may_stand_up", "shots_this_round", "weapons_fired", "ammo_refreshes_used", "towed_by", "owner"}

Effect vocabulary (what the actions emit; each effect names the `role` of its subject in the action's inputs —
"shooter", "target", "target.pilot", "attacker", "defender", "blast.0", "victims.1", "thrower", "crew", "soldier",
"object", "repairer", "helix", "vehicle", "subject" — and, for a soldier, his number in "soldier"):
    vehicle / gun:
      damage {amount, cause}        strength −amount (never below 0); 0 = destroyed
      destroyed                      strength 0, destroyed
      repair {amount}                strength +amount up to the maximum; a lying element may then stand up
      ammo_spent {amount}            ammo −amount (never below 0)
      ammo_refresh                   ammo back to the maximum, counts a refresh
      shot_fired {weapon}            shots_this_round +1, the weapon joins weapons_fired
      pilot_killed / pilot_left      no pilot; a vehicle whose pilot is gone lands if it was flying
      pilot_boarded {pilot, acts_next_round}   a new pilot (capture or re-crewing)
      landed / flying {value}        airborne flag
      lying {value} / stood_up       real mode: fallen over; stand up only after a repair
      captured {owner?}              owner changes, sliders unchanged
      tow_start {object|helix} / tow_stop
      activation_used                the whole activation is spent (self-repair)
    soldier (in a squad state, needs "soldier"):
      soldier_killed                 dead
      panic                          panicked (a pilot leaves his vehicle: role dismounted)
      deserted                       off the field for good
      became_pilot {of}              role pilot
      dismounted                     a pilot on foot (vehicle destroyed or he got out)
      rejoined                       back with his squad
      aimed {value}                  declared aimed fire this round
    both:
      action_used {action, sp?}      move | shoot | melee | grenade | repair | jump used this round; a flying
                                     vehicle records up to two moves (p.11); "sp": speed points the move cost
      in_melee {value}               touching an enemy model
      activated {value, soldier?}    the Armlist is turned (with "soldier": a dismounted pilot's own
                                     activation as a one-man unit, A19)
      new_round                      resets the per-round flags; panic wears off; a captured vehicle may act
    manual adjustments (sliders on the phone):
      set_strength {value}, set_ammo {value}   within 0..max, else RuleInputError
      set_flag {flag, value}                   one of the boolean flags above
      set_soldier {soldier, alive?, on_field?, role?}
Game-level effects (initiative, dispute) carry role "game": the battle keeps those, not a unit.
"""

from __future__ import annotations

import copy

from rules.errors import RuleInputError
from rules.i18n import N_
from rules.systems.bronepekhota import tables

ROUND_ACTIONS = ("move", "shoot", "melee", "grenade", "repair", "jump")
VEHICLE_FLAGS = ("activated", "lying", "flying", "in_melee", "destroyed", "may_stand_up", "acts_next_round")
GUN_FLAGS = ("activated", "lying", "in_melee", "destroyed", "may_stand_up")
SOLDIER_FLAGS = ("alive", "on_field", "panicked", "deserted", "in_melee", "aimed")
GAME_EFFECTS = ("initiative", "dispute")
FLYER_MOVES = 2  # a flying vehicle may move, shoot, move (p.11, §3.2)


def is_flyer(state: dict) -> bool:
    return state.get("kind") == "vehicle" and state.get("locomotion") == "flying"


def moves_used(state: dict) -> int:
    return state.get("actions", []).count("move")


def _pilot_for(entry: dict) -> dict | None:
    pilot = entry.get("pilot")
    if isinstance(pilot, list):
        copy_no = int(entry.get("copy", 1))
        pilot = pilot[copy_no - 1] if 0 < copy_no <= len(pilot) else None
    return dict(pilot) if pilot else None


def initial_unit_state(profile: dict, entry: dict | None = None) -> dict:
    """The tracker state of one unit at deployment: sliders on their maximum cells (p.4)."""
    entry = entry or {}
    kind = profile["kind"]
    data = profile["data"]
    if kind == "squad":
        pilots = {p["soldier"]: p.get("vehicle") for p in entry.get("pilots", [])}
        return {
            "kind": "squad",
            "activated": False,
            "soldiers": [
                {
                    "num": s["num"],
                    "alive": True,
                    "on_field": True,
                    "role": "pilot" if s["num"] in pilots else "squad",
                    "pilot_of": pilots.get(s["num"]),
                    "panicked": False,
                    "deserted": False,
                    "in_melee": False,
                    "aimed": False,
                    "actions": [],
                }
                for s in data["soldiers"]
            ],
        }
    loadout = entry.get("loadout") or {}
    common = {
        "strength": data["strength_max"],
        "strength_max": data["strength_max"],
        "ammo": data["ammo_max"],
        "ammo_max": data["ammo_max"],
        "activated": False,
        "lying": False,
        "in_melee": False,
        "destroyed": False,
        "may_stand_up": False,
        "shots_this_round": 0,
        "weapons_fired": [],
        "actions": [],
        "ammo_refreshes_used": 0,
        "towed_by": None,
        "owner": entry.get("owner"),
    }
    if kind == "gun":
        return {"kind": "gun", **common, "mobile": data["mobile"], "weapons": [w["key"] for w in data["weapons"]]}
    arsenal = [w["key"] for w in data.get("arsenal", [])]
    variant = loadout.get("variant")
    variant_data = next((v for v in data.get("variants", []) if v["key"] == variant), None)
    weapons = loadout.get("weapons")
    if weapons is None:
        weapons = variant_data.get("weapons", arsenal) if variant_data else arsenal
    pilot = _pilot_for(entry)
    return {
        "kind": "vehicle",
        **common,
        "locomotion": data.get("locomotion"),
        "pilot": pilot,
        "weapons": list(weapons),
        "variant": variant,
        "repair_platform": bool(variant_data and variant_data.get("repair_platform")),
        "flying": data.get("locomotion") == "flying" and pilot is not None,
        "acts_next_round": False,
        "towing": None,
    }


def _bad(message: str) -> RuleInputError:
    return RuleInputError({"effect": message})


def _int(effect: dict, key: str) -> int:
    value = effect.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{effect.get('kind')} needs a whole number {key!r}")
    return value


def _soldier(state: dict, effect: dict) -> dict:
    num = effect.get("soldier")
    for s in state["soldiers"]:
        if s["num"] == num:
            return s
    raise _bad(f"{effect.get('kind')}: this squad has no soldier {num!r}")


def apply_effect(state: dict, effect: dict) -> dict:
    """A new state with one effect applied. Unknown kinds, or kinds that do not fit the unit, raise
    RuleInputError (a clear message, never a silent no-op)."""
    if not isinstance(effect, dict) or "kind" not in effect:
        raise _bad("an effect is an object with a 'kind'")
    kind = effect["kind"]
    if kind in GAME_EFFECTS:
        raise _bad(f"{kind!r} is a game-level effect: the battle records it, not a unit")
    new = copy.deepcopy(state)
    if new["kind"] == "squad":
        _apply_squad(new, effect)
    else:
        _apply_machine(new, effect)
    return new


def _new_round_soldier(s: dict) -> None:
    s["actions"] = []
    s["aimed"] = False
    if "activated" in s:
        s["activated"] = False
    s["panicked"] = False  # self-control returns by the start of the next round (p.51)


def _apply_squad(state: dict, effect: dict) -> None:
    kind = effect["kind"]
    if kind == "new_round":
        state["activated"] = False
        for s in state["soldiers"]:
            _new_round_soldier(s)
        return
    if kind == "activated" and "soldier" not in effect:
        state["activated"] = bool(effect.get("value", True))
        return
    s = _soldier(state, effect)
    if kind == "soldier_killed":
        s["alive"] = False
        s["role"] = "squad" if s["role"] == "pilot" else s["role"]
        s["pilot_of"] = None
    elif kind == "panic":
        s["panicked"] = True
        if s["role"] == "pilot":
            s["role"], s["pilot_of"] = "dismounted", None
    elif kind == "deserted":
        s["deserted"], s["on_field"] = True, False
    elif kind == "became_pilot":
        s["role"], s["pilot_of"] = "pilot", effect.get("of")
    elif kind == "dismounted":
        s["role"], s["pilot_of"] = "dismounted", None
    elif kind == "rejoined":
        s["role"], s["pilot_of"] = "squad", None
    elif kind == "action_used":
        action = effect.get("action")
        if action not in ROUND_ACTIONS:
            raise _bad(f"unknown action {action!r}")
        if action not in s["actions"]:
            s["actions"].append(action)
    elif kind in ("in_melee", "aimed"):
        s[kind] = bool(effect.get("value", True))
    elif kind == "activated":
        # A dismounted pilot acting as a one-man unit (setting dismounted_pilot_rejoins_squad off, A19).
        s["activated"] = bool(effect.get("value", True))
    elif kind == "set_soldier":
        for key in ("alive", "on_field", "deserted", "panicked"):
            if key in effect:
                s[key] = bool(effect[key])
        if "role" in effect:
            if effect["role"] not in ("squad", "pilot", "dismounted"):
                raise _bad("role must be squad, pilot or dismounted")
            s["role"] = effect["role"]
    elif kind == "set_flag":
        flag = effect.get("flag")
        if flag not in SOLDIER_FLAGS:
            raise _bad(f"a soldier has no flag {flag!r}; flags: {', '.join(SOLDIER_FLAGS)}")
        s[flag] = bool(effect.get("value"))
    else:
        raise _bad(f"{kind!r} does not apply to an infantry squad")


def _apply_machine(state: dict, effect: dict) -> None:
    kind = effect["kind"]
    is_vehicle = state["kind"] == "vehicle"
    if kind == "damage":
        amount = _int(effect, "amount")
        state["strength"] = tables.strength_after(state["strength"], amount)
        state["destroyed"] = state["strength"] == 0
    elif kind == "destroyed":
        state["strength"], state["destroyed"] = 0, True
    elif kind == "repair":
        if state["destroyed"]:
            raise _bad("a destroyed element cannot be repaired")
        state["strength"] = min(state["strength_max"], state["strength"] + _int(effect, "amount"))
        if state["lying"]:
            state["may_stand_up"] = True
    elif kind == "ammo_spent":
        state["ammo"] = tables.ammo_after(state["ammo"], _int(effect, "amount"))
    elif kind == "ammo_refresh":
        state["ammo"] = state["ammo_max"]
        state["ammo_refreshes_used"] += 1
    elif kind == "shot_fired":
        state["shots_this_round"] += 1
        if effect.get("weapon"):
            state["weapons_fired"].append(effect["weapon"])
        if "shoot" not in state["actions"]:
            state["actions"].append("shoot")
    elif kind == "action_used":
        action = effect.get("action")
        if action not in ROUND_ACTIONS:
            raise _bad(f"unknown action {action!r}")
        if action not in state["actions"]:
            state["actions"].append(action)
        elif action == "move" and is_flyer(state) and state["actions"].count("move") < FLYER_MOVES:
            state["actions"].append(action)  # a flyer moves twice: move, shoot, move (p.11)
        if action == "move" and "sp" in effect:
            state["sp_used"] = state.get("sp_used", 0) + effect["sp"]
    elif kind == "activation_used":
        state["activated"] = True
        state["actions"] = ["move", "shoot", "melee"]
    elif kind == "lying":
        state["lying"] = bool(effect.get("value", True))
        state["may_stand_up"] = False
    elif kind == "stood_up":
        if not state["may_stand_up"]:
            raise _bad("it may stand up only after at least 1 damage is repaired (p.26)")
        state["lying"], state["may_stand_up"] = False, False
    elif kind in ("in_melee", "activated"):
        state[kind] = bool(effect.get("value", True))
    elif kind == "captured":
        if "owner" in effect:
            state["owner"] = effect["owner"]
    elif kind == "tow_start":
        if "object" in effect:
            state["towing"] = effect["object"]
        else:
            state["towed_by"] = effect.get("helix")
    elif kind == "tow_stop":
        if "object" in effect:
            state["towing"] = None
        else:
            state["towed_by"] = None
    elif kind == "new_round":
        state.update(activated=False, shots_this_round=0, weapons_fired=[], actions=[])
        if "sp_used" in state:
            state["sp_used"] = 0
        if is_vehicle:
            state["acts_next_round"] = False
    elif kind == "set_strength":
        value = _int(effect, "value")
        if not 0 <= value <= state["strength_max"]:
            raise _bad(f"strength must be between 0 and {state['strength_max']}")
        state["strength"], state["destroyed"] = value, value == 0
    elif kind == "set_ammo":
        value = _int(effect, "value")
        if not 0 <= value <= state["ammo_max"]:
            raise _bad(f"ammo must be between 0 and {state['ammo_max']}")
        state["ammo"] = value
    elif kind == "set_flag":
        flags = VEHICLE_FLAGS if is_vehicle else GUN_FLAGS
        if effect.get("flag") not in flags:
            raise _bad(f"a {state['kind']} has no flag {effect.get('flag')!r}; flags: {', '.join(flags)}")
        state[effect["flag"]] = bool(effect.get("value"))
    elif is_vehicle and kind in ("pilot_killed", "pilot_left"):
        state["pilot"] = None
        state["flying"] = False  # an airborne vehicle without a pilot is down (landed or crashed)
    elif is_vehicle and kind == "pilot_boarded":
        state["pilot"] = effect.get("pilot") or {}
        state["acts_next_round"] = bool(effect.get("acts_next_round", True))
        state["flying"] = state.get("locomotion") == "flying"
    elif is_vehicle and kind in ("landed", "flying"):
        state["flying"] = kind == "flying" and bool(effect.get("value", True))
    else:
        raise _bad(f"{kind!r} does not apply to a {state['kind']}")


# Derived values -----------------------------------------------------------------------------------------
def unit_view(state: dict, profile: dict, settings: dict | None = None) -> dict:
    """What the phone shows: current armour (= strength), speed from the sector, and whether the unit can
    shoot / move / melee now, with the reason when it cannot."""
    settings = settings or {}
    ammo_limited = settings.get("ammo_limited", True)
    data = profile["data"]
    if state["kind"] == "squad":
        soldiers = []
        by_num = {s["num"]: s for s in data["soldiers"]}
        for s in state["soldiers"]:
            p = by_num.get(s["num"], {})
            reason = _soldier_block(s, panic_ends_actions=settings.get("panic_ends_actions", True))
            used = set(s["actions"])
            soldiers.append(
                {
                    "num": s["num"],
                    "armour": p.get("armour"),
                    "speed": p.get("speed"),
                    "can_act": reason is None,
                    "reason": reason,
                    "can_shoot": reason is None
                    and not used & {"shoot", "grenade", "repair"}
                    and not s["in_melee"]
                    and p.get("range") not in (None, "", "-", "–"),
                    "can_move": reason is None and not used & {"move", "jump", "repair"} and not s["aimed"],
                    "can_melee": reason is None and "melee" not in used and "repair" not in used and not s["aimed"],
                }
            )
        active = [s for s in soldiers if s["can_act"]]
        return {
            "kind": "squad",
            "alive": sum(1 for s in state["soldiers"] if s["alive"]),
            "soldiers": soldiers,
            "can_activate": bool(active) and not state["activated"],
        }
    view = {
        "kind": state["kind"],
        "armour": state["strength"],
        "strength": state["strength"],
        "ammo": state["ammo"],
        "destroyed": state["destroyed"],
    }
    shoot_block = _machine_shoot_block(state, data, ammo_limited)
    view["can_shoot"], view["shoot_reason"] = shoot_block is None, shoot_block
    if state["kind"] == "gun":
        view["speed"] = 0
        move_block = (
            "destroyed" if state["destroyed"] else None if data.get("mobile") else N_("a stationary gun never moves")
        )
        view["can_move"], view["move_reason"] = move_block is None, move_block
        view["can_melee"], view["melee_reason"] = False, N_("a gun does not attack in melee")
        return view
    speed = tables.speed_for_strength(data.get("speed_sectors", []), state["strength"])
    view["speed"] = speed
    move_block = _vehicle_common_block(state)
    if move_block is None and "move" in state["actions"] and not is_flyer(state):
        move_block = N_("already moved this round")
    if move_block is None and is_flyer(state) and moves_used(state) >= FLYER_MOVES:
        move_block = N_("already moved twice this round (move, shoot, move)")
    if move_block is None and state["towed_by"] is not None:
        move_block = N_("being towed")
    if move_block is None and speed == 0:
        move_block = N_("speed 0 at this strength")
    view["can_move"], view["move_reason"] = move_block is None, move_block
    melee_block = _vehicle_common_block(state)
    if melee_block is None and state["flying"]:
        melee_block = N_("flying vehicles never melee")
    if melee_block is None and "melee" in state["actions"]:
        melee_block = N_("already fought this round")
    view["can_melee"], view["melee_reason"] = melee_block is None, melee_block
    view["melee_value"] = sum((w.get("melee") or 0) for w in data.get("arsenal", []) if w["key"] in state["weapons"])
    return view


def _soldier_block(s: dict, *, panic_ends_actions: bool = True) -> str | None:
    if not s["alive"]:
        return N_("dead")
    if s["deserted"] or not s["on_field"]:
        return N_("deserted")
    if s["role"] == "pilot":
        return N_("pilots a vehicle and acts with it")
    if s["panicked"] and panic_ends_actions:
        return N_("panicked: recovers next round")
    return None


def _vehicle_common_block(state: dict) -> str | None:
    if state["destroyed"]:
        return N_("destroyed")
    if state["pilot"] is None:
        return N_("no pilot: the vehicle is frozen")
    if state["acts_next_round"]:
        return N_("captured this round: acts from next round")
    if state["lying"]:
        return N_("lying: stand it up after a repair")
    if state["activated"]:
        return N_("already activated this round")
    return None


def _machine_shoot_block(state: dict, data: dict, ammo_limited: bool) -> str | None:
    if state["kind"] == "vehicle":
        block = _vehicle_common_block(state)
        if block and block != "already activated this round":  # the msgid, compared untranslated
            return block
        if state.get("repair_platform"):
            return N_("the repair platform cannot shoot")
        rof = data.get("rof", 0)
    else:
        if state["destroyed"]:
            return N_("destroyed")
        if state["lying"]:
            return N_("lying: stand it up after a repair")
        rof = data.get("rof", 0)
    if state["in_melee"]:
        return N_("in contact with an enemy")
    if ammo_limited and state["ammo"] <= 0:
        return N_("out of ammo for the rest of the game")
    if state["shots_this_round"] >= rof:
        return N_("rate of fire used up this round")
    return None
