"""The commands a «5150» player sends from the board. Each handler is pure: it reads the state, rolls through
ctx.dice() (server roll or the dice typed in from the table), runs the book's action and answers events."""

from __future__ import annotations

from rules.contract import Command, CommandContext, GameConflict, NewEvent, RuleInputError
from rules.i18n import N_, _
from rules.systems.thw5150 import core, words
from rules.systems.thw5150.actions import ACTIONS
from rules.systems.thw5150.battle.explain import explained
from rules.systems.thw5150.battle.units import (
    firing,
    guns_rof,
    may_activate,
    member,
    outgun_of,
    own_weapons,
    side_name,
    system_settings,
)

UNIT = {"type": "string", "minLength": 1, "maxLength": 80}
NO_INPUTS = {"type": "object", "properties": {}, "additionalProperties": False}


class Cmd(Command):
    """A command whose label and help are msgids, read in the reader's language. Its result on the acting phone
    ends with what the command's roll means and what each side does next (explain.py), as both boards say."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "handle" in cls.__dict__:
            cls.handle = explained(cls.__dict__["handle"])

    def describe(self) -> dict:
        return {**super().describe(), "label": _(self.label), "help": _(self.help)}


class Planned(Exception):  # noqa: N818 - not an error: the answer of a planning run
    """What a command would roll, found without rolling: the action and the inputs it built from the state. The
    board's odds (at_roll.py) run the command's own handler, with every check it makes, up to this point."""

    def __init__(self, action: str, inputs: dict):
        super().__init__(action)
        self.action = action
        self.inputs = inputs


class Planning(CommandContext):
    """A command's context that rolls nothing: run_action answers Planned instead of resolving."""

    planning = True


def run_action(ctx: CommandContext, key: str, inputs: dict):
    if getattr(ctx, "planning", False):
        raise Planned(key, inputs)
    action = ACTIONS[key]
    return action.resolve(inputs, system_settings(ctx.settings), ctx.dice())


def mapped(outcome, roles: dict[str, str]) -> list[dict]:
    """The action's effects with each role ("targets.0", "members.1", "shooter") replaced by the unit key."""
    out = []
    for e in outcome.effects:
        key = roles.get(e.get("role", ""))
        if key is not None:
            out.append({**{k: v for k, v in e.items() if k not in ("role", "ref", "name")}, "unit": key})
    return out


def record(outcome) -> dict:
    return {"summary": outcome.summary, "result": outcome.result, "steps": outcome.steps}


def require_playing(ctx: CommandContext) -> None:
    if ctx.game.get("result") is not None:
        raise GameConflict(_("The battle is over. Undo the last events to play on."))


def require_activation(ctx: CommandContext, unit) -> None:
    """With turns enforced: the caller's side is active, the dice allow this figure (§3.1) and it has not acted."""
    if not ctx.settings.get("enforce_turns"):
        return
    game = ctx.game
    if game.get("phase") != "acting" or game.get("doubles"):
        raise GameConflict(_("No figure moves or fires now: roll the activation dice (doubles: reload only)."))
    if ctx.owner(unit.key) != game.get("active"):
        raise GameConflict(_("{side} is active now, not you.").format(side=side_name(game, game.get("active"))))
    die = game["dice"][str(game["active"])]
    if not may_activate(ctx.state.units, unit, die):
        raise GameConflict(_("{name} (Rep {rep}) cannot act on a {die}: neither it nor its Leader has Rep {die} or "
                             "more (L426–428).").format(name=unit.name, rep=unit.state["rep"], die=die))  # fmt: skip
    if unit.state["activated"]:
        raise GameConflict(_("{name} has already acted this turn.").format(name=unit.name))


class RollActivation(Cmd):
    name = "activation"
    label = N_("Roll the activation dice")
    help = N_("One d6 per side (typed in: side 0's first). Doubles: nobody moves or fires, everyone may reload.")

    def handle(self, ctx, inputs):
        require_playing(ctx)
        sides = sorted({u.side for u in ctx.state.units.values()})
        dice = ctx.dice()
        # the purpose is stored in English and worded when shown (rules.dice.purpose_words), the side by its name
        rolled = {str(s): dice.roll(6, f"{N_('activation die')}: {side_name(ctx.game, s)}") for s in sides}
        dice.finish()
        values = list(rolled.values())
        doubles = len(set(values)) < len(values)
        order = [] if doubles else sorted(sides, key=lambda s: -rolled[str(s)])
        text = (
            _("doubles: reload only") if doubles else _("{side} acts first").format(side=side_name(ctx.game, order[0]))
        )
        said = ", ".join(f"{side_name(ctx.game, s)} {rolled[str(s)]}" for s in sides)
        ctx.outcome = {"summary": _("Activation dice {dice}: {what}.").format(dice=said, what=text)}
        return [NewEvent("turn.rolled", {"dice": rolled, "doubles": doubles, "order": order},
                         dice=[r.as_dict() for r in dice.rolls])]  # fmt: skip


class Shoot(Cmd):
    name = "shoot"
    label = N_("Shoot")
    help = N_("A figure fires at up to its RoF of targets (dice per target, in order). Return fire: when asked.")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["shooter"],
        "properties": {
            "shooter": UNIT,
            "target": {**UNIT, "description": "One target (the board's form): all the dice at it"},
            "n": {"type": "integer", "minimum": 1, "maximum": 6, "description": "Dice at `target` (default: RoF)"},
            "weapon": {
                "type": "string",
                "maxLength": 40,
                "description": "A figure with two guns: the one it fires, or «two_guns» for both (default)",
            },
            "targets": {
                "type": "array",
                "minItems": 1,
                "maxItems": 6,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["unit", "dice"],
                    "properties": {"unit": UNIT, "dice": {"type": "integer", "minimum": 1, "maximum": 6}},
                },
            },
        },
    }

    def handle(self, ctx, inputs):
        require_playing(ctx)
        shooter = ctx.own_unit(inputs["shooter"], field_name="shooter")
        guns = firing(shooter, inputs.get("weapon"))
        if "targets" not in inputs:  # the board's form names one target
            if "target" not in inputs:
                raise RuleInputError({"targets": _("Name a target.")})
            rof = guns_rof(guns, system_settings(ctx.settings))
            inputs = {**inputs, "targets": [{"unit": inputs["target"], "dice": inputs.get("n", rof)}]}
        pending = ctx.game["pending"]
        ret = pending[0] if pending and pending[0]["kind"] == "return_fire" else None
        rep_mod = 0
        if ret is not None:
            if shooter.key not in ret["shooters"]:
                raise GameConflict(_("{name} does not return fire now; answer with a figure that may.").format(
                    name=shooter.name))  # fmt: skip
            rule = ret["shooters"][shooter.key]
            rep_mod = rule["rep_modifier"]
            wrong = [t["unit"] for t in inputs["targets"] if rule["at"] and t["unit"] != rule["at"]]
            if wrong:  # «Неактивная фигурка всегда отвечает стрельбой только по тому кто ее обстрелял»
                at = ctx.state.units[rule["at"]].name if rule["at"] in ctx.state.units else rule["at"]
                raise RuleInputError({"targets": _("An inactive figure fires back only at {name}.").format(name=at)})
        else:
            if pending:
                raise GameConflict(_("A reaction is pending: the other player answers it first."))
            require_activation(ctx, shooter)
        if shooter.state["condition"] != core.FINE:
            raise RuleInputError({"shooter": _("{name} is {condition} and cannot fire.").format(
                name=shooter.name, condition=words.outcome(shooter.state["condition"]))})  # fmt: skip
        if not shooter.state["weapon"]:
            raise RuleInputError({"shooter": _("{name} has no ranged weapon.").format(name=shooter.name)})
        targets = []
        for i, t in enumerate(inputs["targets"]):
            unit = ctx.unit(t["unit"], field_name=f"targets.{i}.unit")
            if unit.side == shooter.side:
                raise RuleInputError({f"targets.{i}.unit": _("{name} is on your own side.").format(name=unit.name)})
            targets.append(unit)
        st = shooter.state
        shot = {"name": shooter.name, "rep": st["rep"], "weapon": guns[0], "fast_moved": st["fast_moved"],
                "loaded": st["loaded"], "rep_modifier": rep_mod}  # fmt: skip
        if len(guns) > 1:
            shot["second_weapon"] = guns[1]
        inputs_for = {
            "shooter": shot,
            "targets": [
                {"name": u.name, "dice": t["dice"], "armour": u.state["armour"], "in_cover": u.state["in_cover"],
                 "prone": u.state["prone"], "fast_moved": u.state["fast_moved"], "condition": u.state["condition"]}
                for u, t in zip(targets, inputs["targets"], strict=True)
            ],
        }  # fmt: skip
        outcome = run_action(ctx, "shooting", inputs_for)
        roles = {"shooter": shooter.key, **{f"targets.{i}": u.key for i, u in enumerate(targets)}}
        effects = mapped(outcome, roles)
        questions = self._questions(ctx, shooter, targets, effects)
        if (
            ret is not None
            and ret.get("why") == "charged"
            and not system_settings(ctx.settings).get("charger_received_fire")
        ):
            questions = []  # §5 A21 off: a charger missed by the charged figure's fire comes on without a test
        ctx.outcome = record(outcome)
        payload = {"shooter": shooter.key, "targets": [u.key for u in targets], "effects": effects,
                   "questions": questions, "return_fire": ret is not None, "result": outcome.result}  # fmt: skip
        if ret is not None and ctx.game.get("active") != shooter.side:
            payload["reaction"] = True  # an inactive figure's fire: it may still act at its own activation
        return [NewEvent("shot", payload, dice=outcome.dice)]

    @staticmethod
    def _questions(ctx, shooter, targets, effects) -> list[dict]:
        """A target that took no damage takes Received Fire: one question per fired-on group (L925–931)."""
        owed = [e["unit"] for e in effects if e["kind"] == "received_fire"]
        by_group: dict[str, list[str]] = {}
        for key in owed:
            by_group.setdefault(ctx.state.units[key].state["group"], []).append(key)
        return [
            {"kind": "received_fire", "side": ctx.state.units[keys[0]].side, "testers": keys, "group": group,
             "shooter": shooter.key, "shooter_outgun": outgun_of(shooter)}
            for group, keys in by_group.items()
        ]  # fmt: skip


class AnswerReaction(Cmd):
    name = "answer_reaction"
    label = N_("Take the reaction test")
    help = N_(
        "The fired-on group's player rolls the Received Fire test (or types in the table's dice) for the "
        "figures fired at."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "flank_or_rear": {"type": "array", "items": UNIT, "maxItems": 20, "description": "Fired on from the flank"},
            "hero_choices": {"type": "object", "maxProperties": 20,
                             "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 2}},
            # the board's question form: one choice for every figure fired on, one for the Heroes among them
            "fired_from": {"enum": ["front", "flank_or_rear"], "description": "Where the fire came from"},
            "hero_choice": {"enum": ["2", "1", "0"], "description": "A Hero's chosen result (L934)"},
        },
    }  # fmt: skip

    def handle(self, ctx, inputs):
        require_playing(ctx)
        pending = ctx.game["pending"]
        if not pending or pending[0]["kind"] != "received_fire":
            raise GameConflict(_("No reaction test is waiting."))
        q = pending[0]
        if q["side"] not in ctx.sides:
            raise GameConflict(_("This question is for the other player."))
        units = ctx.state.units
        testers = set(q["testers"])
        group = [u for u in units.values() if u.state["group"] == q["group"] and u.state["condition"] in (
            core.FINE, core.DUCK_BACK, core.KNOCKED_DOWN, core.HUNKER_DOWN)]  # fmt: skip
        flank = set(inputs.get("flank_or_rear", []))
        if inputs.get("fired_from") == "flank_or_rear":
            flank |= testers
        choices = dict(inputs.get("hero_choices", {}))
        if "hero_choice" in inputs:  # «"Герой" может выбрать свою реакцию» (L934): the Heroes fired on
            choices.update({k: int(inputs["hero_choice"]) for k in testers if units[k].state["hero"]})
        members = []
        for u in group:
            extra = {"tests": u.key in testers, "in_cover": u.state["in_cover"], "flank_or_rear": u.key in flank,
                     "moving": "fast" if u.state["fast_moved"] else ("normal" if u.state["moved"] else "none"),
                     "weapons": own_weapons(u), "can_fire": bool(u.state["weapon"]) and u.state["loaded"],
                     "active": ctx.game.get("active") == u.side}  # fmt: skip
            if u.key in choices:
                extra["hero_choice"] = choices[u.key]
            members.append(member(u, **extra))
        outcome = run_action(ctx, "received_fire", {"members": members, "shooter_outgun": q["shooter_outgun"]})
        roles = {f"members.{i}": u.key for i, u in enumerate(group)}
        effects = mapped(outcome, roles)
        back = {}
        for e in outcome.effects:
            if e["kind"] == "fires" and e["role"] in roles:
                at = None if e.get("at") == "any" else q["shooter"]
                back[roles[e["role"]]] = {"at": at, "rep_modifier": e["rep_modifier"]}
        ret = {"kind": "return_fire", "side": q["side"], "shooters": back} if back else None
        ctx.outcome = record(outcome)
        payload = {"group": q["group"], "testers": q["testers"], "effects": effects, "return_fire": ret,
                   "result": outcome.result}  # data only: the log describes it in the reader's language  # fmt: skip
        return [NewEvent("reaction", payload, dice=outcome.dice)]


class DeclineReturnFire(Cmd):
    name = "decline_return_fire"
    label = N_("Do not fire back")
    help = N_("The figures that may fire back do not (e.g. the shooter is out of sight now).")
    input_schema = NO_INPUTS

    def handle(self, ctx, inputs):
        pending = ctx.game["pending"]
        if not pending or pending[0]["kind"] != "return_fire":
            raise GameConflict(_("Nobody is waiting to fire back."))
        if pending[0]["side"] not in ctx.sides:
            raise GameConflict(_("This choice is for the other player."))
        return [NewEvent("return_fire.declined", {"shooters": sorted(pending[0]["shooters"])})]


class Recover(Cmd):
    name = "recover"
    label = N_("Recovery test")
    help = N_("A Knocked Down or Duck Back figure takes the Recovery test at its activation (L741–742, L990–991).")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit"],
        "properties": {"unit": UNIT, "hero_choice": {"type": "integer", "minimum": 0, "maximum": 2}},
    }

    def handle(self, ctx, inputs):
        require_playing(ctx)
        unit = ctx.own_unit(inputs["unit"])
        if ctx.game["pending"]:
            raise GameConflict(_("A reaction is pending: answer it first."))
        require_activation(ctx, unit)
        if unit.state["condition"] not in (core.KNOCKED_DOWN, core.DUCK_BACK):
            raise RuleInputError({"unit": _("{name} is {condition}: nothing to recover from.").format(
                name=unit.name, condition=words.outcome(unit.state["condition"]))})  # fmt: skip
        figure = {"name": unit.name, "rep": unit.state["rep"], "leader": unit.state["leader"],
                  "hero": unit.state["hero"], "state": unit.state["condition"]}  # fmt: skip
        if "hero_choice" in inputs:
            figure["hero_choice"] = inputs["hero_choice"]
        outcome = run_action(ctx, "recovery", {"figure": figure})
        ctx.outcome = record(outcome)
        effects = mapped(outcome, {"figure": unit.key})
        # data only (issue 13): the log renders result["text"] in the reader's language
        return [NewEvent("recovered", {"unit": unit.key, "effects": effects, "result": outcome.result},
                         dice=outcome.dice)]  # fmt: skip


class Reload(Cmd):
    name = "reload"
    label = N_("Reload")
    help = N_("A whole activation: it may move but not fire (L777–778); in a doubles turn anyone may reload.")
    input_schema = {"type": "object", "additionalProperties": False, "required": ["unit"], "properties": {"unit": UNIT}}

    def handle(self, ctx, inputs):
        require_playing(ctx)
        unit = ctx.own_unit(inputs["unit"])
        if not ctx.game.get("doubles"):
            require_activation(ctx, unit)
        if unit.state["condition"] != core.FINE:
            raise RuleInputError({"unit": _("{name} is {condition} and cannot reload.").format(
                name=unit.name, condition=words.outcome(unit.state["condition"]))})  # fmt: skip
        return [NewEvent("reloaded", {"unit": unit.key})]


class CoveringFire(Cmd):
    name = "covering_fire"
    label = N_("Covering fire")
    help = N_("A figure that did not move declares covering fire: +1 die on In Sight (L785–791).")
    input_schema = {"type": "object", "additionalProperties": False, "required": ["unit"], "properties": {"unit": UNIT}}

    def handle(self, ctx, inputs):
        require_playing(ctx)
        unit = ctx.own_unit(inputs["unit"])
        require_activation(ctx, unit)
        if unit.state["moved"]:
            raise RuleInputError({"unit": _("{name} moved this activation: no covering fire (L787).").format(
                name=unit.name)})  # fmt: skip
        return [NewEvent("covering_fire", {"unit": unit.key})]


class Move(Cmd):
    name = "move"
    label = N_("Record a move")
    help = N_("Record a move: where it ends (cover, prone) and whether it moved fast (after a Fast Move test).")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit"],
        "properties": {"unit": UNIT, "in_cover": {"type": "boolean"}, "prone": {"type": "boolean"},
                       "fast": {"type": "boolean"},
                       # the board's form: where it ends, how it moved, whose sight it came into (L598–601)
                       "ends": {"enum": ["open", "cover", "prone"]}, "pace": {"enum": ["normal", "fast"]},
                       "seen_by": {"type": "string", "maxLength": 80}},
    }  # fmt: skip

    def handle(self, ctx, inputs):
        require_playing(ctx)
        unit = ctx.own_unit(inputs["unit"])
        require_activation(ctx, unit)
        if unit.state["condition"] != core.FINE:
            raise RuleInputError({"unit": _("{name} is {condition} and cannot move.").format(
                name=unit.name, condition=words.outcome(unit.state["condition"]))})  # fmt: skip
        ends = inputs.get("ends")
        payload = {"unit": unit.key, "in_cover": bool(inputs.get("in_cover")) or ends == "cover",
                   "prone": bool(inputs.get("prone")) or ends == "prone",
                   "fast": bool(inputs.get("fast")) or inputs.get("pace") == "fast"}  # fmt: skip
        if inputs.get("seen_by"):
            payload["question"] = self._in_sight(ctx, unit, inputs["seen_by"])
        return [NewEvent("moved", payload)]

    @staticmethod
    def _in_sight(ctx, mover, group: str) -> dict:
        """«Каждый раз, когда противник … входит в ее поле видимости, эта фигурка проходит тест» (L598–601): the
        enemy group it came into sight of takes «В ПОЛЕ ВИДИМОСТИ», asked of its player."""
        testers = [
            u for u in ctx.state.units.values() if u.state["group"] == group and u.state["condition"] == core.FINE
        ]
        if not testers or testers[0].side == mover.side:
            raise RuleInputError({"seen_by": _("Pick an enemy group with a figure in normal state.")})
        return {"kind": "in_sight", "side": testers[0].side, "testers": [u.key for u in testers], "group": group,
                "mover": mover.key}  # fmt: skip


class EndActivation(Cmd):
    name = "end_activation"
    label = N_("End this side's activation")
    help = N_("The next side acts; after the last one the turn ends and the dice are rolled again (L432–436).")
    input_schema = NO_INPUTS

    def handle(self, ctx, inputs):
        require_playing(ctx)
        if ctx.game["pending"]:
            raise GameConflict(_("A reaction is pending: answer it first."))
        if ctx.game.get("phase") != "acting":
            raise GameConflict(_("Roll the activation dice first."))
        active = ctx.game.get("active")
        if ctx.settings.get("enforce_turns") and active is not None and active not in ctx.sides:
            raise GameConflict(_("{side} is active: only its player ends its activation.").format(
                side=side_name(ctx.game, active)))  # fmt: skip
        payload = {"side": active}
        due = stay_or_run_due(ctx.game, ctx.settings)
        if due:
            payload["stay_or_run"] = due
        return [NewEvent("activation.ended", payload)]


def stay_or_run_due(game: dict, settings: dict) -> list[dict]:
    """«Каждый раз, когда на конец активации ваша сторона достигает этого количества потерь» (L1189–1190): the
    sides whose casualties reached another threshold since their last test, each asked in turn."""
    sets = system_settings(settings)
    due = []
    for side, initial in sorted((game.get("initial") or {}).items()):
        lost = (game.get("casualties") or {}).get(side, 0)
        tested = (game.get("stay_or_run_at") or {}).get(side, 0)
        asked = any(q["kind"] == "stay_or_run" and str(q["side"]) == side for q in game.get("pending") or [])
        if initial > 0 and not asked and core.stay_or_run_tests_due(initial, lost, tested, sets) > 0:
            due.append({"side": int(side), "casualties": lost, "initial": initial})
    return due


class RollTable(Cmd):
    name = "test"
    label = N_("Roll any table")
    help = N_(
        "Any of the book's tests (In Sight, melee, grenades, Stay or Run…) with its own inputs; the result is "
        "logged and its changes are made with «Set a figure»."
    )
    free = True
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["action", "inputs"],
        "properties": {"action": {"enum": sorted(ACTIONS)}, "inputs": {"type": "object"}},
    }

    def handle(self, ctx, inputs):
        outcome = run_action(ctx, inputs["action"], inputs["inputs"])
        ctx.outcome = record(outcome)
        return [NewEvent("tested", {"action": inputs["action"], "effects": [], "result": outcome.result},
                         dice=outcome.dice)]  # fmt: skip


class SetState(Cmd):
    name = "set_state"
    label = N_("Set a figure")
    help = N_("A ruling by hand: condition, prone, loaded, cover, Hero… of one figure.")
    free = True
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit", "changes"],
        "properties": {
            "unit": UNIT,
            "changes": {
                "type": "object",
                "additionalProperties": False,
                "minProperties": 1,
                "properties": {
                    "condition": {"enum": list(core.CONDITIONS)},
                    **{k: {"type": "boolean"} for k in ("prone", "loaded", "in_cover", "hero", "covering_fire",
                                                        "stopped_fighting")},
                },
            },
        },
    }  # fmt: skip

    def handle(self, ctx, inputs):
        unit = ctx.own_unit(inputs["unit"])
        return [NewEvent("state.set", {"unit": unit.key, "changes": inputs["changes"]})]


class EndBattle(Cmd):
    name = "end_battle"
    label = N_("End the battle")
    help = N_("By points (§1.9): the side with more points still standing wins.")
    free = True
    input_schema = NO_INPUTS

    def handle(self, ctx, inputs):
        require_playing(ctx)
        points: dict[int, int] = {}
        for u in ctx.state.units.values():
            standing = u.state["condition"] not in core.GONE
            if system_settings(ctx.settings).get("victory_points_count") == "fine_only":
                standing = u.state["condition"] == core.FINE
            points[u.side] = points.get(u.side, 0) + (u.state["cost"] if standing else 0)
        best = max(points.values())
        leaders = [s for s, p in points.items() if p == best]
        winner = leaders[0] if len(leaders) == 1 else None
        why = N_("more points still standing")  # a msgid: the banner and the log translate it with the points
        return [
            NewEvent("battle.ended", {"winner": winner, "why": why, "points": {str(k): v for k, v in points.items()}})
        ]


COMMANDS = {
    c.name: c
    for c in (
        RollActivation(),
        Shoot(),
        AnswerReaction(),
        DeclineReturnFire(),
        Recover(),
        Reload(),
        CoveringFire(),
        Move(),
        EndActivation(),
        RollTable(),
        SetState(),
        EndBattle(),
    )
}
