"""Real shooting (spec §3.6, Table 3 and Table 4, p.21–27): the projectile flies for real; the players report
what happened and the engine applies Table 4: survival tests, damage P or 2P, the armour test and crushing."""

from __future__ import annotations

from fractions import Fraction

from rules.contract import distribution, prob
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.actions.common import (
    ELEMENT,
    REF,
    SHOOTER,
    BronAction,
    check_ammo,
    check_can_fire,
    check_element,
    deferred,
    die_name,
    echo,
    emergency_landing,
    err,
    fire_effects,
    landing_loss,
    pilot_echo,
    pilot_test_due,
    pilot_words,
    survival_faces,
    survival_word,
)
from rules.systems.bronepekhota.actions.survival import survival_effects
from rules.systems.bronepekhota.words import say

CHARGE_WORDS = {
    "shell": N_("shell charge"),
    "mine": N_("mine charge"),
    "rocket": N_("rocket charge"),
}  # Table 3, as the book says


class RealShot(BronAction):
    key = "real_shot"
    label = N_("Real shot")
    spec_ref = "§3.6, Tables 3–4 (p.21–27)"
    modes = ("real",)
    description = (
        "Ammo drops by the charge power before the shot (shell 2, mine 3 for mortars only, rocket 4). Then the "
        "players report the hit. Infantry: fell = destroyed, stood = Д6 survival test. Vehicle: P damage and a Д12 "
        "armour test if it stood, 2P and Д20 if it fell or was lying. Gun: P or 2P. Infantry knocked over by a "
        "falling vehicle or gun are crushed. A flyer whose pilot is killed lands and takes Д6 more (p.19)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["shooter", "charge", "hit"],
        "properties": {
            "shooter": SHOOTER,
            "weapon": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "key": {"type": "string", "maxLength": 60},
                    "name": {"type": "string", "maxLength": 120},
                    "charges": {"type": "array", "items": {"enum": list(tables.CHARGE_POWER)}},
                },
            },
            "charge": {"enum": list(tables.CHARGE_POWER)},
            "hit": {
                "type": "boolean",
                "description": "A direct hit (bounces and hits on a flyer's stand do not count)",
            },
            "target": ELEMENT,
            "fell": {"type": "boolean", "description": "The target fell (or an infantryman leaned on an obstacle)"},
            "was_lying": {"type": "boolean", "description": "The target was already lying (else target.lying)"},
            "crushed": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"ref": REF, "soldier": {"type": "integer", "minimum": 1, "maximum": 12}},
                },
                "description": "Infantry knocked over by the falling vehicle or gun",
            },
        },
    }

    def check_inputs(self, inputs, settings):
        clean = dict(inputs)
        shooter = clean["shooter"] = dict(inputs["shooter"])
        weapon = clean["weapon"] = dict(inputs.get("weapon") or {})
        weapon.setdefault("key", "launcher")
        charge = inputs["charge"]
        if shooter["kind"] == "infantry":
            raise err("shooter.kind", tr("In real shooting infantry cannot shoot; they may crew guns (p.2)."))
        if charge in tables.MORTAR_ONLY_CHARGES and not shooter.get("mortar"):
            raise err("charge", tr("Only mortars fire mines; firing mines from vehicle launchers is forbidden (p.22)."))
        if weapon.get("charges") and charge not in weapon["charges"]:
            raise err(
                "charge",
                tr("This launcher fires {charges}, not {charge}.").format(
                    charges=", ".join(weapon["charges"]), charge=charge
                ),
            )
        check_can_fire(shooter, weapon["key"], settings, real=True)
        clean["ammo_cost"] = tables.real_ammo_cost(charge)
        clean["ammo_after"] = check_ammo(shooter, clean["ammo_cost"], settings)
        if inputs["hit"]:
            if "target" not in inputs:
                raise err("target", tr("Say what was hit."))
            # A hit on a flyer's stand does not count, on its pilot figure it does (p.26): the players judge.
            clean["target"] = check_element(inputs["target"], "target")
        elif inputs.get("fell") or inputs.get("crushed"):
            raise err("fell", tr("A miss knocks nothing over: only direct hits count (p.26)."))
        if inputs.get("crushed") and (not inputs["hit"] or clean["target"]["kind"] == "infantry"):
            raise err("crushed", tr("Only a vehicle or gun that falls can crush infantry."))
        if inputs.get("crushed") and not inputs.get("fell"):
            raise err("crushed", tr("Infantry are crushed only when the hit vehicle or gun falls onto them."))
        return clean

    def resolve_clean(self, clean, settings, dice):
        shooter, target = clean["shooter"], clean.get("target")
        steps: list[str] = []
        effects = fire_effects(shooter, clean["weapon"]["key"], clean["ammo_cost"], clean["ammo_after"])
        power = tables.CHARGE_POWER[clean["charge"]]
        if clean["ammo_after"] is not None:
            steps.append(
                tr("Ammo {before} -> {after} ({charge}, power {power}).").format(
                    before=shooter["ammo"],
                    after=clean["ammo_after"],
                    charge=tr(CHARGE_WORDS[clean["charge"]]),
                    power=power,
                )
            )
        result = {"charge": clean["charge"], "power": power, "ammo_after": clean["ammo_after"], "hit": clean["hit"]}
        if not clean["hit"]:
            return self.outcome(say("Miss."), result, effects, [*steps, tr("No direct hit.")])
        fell, was_lying = bool(clean.get("fell")), bool(clean.get("was_lying", target.get("lying")))
        if target["kind"] == "infantry":
            if fell:
                effects.append({"kind": "soldier_killed", "role": "target", "cause": "shot", **echo(target)})
                steps.append(tr("The infantryman fell: destroyed (Table 4)."))
                summary = say("The infantryman fell: destroyed.")
                return self.outcome(summary, {**result, "destroyed": True}, effects, steps)
            faces = survival_faces(settings)
            roll = dice.roll(faces, "survival test")
            outcome = tables.survival_result(target["armour"], roll, panic_rule=settings["panic"])
            steps.append(
                tr("He stayed standing: survival test {die} = {roll} against Arm {armour}: {result}.").format(
                    die=die_name(faces), roll=roll, armour=target["armour"], result=survival_word(outcome)
                )
            )
            effects += survival_effects(target, outcome, settings, role="target")
            return self.outcome(
                say("He stayed standing; survival test: {result}.", result=survival_word(outcome)),
                {**result, "survival_roll": roll, "survival": outcome, "destroyed": outcome == tables.KILLED},
                effects,
                steps,
            )
        damage = tables.real_hit_damage(clean["charge"], fell=fell, was_lying=was_lying)
        after = tables.strength_after(target["strength"], damage)
        how = tr("Fell") if fell else tr("Was lying") if was_lying else tr("Stayed in place")
        steps.append(
            tr("{how}: {damage} damage, strength {before} -> {after}.").format(
                how=how, damage=damage, before=target["strength"], after=after
            )
        )
        effects.append({"kind": "damage", "role": "target", "amount": damage, "cause": "shot", **echo(target)})
        if after == 0:
            effects.append({"kind": "destroyed", "role": "target", **echo(target)})
        if fell and after > 0:
            effects.append({"kind": "lying", "role": "target", "value": True, **echo(target)})
        for victim in clean.get("crushed", []):
            effects.append({"kind": "soldier_killed", "role": "crushed", "cause": "crushed", **victim})
        if clean.get("crushed"):
            steps.append(tr("Infantrymen knocked over by the fall, crushed: {n}.").format(n=len(clean["crushed"])))
        result.update(damage=damage, strength_after=after, destroyed=after == 0, pilot=None)
        if target["kind"] == "vehicle" and target.get("pilot") is not None and deferred(target, settings):
            # The pilot's own player takes the armour test (and the survival test) on his phone (pilot_tests).
            faces = tables.armour_test_die(fell=fell, was_lying=was_lying)
            effects.append(pilot_test_due(target, "target", test="armour", destroyed=after == 0, die=faces))
            result["pilot"] = tables.DUE
        elif target["kind"] == "vehicle" and target.get("pilot") is not None:
            faces = tables.armour_test_die(fell=fell, was_lying=was_lying)
            armour = after if settings["armour_test_after_damage"] else target["strength"]
            roll = dice.roll(faces, "armour test")
            result["armour_roll"] = roll
            if tables.armour_test_safe(armour, roll):
                steps.append(
                    tr("Armour test {die} = {roll} against Armour {armour}: the pilot is safe.").format(
                        die=die_name(faces), roll=roll, armour=armour
                    )
                )
                result["pilot"] = "safe"
            else:
                s_faces = survival_faces(settings)
                s_roll = dice.roll(s_faces, "pilot survival test")
                pilot = target["pilot"]
                outcome = tables.survival_result(pilot["armour"], s_roll, panic_rule=settings["panic"])
                steps.append(
                    tr(
                        "Armour test {die} = {roll} against Armour {armour}: pierced. Pilot survival test "
                        "{s_die} = {s_roll} against Arm {pilot_armour}: {result}."
                    ).format(
                        die=die_name(faces),
                        roll=roll,
                        armour=armour,
                        s_die=die_name(s_faces),
                        s_roll=s_roll,
                        pilot_armour=pilot["armour"],
                        result=survival_word(outcome),
                    )
                )
                result.update(pilot=outcome, survival_roll=s_roll)
                if outcome == tables.KILLED:
                    effects.append({"kind": "pilot_killed", "role": "target", **echo(target)})
                    effects.append(
                        {"kind": "soldier_killed", "role": "target.pilot", "cause": "shot", **pilot_echo(target)}
                    )
                    if target.get("flying") and after > 0:
                        # The pilot died in flight: the vehicle lands and takes Д6, in real shooting too (p.19, §3.10).
                        landing, landing_effects = emergency_landing(dice, after, "target", echo(target), steps)
                        effects += landing_effects
                        result["emergency_landing"] = landing
                elif outcome == tables.PANIC:
                    effects.append({"kind": "panic", "role": "target.pilot", **pilot_echo(target)})
                    if after > 0:
                        effects.append({"kind": "pilot_left", "role": "target", "reason": "panic", **echo(target)})
                        if target.get("flying") and settings["panic_flyer_lands_safely"]:
                            effects.append({"kind": "landed", "role": "target", **echo(target)})
        if after == 0 and target["kind"] == "vehicle" and target.get("pilot") and result["pilot"] != tables.KILLED:
            effects.append(
                {"kind": "dismounted", "role": "target.pilot", "reason": "vehicle destroyed", **pilot_echo(target)}
            )
        final = result.get("emergency_landing", {}).get("strength_after", after)
        result.update(strength_after=final, destroyed=final == 0)
        summary = say("{damage} damage, strength now {strength}", damage=damage, strength=after)
        summary += say(" (destroyed)") if after == 0 else ""
        summary += pilot_words(result["pilot"])
        if "emergency_landing" in result:
            landing = result["emergency_landing"]
            summary += say(
                "; emergency landing: {roll} more damage, strength {strength}", roll=landing["roll"], strength=final
            )
            summary += say(" (destroyed)") if final == 0 else ""
        return self.outcome(summary + ".", result, effects, steps)

    def odds_clean(self, clean, settings):
        out = {"ammo_cost": clean["ammo_cost"], "power": tables.CHARGE_POWER[clean["charge"]]}
        if not clean["hit"]:
            return {**out, "p_destroyed": prob(0), "p_pilot_killed": prob(0), "p_panic": prob(0)}
        target = clean["target"]
        fell, was_lying = bool(clean.get("fell")), bool(clean.get("was_lying", target.get("lying")))
        if target["kind"] == "infantry":
            if fell:
                return {**out, "p_destroyed": prob(1), "p_panic": prob(0), "p_pilot_killed": prob(0)}
            p = tables.survival_probabilities(target["armour"], survival_faces(settings), panic_rule=settings["panic"])
            return {
                **out,
                "p_destroyed": prob(p[tables.KILLED]),
                "p_panic": prob(p[tables.PANIC]),
                "p_pilot_killed": prob(0),
            }
        damage = tables.real_hit_damage(clean["charge"], fell=fell, was_lying=was_lying)
        strength = target["strength"]
        after = tables.strength_after(strength, damage)
        loss = {strength - after: Fraction(1)}
        out.update(damage=distribution({damage: Fraction(1)}), p_emergency_landing=prob(0))
        if target["kind"] == "vehicle" and target.get("pilot") is not None:
            armour = after if settings["armour_test_after_damage"] else strength
            p = tables.armour_test_probabilities(
                armour,
                tables.armour_test_die(fell=fell, was_lying=was_lying),
                target["pilot"]["armour"],
                survival_faces=survival_faces(settings),
                panic_rule=settings["panic"],
            )
            out.update(
                p_pilot_safe=prob(p["safe"]),
                p_pilot_killed=prob(p[tables.KILLED]),
                p_panic=prob(p[tables.PANIC]),
            )
            if target.get("flying") and after > 0 and p[tables.KILLED]:
                # A pilot killed in flight: the vehicle lands and takes Д6 more (p.19).
                p_dead = p[tables.KILLED]
                loss = {strength - after: 1 - p_dead}
                for lost, q in landing_loss(after).items():
                    key = strength - after + lost
                    loss[key] = loss.get(key, Fraction(0)) + p_dead * q
                out["p_emergency_landing"] = prob(p_dead)
        else:
            out.update(p_pilot_killed=prob(0), p_panic=prob(0))
        loss = {k: v for k, v in loss.items() if v}
        out.update(strength_loss=distribution(loss), p_destroyed=prob(loss.get(strength, Fraction(0))))
        return out
