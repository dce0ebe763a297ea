"""Vehicles (§3.9, L75–90): moves and how many weapons fire, hits with the armour save and the damage die by facing,
and infantry dodging a vehicle that tries to run it over (the book's last note, L90).
"""

from __future__ import annotations

from fractions import Fraction

from rules.contract import distribution, prob
from rules.i18n import N_, _
from rules.systems.squads import names, tables
from rules.systems.squads.actions.activation import activation_roll, check_unit, roll_activation
from rules.systems.squads.actions.common import (
    ACTIVATION_UNIT,
    DISTANCE,
    FACING,
    MAX_DICE,
    PERSONAL_ARMOUR,
    VEHICLE_ARMOUR,
    WEAPON,
    SquadAction,
    deterministic,
    err,
    length,
    pair,
)
from rules.systems.squads.actions.hits import (
    immune,
    vehicle_damage,
    vehicle_damage_odds,
    worst_effect,
    worst_effect_distribution,
    worst_effect_odds,
)

DODGE_ROLL = N_("dodge roll")  # the purpose of the die and the name of its step (L90)
TANK_CLASSES = {"heavy_and_super_heavy": ("heavy", "super_heavy"), "medium_and_heavy": ("medium", "heavy")}


class VehicleMove(SquadAction):
    key = "vehicle_move"
    label = "Vehicle move"
    spec_ref = "§3.9 (L77), §5 B15"
    description = (
        '12"/30 cm in the open or 6"/15 cm through light cover, firing one weapon; medium and heavy tanks may '
        'cross medium cover 6"/15 cm without firing; a stationary vehicle fires all its weapons. An immobilised '
        "vehicle stays put. No dice."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["vehicle", "move"],
        "properties": {
            "vehicle": {
                "type": "object",
                "additionalProperties": False,
                "required": ["armour"],
                "properties": {
                    "armour": VEHICLE_ARMOUR,
                    "immobilised": {"type": "boolean"},
                    "weapons": {"type": "integer", "minimum": 0, "maximum": 20, "description": "Working weapons"},
                },
            },
            "move": {"enum": list(tables.VEHICLE_MOVES)},
            "distance": DISTANCE,
        },
    }

    def check_inputs(self, inputs, settings):
        vehicle, move = inputs["vehicle"], inputs["move"]
        allowance = pair(tables.VEHICLE_MOVES[move][0], settings)
        if vehicle.get("immobilised") and move != "stationary":
            raise err("move", _("An immobilised vehicle cannot move (L88); it may still fire all its weapons."))
        if move == "medium_cover" and vehicle["armour"] not in TANK_CLASSES[settings["tank_classes"]]:
            raise err("move", _("Only medium and heavy tanks cross medium cover (L77, §5 B15)."))
        if inputs.get("distance", 0) > allowance:
            raise err(
                "distance",
                _("This move is at most {allowance}.").format(allowance=length(allowance, settings)),
                {"distance": allowance},
            )
        return inputs

    def _result(self, clean, settings):
        move = clean["move"]
        fire = tables.VEHICLE_MOVES[move][1]
        if move == "open" and settings["vehicle_move_fire"] == "light_cover_move_only":
            fire = 0
        weapons = clean["vehicle"].get("weapons")
        fires = weapons if fire is None else (fire if weapons is None else min(fire, weapons))
        return {"move": move, "allowance": pair(tables.VEHICLE_MOVES[move][0], settings), "units": settings["units"],
                "weapons_may_fire": fires, "all_weapons": fire is None}  # fmt: skip

    def resolve_clean(self, clean, settings, dice):
        result = self._result(clean, settings)
        effects = [
            {"kind": "vehicle_moved", "role": "vehicle", "move": clean["move"], "distance": clean.get("distance", 0)}
        ]
        move = length(result["allowance"], settings)
        if result["all_weapons"]:
            summary = _("Move up to {move}; all its weapons fire.").format(move=move)
        else:
            summary = _("Move up to {move}; weapons that fire: {n}.").format(move=move, n=result["weapons_may_fire"])
        return self.outcome(summary, result, effects, [summary])

    def odds_clean(self, clean, settings):
        return deterministic(self._result(clean, settings))


class VehicleHit(SquadAction):
    key = "vehicle_hit"
    label = "Hits on a vehicle"
    spec_ref = "§3.9 (L84–90), §5 B16–B18"
    description = (
        "Hits from one weapon on a vehicle: small arms and HMGs cannot harm armour (save 5+ or better). Each hit "
        "gets the vehicle's save; each unsaved hit rolls the damage die (front: the lower of 2, side: 1, rear: "
        "the higher of 2, doubles re-rolled): 1–2 crew stunned, 3–4 a weapon lost, 5 immobilised, 6 destroyed. "
        "The odds give each effect's chance to happen at least once and the most severe effect of the attack."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["vehicle", "hits", "weapon"],
        "properties": {
            "vehicle": {
                "type": "object",
                "additionalProperties": False,
                "required": ["armour", "facing"],
                "properties": {"armour": VEHICLE_ARMOUR, "facing": FACING, "name": {"type": "string", "maxLength": 80}},
            },
            "hits": {"type": "integer", "minimum": 0, "maximum": MAX_DICE},
            "weapon": WEAPON,
        },
    }

    def resolve_clean(self, clean, settings, dice):
        v = clean["vehicle"]
        steps: list[str] = []
        w = tables.WEAPONS[clean["weapon"]]
        if immune(w.key, v["armour"], settings):
            text = _("{weapon}: powerless against an armoured vehicle (L84).").format(weapon=names.weapon(w.key))
            return self.outcome(text, {"immune": True, "unsaved": 0, "damage": [], "worst_effect": "none"}, [], [text])
        save = tables.VEHICLE_ARMOUR[v["armour"]].save
        rolls = dice.roll_many(clean["hits"], 6, names.VEHICLE_SAVES[save]) if clean["hits"] else []
        unsaved = sum(1 for r in rolls if r < save)
        steps.append(_("Saves {save}+ {rolls}: unsaved {unsaved}.").format(save=save, rolls=rolls, unsaved=unsaved))
        damage, effects = vehicle_damage(dice, unsaved, v["facing"], settings, steps, role="vehicle")
        result = {"immune": False, "save_rolls": rolls, "unsaved": unsaved, "damage": damage,
                  "destroyed": any(d["effect"] == "destroyed" for d in damage),
                  "worst_effect": worst_effect(damage)}  # fmt: skip
        effect_names = ", ".join(names.damage(d["effect"]) for d in damage) or _("no damage to the vehicle")
        summary = _("Unsaved {unsaved}: {effects}.").format(unsaved=unsaved, effects=effect_names)
        return self.outcome(summary, result, effects, steps)

    def odds_clean(self, clean, settings):
        v = clean["vehicle"]
        if immune(clean["weapon"], v["armour"], settings):
            nothing = {0: Fraction(1)}
            return {"immune": True, "unsaved": distribution(nothing), "p_effect": {},
                    "worst_effect": worst_effect_distribution(worst_effect_odds(nothing, v["facing"], settings))}  # fmt: skip
        fail = 1 - tables.p_at_least(tables.VEHICLE_ARMOUR[v["armour"]].save)
        unsaved = tables.binomial(clean["hits"], fail)
        effects = vehicle_damage_odds(unsaved, v["facing"], settings)
        return {
            "immune": False,
            "unsaved": distribution(unsaved),
            "damage_die": distribution(tables.damage_die_distribution(v["facing"], settings)),
            "p_effect": {k: prob(p) for k, p in effects.items()},
            "worst_effect": worst_effect_distribution(worst_effect_odds(unsaved, v["facing"], settings)),
        }


class Overrun(SquadAction):
    key = "overrun"
    label = "Dodging a vehicle"
    spec_ref = "L90 (the book's note; not in the spec's §3)"
    description = (
        "When a vehicle tries to run infantry over, the unit rolls for activation to step aside; on a failure the "
        "vehicle inflicts a hit, saved by the normal rules."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit"],
        "properties": {"unit": ACTIVATION_UNIT, "armour": PERSONAL_ARMOUR},
    }

    def check_inputs(self, inputs, settings):
        unit = check_unit(inputs["unit"], "unit", settings)
        if unit["kind"] == "vehicle":
            raise err("unit.kind", _("Only infantry is run over (L90)."))
        return {**inputs, "unit": unit}

    def resolve_clean(self, clean, settings, dice):
        steps: list[str] = []
        ok, die, _roll, effects = roll_activation(dice, clean["unit"], "unit", settings, steps, DODGE_ROLL)
        result = {"dodged": ok, "die": die, "unsaved": 0}
        if ok:
            effects.append({"kind": "dodged", "role": "unit"})
            text = _("Dodged (d6 {die}): the figures step aside.").format(die=die)
            return self.outcome(text, result, effects, steps)
        save = tables.PERSONAL_ARMOUR[clean.get("armour", "none")].save
        unsaved = 1
        if save:
            roll = dice.roll(6, _(names.RUN_OVER_SAVE))
            unsaved = int(roll < save)
            line = _("The vehicle hits: save {save}+, d6 {die}: not saved.") if unsaved else _(
                "The vehicle hits: save {save}+, d6 {die}: saved.")  # fmt: skip
            steps.append(line.format(save=save, die=roll))
            result["save_roll"] = roll
        result["unsaved"] = unsaved
        if unsaved:
            chooser = "target" if settings["split_chooser"] == "target_owner" else "shooter"
            effects.append({"kind": "hits_to_split", "role": "unit", "unsaved": 1, "chooser": chooser})
        text = _("Run over (d6 {die}): the hit goes through the armour.") if unsaved else _(
            "Run over (d6 {die}): the armour saves the hit.")  # fmt: skip
        return self.outcome(text.format(die=die), result, effects, steps)

    def odds_clean(self, clean, settings):
        p = activation_roll(clean["unit"], settings).p_success(settings)
        save = tables.PERSONAL_ARMOUR[clean.get("armour", "none")].save
        p_saved = tables.p_at_least(save) if save else Fraction(0)
        return {"p_dodged": prob(p), "p_unsaved_hit": prob((1 - p) * (1 - p_saved))}
