"""Movement (§3.6, L296–348; §5 A30), the assault that starts a melee (§3.12, L587–621; §5 A15, A24, A27) and
closing in at the end of the melee phase (§3.13, L710–716; §5 A16). Distances in steps; no dice."""

from __future__ import annotations

from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.actions.common import MAX_FIGURES, MAX_UNITS, ORDER, RuleAction, err

TERRAIN_PIECE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["grade"],
    "properties": {
        "grade": {"enum": list(tables.TERRAIN), "description": N_("Difficult terrain: light −2, medium −4, severe −6")},
        "slope": {
            "type": "boolean",
            "default": False,
            "description": N_("A slope: difficult only when climbed (L346)"),
        },
        "uphill": {"type": "boolean", "default": True},
    },
}
TERRAIN_PATH = {
    "type": "array",
    "maxItems": 10,
    "items": TERRAIN_PIECE,
    "default": [],
    "description": N_("Every difficult piece crossed, including the one the figure starts in (L338)"),
}
UNIT_NAME = {"type": "string", "minLength": 1, "maxLength": 60}


def penalties(path: list[dict], settings: dict) -> list[int]:
    """Terrain minuses add up (L332); a slope counts only uphill unless A30's setting says otherwise."""
    out = []
    for piece in path:
        if piece.get("slope") and not piece.get("uphill", True) and not settings["slopes_downhill"]:
            continue
        out.append(tables.TERRAIN_PENALTY[piece["grade"]])
    return out


FIGURE_GROUP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["pdv", "distance"],
    "properties": {
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES, "default": 1},
        "pdv": {"type": "integer", "minimum": 1, "maximum": 50, "description": N_("Mob")},
        "distance": {"type": "number", "minimum": 0, "maximum": 500,
                     "description": N_("Steps to the nearest enemy figure (of the target) before moving")},
        "terrain": TERRAIN_PATH,
    },
}  # fmt: skip


class Movement(RuleAction):
    key = "movement"
    label = N_("Movement")
    spec_ref = "§3.6 (L296–348), §5 A30"
    description = N_(
        "A figure moves up to its Mob in steps: −3 on «Attack», −2/−4/−6 for each light/medium/severe difficult "
        "piece it crosses or starts in (slopes only uphill), never less than 1 step. «Defence» and 0-initiative "
        "units do not move; impassable terrain cannot be crossed."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["pdv", "order"],
        "properties": {
            "pdv": {"type": "integer", "minimum": 1, "maximum": 50},
            "order": ORDER,
            "initiative": {
                "anyOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": 100}],
                "default": None,
            },
            "terrain": TERRAIN_PATH,
            "impassable": {
                "type": "boolean",
                "default": False,
                "description": N_("The path crosses impassable ground"),
            },
            "modifier": {"type": "integer", "minimum": -50, "maximum": 50, "default": 0},
        },
    }

    def check_inputs(self, inputs, settings):
        if inputs["impassable"]:
            raise err("impassable", _("Impassable terrain cannot be crossed: go round it (L340)."))
        return inputs

    def rule(self, clean, settings):
        if clean["order"] == "defence":
            return (_("«Defence»: the unit stays in place."), {"max_steps": 0, "moves": False}, [],
                    [_("A unit on «Defence» may only stay in place, or stay and shoot (L191).")])  # fmt: skip
        if clean["initiative"] == 0:
            return (_("Initiative 0: the unit does not move this turn."), {"max_steps": 0, "moves": False}, [],
                    [_("Units with initiative 0 neither move nor shoot (L276–278).")])  # fmt: skip
        minus = penalties(clean["terrain"], settings)
        steps_allowed = tables.max_move(clean["pdv"], clean["order"], minus, clean["modifier"])
        raw = (
            clean["pdv"]
            + (tables.ATTACK_MOBILITY if clean["order"] == "attack" else 0)
            - sum(minus)
            + clean["modifier"]
        )
        attack = f" −3 («{tables.order_word('attack')}»)"
        steps = [f"{tables.stat('pdv')} {clean['pdv']}" + (attack if clean["order"] == "attack" else "")
                 + "".join(f" −{m}" for m in minus) + (f" {clean['modifier']:+d}" if clean["modifier"] else "")
                 + f" = {raw}" + (_(" → at least 1 step (L306)") if raw < 1 else "")]  # fmt: skip
        effects = [{"kind": "moved", "role": "unit", "max_steps": steps_allowed}]
        return (
            _("Up to {steps_allowed} steps.").format(steps_allowed=steps_allowed),
            {"max_steps": steps_allowed, "moves": True, "raw": raw},
            effects,
            steps,
        )


class Assault(RuleAction):
    key = "assault"
    label = N_("Assault on the enemy")
    spec_ref = "§3.12 (L587–621), §5 A15, A24, A27"
    description = N_(
        "On «Move» or «Attack» a unit declares an assault on one enemy unit and moves every figure as close "
        "as its Mob allows. If any figure ends within 3 steps of an enemy figure the whole unit is in melee; "
        "enemy units in the way are engaged too. Units in melee lose their order cards and cannot shoot."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["order", "target", "figures"],
        "properties": {
            "order": ORDER,
            "initiative": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": 100}],
                           "default": None},
            "in_melee": {"type": "boolean", "default": False},
            "shot_at": {"anyOf": [{"type": "null"}, UNIT_NAME], "default": None,
                        "description": N_("The unit it shot this activation before assaulting («Attack» only)")},
            "target": {"type": "object", "additionalProperties": False, "required": ["unit"],
                       "properties": {"unit": UNIT_NAME, "in_melee": {"type": "boolean", "default": False}}},
            "figures": {"type": "array", "minItems": 1, "maxItems": 20, "items": FIGURE_GROUP},
            "others": {"type": "array", "maxItems": MAX_UNITS, "default": [],
                       "items": {"type": "object", "additionalProperties": False, "required": ["unit", "distance"],
                                 "properties": {"unit": UNIT_NAME, "distance": {"type": "number", "minimum": 0,
                                                "maximum": 500, "description": N_("Steps from the nearest assaulting "
                                                "figure at the end of the charge")}}}},
        },
    }  # fmt: skip

    def check_inputs(self, inputs, settings):
        if inputs["order"] == "defence":
            raise err("order", _("Only «Move» or «Attack» may assault: the order must include movement (L597)."))
        if inputs["initiative"] == 0:
            raise err("initiative", _("A unit with initiative 0 does not act this turn (L276)."))
        if inputs["in_melee"]:
            raise err("in_melee", _("A unit already in melee gets no orders until the melee ends (L621)."))
        target = {"in_melee": False, **inputs["target"]}
        if target["in_melee"] and not settings["assault_unit_in_melee"]:
            raise err("target.in_melee", _("Assaulting a unit already in melee is off in these settings (§5 A27)."))
        shot = inputs["shot_at"]
        if shot is not None and inputs["order"] != "attack":
            raise err("shot_at", _("Only «Attack» may shoot and then assault (L202)."))
        if shot is not None and shot != target["unit"] and settings["shoot_then_assault_target"] == "same_unit":
            raise err("shot_at", _("It shot {shot}, so it may only assault {shot} (L613, §5 A15).").format(shot=shot))
        return {**inputs, "target": target}

    def rule(self, clean, settings):
        steps, contact, within = [], 0, 0
        for i, g in enumerate(clean["figures"]):
            allowance = tables.max_move(g["pdv"], clean["order"], penalties(g.get("terrain", []), settings))
            end = max(0.0, g["distance"] - allowance)
            n = g.get("count", 1)
            contact += n if end == 0 else 0
            within += n if end <= tables.MELEE_DISTANCE else 0
            steps.append(
                _("Group {i}: {distance} steps away, moves up to {allowance} → ").format(
                    i=i + 1, distance=g["distance"], allowance=allowance
                )
                + (_("base contact") if end == 0 else _("{end:g} steps away").format(end=end))
                + "."
            )
        engaged = within > 0
        units = [clean["target"]["unit"]] if engaged else []
        if engaged and settings["melee_engages"] == "any_within_3":
            units += [o["unit"] for o in clean["others"] if o["distance"] <= tables.MELEE_DISTANCE]
        if engaged:
            steps.append(_("Within 3 steps: the whole unit is in melee (L601–603); order cards of every unit in it are "
                         "removed (L621); it cannot shoot any more (L615)."))  # fmt: skip
            summary = _("Melee with ") + ", ".join(units) + "."
        else:
            steps.append(_("No figure came within 3 steps: the charge was just a move (L609)."))
            summary = _("The charge fell short: it was a move towards the enemy.")
        result = {
            "engaged": engaged,
            "engaged_units": units,
            "figures_in_contact": contact,
            "figures_within_3": within,
            "cards_removed": units + ([_("assaulting unit")] if engaged else []),
        }
        effects = [{"kind": "in_melee", "role": "unit", "with": units}] if engaged else []
        effects += [{"kind": "in_melee", "role": name, "with": [_("assaulting unit")]} for name in units]
        return summary, result, effects, steps


class ClosingIn(RuleAction):
    key = "closing_in"
    label = N_("Closing in")
    spec_ref = "§3.13 (L710–716), §5 A16"
    description = N_(
        "At the end of the melee phase every figure of a unit in melee that is not in base contact must move up "
        "to its Mob towards the enemy, the First Player's figures first. It does not count as movement."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["first_player", "units"],
        "properties": {
            "first_player": {"enum": [0, 1]},
            "units": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_UNITS,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["unit", "side", "figures"],
                    "properties": {
                        "unit": UNIT_NAME,
                        "side": {"enum": [0, 1]},
                        "order": {"anyOf": [{"type": "null"}, ORDER], "default": None,
                                  "description": N_("The order it had this turn (its card is gone)")},
                        "figures": {"type": "array", "minItems": 1, "maxItems": 20, "items": FIGURE_GROUP},
                    },
                },
            },
        },
    }  # fmt: skip

    def rule(self, clean, settings):
        first = clean["first_player"]
        ordered = [u for u in clean["units"] if u["side"] == first] + [u for u in clean["units"] if u["side"] != first]
        steps, result = [], []
        for u in ordered:
            order = u.get("order") if settings["closing_in_attack_penalty"] else None
            groups = []
            for g in u["figures"]:
                if g["distance"] == 0:
                    groups.append({"count": g.get("count", 1), "moved": 0, "distance": 0})
                    continue
                allowance = tables.max_move(g["pdv"], order, penalties(g.get("terrain", []), settings))
                end = max(0.0, g["distance"] - allowance)
                groups.append({"count": g.get("count", 1), "moved": g["distance"] - end, "distance": end})
            contact = sum(g["count"] for g in groups if g["distance"] == 0)
            result.append({"unit": u["unit"], "side": u["side"], "groups": groups, "in_contact": contact})
            steps.append(
                _("{unit} (side {side}): {contact} figures in base contact after closing in.").format(
                    unit=u["unit"], side=u["side"], contact=contact
                )
            )
        effects = [{"kind": "closed_in", "role": r["unit"], "in_contact": r["in_contact"]} for r in result]
        summary = _("Closing in, First Player first: ") + ", ".join(
            _("{unit} {in_contact} in contact").format(unit=r["unit"], in_contact=r["in_contact"]) for r in result
        )
        return summary, {"units": result, "counts_as_movement": False}, effects, steps
