"""Pieces shared by the actions: input schemas of the elements, weapon parsing, rate-of-fire and ammo checks,
and the damage + pilot steps (§7.4 II and III) used by shots, blasts, grenades and melee.

Inputs describe elements as they stand now (the tracker fills them from its unit state):

element = {"kind": "infantry" | "vehicle" | "gun", "ref": anything echoed in effects, "soldier": num (infantry),
           "armour": Бр (infantry), "melee": ББ (infantry, or a vehicle's melee sum),
           "melee_weapons": ["ББ/2", "ББ/1"] (vehicle, instead of melee),
           "strength": current strength = Броня (vehicle, gun), "strength_max",
           "pilot": {"armour": Бр, "rank", "ref", "soldier"} or null (vehicle without pilot),
           "flying", "lying", "destroyed", "in_melee", "rank"}
"""

from __future__ import annotations

from fractions import Fraction

from rules import dice as dicelib
from rules.contract import CleanAction, RuleInputError
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.settings import CATALOGUE, full_settings  # noqa: F401  (the battle imports it here)
from rules.systems.bronepekhota.words import say

FACES = dicelib.BOOK_FACES
KINDS = ("infantry", "vehicle", "gun")

REF = {"description": "Anything that identifies the element for the caller; echoed in effects."}
PILOT = {
    "anyOf": [
        {"type": "null"},
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["armour"],
            "properties": {
                "armour": {"type": "integer", "minimum": 0, "maximum": 20, "description": "The pilot's Бр"},
                "rank": {"type": "integer", "minimum": 0, "maximum": 10},
                "ref": REF,
                "soldier": {"type": "integer", "minimum": 1, "maximum": 12},
            },
        },
    ]
}
ELEMENT_PROPERTIES = {
    "kind": {"enum": list(KINDS)},
    "ref": REF,
    "soldier": {"type": "integer", "minimum": 1, "maximum": 12, "description": "Soldier number in his squad"},
    "name": {"type": "string", "maxLength": 120},
    "armour": {"type": "integer", "minimum": 0, "maximum": 20, "description": "Infantry Бр"},
    "melee": {"type": "integer", "minimum": 0, "maximum": 40, "description": "ББ: soldier skill or vehicle sum"},
    "melee_weapons": {"type": "array", "items": {"type": ["string", "integer"]}, "maxItems": 10},
    "strength": {"type": "integer", "minimum": 0, "maximum": 99, "description": "Current strength = Броня"},
    "strength_max": {"type": "integer", "minimum": 1, "maximum": 99},
    "pilot": PILOT,
    "rank": {"type": "integer", "minimum": 0, "maximum": 10},
    "flying": {"type": "boolean"},
    "lying": {"type": "boolean"},
    "destroyed": {"type": "boolean"},
    "in_melee": {"type": "boolean", "description": "Touching an enemy model"},
}
ELEMENT = {"type": "object", "required": ["kind"], "additionalProperties": False, "properties": ELEMENT_PROPERTIES}

WEAPON = {
    "type": "object",
    "additionalProperties": False,
    "required": ["range", "power"],
    "properties": {
        "key": {"type": "string", "maxLength": 60},
        "name": {"type": "string", "maxLength": 120},
        "range": {"type": ["string", "null"], "maxLength": 20, "description": "Range die, e.g. Д6+2"},
        "power": {"type": ["string", "null"], "maxLength": 20, "description": "Power pool, e.g. 3Д20"},
        "special": {
            "type": ["object", "null"],
            "additionalProperties": False,
            "properties": {
                "blast_steps": {"type": "integer", "minimum": 1, "maximum": 10},
                "blast_power": {"type": "string", "maxLength": 20},
                "text": {"type": "string", "maxLength": 500},
            },
        },
        "charges": {"type": "array", "items": {"enum": list(tables.CHARGE_POWER)}},
        "melee": {"type": ["integer", "null"]},
        "note": {"type": "string", "maxLength": 500},
    },
}

SHOOTER_PROPERTIES = {
    **ELEMENT_PROPERTIES,
    "rof": {"type": "integer", "minimum": 0, "maximum": 10, "description": "Скорострельность (vehicle, gun)"},
    "ammo": {"type": ["integer", "null"], "minimum": 0, "maximum": 99, "description": "Ammo slider; null: untracked"},
    "shots_this_round": {"type": "integer", "minimum": 0, "maximum": 20},
    "weapons_fired": {"type": "array", "items": {"type": "string"}, "maxItems": 20},
    "actions_used": {"type": "array", "items": {"enum": ["move", "shoot", "melee", "grenade", "repair", "jump"]}},
    "aimed": {"type": "boolean", "description": "Aimed fire declared (infantry, optional rule)"},
    "touched_by_two_players": {"type": "boolean", "description": "A gun touched by infantry of two players"},
    "crew_rank": {"type": "integer", "minimum": 0, "maximum": 10, "description": "Rank of the soldier firing a gun"},
    "crew_ref": REF,
    "crew_soldier": {"type": "integer", "minimum": 1, "maximum": 12},
    "crew_actions_used": {"type": "array", "items": {"enum": ["move", "shoot", "melee", "grenade", "repair", "jump"]}},
    "mortar": {"type": "boolean", "description": "Real mode: a mortar may fire mines"},
    "fitted": {"type": "array", "items": {"type": "string"}, "description": "Weapon keys fitted (vehicle)"},
    "repair_platform": {"type": "boolean", "description": "HELIX with the repair platform: cannot shoot"},
}
SHOOTER = {"type": "object", "required": ["kind"], "additionalProperties": False, "properties": SHOOTER_PROPERTIES}


# Helpers -----------------------------------------------------------------------------------------------
def err(field: str, message: str) -> RuleInputError:
    return RuleInputError({field: message})


def parse_range(text, field: str) -> dicelib.DiceExpr:
    expr = dicelib.parse(text, faces=FACES, single_die=True, field=field)
    if expr is None:
        raise err(field, tr("this weapon has no range (a dash): it cannot shoot"))
    return expr


def parse_power(text, field: str) -> dicelib.DiceExpr:
    expr = dicelib.parse(text, faces=FACES, field=field)
    if expr is None:
        raise err(field, tr("this weapon has no power (a dash): it cannot shoot"))
    return expr


def check_element(el: dict, field: str, *, needs_armour: bool = True) -> dict:
    """Per-kind required values. Returns a copy with defaults filled in."""
    el = dict(el)
    kind = el["kind"]
    if kind == "infantry":
        if needs_armour and "armour" not in el:
            raise err(f"{field}.armour", tr("An infantryman needs his armour (Arm)."))
    else:
        if "strength" not in el:
            raise err(
                f"{field}.strength", tr("A {kind} needs its current strength (its Armour).").format(kind=tr(kind))
            )
        if "strength_max" in el and el["strength"] > el["strength_max"]:
            raise err(
                f"{field}.strength",
                tr("Strength {strength} is above the maximum {maximum}.").format(
                    strength=el["strength"], maximum=el["strength_max"]
                ),
            )
        if el.get("destroyed") or el["strength"] == 0:
            raise err(f"{field}.strength", tr("This {kind} is already destroyed (strength 0).").format(kind=tr(kind)))
    if kind == "vehicle":
        if "pilot" not in el:
            raise err(f"{field}.pilot", tr('Say whether the vehicle has a pilot: {"armour": his Arm} or null.'))
        el["melee"] = vehicle_melee(el, field)
    elif el.get("pilot") is not None:
        raise err(f"{field}.pilot", tr("Only a vehicle has a pilot."))
    el.setdefault("flying", False)
    el.setdefault("lying", False)
    if el["flying"] and kind != "vehicle":
        raise err(f"{field}.flying", tr("Only a vehicle can fly."))
    return el


def vehicle_melee(el: dict, field: str) -> int:
    """A vehicle's ББ is the sum of its fitted melee weapons «ББ/n» (p.39)."""
    if "melee_weapons" in el:
        if "melee" in el:
            raise err(f"{field}.melee", tr("Give either melee or melee_weapons, not both."))
        return sum(
            dicelib.parse_melee(w, field=f"{field}.melee_weapons.{i}") for i, w in enumerate(el["melee_weapons"])
        )
    return el.get("melee", 0)


def echo(el: dict) -> dict:
    """The identifying fields copied into an effect."""
    return {k: el[k] for k in ("ref", "soldier") if k in el}


def pilot_echo(el: dict) -> dict:
    pilot = el.get("pilot") or {}
    return {k: pilot[k] for k in ("ref", "soldier") if k in pilot}


def survival_faces(settings: dict) -> int:
    return int(settings.get("survival_die", 6))


def check_can_fire(shooter: dict, weapon_key: str, settings: dict, *, real: bool) -> None:
    """Eligibility and rate of fire (§3.6, §3.7.1): everything the tracker knows about the shooter this round."""
    kind = shooter["kind"]
    used = set(shooter.get("actions_used", []))
    unified = settings.get("shooting_ban", "unified") == "unified"
    if shooter.get("destroyed") or (kind != "infantry" and shooter.get("strength") == 0):
        raise err("shooter", tr("A destroyed element cannot shoot."))
    if shooter.get("in_melee") and (unified or kind != "gun" or real):
        raise err("shooter.in_melee", tr("An element touching an enemy model cannot shoot (p.23, p.31, p.41)."))
    if kind == "infantry":
        if real:
            raise err("shooter.kind", tr("In real shooting infantry cannot shoot; they may crew guns (p.2)."))
        if "shoot" in used or "grenade" in used or shooter.get("shots_this_round", 0) >= 1:
            raise err("shooter.actions_used", tr("An infantryman makes one shot (or one grenade) a round (p.34)."))
        return
    if kind == "vehicle":
        if "pilot" in shooter and shooter["pilot"] is None:
            raise err("shooter.pilot", tr("A vehicle without a pilot can neither shoot nor move (p.4)."))
        if shooter.get("lying"):
            raise err("shooter.lying", tr("A lying vehicle cannot shoot until stood up after a repair (p.26)."))
        if shooter.get("repair_platform"):
            raise err("shooter.repair_platform", tr("A HELIX with the repair-transport platform cannot shoot (p.48)."))
        if "fitted" in shooter and weapon_key not in shooter["fitted"]:
            raise err("weapon.key", tr("{weapon} is not fitted to this vehicle.").format(weapon=repr(weapon_key)))
    if kind == "gun":
        if shooter.get("lying"):
            raise err("shooter.lying", tr("A lying gun cannot fire (p.26)."))
        if shooter.get("touched_by_two_players"):
            raise err("shooter.touched_by_two_players", tr("A gun touched by infantry of two players cannot fire."))
        if "crew_rank" not in shooter:
            raise err("shooter.crew_rank", tr("A gun fires only through a soldier touching it: give his rank."))
        if "rank" in shooter and not tables.can_pilot(shooter["crew_rank"], shooter["rank"]):
            raise err(
                "shooter.crew_rank",
                tr("A rank {crew} soldier cannot fire a rank {rank} gun (p.34).").format(
                    crew=shooter["crew_rank"], rank=shooter["rank"]
                ),
            )
        crew_used = set(shooter.get("crew_actions_used", []))
        if crew_used & {"grenade", "repair"} or ("shoot" in crew_used and shooter.get("shots_this_round", 0) == 0):
            raise err("shooter.crew_actions_used", tr("This soldier already shot this round with his own weapon."))
    rof = shooter.get("rof")
    if rof is None:
        raise err("shooter.rof", tr("A {kind} needs its rate of fire (RoF).").format(kind=tr(kind)))
    shots = shooter.get("shots_this_round", 0)
    if shots >= rof:
        raise err(
            "shooter.shots_this_round",
            tr("Rate of fire {rof}: {shots} shot(s) already fired this round.").format(rof=rof, shots=shots),
        )
    per_weapon = kind == "vehicle" or real or settings.get("gun_rof_rule") == "per_barrel"
    if per_weapon and weapon_key in shooter.get("weapons_fired", []):
        raise err(
            "weapon.key",
            tr("{weapon} already fired this round: each weapon fires at most once (p.24, p.35).").format(
                weapon=repr(weapon_key)
            ),
        )


def check_ammo(shooter: dict, cost: int, settings: dict) -> int | None:
    """Returns the ammo after the shot (None when untracked). Raises when the shot is not allowed (§5 A7)."""
    if shooter["kind"] == "infantry" or not settings.get("ammo_limited", True) or shooter.get("ammo") is None:
        return None
    ammo = shooter["ammo"]
    if ammo <= 0:
        raise err("shooter.ammo", tr("Out of ammo: this element can never fire again (p.25, p.36)."))
    if settings.get("ammo_short_shot") == "strict" and ammo < cost:
        raise err(
            "shooter.ammo",
            tr("This shot costs {cost} ammo but only {ammo} is left (strict reading of A7).").format(
                cost=cost, ammo=ammo
            ),
        )
    return tables.ammo_after(ammo, cost)


def fire_effects(shooter: dict, weapon_key: str, cost: int, ammo_after: int | None) -> list[dict]:
    """The shooter's bookkeeping: ammo first (it moves before the shot, p.26, p.35), then the shot itself."""
    effects = []
    if ammo_after is not None:
        effects.append(
            {"kind": "ammo_spent", "role": "shooter", "amount": shooter["ammo"] - ammo_after, **echo(shooter)}
        )
    effects.append({"kind": "shot_fired", "role": "shooter", "weapon": weapon_key, **echo(shooter)})
    if shooter["kind"] == "gun":
        crew = {k2: shooter[k] for k, k2 in (("crew_ref", "ref"), ("crew_soldier", "soldier")) if k in shooter}
        effects.append({"kind": "action_used", "role": "crew", "action": "shoot", **crew})
    elif shooter["kind"] == "infantry":
        effects.append({"kind": "action_used", "role": "shooter", "action": "shoot", **echo(shooter)})
        if shooter.get("aimed"):  # he may not move or melee for the rest of the round (§11.1)
            effects.append({"kind": "aimed", "role": "shooter", "value": True, **echo(shooter)})
    return effects


# Damage and pilot (§7.4 II–III, Table 7) ---------------------------------------------------------------
# A pool of power dice: (count, faces, per_die_modifier, armour_bonus, label). A shot is one pool; a primary
# target also caught in its own blast (A6 setting) gets two pools but still one pilot test.
Pool = tuple[int, int, int, int, str]


def element_armour(el: dict) -> int:
    return el["armour"] if el["kind"] == "infantry" else el["strength"]


def damage_to_element(
    dice, el: dict, role: str, damage: int, *, settings: dict, steps: list[str], cause: str
) -> tuple[dict, list[dict]]:
    """Applies `damage` to one element: infantry is destroyed (A24); a vehicle or gun loses strength and a
    piloted vehicle's pilot takes one survival test; a flyer whose pilot dies lands and takes D6 (p.19)."""
    result: dict = {"damage": damage, "destroyed": False, "pilot": None}
    effects: list[dict] = []
    if damage == 0:
        return result, effects
    if el["kind"] == "infantry":
        if settings.get("virtual_infantry_damage", "destroyed") == "survival_test" and cause != "melee":
            faces = survival_faces(settings)
            roll = dice.roll(faces, "survival test (house rule A24)")
            outcome = tables.survival_result(el["armour"], roll, panic_rule=settings.get("panic", False))
            steps.append(
                tr("Survival test (house rule A24): {die} = {roll} against Arm {armour}: {result}.").format(
                    die=die_name(faces), roll=roll, armour=el["armour"], result=survival_word(outcome)
                )
            )
            result["survival"] = outcome
            if outcome == tables.KILLED:
                result["destroyed"] = True
                effects.append({"kind": "soldier_killed", "role": role, "cause": cause, **echo(el)})
            elif outcome == tables.PANIC:
                effects.append({"kind": "panic", "role": role, **echo(el)})
            return result, effects
        result["destroyed"] = True
        effects.append({"kind": "soldier_killed", "role": role, "cause": cause, **echo(el)})
        return result, effects
    after = tables.strength_after(el["strength"], damage)
    steps.append(
        tr("{name}: strength {before} -> {after}.").format(
            name=el.get("name") or role, before=el["strength"], after=after
        )
    )
    effects.append({"kind": "damage", "role": role, "amount": damage, "cause": cause, **echo(el)})
    if after == 0:
        effects.append({"kind": "destroyed", "role": role, **echo(el)})
    if el["kind"] == "vehicle" and el.get("pilot") is not None and deferred(el, settings):
        # The pilot's own player takes his test on his phone (setting pilot_tests): the tracker asks him.
        effects.append(pilot_test_due(el, role, test="survival", destroyed=after == 0))
        result["pilot"] = tables.DUE
    elif el["kind"] == "vehicle" and el.get("pilot") is not None:
        pilot = el["pilot"]
        faces = survival_faces(settings)
        roll = dice.roll(faces, "pilot survival test")
        outcome = tables.survival_result(pilot["armour"], roll, panic_rule=settings.get("panic", False))
        steps.append(
            tr("Pilot survival test: {die} = {roll} against Arm {armour}: {result}.").format(
                die=die_name(faces), roll=roll, armour=pilot["armour"], result=survival_word(outcome)
            )
        )
        result.update(pilot=outcome, pilot_roll=roll)
        if outcome == tables.KILLED:
            effects.append({"kind": "pilot_killed", "role": role, **echo(el)})
            effects.append({"kind": "soldier_killed", "role": f"{role}.pilot", "cause": cause, **pilot_echo(el)})
            if el.get("flying") and after > 0:
                landing, landing_effects = emergency_landing(dice, after, role, echo(el), steps)
                effects += landing_effects
                result["emergency_landing"] = landing
                after = landing["strength_after"]
        elif outcome == tables.PANIC:
            effects.append({"kind": "panic", "role": f"{role}.pilot", **pilot_echo(el)})
            if after > 0:
                effects.append({"kind": "pilot_left", "role": role, "reason": "panic", **echo(el)})
                if el.get("flying") and settings.get("panic_flyer_lands_safely", True):
                    effects.append({"kind": "landed", "role": role, **echo(el)})
    if after == 0 and el["kind"] == "vehicle" and el.get("pilot") is not None and result["pilot"] != tables.KILLED:
        # A pilot who survives his vehicle's destruction is placed on its spot as an infantryman (p.20).
        effects.append({"kind": "dismounted", "role": f"{role}.pilot", "reason": "vehicle destroyed", **pilot_echo(el)})
    result["strength_after"] = after
    result["destroyed"] = after == 0
    return result, effects


# The words of a test's result, as the steps and summaries say them (tables.SURVIVED …).
SURVIVAL_WORDS = {"survived": N_("survived"), "panic": N_("survived, panics"), "killed": N_("killed")}
PILOT_WORDS = {
    "survived": N_("; the pilot survives"),
    "panic": N_("; the pilot survives but panics"),
    "killed": N_("; the pilot is killed"),
    "safe": N_("; the armour protected the pilot"),
    "due": N_("; the pilot's own player takes his test"),
}
DICE_WORDS = {"power die": (N_("power die"), N_("power dice")), "blast die": (N_("blast die"), N_("blast dice"))}


def die_name(faces: int) -> str:
    """A die as the book writes it: «Д6» (d6 in English)."""
    return tr("d{faces}").format(faces=faces)


def survival_word(result: str) -> str:
    return say(SURVIVAL_WORDS[result]) if result in SURVIVAL_WORDS else result


def pilot_words(result: str | None) -> str:
    """The pilot's fate after a hit, to append to a summary ("" when he took no test)."""
    return say(PILOT_WORDS[result]) if result in PILOT_WORDS else ""


def dice_words(label: str, count: int) -> str:
    one, many = DICE_WORDS.get(label, (label, label))
    return tr(many if count > 1 else one)


def deferred(el: dict, settings: dict) -> bool:
    """Is this vehicle's pilot test left to its own player (the battle names such vehicles in the internal
    `defer_pilot_refs` of the settings it passes; the rules alone always roll it)?"""
    return el.get("ref") in (settings.get("defer_pilot_refs") or ())


def pilot_test_due(el: dict, role: str, *, test: str, destroyed: bool, die: int | None = None) -> dict:
    """The effect that asks a vehicle's player for his pilot's test: `test` "survival" (Д6) or "armour" (real
    shooting: Д12/Д20, then the survival test if pierced). A destroyed vehicle's pilot is on foot already."""
    effect = {"kind": "pilot_test_due", "role": role, "test": test, "destroyed": destroyed, **echo(el)}
    effect["pilot"] = pilot_echo(el)
    if die is not None:
        effect["die"] = die
    return effect


def emergency_landing(dice, strength: int, role: str, who: dict, steps: list[str]) -> tuple[dict, list[dict]]:
    """§3.10 (p.19): the pilot of a flying vehicle died in flight, whatever killed him (a virtual shot, a real shot's
    armour test, melee is impossible in the air): the vehicle lands on the spot and takes Д6 damage.
    `strength` is its strength once the damage that killed the pilot is marked (> 0)."""
    roll = dice.roll(tables.EMERGENCY_LANDING_FACES, "emergency landing damage")
    after = tables.strength_after(strength, roll)
    steps.append(
        tr("Emergency landing: {die} = {roll} damage, strength {before} -> {after}.").format(
            die=die_name(6), roll=roll, before=strength, after=after
        )
    )
    effects = [
        {"kind": "landed", "role": role, **who},
        {"kind": "damage", "role": role, "amount": roll, "cause": "emergency landing", **who},
    ]
    if after == 0:
        effects.append({"kind": "destroyed", "role": role, **who})
    return {"roll": roll, "strength_after": after}, effects


def landing_loss(strength: int) -> dict[int, Fraction]:
    """The strength lost by an emergency landing from `strength` (Д6, clamped at 0), exactly."""
    out: dict[int, Fraction] = {}
    for roll in range(1, tables.EMERGENCY_LANDING_FACES + 1):
        lost = strength - tables.strength_after(strength, roll)
        out[lost] = out.get(lost, Fraction(0)) + Fraction(1, tables.EMERGENCY_LANDING_FACES)
    return out


def attack_element(
    dice, el: dict, role: str, pools: list[Pool], *, settings: dict, steps: list[str], cause: str
) -> tuple[dict, list[dict]]:
    """§7.4 II and III for one element: each pool's dice against armour (+ its bonus), one damage per die
    strictly above, then `damage_to_element`."""
    base = element_armour(el)
    damage = 0
    all_rolls = []
    for count, faces, per_die_mod, bonus, label in pools:
        armour = base + bonus
        rolls = dice.roll_many(count, faces, label)
        hits = sum(1 for r in rolls if tables.penetrates(r + per_die_mod, armour))
        mod = tr(" (each {mod})").format(mod=f"{per_die_mod:+d}") if per_die_mod else ""
        steps.append(
            tr("{name}: {dice} {rolls}{mod} against armour {armour}: {hits} damage.").format(
                name=el.get("name") or role,
                dice=dice_words(label, count),
                rolls=rolls,
                mod=mod,
                armour=armour,
                hits=hits,
            )
        )
        damage += hits
        all_rolls.extend(rolls)
    result, effects = damage_to_element(dice, el, role, damage, settings=settings, steps=steps, cause=cause)
    before = {} if el["kind"] == "infantry" else {"strength_before": el["strength"]}
    return {"armour": base + pools[0][3], "power_rolls": all_rolls, **before, **result}, effects


def pools_damage_distribution(el: dict, pools: list[Pool]) -> dict[int, Fraction]:
    base = element_armour(el)
    dist = {0: Fraction(1)}
    for count, faces, per_die_mod, bonus, _label in pools:
        part = tables.damage_distribution(count, faces, base + bonus, per_die_modifier=per_die_mod)
        dist = dicelib.combine(dist, part, lambda a, b: a + b)
    return dist


def damage_consequences(el: dict, damage: dict[int, Fraction], settings: dict, *, cause: str = "shot") -> dict:
    """Exact consequences of a damage distribution on one element (what `damage_to_element` does).

    Returns {"destroyed", "pilot_killed", "panic": Fraction, "strength_loss": {k: p}} (strength_loss for
    vehicles and guns includes an emergency landing's D6)."""
    zero = Fraction(0)
    out = {"destroyed": zero, "pilot_killed": zero, "panic": zero, "strength_loss": {}}
    p_any = 1 - damage.get(0, zero)
    if el["kind"] == "infantry":
        if settings.get("virtual_infantry_damage", "destroyed") == "survival_test" and cause != "melee":
            surv = tables.survival_probabilities(
                el["armour"], survival_faces(settings), panic_rule=settings.get("panic", False)
            )
            out["destroyed"] = p_any * surv[tables.KILLED]
            out["panic"] = p_any * surv[tables.PANIC]
        else:
            out["destroyed"] = p_any
        return out
    loss: dict[int, Fraction] = {}

    def add(k, p):
        if p:
            loss[k] = loss.get(k, zero) + p

    strength = el["strength"]
    has_pilot = el["kind"] == "vehicle" and el.get("pilot") is not None
    surv = (
        tables.survival_probabilities(
            el["pilot"]["armour"], survival_faces(settings), panic_rule=settings.get("panic", False)
        )
        if has_pilot
        else None
    )
    for dmg, p in damage.items():
        after = tables.strength_after(strength, dmg)
        if dmg == 0 or not has_pilot:
            add(strength - after, p)
            continue
        out["panic"] += p * surv[tables.PANIC]
        out["pilot_killed"] += p * surv[tables.KILLED]
        add(strength - after, p * (surv[tables.SURVIVED] + surv[tables.PANIC]))
        p_dead = p * surv[tables.KILLED]
        if el.get("flying") and after > 0:
            for landing in range(1, tables.EMERGENCY_LANDING_FACES + 1):
                add(strength - tables.strength_after(after, landing), p_dead / tables.EMERGENCY_LANDING_FACES)
        else:
            add(strength - after, p_dead)
    out["strength_loss"] = loss
    out["destroyed"] = loss.get(strength, zero)
    return out


# The actions' common frame ------------------------------------------------------------------------------
# The odds page's words for the keys odds() answers (Action.result_labels).
RESULT_LABELS = {
    "p_hit": N_("Chance to hit"), "p_damage": N_("Chance of damage"), "damage": N_("Damage"),
    "expected_damage": N_("Damage on average"), "p_pierced": N_("Chance the armour is pierced"),
    "p_destroyed": N_("Chance the unit is destroyed"), "p_damaged": N_("Chance of being damaged"),
    "p_killed": N_("Chance of being killed"), "p_survived": N_("Chance of surviving"),
    "p_survived_calm": N_("Chance of surviving calmly"), "p_safe": N_("Chance of staying unharmed"),
    "p_panic": N_("Chance of panic"), "p_deserted": N_("Chance of deserting"), "p_ok": N_("Chance of success"),
    "p_pilot_killed": N_("Chance the pilot is killed"), "p_pilot_survives": N_("Chance the pilot survives"),
    "p_emergency_landing": N_("Chance of an emergency landing"), "p_repaired": N_("Chance of a repair"),
    "p_captured": N_("Chance of a capture"), "p_attacked": N_("Chance of being attacked"),
    "p_attacker_wins": N_("Chance the attacker wins"), "p_defender_destroyed": N_("Chance the defender is destroyed"),
    "p_repelled": N_("Chance the attack is repelled"), "p_reroll": N_("Chance of a re-roll"),
    "p_decided_first_roll": N_("Chance the first roll decides"), "margin": N_("Margin"), "outcomes": N_("Outcomes"),
    "p_any_destroyed": N_("Chance someone is destroyed"), "destroyed": N_("Elements destroyed"),
    "burst": N_("Burst, steps from the thrower"), "p_win": N_("Chance to win"), "strength_loss": N_("Strength lost"),
    "p_pilot_safe": N_("Chance the armour protects the pilot"),
    "p_vehicle_destroyed": N_("Chance the vehicle is destroyed"),
}  # fmt: skip
# The words of the codes odds() answers as values (Action.describe()["value_labels"]): a survival test's outcomes.
VALUE_LABELS = {"outcomes": {"survived": N_("survived"), "panic": N_("survived, panics"), "killed": N_("killed")}}


class BronAction(CleanAction):
    """The frame of «Бронепехота»'s actions (CleanAction: full settings, validate, resolve_clean / odds_clean) with
    its own check of every action: the shooting mode it is played in and the optional rule it needs. Subclasses
    implement check_inputs(), resolve_clean(clean, settings, dice) and odds_clean(clean, settings)."""

    settings_catalogue = CATALOGUE
    result_labels = RESULT_LABELS

    modes: tuple[str, ...] = ("virtual", "real")

    def describe(self) -> dict:
        out = super().describe()
        out["value_labels"] = {key: {code: tr(words) for code, words in v.items()} for key, v in VALUE_LABELS.items()}
        return out

    option: str | None = None  # the optional-rule setting that must be on, e.g. "grenades"

    def check(self, inputs: dict, settings: dict) -> dict:
        if settings.get("mode") not in self.modes:
            only = (N_("{action} is only used in virtual shooting mode.") if self.modes == ("virtual",)
                    else N_("{action} is only used in real shooting mode."))  # fmt: skip
            raise err("settings.mode", tr(only).format(action=tr(self.label)))
        if self.option and not settings.get(self.option):
            raise err(
                f"settings.{self.option}",
                tr("{action} is an optional rule that is off in these settings.").format(action=tr(self.label)),
            )
        return self.check_inputs(inputs, settings)
