"""Virtual shooting (spec §3.7, p.27–36): range roll, power dice against armour + cover, pilot test,
emergency landing, aimed fire (§11.1) and blast specials (§7.4 IV)."""

from __future__ import annotations

from fractions import Fraction

from rules import dice as dicelib
from rules.contract import distribution, exact, prob
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.actions.common import (
    ELEMENT,
    SHOOTER,
    WEAPON,
    BronAction,
    attack_element,
    check_ammo,
    check_can_fire,
    check_element,
    damage_consequences,
    err,
    fire_effects,
    parse_power,
    parse_range,
    pilot_words,
    pools_damage_distribution,
)
from rules.systems.bronepekhota.words import say

BLAST_VICTIM = {
    **ELEMENT,
    "properties": {**ELEMENT["properties"], "cover": {"enum": list(tables.COVER_CHOICES)}},
}


def cover_value(cover: str, settings: dict, field: str) -> int:
    if cover == tables.COVER_HIDDEN:
        raise err(field, tr("The target is not visible: the shot is impossible (Table 5)."))
    return tables.cover_bonus(cover, exactly_half_bonus=int(settings.get("cover_exactly_half", 1)))


class VirtualShot(BronAction):
    key = "virtual_shot"
    label = N_("Virtual shot")
    spec_ref = "§3.7 (p.27–36)"
    modes = ("virtual",)
    description = (
        "Range roll against the distance in steps (cm / 5 rounded up); on a hit each power die strictly above the "
        "target's armour + cover does 1 damage. Infantry dies from any damage; a damaged vehicle's pilot takes "
        "one survival test per shot; a flyer whose pilot dies lands and takes D6. Ammo drops by the number of "
        "power dice before the shot."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["shooter", "weapon", "target"],
        "properties": {
            "shooter": SHOOTER,
            "weapon": WEAPON,
            "target": ELEMENT,
            "distance_cm": {"type": "number", "minimum": 0, "maximum": 10000},
            "distance_steps": {"type": "integer", "minimum": 0, "maximum": 2000},
            "cover": {"enum": list(tables.COVER_CHOICES), "default": "none"},
            "blast": {
                "type": "array",
                "maxItems": 30,
                "items": BLAST_VICTIM,
                "description": "Elements within the blast radius of the target (special properties on).",
            },
        },
    }

    def check_inputs(self, inputs: dict, settings: dict) -> dict:
        clean = dict(inputs)
        shooter = clean["shooter"] = dict(inputs["shooter"])
        weapon = clean["weapon"] = dict(inputs["weapon"])
        weapon.setdefault("key", "personal" if shooter["kind"] == "infantry" else "weapon")
        clean["range"] = parse_range(weapon["range"], "weapon.range")
        clean["power"] = parse_power(weapon["power"], "weapon.power")
        if ("distance_cm" in inputs) == ("distance_steps" in inputs):
            raise err("distance_cm", tr("Give the distance either in cm (distance_cm) or in steps (distance_steps)."))
        clean["steps"] = (
            tables.steps_from_cm(inputs["distance_cm"]) if "distance_cm" in inputs else inputs["distance_steps"]
        )
        clean["cover"] = inputs.get("cover", tables.COVER_NONE)
        clean["cover_bonus"] = cover_value(clean["cover"], settings, "cover")
        clean["target"] = check_element(inputs["target"], "target")
        check_can_fire(shooter, weapon["key"], settings, real=False)
        clean["ammo_cost"] = tables.virtual_ammo_cost(clean["power"].count)
        clean["ammo_after"] = check_ammo(shooter, clean["ammo_cost"], settings)
        clean["aimed"] = bool(shooter.get("aimed"))
        if clean["aimed"]:
            if not settings["aimed_fire"]:
                raise err("shooter.aimed", tr("Aimed fire is an optional rule that is off in these settings."))
            if shooter["kind"] != "infantry":
                raise err("shooter.aimed", tr("Only an infantryman with his personal weapon may aim (§11.1)."))
            if {"move", "melee", "jump"} & set(shooter.get("actions_used", [])):
                raise err("shooter.aimed", tr("A soldier who aims may not move or melee in the same round (§11.1)."))
        special = weapon.get("special") or {}
        clean["blast_steps"] = special.get("blast_steps") if settings["special_properties"] else None
        clean["blast_power"] = None
        victims = inputs.get("blast") or []
        if victims and not special.get("blast_steps"):
            raise err("blast", tr("This weapon has no blast property."))
        if victims and not settings["special_properties"]:
            raise err("blast", tr("Special weapon properties are off in these settings, so there is no blast."))
        if clean["blast_steps"]:
            clean["blast_power"] = parse_power(special.get("blast_power") or "1Д20", "weapon.special.blast_power")
        clean["blast"] = []
        for i, victim in enumerate(victims):
            v = check_element({k: val for k, val in victim.items() if k != "cover"}, f"blast.{i}")
            bonus = 0
            if settings["blast_cover"]:
                bonus = cover_value(victim.get("cover", tables.COVER_NONE), settings, f"blast.{i}.cover")
            clean["blast"].append((v, bonus))
        return clean

    # -- resolution ------------------------------------------------------------------------------------
    def _target_pools(self, clean: dict, settings: dict) -> list:
        power = clean["power"]
        pools = [(power.count, power.faces, power.modifier, clean["cover_bonus"], "power die")]
        if clean["blast_power"] and settings["blast_hits_target"]:
            blast = clean["blast_power"]
            bonus = clean["cover_bonus"] if settings["blast_cover"] else 0
            pools.append((blast.count, blast.faces, blast.modifier, bonus, "blast die"))
        return pools

    def resolve_clean(self, clean: dict, settings: dict, dice) -> object:
        shooter, weapon, target = clean["shooter"], clean["weapon"], clean["target"]
        rng = clean["range"]
        steps: list[str] = []
        effects = fire_effects(shooter, weapon["key"], clean["ammo_cost"], clean["ammo_after"])
        if clean["ammo_after"] is not None:
            steps.append(
                tr("Ammo {before} -> {after} ({cost} power dice).").format(
                    before=shooter["ammo"], after=clean["ammo_after"], cost=clean["ammo_cost"]
                )
            )
        roll = dice.roll(rng.faces, "range roll")
        reach = tables.aimed_range(roll, rng.modifier, aimed=clean["aimed"])
        hit = reach >= clean["steps"]
        line = (
            tr("Range roll {range}: {roll}{aimed} = {reach} against {steps} steps: hit.")
            if hit
            else tr("Range roll {range}: {roll}{aimed} = {reach} against {steps} steps: miss.")
        )
        steps.append(
            line.format(
                range=rng,
                roll=f"{roll}{rng.modifier:+d}" if rng.modifier else roll,
                aimed=tr(" ×2 (aimed)") if clean["aimed"] else "",
                reach=reach,
                steps=clean["steps"],
            )
        )
        result = {
            "steps": clean["steps"],
            "range_roll": roll,
            "aimed_range": reach,
            "hit": hit,
            "ammo_cost": clean["ammo_cost"],
            "ammo_after": clean["ammo_after"],
            "target": None,
            "blast": [],
            "damage": 0,  # the target's damage, where it falls in the odds' distribution (0 on a miss)
        }
        if not hit:
            summary = say("Miss: aimed range {reach} < {steps} steps.", reach=reach, steps=clean["steps"])
            return self.outcome(summary, result, effects, steps)
        target_result, target_effects = attack_element(
            dice, target, "target", self._target_pools(clean, settings), settings=settings, steps=steps, cause="shot"
        )
        effects += target_effects
        result["target"] = target_result
        result["damage"] = target_result["damage"]
        if clean["blast_steps"]:
            blast = clean["blast_power"]
            steps.append(
                tr("Blast: {power} against everything within {steps} steps of the target.").format(
                    power=blast, steps=clean["blast_steps"]
                )
            )
            for i, (victim, bonus) in enumerate(clean["blast"]):
                victim_result, victim_effects = attack_element(
                    dice,
                    victim,
                    f"blast.{i}",
                    [(blast.count, blast.faces, blast.modifier, bonus, "blast die")],
                    settings=settings,
                    steps=steps,
                    cause="blast",
                )
                result["blast"].append(victim_result)
                effects += victim_effects
        summary = self._summary(target, target_result)
        return self.outcome(summary, result, effects, steps)

    @staticmethod
    def _summary(target: dict, r: dict) -> str:
        if r["damage"] == 0:
            return say("Hit, but no die beat the armour: no damage.")
        if target["kind"] == "infantry":
            return say("Hit: the infantryman is destroyed.") if r["destroyed"] else say("Hit: he survives.")
        text = say("Hit: {damage} damage, strength now {strength}", damage=r["damage"], strength=r["strength_after"])
        if r["destroyed"]:
            text += say(" (destroyed)")
        text += pilot_words(r.get("pilot"))
        if r.get("emergency_landing"):
            text += say("; emergency landing for {roll} more damage", roll=r["emergency_landing"]["roll"])
        return text + "."

    # -- exact odds --------------------------------------------------------------------------------------
    def odds_clean(self, clean: dict, settings: dict) -> dict:
        rng, target = clean["range"], clean["target"]
        p_hit = tables.hit_probability(rng.faces, rng.modifier, clean["steps"], aimed=clean["aimed"])
        damage_if_hit = pools_damage_distribution(target, self._target_pools(clean, settings))
        damage = {k: p_hit * p for k, p in damage_if_hit.items()}
        damage[0] = damage.get(0, Fraction(0)) + (1 - p_hit)
        after_hit = damage_consequences(target, damage_if_hit, settings)
        armour = (target["armour"] if target["kind"] == "infantry" else target["strength"]) + clean["cover_bonus"]
        out = {
            "steps": clean["steps"],
            "armour": armour,
            "ammo_cost": clean["ammo_cost"],
            "p_hit": prob(p_hit),
            "p_damage": prob(1 - damage[0]),
            "damage": distribution(damage),
            "expected_damage": exact(dicelib.expected(damage)),
            "p_destroyed": prob(p_hit * after_hit["destroyed"]),
            "p_pilot_killed": prob(p_hit * after_hit["pilot_killed"]),
            "p_panic": prob(p_hit * after_hit["panic"]),
        }
        if target["kind"] != "infantry":
            loss = {k: p_hit * p for k, p in after_hit["strength_loss"].items()}
            loss[0] = loss.get(0, Fraction(0)) + (1 - p_hit)
            out["strength_loss"] = distribution(loss)
        out["blast"] = []
        for victim, bonus in clean["blast"]:
            blast = clean["blast_power"]
            dmg = tables.damage_distribution(
                blast.count, blast.faces, _armour(victim) + bonus, per_die_modifier=blast.modifier
            )
            cons = damage_consequences(victim, dmg, settings, cause="blast")
            out["blast"].append(
                {
                    "p_attacked": prob(p_hit),
                    "p_destroyed": prob(p_hit * cons["destroyed"]),
                    "p_pilot_killed": prob(p_hit * cons["pilot_killed"]),
                    "p_panic": prob(p_hit * cons["panic"]),
                }
            )
        return out


def _armour(el: dict) -> int:
    return el["armour"] if el["kind"] == "infantry" else el["strength"]
