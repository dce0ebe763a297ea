"""A charge into melee as the book plays it (spec §3.14–§3.16): the charger takes «ХОЧУ АТАКОВАТЬ» at its
activation; when it comes in, the charged figure's player is asked «МЕНЯ АТАКОВАЛИ» on his own phone; a figure that
may fire does so before contact (spec §3.15 [interp]: a charger hit, ducking back or running away does not arrive);
then the charger's player rolls the melee, which the game waits for (a pending "melee", fold.py).
"""

from __future__ import annotations

from rules.contract import GameConflict, NewEvent, RuleInputError
from rules.i18n import N_, _
from rules.systems.thw5150 import core
from rules.systems.thw5150.battle.commands import (
    UNIT,
    Cmd,
    mapped,
    record,
    require_activation,
    require_playing,
    run_action,
)
from rules.systems.thw5150.battle.tables import answering, no_question_pending, on_table
from rules.systems.thw5150.battle.units import ON_TABLE, member

FIRES = ("fire_and_prepare", "turn_fire_and_prepare_minus_1")  # «выстрелят и подготовятся к рукопашной»
PENALISED = ("turn_fire_and_prepare_minus_1", "turn_and_prepare_minus_1")  # «-1 к своему Умению в первый раунд»


class Charge(Cmd):
    name = "charge"
    label = N_("Charge into melee")
    help = N_(
        "The charger takes the Wanting to Charge test (it must be able to reach the enemy); if it comes in, the "
        "charged figure's player takes the Being Charged test, then the melee is fought (L1042–1087)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["charger", "target"],
        "properties": {"charger": UNIT, "target": UNIT},
    }

    def handle(self, ctx, inputs):
        require_playing(ctx)
        no_question_pending(ctx)
        charger = ctx.own_unit(inputs["charger"], field_name="charger")
        require_activation(ctx, charger)
        if charger.state["condition"] != core.FINE:
            raise RuleInputError({"charger": _("{name} cannot charge now.").format(name=charger.name)})
        (target,) = on_table(ctx, [inputs["target"]], "target")
        if target.side == charger.side:
            raise RuleInputError({"target": _("{name} is on your own side.").format(name=target.name)})
        # The group rolls once; only the charger reads it. The Leader Die counts while the Leader is up (L1050).
        group = [u for u in ctx.state.units.values()
                 if u.state["group"] == charger.state["group"] and u.state["condition"] == core.FINE]  # fmt: skip
        members = [member(u, tests=u.key == charger.key, in_cover=u.state["in_cover"]) for u in group]
        outcome = run_action(ctx, "wanting_to_charge", {"members": members})
        roles = {f"members.{i}": u.key for i, u in enumerate(group)}
        effects = [e for e in mapped(outcome, roles) if e["kind"] == "hero"]
        row = next(r for r in outcome.result["members"] if roles[f"members.{r['index']}"] == charger.key)
        payload = {"charger": charger.key, "target": target.key, "charges": row["outcome"] == "charge",
                   "stays_and_fires": row["outcome"] == "stay_and_fire", "effects": effects,
                   "result": outcome.result}  # fmt: skip
        if payload["charges"]:
            payload["question"] = {"kind": "being_charged", "side": target.side, "testers": [target.key],
                                   "charger": charger.key}  # fmt: skip
        ctx.outcome = record(outcome)
        return [NewEvent("charge", payload, dice=outcome.dice)]


class AnswerCharge(Cmd):
    name = "answer_charge"
    label = N_("Being Charged test")
    help = N_("The charged figure's player takes the Being Charged test (or types in the table's dice) (L1060–1078).")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "charged_from": {"enum": ["front", "flank_or_rear"], "description": "Where the charge came from"},
            "hero_choice": {"enum": ["2", "1", "0"], "description": "A Hero's chosen result (L1066)"},
        },
    }

    def handle(self, ctx, inputs):
        require_playing(ctx)
        q = answering(ctx, "being_charged")
        if q is None:
            raise GameConflict(_("Nobody is charging now."))
        units = ctx.state.units
        charger = units[q["charger"]]
        testers = [units[k] for k in q["testers"] if units[k].state["condition"] in ON_TABLE]
        group = [u for u in units.values() if u.state["group"] in {t.state["group"] for t in testers}
                 and u.state["condition"] in (core.FINE, core.DUCK_BACK)]  # fmt: skip
        flank = inputs.get("charged_from") == "flank_or_rear"
        members = []
        for u in group:
            extra = {"tests": u.key in q["testers"], "in_cover": u.state["in_cover"], "flank_or_rear": flank,
                     "can_fire": bool(u.state["weapon"]) and u.state["loaded"] and u.state["condition"] == core.FINE}  # fmt: skip
            if "hero_choice" in inputs and u.state["hero"]:
                extra["hero_choice"] = int(inputs["hero_choice"])
            members.append(member(u, **extra))
        outcome = run_action(ctx, "being_charged", {"members": members})
        roles = {f"members.{i}": u.key for i, u in enumerate(group)}
        effects = [e for e in mapped(outcome, roles) if e["kind"] in ("condition", "hero")]
        rows = {roles[f"members.{r['index']}"]: r["outcome"] for r in outcome.result["members"]}
        shooters = {k: {"at": charger.key, "rep_modifier": 0} for k, out in rows.items() if out in FIRES}
        standing = [k for k, out in rows.items() if out != core.RUNAWAY]
        then = []
        if shooters:  # the fire before contact, asked like return fire: at the charger only
            then.append({"kind": "return_fire", "side": q["side"], "shooters": shooters, "why": "charged"})
        if standing:
            then.append({"kind": "melee", "side": charger.side, "fighter": charger.key, "opponents": standing,
                         "penalised": [k for k in standing if rows[k] in PENALISED]})  # fmt: skip
        ctx.outcome = record(outcome)
        payload = {"charger": charger.key, "testers": q["testers"], "effects": effects, "then": then,
                   "result": outcome.result}  # fmt: skip
        return [NewEvent("charged", payload, dice=outcome.dice)]


CHARGE_COMMANDS = (Charge(), AnswerCharge())
