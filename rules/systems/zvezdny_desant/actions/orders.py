"""Orders and initiative: the order cards and command points (§3.3, L206–250, A5, A7) and the activation order
with ties, 0-initiative units and skipped units (§3.4, §1.5, L256–278, A4, A25). No dice."""

from __future__ import annotations

from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.actions.common import MAX_UNITS, ORDER_OR_NONE, REF, RuleAction, err

UNIT_NAME = {"type": "string", "minLength": 1, "maxLength": 60}


def refuse_hand_states(units: list[dict], settings: dict) -> None:
    """Panic and suppression come from the full rulebook: marked by hand only when A4's setting allows it."""
    if settings["states_by_hand"]:
        return
    for i, u in enumerate(units):
        for flag in ("panicked", "suppressed"):
            if u.get(flag):
                raise err(
                    f"units.{i}.{flag}",
                    _("{capitalize} units are off in these settings (§5 A4).").format(capitalize=flag.capitalize()),
                )


class OrderCards(RuleAction):
    key = "order_cards"
    label = N_("Order cards and command points")
    spec_ref = "§3.3 (L164–230, L246–250), §1.5, §5 A5, A7"
    description = N_(
        "Every unit not in melee and not panicked gets an order and an initiative; the initiatives are the "
        "command points spent and must add up to the player's points (10 in «Skirmish»), never more, none banked. "
        "An overspend found at the reveal is cut by the opponent, on units of his choice."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["units"],
        "properties": {
            "command_points": {"type": "integer", "minimum": 0, "maximum": 100,
                               "description": N_("Points this turn; default: the setting (10 in «Skirmish»)")},
            "units": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_UNITS,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["unit"],
                    "properties": {
                        "unit": UNIT_NAME,
                        "order": ORDER_OR_NONE,
                        "initiative": {"type": "integer", "minimum": 0, "maximum": 100},
                        "in_melee": {"type": "boolean", "default": False},
                        "panicked": {"type": "boolean", "default": False},
                    },
                },
            },
            "reductions": {
                "type": "object",
                "maxProperties": MAX_UNITS,
                "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 100},
                "description": N_("After an overspend: how much the opponent lowers each unit's initiative"),
            },
        },
    }  # fmt: skip

    def check_inputs(self, inputs, settings):
        units = [
            {"order": None, "initiative": None, "in_melee": False, "panicked": False, **u} for u in inputs["units"]
        ]
        refuse_hand_states(units, settings)
        names = [u["unit"] for u in units]
        if len(set(names)) != len(names):
            raise err("units", _("Each unit is listed once."))
        for i, u in enumerate(units):
            eligible = not (u["in_melee"] or u["panicked"])
            if eligible and (u["order"] is None or u["initiative"] is None):
                raise err(
                    f"units.{i}.order", _("{unit} needs an order and an initiative (L226).").format(unit=u["unit"])
                )
            if not eligible and (u["order"] is not None or u["initiative"]):
                why = _("is in melee") if u["in_melee"] else _("is panicked")
                raise err(
                    f"units.{i}.order", _("{unit} {why}: it gets no order card (L228).").format(unit=u["unit"], why=why)
                )
        cp = inputs.get("command_points", settings["command_points"])
        spent = sum(u["initiative"] or 0 for u in units)
        reductions = inputs.get("reductions") or {}
        for name, amount in reductions.items():
            unit = next((u for u in units if u["unit"] == name), None)
            if unit is None:
                raise err(f"reductions.{name}", _("There is no unit {name!r} to lower.").format(name=name))
            if amount > (unit["initiative"] or 0):
                raise err(
                    f"reductions.{name}",
                    _("{name} has initiative {initiative}: it cannot go below 0.").format(
                        name=name, initiative=unit["initiative"] or 0
                    ),
                    {"reduction_max": unit["initiative"] or 0},
                )
        if reductions and sum(reductions.values()) != max(0, spent - cp):
            raise err(
                "reductions",
                _("The cuts must add up to the overspend, {cp} (L250).").format(cp=max(0, spent - cp)),
                {"overspend": max(0, spent - cp)},
            )
        eligible = any(not (u["in_melee"] or u["panicked"]) for u in units)
        if spent < cp and eligible and settings["cp_underspend"] == "refuse":
            raise err(
                "units",
                _("Spend all {cp} command points: {spent} are spent (L220, §5 A7).").format(cp=cp, spent=spent),
                {"command_points": cp},
            )
        return {**inputs, "units": units, "command_points": cp, "reductions": reductions}

    def rule(self, clean, settings):
        cp, units, cuts = clean["command_points"], clean["units"], clean["reductions"]
        spent = sum(u["initiative"] or 0 for u in units)
        over = max(0, spent - cp)
        final = {u["unit"]: (u["initiative"] or 0) - cuts.get(u["unit"], 0) for u in units if u["order"] is not None}
        steps = [f"{u['unit']}: «{tables.order_word(u['order'])}», initiative {u['initiative']}"
                 for u in units if u["order"] is not None]  # fmt: skip
        steps.append(_("Spent {spent} of {cp} command points.").format(spent=spent, cp=cp))
        if over and not cuts:
            status = "overspent"
            summary = _(
                "Overspent by {over}: the opponent lowers initiatives of his choice by {over} in all (L250)."
            ).format(over=over)
        elif over:
            status = "reduced"
            summary = _("The opponent cut the overspend: ") + ", ".join(f"{k} −{v}" for k, v in cuts.items() if v) + "."
        elif spent < cp:
            status = "underspent"
            summary = _("{spent} command points are lost: they cannot be banked (§5 A7).").format(spent=cp - spent)
        else:
            status = "ok"
            summary = _("All {cp} command points are spent.").format(cp=cp)
        zero = [name for name, v in final.items() if v == 0]
        if zero:
            steps.append(_("Initiative 0 (does not act this turn): ") + ", ".join(zero) + ".")
        result = {"status": status, "spent": spent, "command_points": cp, "overspend": over, "initiative": final,
                  "lost": max(0, cp - spent), "no_card": [u["unit"] for u in units if u["order"] is None]}  # fmt: skip
        effects = [
            {"kind": "order_card", "role": u["unit"], "order": u["order"], "initiative": final[u["unit"]]}
            for u in units
            if u["order"] is not None
        ]
        return summary, result, effects, steps


class ActivationOrder(RuleAction):
    key = "activation_order"
    label = N_("Activation order")
    spec_ref = "§3.4, §1.5 (L256–278), §5 A4, A25"
    description = N_(
        "Highest initiative of both players acts first. Ties of one player: he picks (list order). Ties between "
        "players: the First Player's unit, then the other's, alternating. Initiative 0 never acts; a unit that "
        "cannot carry out its order when its turn comes (panicked, in melee) is skipped."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["first_player", "units"],
        "properties": {
            "first_player": {"enum": [0, 1], "description": N_("Side 0 or 1")},
            "units": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_UNITS,
                "description": N_("In each owner's preferred order for ties"),
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["unit", "side", "initiative"],
                    "properties": {
                        "unit": UNIT_NAME,
                        "ref": REF,
                        "side": {"enum": [0, 1]},
                        "initiative": {"type": "integer", "minimum": 0, "maximum": 100},
                        "in_melee": {"type": "boolean", "default": False},
                        "panicked": {"type": "boolean", "default": False},
                        "suppressed": {"type": "boolean", "default": False},
                    },
                },
            },
        },
    }

    def check_inputs(self, inputs, settings):
        refuse_hand_states(inputs["units"], settings)
        names = [u["unit"] for u in inputs["units"]]
        if len(set(names)) != len(names):
            raise err("units", _("Each unit is listed once."))
        return inputs

    def rule(self, clean, settings):
        units = [
            {
                "key": u["unit"],
                "side": u["side"],
                "initiative": u["initiative"],
                "can_act": not (u.get("in_melee") or u.get("panicked") or u.get("suppressed")),
            }
            for u in clean["units"]
        ]
        order = tables.activation_sequence(units, clean["first_player"], settings)
        side_of = {u["key"]: u["side"] for u in units}
        initiative = {u["key"]: u["initiative"] for u in units}
        steps = [
            _("{i}. {k} (side {k2}, initiative {k3})").format(i=i, k=k, k2=side_of[k], k3=initiative[k])
            for i, k in enumerate(order["sequence"], 1)
        ]
        if order["skipped"]:
            steps.append(_("Skipped, cannot carry out the order: ") + ", ".join(order["skipped"]) + " (L272).")
        if order["late_chance"]:
            steps.append(_("Act at the end if they can by then (A25 at_end): ") + ", ".join(order["late_chance"]) + ".")
        if order["zero_initiative"]:
            steps.append(_("Initiative 0, do not act: ") + ", ".join(order["zero_initiative"]) + " (L274–278).")
        summary = " → ".join(order["sequence"]) or _("No unit acts this turn.")
        effects = [{"kind": "activation", "role": k, "position": i} for i, k in enumerate(order["sequence"], 1)]
        effects += [{"kind": "skipped", "role": k} for k in order["skipped"]]
        effects += [{"kind": "does_not_act", "role": k, "reason": "zero_initiative"} for k in order["zero_initiative"]]
        return summary, order, effects, steps
