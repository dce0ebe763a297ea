"""The book's other tests as board commands (issue 13): In Sight, melee, a grenade and Stay or Run. Each reads the
figures from the battle's state, rolls through ctx.dice() (server roll or the table's dice typed in), runs the
book's action and answers one event whose effects the fold applies to the figures' conditions.

- In Sight (§3.4, L593–624): taken by the figures an enemy moved into sight of, whoever's activation it is; those
  that may fire are asked to fire as a pending question (the same one return fire uses).
- Melee (§3.16, L1080–1159): a fighter of the acting side against 1–3 opponents in base contact.
- Grenade (§3.10, L815–861): thrown by an activating figure; a figure missed or hit without damage owes «ОБСТРЕЛЯН»
  (OR 5), asked of its player as after a shot.
- Stay or Run (§3.17, L1181–1227): a side whose casualties reached another sixth tests as a whole.
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
from rules.systems.thw5150.battle.units import ON_TABLE, member, system_settings

UNITS = {"type": "array", "items": UNIT, "uniqueItems": True, "maxItems": 12}
GRENADE_OUTGUN = 5  # «гранаты с ПД 5» (spec §3.10 [interp])


def no_question_pending(ctx) -> None:
    if ctx.game["pending"]:
        raise GameConflict(_("A reaction is pending: the other player answers it first."))


def answering(ctx, kind: str) -> dict | None:
    """The question of this kind the caller answers now, or None when nothing is asked (a free test). Another
    question first, or this one asked of the other player, is refused: the game waits for that answer."""
    pending = ctx.game["pending"]
    if not pending:
        return None
    q = pending[0]
    if q["kind"] != kind:
        raise GameConflict(_("A reaction is pending: the other player answers it first."))
    if q["side"] not in ctx.sides:
        raise GameConflict(_("This question is for the other player."))
    return q


def figure_of(unit, **extra) -> dict:
    """A unit as a figure of the melee and grenade actions."""
    st = unit.state
    f = {"name": unit.name, "ref": unit.key, "rep": st["rep"], "armour": st["armour"], "prone": st["prone"],
         "condition": st["condition"] if st["condition"] in (core.FINE, core.KNOCKED_DOWN, core.DUCK_BACK,
                                                               core.HUNKER_DOWN) else core.FINE}  # fmt: skip
    return {**f, **extra}


def on_table(ctx, keys: list[str], field: str) -> list:
    units = []
    for i, key in enumerate(keys):
        unit = ctx.unit(key, field_name=f"{field}.{i}")
        if unit.state["condition"] not in ON_TABLE:
            raise RuleInputError({f"{field}.{i}": _("{name} is no longer on the table.").format(name=unit.name)})
        units.append(unit)
    return units


def received_fire_questions(ctx, effects: list[dict], shooter: str, outgun: int) -> list[dict]:
    """One «ОБСТРЕЛЯН» question per fired-on group, as after a shot (L925–931)."""
    by_group: dict[str, list[str]] = {}
    for e in effects:
        if e["kind"] == "received_fire":
            by_group.setdefault(ctx.state.units[e["unit"]].state["group"], []).append(e["unit"])
    return [
        {"kind": "received_fire", "side": ctx.state.units[keys[0]].side, "testers": keys, "group": group,
         "shooter": shooter, "shooter_outgun": outgun}
        for group, keys in by_group.items()
    ]  # fmt: skip


class InSight(Cmd):
    name = "in_sight"
    label = N_("In Sight test")
    help = N_("Figures an enemy moved into sight or range of take the In Sight test; those that pass may fire at once.")
    free = True  # taken by the side that is NOT active, during the other side's move (L598–601)
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "units": {**UNITS, "minItems": 1, "description": "The figures that take it (default: those asked)"},
            "hidden": {**UNITS, "description": "Hidden figures (hidden deployment only)"},
            "in_the_open": {"enum": ["duck_back", "prone"], "description": "Pass 1 in the open: duck back or go prone"},
        },
    }

    def handle(self, ctx, inputs):
        require_playing(ctx)
        asked = answering(ctx, "in_sight")
        keys = inputs.get("units") or (asked["testers"] if asked else [])
        if not keys:
            raise RuleInputError({"units": _("Name the figures that take the test.")})
        testers = [ctx.own_unit(k, field_name=f"units.{i}") for i, k in enumerate(keys)]
        testers = on_table(ctx, [u.key for u in testers], "units")
        groups = {u.state["group"] for u in testers}
        if len(groups) > 1:
            raise RuleInputError({"units": _("One group takes the test at a time: pick figures of one group.")})
        group = [u for u in ctx.state.units.values() if u.state["group"] in groups and u.state["condition"] in ON_TABLE]
        keys, hidden = {u.key for u in testers}, set(inputs.get("hidden", []))
        members = [
            member(u, tests=u.key in keys, in_cover=u.state["in_cover"], covering_fire=u.state["covering_fire"],
                   **({"hidden": True} if u.key in hidden else {}))
            for u in group
        ]  # fmt: skip
        outcome = run_action(ctx, "in_sight", {"members": members})
        roles = {f"members.{i}": u.key for i, u in enumerate(group)}
        effects, shooters = [], {}
        for e in mapped(outcome, roles):
            if e["kind"] == "fires":
                shooters[e["unit"]] = {"at": None, "rep_modifier": e["rep_modifier"]}
            elif e["kind"] == "choose":  # «прячутся или залегают»: the player's choice, given with the test
                choice = inputs.get("in_the_open", "duck_back")
                effects.append({"kind": "prone", "unit": e["unit"], "value": True} if choice == "prone" else
                               {"kind": "condition", "unit": e["unit"], "value": core.DUCK_BACK})  # fmt: skip
        side = testers[0].side
        fire = {"kind": "return_fire", "side": side, "shooters": shooters, "why": "in_sight"} if shooters else None
        ctx.outcome = record(outcome)
        payload = {"group": sorted(groups)[0], "testers": sorted(keys), "effects": effects, "return_fire": fire,
                   "result": outcome.result}  # data only: the log reads it in the reader's language  # fmt: skip
        if asked is not None:
            payload["answers"] = True
            if fire is not None and asked.get("mover") in ctx.state.units:
                for rule in shooters.values():  # they fire at the figure that came into sight
                    rule["at"] = asked["mover"]
        return [NewEvent("in_sight", payload, dice=outcome.dice)]


class Melee(Cmd):
    name = "melee"
    label = N_("Hand-to-hand fight")
    help = N_("A figure in base contact fights 1–3 opponents: each rolls its own 2d6 against its Rep (L1080–1159).")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "fighter": {**UNIT, "description": "Default: the charger whose melee is due"},
            "opponents": {**UNITS, "minItems": 1, "maxItems": 3},
            "opponent": {**UNIT, "description": "The board's form: one opponent in base contact"},
            "flank_penalty": {"type": "boolean", "description": "Charged in the flank, passed 2: Rep −1 this round"},
        },
    }

    def handle(self, ctx, inputs):
        require_playing(ctx)
        due = answering(ctx, "melee")
        if due is not None:  # the charge meets: these fighters, whoever sends it (L1082–1087)
            inputs = {**inputs, "fighter": due["fighter"], "opponents": due["opponents"]}
        elif "opponents" not in inputs and "opponent" in inputs:
            inputs = {**inputs, "opponents": [inputs["opponent"]]}
        if "fighter" not in inputs or "opponents" not in inputs:
            raise RuleInputError({"opponents": _("Name the fighter and the opponents.")})
        fighter = ctx.own_unit(inputs["fighter"], field_name="fighter")
        (fighter,) = on_table(ctx, [fighter.key], "fighter")
        opponents = on_table(ctx, inputs["opponents"], "opponents")
        for i, o in enumerate(opponents):
            if o.side == fighter.side:
                raise RuleInputError({f"opponents.{i}": _("{name} is on your own side.").format(name=o.name)})
        for field, u in (("fighter", fighter), *((f"opponents.{i}", o) for i, o in enumerate(opponents))):
            if u.state["condition"] == core.HUNKER_DOWN:  # «не может предпринимать никаких действий» (L995–997)
                raise RuleInputError({field: _("{name} has hunkered down and takes no action.").format(name=u.name)})

        def armed(u, **extra):
            return figure_of(u, weapon=u.state["melee_weapon"] or "unarmed", **extra)

        extra = {"first_round_flank_penalty": True} if inputs.get("flank_penalty") else {}
        penalised = set(due.get("penalised", [])) if due else set()  # charged in the flank, passed 2 (L1069–1070)
        outcome = run_action(ctx, "melee", {"fighter": armed(fighter, **extra), "opponents": [
            armed(o, **({"first_round_flank_penalty": True} if o.key in penalised else {})) for o in opponents]})  # fmt: skip
        roles = {"fighter": fighter.key, **{f"opponents.{i}": o.key for i, o in enumerate(opponents)}}
        effects = [e for e in mapped(outcome, roles) if e["kind"] == "condition"]
        ctx.outcome = record(outcome)
        payload = {"fighter": fighter.key, "opponents": [o.key for o in opponents], "effects": effects,
                   "result": outcome.result}  # fmt: skip
        if due is not None:
            payload["answers"] = True
        return [NewEvent("melee", payload, dice=outcome.dice)]


class Grenade(Cmd):
    name = "grenade"
    label = N_("Grenade throw")
    help = N_(
        "1d6 + Rep on the Hit table against every figure under the 5″ template; a miss: Where's the grenade? "
        "(L815–861)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["thrower"],
        "properties": {
            "thrower": UNIT,
            "blast": {**UNITS, "description": "Figures under the template at the aim point"},
            "target": {**UNIT, "description": "The board's form: one figure under the template"},
            "intermediate": {**UNITS, "description": "The nearest group on the line of the throw («Берегись!»)"},
            "around_thrower": {**UNITS, "description": "Figures under a template on the thrower (default: him)"},
        },
    }

    def handle(self, ctx, inputs):
        require_playing(ctx)
        no_question_pending(ctx)
        thrower = ctx.own_unit(inputs["thrower"], field_name="thrower")
        require_activation(ctx, thrower)
        if thrower.state["condition"] != core.FINE:
            raise RuleInputError({"thrower": _("{name} cannot throw now.").format(name=thrower.name)})
        if thrower.state["grenades"] < 1:
            raise RuleInputError({"thrower": _("{name} has no grenade left.").format(name=thrower.name)})
        if "blast" not in inputs:
            if "target" not in inputs:
                raise RuleInputError({"blast": _("Name the figures under the template.")})
            inputs = {**inputs, "blast": [inputs["target"]]}
        lists = {k: on_table(ctx, inputs.get(k, []), k) for k in ("blast", "intermediate", "around_thrower")}
        st = thrower.state
        sets = system_settings(ctx.settings)
        throw = figure_of(thrower, hero=st["hero"], in_cover=st["in_cover"],
                          grenade_ready=bool(sets.get("grenade_preparation")))  # fmt: skip

        def figures(units):
            return [figure_of(u, in_cover=u.state["in_cover"], fast_moved=u.state["fast_moved"]) for u in units]

        action_inputs = {"thrower": throw, **{k: figures(v) for k, v in lists.items() if v}}
        outcome = run_action(ctx, "grenade", action_inputs)
        roles = {"thrower": thrower.key}
        for k, units in lists.items():
            roles.update({f"{k}.{i}": u.key for i, u in enumerate(units)})
        if not lists["around_thrower"]:
            roles["around_thrower.0"] = thrower.key  # «центрированном на кидающем»: him, by default
        effects = mapped(outcome, roles)
        questions = received_fire_questions(ctx, effects, thrower.key, GRENADE_OUTGUN)
        ctx.outcome = record(outcome)
        payload = {"thrower": thrower.key, "effects": [e for e in effects if e["kind"] != "received_fire"],
                   "questions": questions, "result": outcome.result}  # fmt: skip
        return [NewEvent("grenade", payload, dice=outcome.dice)]


class StayOrRun(Cmd):
    name = "stay_or_run"
    label = N_("Stay or Run test")
    help = N_("When a side's casualties reach another sixth of its figures, the whole side tests once (L1181–1227).")
    free = True  # taken «в конце активации» of whichever side lost figures (L1187–1189)
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["motivation"],
        "properties": {
            "motivation": {"enum": list(core.MOTIVATIONS)},
            "profit_goal_met": {"type": "boolean", "description": "Loot worth half the force, prisoners or hostages"},
        },
    }

    def handle(self, ctx, inputs):
        require_playing(ctx)
        asked = answering(ctx, "stay_or_run")
        side = asked["side"] if asked else ctx.one_side()
        game = ctx.game
        initial = game["initial"].get(str(side), 0)
        casualties = game["casualties"].get(str(side), 0)
        tested_at = (game.get("stay_or_run_at") or {}).get(str(side), 0)
        sets = system_settings(ctx.settings)
        if initial < 1 or core.stay_or_run_tests_due(initial, casualties, tested_at, sets) < 1:
            raise GameConflict(
                _("No Stay or Run test is due: {casualties} casualties of {initial} figures.").format(
                    casualties=casualties, initial=initial
                )
            )
        figures = [u for u in ctx.state.units.values() if u.side == side and u.state["condition"] in ON_TABLE]
        # The force's Leader gives the Leader Die (L1192–1194): the highest-Rep Leader still up; other Leaders
        # read the roll as the rest do.
        up = [u for u in figures if u.state["leader"] and u.state["condition"] == core.FINE]
        chief = max(up, key=lambda u: u.state["rep"]).key if up else None
        members = [member(u, leader=u.key == chief) for u in figures]
        action_inputs = {"members": members, "initial_count": initial, "casualties": casualties,
                         "tested_at": tested_at, "motivation": inputs["motivation"],
                         "profit_goal_met": bool(inputs.get("profit_goal_met"))}  # fmt: skip
        outcome = run_action(ctx, "stay_or_run", action_inputs)
        effects = mapped(outcome, {f"members.{i}": u.key for i, u in enumerate(figures)})
        ctx.outcome = record(outcome)
        payload = {"side": side, "casualties": casualties, "effects": effects, "result": outcome.result}
        if asked is not None:
            payload["answers"] = True
        return [NewEvent("stay_or_run", payload, dice=outcome.dice)]


TABLE_COMMANDS = (InSight(), Melee(), Grenade(), StayOrRun())
