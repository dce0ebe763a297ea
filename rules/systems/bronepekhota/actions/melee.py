"""Melee (spec §3.9, Tables 6–7, p.38–41)."""

from __future__ import annotations

from fractions import Fraction

from rules import dice as dicelib
from rules.contract import distribution, exact, prob
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.actions.common import (
    ELEMENT,
    BronAction,
    check_element,
    damage_consequences,
    damage_to_element,
    die_name,
    echo,
    err,
    pilot_words,
)
from rules.systems.bronepekhota.words import say

ACTOR = {
    **ELEMENT,
    "properties": {
        **ELEMENT["properties"],
        "actions_used": {"type": "array", "items": {"enum": ["move", "shoot", "melee", "grenade", "repair", "jump"]}},
    },
}


class Melee(BronAction):
    key = "melee"
    label = N_("Melee")
    spec_ref = "§3.9, Tables 6–7 (p.38–41)"
    description = (
        "Attack: infantry Д6 + ББ; piloted vehicle Д6 + Броня + ББ (sum of its melee weapons). Defence: infantry "
        "Д6 + Бр; piloted vehicle Д6 + Броня + ББ (no ББ under a surprise attack); gun or pilotless vehicle a flat "
        "Броня. A surprise attack rolls two d6 and keeps the higher. Attack > defence wins: infantry is destroyed, "
        "a vehicle or gun takes attack − defence and the vehicle's pilot takes a survival test. Otherwise repelled."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["attacker", "defender"],
        "properties": {
            "attacker": ACTOR,
            "defender": ELEMENT,
            "surprise": {"type": "boolean", "description": "Attacker outside the defender's field of view"},
            "by_movement": {"type": "boolean", "description": "The contact was made by this activation's move"},
        },
    }

    def check_inputs(self, inputs, settings):
        att = check_element(
            {k: v for k, v in inputs["attacker"].items() if k != "actions_used"}, "attacker", needs_armour=False
        )
        dfn = check_element(inputs["defender"], "defender")
        if att["kind"] == "infantry" and "melee" not in att:
            raise err("attacker.melee", tr("An attacking infantryman needs his melee skill (CC)."))
        if att["kind"] == "gun":
            raise err("attacker.kind", tr("A gun does not attack in melee (Table 6)."))
        if att["kind"] == "vehicle":
            if att["pilot"] is None:
                raise err("attacker.pilot", tr("A vehicle without a pilot does not attack (Table 6)."))
            if att["lying"]:
                raise err("attacker.lying", tr("A lying vehicle cannot attack in melee (p.26)."))
        if settings["airborne_no_melee"]:
            if att["flying"]:
                raise err("attacker.flying", tr("Flying vehicles never enter melee (p.11, A26)."))
            if dfn["flying"]:
                raise err("defender.flying", tr("An airborne vehicle cannot be attacked in melee (A26)."))
        if "melee" in inputs["attacker"].get("actions_used", []):
            raise err("attacker.actions_used", tr("This element already fought a melee this round."))
        if settings["melee_in_contact"] == "movement_only" and inputs.get("by_movement") is False:
            raise err("by_movement", tr("Under the literal reading (A17 a) melee needs a new contact made by moving."))
        defence_kind = dfn["kind"]
        if dfn["kind"] == "vehicle" and dfn["pilot"] is None:
            defence_kind = "pilotless"
        elif dfn["kind"] == "vehicle" and dfn["lying"] and not settings["lying_vehicle_defence"]:
            defence_kind = "pilotless"  # flat Броня (A18 alternative)
        return {
            "attacker": att,
            "defender": dfn,
            "surprise": bool(inputs.get("surprise")),
            "defence_kind": defence_kind,
            "attack_bonus": att["melee"] + (att["strength"] if att["kind"] == "vehicle" else 0),
        }

    def _defence_fixed(self, clean) -> int:
        dfn, kind = clean["defender"], clean["defence_kind"]
        return tables.melee_defence_strength(
            0,
            kind=kind,
            armour=dfn.get("armour", 0),
            strength=dfn.get("strength", 0),
            melee=dfn.get("melee", 0),
            surprise=clean["surprise"],
        )

    def resolve_clean(self, clean, settings, dice):
        att, dfn = clean["attacker"], clean["defender"]
        steps: list[str] = []
        if clean["surprise"]:
            a, b = dice.roll(6, "surprise attack die 1 of 2"), dice.roll(6, "surprise attack die 2 of 2")
            die = max(a, b)
            steps.append(
                tr("Surprise attack: {die} {a} and {b}, the higher is {best}.").format(
                    die=die_name(6), a=a, b=b, best=die
                )
            )
        else:
            die = dice.roll(6, "attack die")
        attack = die + clean["attack_bonus"]
        steps.append(
            tr("Attack strength: {roll} + {bonus} = {attack}.").format(
                roll=die, bonus=clean["attack_bonus"], attack=attack
            )
        )
        fixed = self._defence_fixed(clean)
        if clean["defence_kind"] in ("gun", "pilotless"):
            defence = fixed
            steps.append(tr("Defence: flat Armour {defence} (no die).").format(defence=defence))
            d_die = None
        else:
            d_die = dice.roll(6, "defence die")
            defence = d_die + fixed
            steps.append(
                tr("Defence strength: {roll} + {bonus} = {defence}.").format(roll=d_die, bonus=fixed, defence=defence)
            )
        result = {
            "attack_roll": die,
            "attack": attack,
            "defence_roll": d_die,
            "defence": defence,
            "attacker_won": attack > defence,
            "margin": attack - defence,
            "damage": 0,
            "defender_destroyed": False,
            "pilot": None,
        }
        effects = [{"kind": "action_used", "role": "attacker", "action": "melee", **echo(att)}]
        if attack <= defence:
            steps.append(tr("Repelled: both unharmed and still in contact."))
            effects += [
                {"kind": "in_melee", "role": "attacker", "value": True, **echo(att)},
                {"kind": "in_melee", "role": "defender", "value": True, **echo(dfn)},
            ]
            summary = say("Repelled ({attack} against {defence}).", attack=attack, defence=defence)
            return self.outcome(summary, result, effects, steps)
        damage = 1 if dfn["kind"] == "infantry" else tables.melee_damage(attack, defence)
        res, dmg_effects = damage_to_element(
            dice, dfn, "defender", damage, settings=settings, steps=steps, cause="melee"
        )
        result.update(
            damage=damage if dfn["kind"] != "infantry" else 0,
            defender_destroyed=res["destroyed"],
            pilot=res.get("pilot"),
            strength_after=res.get("strength_after"),
            emergency_landing=res.get("emergency_landing"),
        )
        effects += dmg_effects
        if not res["destroyed"]:
            effects += [
                {"kind": "in_melee", "role": "attacker", "value": True, **echo(att)},
                {"kind": "in_melee", "role": "defender", "value": True, **echo(dfn)},
            ]
        if dfn["kind"] == "infantry":
            summary = say(
                "The attacker wins ({attack} against {defence}): the defender is destroyed.",
                attack=attack,
                defence=defence,
            )
        else:
            summary = say(
                "The attacker wins ({attack} against {defence}): {damage} damage",
                attack=attack,
                defence=defence,
                damage=damage,
            )
            summary += (
                say(" (destroyed)")
                if res["destroyed"]
                else say(", strength now {strength}", strength=res["strength_after"])
            )
            summary += pilot_words(res.get("pilot")) + "."
        return self.outcome(summary, result, effects, steps)

    def odds_clean(self, clean, settings):
        dfn = clean["defender"]
        attack = {
            v + clean["attack_bonus"]: p
            for v, p in tables.melee_attack_die_distribution(surprise=clean["surprise"]).items()
        }
        fixed = self._defence_fixed(clean)
        if clean["defence_kind"] in ("gun", "pilotless"):
            defence = {fixed: Fraction(1)}
        else:
            defence = {v + fixed: Fraction(1, 6) for v in range(1, 7)}
        margin = dicelib.combine(attack, defence, lambda a, d: a - d)
        p_win = dicelib.probability(margin, lambda m: m > 0)
        if dfn["kind"] == "infantry":
            damage = {0: 1 - p_win, 1: p_win}
        else:
            damage: dict[int, Fraction] = {}
            for m, p in margin.items():
                damage[max(0, m)] = damage.get(max(0, m), Fraction(0)) + p
        cons = damage_consequences(dfn, damage, settings, cause="melee")
        out = {
            "p_attacker_wins": prob(p_win),
            "p_repelled": prob(1 - p_win),
            "margin": distribution(margin),
            "p_defender_destroyed": prob(cons["destroyed"]),
            "p_pilot_killed": prob(cons["pilot_killed"]),
            "p_panic": prob(cons["panic"]),
        }
        if dfn["kind"] != "infantry":
            out["damage"] = distribution(damage)
            out["expected_damage"] = exact(dicelib.expected(damage))
            out["strength_loss"] = distribution(cons["strength_loss"])
        return out
