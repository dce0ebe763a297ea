"""Pieces shared by the actions of «Отряды»: input schemas, the action frame (validate, resolve, odds with the
settings filled in), and helpers that answer exact odds of no-dice procedures.

Inputs describe units as they stand now (the tracker fills them from its state). Effects name their subject by
role ("unit", "shooter", "target", "attacker", "defender", "withdrawing", "pursuer", "vehicle", "game").
"""

from __future__ import annotations

from fractions import Fraction

from rules.contract import CleanAction, RuleInputError, prob
from rules.contract.schema import translate_schema
from rules.i18n import N_, _
from rules.systems.squads import names, tables
from rules.systems.squads.settings import CATALOGUE

MAX_FIGURES = 50
MAX_DICE = 300

LEVEL = {"enum": list(tables.LEVELS), "description": "Training level: recruit, regular, veteran or elite"}
PERSONAL_ARMOUR = {"enum": list(tables.PERSONAL_ARMOUR), "description": "Personal armour («Личная броня»)"}
VEHICLE_ARMOUR = {"enum": list(tables.VEHICLE_ARMOUR), "description": "Vehicle armour class"}
COVER = {"enum": list(tables.COVER), "description": "Cover: none, light (+1), medium (+2), heavy (+3)"}
WEAPON = {"enum": list(tables.WEAPONS), "description": "A weapon of the small-arms or support table"}
FACING = {"enum": list(tables.FACINGS), "description": "The arc the vehicle is hit in"}
COUNT = {"type": "integer", "minimum": 0, "maximum": MAX_FIGURES}
DISTANCE = {"type": "number", "minimum": 0, "maximum": 2000, "description": "In the game's unit (setting units)"}
NAME = {"type": "string", "maxLength": 80}
POSITION = {
    "type": "array",
    "items": {"type": "number", "minimum": -10000, "maximum": 10000},
    "minItems": 2,
    "maxItems": 2,
}

# A unit about to roll for activation (§3.2): everything that changes the roll.
ACTIVATION_UNIT_PROPERTIES = {
    "kind": {"enum": ["squad", "vehicle"]},
    "name": NAME,
    "level": LEVEL,
    "leader": {
        "anyOf": [
            {"type": "null"},
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["level"],
                "properties": {"level": LEVEL, "alive": {"type": "boolean"}},
            },
        ],
        "description": "A leader of another level (L13); alive false when he fell (§5 B21)",
    },
    "figures": {**COUNT, "description": "Figures still standing"},
    "suppressed": {**COUNT, "description": "Suppressed figures: −1 each (L31)"},
    "out_of_coherency": {**COUNT, "description": "Figures out of coherency: −1 each (L2)"},
    "positions": {
        "type": "array",
        "items": POSITION,
        "maxItems": MAX_FIGURES,
        "description": "Figure positions [x, y] instead of out_of_coherency (§5 B20 decides the count)",
    },
    "sees_enemy": {"type": "boolean", "description": "false: +1, no visible enemy (L14)"},
    "crew_stunned": {"type": "integer", "minimum": 0, "maximum": 10, "description": "Vehicle: stun results (L86)"},
    "on_guard": {"type": "boolean", "description": "On Guard since its last attempt"},
    "in_melee": {"type": "boolean"},
    "melee_role": {"enum": ["attacker", "defender"]},
    "strength": {**COUNT, "description": "Figures at the start (for the 50 % casualties rule, L25)"},
    "casualties": COUNT,
    "nearest_enemy": NAME,
    "nearest_visible_enemy": NAME,
}
ACTIVATION_UNIT = {
    "type": "object",
    "additionalProperties": False,
    "required": ["level"],
    "properties": ACTIVATION_UNIT_PROPERTIES,
}

# A group of figures of a target unit (§3.6): how many, their armour, cover and shelter behind a vehicle.
TARGET_GROUP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["count"],
    "properties": {
        "count": {**COUNT, "minimum": 1},
        "armour": PERSONAL_ARMOUR,
        "cover": COVER,
        "behind_vehicle": {**VEHICLE_ARMOUR, "description": "Sheltering behind a vehicle of this armour (L77)"},
        "name": NAME,
    },
}
TARGET_GROUPS = {
    "type": "array",
    "items": TARGET_GROUP,
    "minItems": 1,
    "maxItems": 20,
    "description": "The target's figures by armour and cover, in the order its owner gives them hits (§5 B3)",
}


def err(field: str, message: str, limits: dict | None = None) -> RuleInputError:
    """A refusal naming the field; where the limit broken is the rule's own (a Regular suppresses at most 2, a rifle
    reaches 24"), `limits` gives it as data a program reads (the API answers it as the body's "limits")."""
    return RuleInputError({field: message}, data={"limits": limits} if limits else None)


def length(value, settings: dict) -> str:
    """A distance as a person reads it: 6" or 15 cm."""
    value = int(value) if float(value).is_integer() else round(float(value), 1)
    return f'{value}"' if tables.distance_units(settings) == 0 else _("{value} cm").format(value=value)


def pair(values: tuple[int, int], settings: dict) -> int:
    """The inches or cm member of a book distance (in, cm)."""
    return values[tables.distance_units(settings)]


def deterministic(result: dict) -> dict:
    """The odds of a procedure without dice: its one outcome, with probability 1."""
    return {"deterministic": True, "p": prob(1), "result": result}


def boolean(p: Fraction) -> dict:
    return {"yes": prob(p), "no": prob(1 - p)}


# The enums of the input schemas whose values are the book's names (names.py), told apart by their values.
ENUM_NAMES = (
    (set(tables.WEAPONS), names.weapon),
    (set(tables.TRAINING), names.level),
    (set(tables.ACTIONS), names.action),
    (set(tables.COVER), names.cover),  # before the armours: its values are a subset of theirs
    (set(tables.PERSONAL_ARMOUR), names.armour),
    (set(tables.VEHICLE_ARMOUR), names.vehicle_armour),
)


TITLES = {
    "action": N_("Action"),
    "alive": N_("Figures still alive"),
    "allocatable": N_("May take hits"),
    "armour": N_("Armour"),
    "attacker": N_("Attacker"),
    "behind_vehicle": N_("Behind a vehicle"),
    "casualties": N_("Casualties (figures)"),
    "cause": N_("Cause"),
    "count": N_("Count"),
    "cover": N_("Cover"),
    "crew": N_("Crew"),
    "crew_stunned": N_("Crew stunned"),
    "deep_in_cover": N_("Deep in cover"),
    "defender": N_("Defender"),
    "distance": N_("Distance"),
    "edge_figures": N_("Figures at the edge"),
    "enemy_action": N_("Enemy's action"),
    "facing": N_("Facing"),
    "figures": N_("Figures"),
    "groups": N_("Groups of fire"),
    "hits": N_("Hits taken"),
    "immobilised": N_("Immobilised"),
    "in_melee": N_("In melee"),
    "in_reach": N_("Within reach"),
    "kind": N_("Kind"),
    "leader": N_("Leader"),
    "level": N_("Training level"),
    "line_of_sight": N_("Line of sight"),
    "melee_role": N_("Role in the melee"),
    "modifier": N_("Modifier"),
    "mounted": N_("Mounted"),
    "move": N_("Move"),
    "moved": N_("Moved"),
    "name": N_("Name"),
    "nearest_enemy": N_("Nearest enemy"),
    "nearest_visible_enemy": N_("Nearest visible enemy"),
    "on_guard": N_("On Guard"),
    "out_of_coherency": N_("Out of coherency"),
    "passes_initiative": N_("Passes the initiative"),
    "players": N_("Players"),
    "positions": N_("Positions"),
    "pursuer": N_("Pursuer"),
    "reaction": N_("Reaction"),
    "round": N_("Round"),
    "same_cover": N_("Same cover"),
    "sees_enemy": N_("Sees an enemy"),
    "shooter": N_("Shooter"),
    "spotter": N_("Spotter"),
    "stance": N_("Stance"),
    "strength": N_("Squad strength"),
    "suppress": N_("Suppress"),
    "suppressed": N_("Suppressed"),
    "target": N_("Target"),
    "unit": N_("Acting squad"),
    "units": N_("Units in the order tried"),
    "unsaved": N_("Unsaved hits"),
    "used_this_turn": N_("Used this turn"),
    "vehicle": N_("Transport vehicle"),
    "vehicle_move": N_("Vehicle's move"),
    "weapon": N_("Weapon"),
    "weapons": N_("Weapons"),
    "withdrawing": N_("Withdrawing"),
}  # the odds form's field titles (contract.schema.translate_schema)


# The odds page's words for the keys odds() answers (Action.result_labels): none is shown as its code.
RESULT_LABELS = {
    "p": N_("Probability (no dice)"),
    "deterministic": N_("Decided without dice"),
    "result": N_("The outcome without dice"),
    "activated": N_("Units activated before a roll fails"),
    "attacker_casualties": N_("Attacker's casualties (figures)"),
    "chain_end": N_("How the run of activations ends"),
    "expected_activated": N_("Units activated on average"),
    "first_roll": N_("The first unit's roll with its modifiers"),
    "p_all": N_("Chance every unit activates"),
    "p_any_unsaved": N_("Chance at least one hit goes through the armour"),
    "p_first_activates": N_("Chance the first unit activates"),
    "worst_effect": N_("The most severe damage of the attack"),
    "defender_casualties": N_("Defender's casualties (figures)"),
    "damage_die": N_("Damage die result"),
    "expected_hits": N_("Hits scored on average"),
    "expected_unsaved": N_("Unsaved hits on average"),
    "groups": N_("Fire per weapon"),
    "hits": N_("Hits scored"),
    "immune": N_("The weapon is powerless against this armour"),
    "modifier": N_("Activation modifier"),
    "need": N_("Activation needs on the die"),
    "move": N_("Withdrawal distance"),
    "on_failure": N_("On a failed activation"),
    "options": N_("Legal splits"),
    "p_any_hit": N_("Chance of at least one hit"),
    "p_attacker_wiped_out": N_("Chance the attacking unit is wiped out"),
    "p_defender_wiped_out": N_("Chance the defending unit is wiped out"),
    "p_caught": N_("Chance the pursuer catches the unit"),
    "p_decided_first_roll": N_("Chance the first initiative roll decides"),
    "p_die_kills": N_("Chance one melee die kills"),
    "p_dodged": N_("Chance to dodge the vehicle"),
    "p_effect": N_("Chance of each damage result"),
    "p_escaped": N_("Chance the unit gets out of the melee"),
    "p_fail": N_("Chance the activation fails"),
    "p_failed": N_("Chance the withdrawal roll fails"),
    "p_withdraw_roll": N_("Chance the withdrawal roll succeeds"),
    "p_first": N_("Chance to have the initiative"),
    "p_hit": N_("Chance per fire die to hit"),
    "p_melee_over": N_("Chance the melee ends this turn"),
    "p_pursuit_roll": N_("Chance the pursuer activates"),
    "p_success": N_("Chance the activation succeeds"),
    "p_unsaved_hit": N_("Chance of an unsaved hit"),
    "p_withdraw": N_("Chance of retreating after a failure (L25)"),
    "unsaved": N_("Unsaved hits"),
    "withdraw": N_("Retreats (L25)"),
}


def translated_schema(node):
    """The input schema in the reader's language: a title per field, descriptions translated, each enum's values
    named as the book names them ("x-labels")."""
    return translate_schema(node, TITLES, finish=_with_enum_labels)


def _with_enum_labels(node: dict) -> None:
    values = node.get("enum")
    if isinstance(values, list) and all(isinstance(v, str) for v in values):
        for keys, name in ENUM_NAMES:
            if set(values) <= keys:
                node["x-labels"] = {v: name(v) for v in values}
                break


class SquadAction(CleanAction):
    """The frame of «Отряды»'s actions (CleanAction: full settings, validate, resolve_clean / odds_clean) with its
    words: the odds form's titles and the book's names of enums and damage. Subclasses implement check_inputs(),
    resolve_clean(clean, settings, dice) and odds_clean(clean, settings)."""

    settings_catalogue = CATALOGUE
    result_labels = RESULT_LABELS

    def describe(self) -> dict:
        """Label, description and the input schema's descriptions in the reader's language (locale/ru), each enum's
        values named as the book names them (the odds form shows "x-labels")."""
        out = super().describe()
        out["label"], out["description"] = _(self.label), _(self.description)
        out["input_schema"] = translated_schema(self.input_schema)
        # The cases of a chance per case, as the odds page names them (the API's answer keeps the codes).
        damage = {code: names.damage(code) for code in names.DAMAGE}
        out["value_labels"] = {
            "p_effect": damage,
            "worst_effect": {"none": _("No damage to the vehicle"), **damage},
            **self.case_labels(),
        }
        return out

    def case_labels(self) -> dict:
        return {}
