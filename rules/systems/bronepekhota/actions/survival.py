"""Single tests: the survival test (§3.4), the real-mode armour test (§3.5), the emergency landing (§3.10) and
the panic flight (§3.4.1)."""

from __future__ import annotations

from fractions import Fraction

from rules.contract import distribution, prob
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.actions.common import (
    REF,
    BronAction,
    die_name,
    emergency_landing,
    err,
    landing_loss,
    survival_faces,
    survival_word,
)
from rules.systems.bronepekhota.words import say

SUBJECT = {
    "type": "object",
    "additionalProperties": False,
    "required": ["armour"],
    "properties": {
        "armour": {"type": "integer", "minimum": 0, "maximum": 20, "description": "The soldier's Бр"},
        "ref": REF,
        "soldier": {"type": "integer", "minimum": 1, "maximum": 12},
        "is_pilot": {"type": "boolean", "description": "He pilots a vehicle (panic makes him leave it)"},
        "vehicle_ref": REF,
        "vehicle_flying": {"type": "boolean"},
        "vehicle_strength": {
            "type": "integer",
            "minimum": 0,
            "maximum": 99,
            "description": "His vehicle's strength now (a flyer whose pilot dies lands and takes Д6, p.19)",
        },
    },
}


def _who(subject: dict) -> dict:
    return {k: subject[k] for k in ("ref", "soldier") if k in subject}


def survival_effects(subject: dict, result: str, settings: dict, role: str = "subject") -> list[dict]:
    effects: list[dict] = []
    if result == tables.KILLED:
        effects.append({"kind": "soldier_killed", "role": role, "cause": "survival test", **_who(subject)})
        if subject.get("is_pilot"):
            effects.append({"kind": "pilot_killed", "role": "vehicle", **_vehicle(subject)})
    elif result == tables.PANIC:
        effects.append({"kind": "panic", "role": role, **_who(subject)})
        if subject.get("is_pilot"):
            effects.append({"kind": "pilot_left", "role": "vehicle", "reason": "panic", **_vehicle(subject)})
            if subject.get("vehicle_flying") and settings.get("panic_flyer_lands_safely", True):
                effects.append({"kind": "landed", "role": "vehicle", **_vehicle(subject)})
    return effects


def _vehicle(subject: dict) -> dict:
    return {"ref": subject["vehicle_ref"]} if "vehicle_ref" in subject else {}


def landing_after_pilot_death(dice, subject: dict, strength: int | None, result: str, steps: list[str]):
    """A pilot killed while his vehicle flies: it lands on the spot and takes Д6 (p.19, §3.10), whatever test
    killed him. `strength`: the vehicle's strength now (None: unknown, the damage is marked without a total)."""
    if result != tables.KILLED or not (subject.get("is_pilot") and subject.get("vehicle_flying")):
        return None, []
    if strength == 0:
        return None, []  # destroyed already: nothing is left to land
    if strength is None:
        roll = dice.roll(tables.EMERGENCY_LANDING_FACES, "emergency landing damage")
        steps.append(tr("Emergency landing: {die} = {roll} damage.").format(die=die_name(6), roll=roll))
        effects = [
            {"kind": "landed", "role": "vehicle", **_vehicle(subject)},
            {"kind": "damage", "role": "vehicle", "amount": roll, "cause": "emergency landing", **_vehicle(subject)},
        ]
        return {"roll": roll}, effects
    return emergency_landing(dice, strength, "vehicle", _vehicle(subject), steps)


def landing_odds(subject: dict, strength: int | None, p_killed: Fraction) -> dict:
    if not (subject.get("is_pilot") and subject.get("vehicle_flying")) or strength == 0:
        return {"p_emergency_landing": prob(0)}
    out = {"p_emergency_landing": prob(p_killed)}
    if strength is not None:
        p_destroyed = landing_loss(strength).get(strength, Fraction(0))
        out["p_vehicle_destroyed"] = prob(p_killed * p_destroyed)
    return out


class SurvivalTest(BronAction):
    key = "survival_test"
    label = N_("Survival test")
    spec_ref = "§3.4 (p.21), §3.4.1 panic (p.50)"
    description = (
        "Roll the die (Д6 unless a rule says Д12/Д20, A14): Бр >= roll survives, otherwise the soldier dies. "
        "With the panic rule an equal roll survives but panics."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["subject"],
        "properties": {"subject": SUBJECT, "die": {"enum": [6, 12, 20]}},
    }

    def check_inputs(self, inputs, settings):
        return {**inputs, "die": inputs.get("die", survival_faces(settings))}

    def resolve_clean(self, clean, settings, dice):
        subject, faces = clean["subject"], clean["die"]
        roll = dice.roll(faces, "survival test")
        result = tables.survival_result(subject["armour"], roll, panic_rule=settings["panic"])
        steps = [
            tr("{die} = {roll} against Arm {armour}: {result}.").format(
                die=die_name(faces), roll=roll, armour=subject["armour"], result=survival_word(result)
            )
        ]
        summary = say(
            {"survived": N_("Survives."), "panic": N_("Survives but panics."), "killed": N_("Killed.")}[result]
        )
        effects = survival_effects(subject, result, settings)
        out = {"roll": roll, "die": faces, "result": result}
        landing, landing_effects = landing_after_pilot_death(
            dice, subject, subject.get("vehicle_strength"), result, steps
        )
        if landing:
            effects += landing_effects
            out["emergency_landing"] = landing
            summary += say(" His vehicle makes an emergency landing: {roll} damage.", roll=landing["roll"])
        return self.outcome(summary, out, effects, steps)

    def odds_clean(self, clean, settings):
        p = tables.survival_probabilities(clean["subject"]["armour"], clean["die"], panic_rule=settings["panic"])
        subject = clean["subject"]
        return {
            "die": clean["die"],
            "p_survived": prob(p[tables.SURVIVED] + p[tables.PANIC]),
            "p_survived_calm": prob(p[tables.SURVIVED]),
            "p_panic": prob(p[tables.PANIC]),
            "p_killed": prob(p[tables.KILLED]),
            "outcomes": distribution(p),
            **landing_odds(subject, subject.get("vehicle_strength"), p[tables.KILLED]),
        }


class ArmourTest(BronAction):
    key = "armour_test"
    label = N_("Armour test")
    spec_ref = "§3.5 (p.25–26)"
    modes = ("real",)
    description = (
        "Real shooting only. After the damage is marked, roll Д12 (vehicle stayed standing) or Д20 (it fell or was "
        "lying): Броня >= roll keeps the pilot safe, otherwise the pilot takes a Д6 survival test. A flying "
        "vehicle whose pilot dies lands and takes Д6 damage (p.19)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["strength", "die", "pilot"],
        "properties": {
            "strength": {"type": "integer", "minimum": 0, "maximum": 99, "description": "Броня after the damage"},
            "die": {"enum": [12, 20]},
            "pilot": {**SUBJECT, "type": ["object", "null"]},
            "vehicle_ref": REF,
        },
    }

    def check_inputs(self, inputs, settings):
        if inputs["pilot"] is None:
            raise err("pilot", tr("A vehicle without a pilot takes no armour test."))
        pilot = {**inputs["pilot"], "is_pilot": True}
        if "vehicle_ref" in inputs:
            pilot["vehicle_ref"] = inputs["vehicle_ref"]
        return {**inputs, "pilot": pilot}

    def resolve_clean(self, clean, settings, dice):
        strength, faces, pilot = clean["strength"], clean["die"], clean["pilot"]
        roll = dice.roll(faces, "armour test")
        steps = []
        if tables.armour_test_safe(strength, roll):
            steps.append(
                tr("{die} = {roll} against Armour {strength}: the armour protected the pilot.").format(
                    die=die_name(faces), roll=roll, strength=strength
                )
            )
            return self.outcome(say("The pilot is safe."), {"roll": roll, "safe": True, "pilot": None}, [], steps)
        steps.append(
            tr("{die} = {roll} against Armour {strength}: pierced; the pilot takes a survival test.").format(
                die=die_name(faces), roll=roll, strength=strength
            )
        )
        s_faces = survival_faces(settings)
        s_roll = dice.roll(s_faces, "pilot survival test")
        result = tables.survival_result(pilot["armour"], s_roll, panic_rule=settings["panic"])
        steps.append(
            tr("Pilot survival test: {die} = {roll} against Arm {armour}: {result}.").format(
                die=die_name(s_faces), roll=s_roll, armour=pilot["armour"], result=survival_word(result)
            )
        )
        effects = survival_effects(pilot, result, settings, role="vehicle.pilot")
        words = {
            "survived": N_("Armour pierced; the pilot survives."),
            "panic": N_("Armour pierced; the pilot panics."),
        }
        summary = say(words.get(result, N_("Armour pierced; the pilot is killed.")))
        out = {"roll": roll, "safe": False, "survival_roll": s_roll, "pilot": result}
        # A flyer whose pilot the armour test kills lands and takes Д6 (p.19, §3.10), as in virtual shooting.
        landing, landing_effects = landing_after_pilot_death(dice, pilot, strength, result, steps)
        if landing:
            effects += landing_effects
            out["emergency_landing"] = landing
            summary += say(
                " Emergency landing: {roll} damage, strength {strength}.",
                roll=landing["roll"],
                strength=landing["strength_after"],
            )
        return self.outcome(summary, out, effects, steps)

    def odds_clean(self, clean, settings):
        p = tables.armour_test_probabilities(
            clean["strength"],
            clean["die"],
            clean["pilot"]["armour"],
            survival_faces=survival_faces(settings),
            panic_rule=settings["panic"],
        )
        return {
            "die": clean["die"],
            "p_safe": prob(p["safe"]),
            "p_pierced": prob(1 - p["safe"]),
            "p_pilot_survives": prob(p["safe"] + p[tables.SURVIVED] + p[tables.PANIC]),
            "p_panic": prob(p[tables.PANIC]),
            "p_pilot_killed": prob(p[tables.KILLED]),
            **landing_odds(clean["pilot"], clean["strength"], p[tables.KILLED]),
        }


class EmergencyLanding(BronAction):
    key = "emergency_landing"
    label = N_("Emergency landing")
    spec_ref = "§3.10 (p.19)"
    description = "The pilot of a flying vehicle died in flight: it lands on the spot and takes D6 damage."
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["strength"],
        "properties": {
            "strength": {"type": "integer", "minimum": 1, "maximum": 99, "description": "Current strength"},
            "ref": REF,
        },
    }

    def resolve_clean(self, clean, settings, dice):
        roll = dice.roll(tables.EMERGENCY_LANDING_FACES, "emergency landing damage")
        after = tables.strength_after(clean["strength"], roll)
        who = {"ref": clean["ref"]} if "ref" in clean else {}
        effects = [
            {"kind": "landed", "role": "vehicle", **who},
            {"kind": "damage", "role": "vehicle", "amount": roll, "cause": "emergency landing", **who},
        ]
        if after == 0:
            effects.append({"kind": "destroyed", "role": "vehicle", **who})
        summary = say(
            "Lands and takes {roll} damage: strength {before} -> {after}.",
            roll=roll,
            before=clean["strength"],
            after=after,
        )
        if after == 0:
            summary += say(" Destroyed.")
        return self.outcome(
            summary,
            {"roll": roll, "damage": roll, "strength_after": after, "destroyed": after == 0},
            effects,
            [summary],
        )

    def odds_clean(self, clean, settings):
        dmg = {v: Fraction(1, 6) for v in range(1, 7)}
        return {
            "damage": distribution(dmg),
            "p_destroyed": prob(sum((p for v, p in dmg.items() if v >= clean["strength"]), Fraction(0))),
        }


class PanicFlight(BronAction):
    key = "panic"
    label = N_("Panic flight")
    spec_ref = "§3.4.1 (p.50–51)"
    option = "panic"
    description = (
        "A panicking soldier flees «Ск» steps toward the nearest field edge (a pilot leaves his vehicle first). If "
        "the flight takes him off the field he deserts for the rest of the game. No dice."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["soldier", "reaches_edge"],
        "properties": {
            "soldier": {
                "type": "object",
                "additionalProperties": False,
                "required": ["speed"],
                "properties": {
                    "speed": {"type": "integer", "minimum": 0, "maximum": 20},
                    "ref": REF,
                    "soldier": {"type": "integer", "minimum": 1, "maximum": 12},
                    "is_pilot": {"type": "boolean"},
                    "vehicle_ref": REF,
                    "vehicle_flying": {"type": "boolean"},
                },
            },
            "reaches_edge": {"type": "boolean", "description": "The Ск-step flight leaves the field"},
        },
    }

    def resolve_clean(self, clean, settings, dice):
        soldier = clean["soldier"]
        who = _who(soldier)
        effects = [{"kind": "panic", "role": "soldier", **who}]
        if soldier.get("is_pilot"):
            effects.append({"kind": "pilot_left", "role": "vehicle", "reason": "panic", **_vehicle(soldier)})
            if soldier.get("vehicle_flying") and settings["panic_flyer_lands_safely"]:
                effects.append({"kind": "landed", "role": "vehicle", **_vehicle(soldier)})
        if clean["reaches_edge"]:
            effects.append({"kind": "deserted", "role": "soldier", **who})
            summary = say(
                "He flees {steps} steps off the field: a deserter for the rest of the game.", steps=soldier["speed"]
            )
        else:
            summary = say(
                "He flees {steps} steps toward the nearest edge; he recovers next round.", steps=soldier["speed"]
            )
        return self.outcome(summary, {"deserted": clean["reaches_edge"], "steps": soldier["speed"]}, effects, [summary])

    def odds_clean(self, clean, settings):
        return {"p_deserted": prob(1 if clean["reaches_edge"] else 0)}
