"""The commands a player of «Отряды» sends from the board. Each handler is pure: it reads the state, resolves the
book's test through the actions (dice from ctx.dice(): server-rolled or typed in) and answers events.

A turn: start_turn (initiative, §3.1) → the side holding the initiative activates a unit (activate, or withdraw
for a unit locked in melee) → on success it declares one action (act) and ends with shoot, assault or done → on a
failure the initiative passes. After a shot the chooser (the target's owner) answers split_hits.
"""

from __future__ import annotations

import copy
import re

from rules.contract import Command, CommandContext, Event, GameConflict, NewEvent, NotYours, RuleInputError
from rules.i18n import N_, _
from rules.systems.squads import tables
from rules.systems.squads.actions import ACTIONS
from rules.systems.squads.battle import fold
from rules.systems.squads.battle import units as U

UNIT = {"type": "string", "maxLength": 80}
DISTANCE = {"type": "number", "minimum": 0, "maximum": 2000}
FIRE_FACTS = {
    "distance": DISTANCE,
    "cover": {"enum": list(tables.COVER), "description": "The cover the target's figures stand in"},
    "edge_figures": {"type": "integer", "minimum": 0, "maximum": 50},
    "facing": {"enum": list(tables.FACINGS)},
    "line_of_sight": {"type": "boolean"},
    "weapons": {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 10},
}


def _typed(prop: dict, text: str):
    """A board form's text as the schema's type: "true"/"false", a whole number, one weapon number of a list."""
    kinds = prop.get("type") if isinstance(prop.get("type"), list) else [prop.get("type")]
    if "boolean" in kinds and text in ("true", "false"):
        return text == "true"
    if "integer" in kinds and re.fullmatch(r"-?\d{1,6}", text):
        return int(text)
    if "array" in kinds and re.fullmatch(r"\d{1,6}", text):
        return [int(text)]
    return text


def from_form(schema: dict, inputs: dict) -> dict:
    """The inputs a board form sends (templates/battles/widgets: a choice is text, a field of an object is named
    "modifiers.1") in the shape of the command's schema; anything else is left for the schema to refuse."""
    props = schema.get("properties") or {}
    out: dict = {}
    for key, value in inputs.items():
        head, dot, rest = key.partition(".") if isinstance(key, str) else (key, "", "")
        if dot and rest and (props.get(head) or {}).get("type") == "object" and isinstance(out.get(head, {}), dict):
            out.setdefault(head, {})[rest] = value
        else:
            out[key] = value
    for key, prop in props.items():
        if isinstance(out.get(key), str) and isinstance(prop, dict):
            out[key] = _typed(prop, out[key])
        elif (
            isinstance(out.get(key), dict)
            and isinstance(prop, dict)
            and isinstance(prop.get("additionalProperties"), dict)
        ):
            out[key] = {
                k: _typed(prop["additionalProperties"], v) if isinstance(v, str) else v for k, v in out[key].items()
            }
    return out


class BoardCommand(Command):
    """A command the board's forms send: their texts are read as the schema's types first (from_form)."""

    def validate(self, inputs) -> dict:
        if isinstance(inputs, dict):
            inputs = from_form(self.input_schema, inputs)
        return super().validate(inputs)


def with_end(ctx: CommandContext, events: list[NewEvent]) -> list[NewEvent]:
    """The book has no victory conditions (spec §0): when these events leave one side alone with units in the
    game, the battle is over and that side has won (a melee that takes the last figures of both: a draw)."""
    if ctx.game.get("result") is not None or len(ctx.game["sides"]) < 2:
        return events
    after = copy.deepcopy(ctx.state)
    for new in events:
        fold.apply(after, Event(0, new.type, new.payload, new.side, new.visible_to))
    standing = {ctx.owner(k) for k, u in after.units.items() if U.alive(u.state)}
    if len(standing) > 1:
        return events
    winner = next(iter(standing)) if standing else None
    return [*events, NewEvent("game.ended", {"winner": winner, "reason": "destroyed"})]


def run(ctx: CommandContext, key: str, inputs: dict):
    """Resolves one of the book's tests with this battle's settings and the command's dice."""
    return ACTIONS[key].resolve(inputs, U.system_settings(ctx.settings), ctx.dice())


def show(ctx: CommandContext, outcome) -> None:
    ctx.outcome = {"summary": outcome.summary, "steps": outcome.steps, "dice": outcome.dice, "result": outcome.result}


def require_playing(ctx: CommandContext) -> None:
    if not ctx.game["turn"]:
        raise GameConflict(_("Start the first turn: roll the initiative (§3.1)."))


def acting_unit(ctx: CommandContext, key, *phases: str):
    unit = ctx.own_unit(key)
    if ctx.game.get("acting") != unit.key:
        raise GameConflict(_("{unit} is not the unit acting now.").format(unit=unit.name))
    if phases and ctx.game.get("phase") not in phases:
        wanted = {"declare": N_("{unit} cannot do that now: declare its action first."),
                  "fire": N_("{unit} cannot do that now: it did not choose Walk or Aimed Fire."),
                  "assault": N_("{unit} cannot do that now: it did not choose Assault."),
                  "move": N_("{unit} cannot do that now: its action has no fire.")}  # fmt: skip
        text = wanted.get(phases[0], N_("{unit} cannot do that now."))
        raise GameConflict(_(text).format(unit=unit.name))
    return unit


def enemy_of(ctx: CommandContext, unit, key, field: str = "target"):
    target = ctx.unit(key, field_name=field)
    if ctx.owner(target.key) == ctx.owner(unit.key):
        raise RuleInputError({field: _("{unit} is on your own side.").format(unit=target.name)})
    if not U.alive(target.state):
        raise RuleInputError({field: _("{unit} is out of the game.").format(unit=target.name)})
    return target


def player_names(game: dict) -> dict[int, str]:
    """Each side by its roster's or player's name (the initiative's dice and lines say it); a name two sides
    share gets the side's number."""
    names = {s: str(game.get("side_names", {}).get(str(s)) or s) for s in game["sides"]}
    twice = {n for n in names.values() if list(names.values()).count(n) > 1}
    return {s: f"{n} ({s + 1})" if n in twice else n for s, n in names.items()}


class StartTurn(BoardCommand):
    name = "start_turn"
    label = N_("Start the turn")
    help = N_("Each player rolls d6 + scenario modifiers, ties re-rolled (L12); ongoing melees are fought first (L42).")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "modifiers": {"type": "object", "additionalProperties": {"type": "integer", "minimum": -5, "maximum": 5}}
        },
    }

    def plan(self, ctx, inputs) -> dict:
        """The Initiative action's inputs: every side by its name with the scenario's modifier (L12)."""
        game = ctx.game
        if game["turn"] and U.side_to_act(ctx.state) is not None:
            raise GameConflict(_("Units still have to try to activate this turn (L12)."))
        if game.get("acting"):
            raise GameConflict(_("A unit is still acting: finish it first."))
        mods = inputs.get("modifiers") or {}
        named = player_names(game)
        return {"players": [{"name": named[s], "modifier": int(mods.get(str(s), 0))} for s in game["sides"]]}

    def handle(self, ctx, inputs):
        game = ctx.game
        named = player_names(game)
        outcome = run(ctx, "initiative", self.plan(ctx, inputs))
        show(ctx, outcome)
        r = outcome.result
        side = {name: s for s, name in named.items()}
        initiative = {"first": side[r["first"]], "order": [side[n] for n in r["order"]],
                      "pass_order": [side[n] for n in r["pass_order"]], "rolls": r["rolls"]}  # fmt: skip
        payload = {"turn": game["turn"] + 1, "initiative": initiative, "melee_due": [list(m) for m in game["melees"]]}
        return [NewEvent("turn.started", payload, dice=outcome.dice)]


class Activate(BoardCommand):
    name = "activate"
    label = N_("Activate a unit")
    help = N_("d6 against the unit's «Активация» with its modifiers (§3.2); a failure passes the initiative.")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit"],
        "properties": {
            "unit": UNIT,
            "sees_enemy": {"type": "boolean", "description": "false: +1, no enemy in sight (L14)"},
            "out_of_coherency": {"type": "integer", "minimum": 0, "maximum": 50},
            "nearest_enemy": UNIT,
            "nearest_visible_enemy": UNIT,
        },
    }

    def plan(self, ctx, inputs):
        """The unit and the Activation action's facts of it, after every check the roll needs (L12–14, L42)."""
        require_playing(ctx)
        unit = ctx.own_unit(inputs["unit"])
        settings = U.system_settings(ctx.settings)
        if ctx.game.get("acting"):
            raise GameConflict(_("Another unit is acting: finish it first."))
        if U.side_to_act(ctx.state) != ctx.owner(unit.key):
            raise GameConflict(_("The other side holds the initiative now."))
        if unit.state["attempted"] or not U.alive(unit.state):
            raise GameConflict(_("{unit} has already tried to activate this turn.").format(unit=unit.name))
        if U.locked(unit.state, settings):
            raise GameConflict(
                _("{unit} is locked in melee: its only activation is a withdrawal (L42).").format(unit=unit.name)
            )
        facts = U.activation_inputs(unit, sees_enemy=inputs.get("sees_enemy", True),
                                    out_of_coherency=inputs.get("out_of_coherency", 0))  # fmt: skip
        for key in ("nearest_enemy", "nearest_visible_enemy"):
            if key in inputs:
                facts[key] = ctx.unit(inputs[key], field_name=key).name
        return unit, facts

    def handle(self, ctx, inputs):
        unit, facts = self.plan(ctx, inputs)
        outcome = run(ctx, "activation", {"unit": facts})
        show(ctx, outcome)
        r = outcome.result
        passes = None if r["success"] else U.next_side(ctx.state, ctx.owner(unit.key))
        payload = {"unit": unit.key, "success": r["success"], "die": r["die"], "need": r["need"],
                   "modifier": r["modifier"], "consequence": r.get("consequence"), "passes_to": passes,
                   "suppression_cleared": facts.get("suppressed", 0)}  # fmt: skip
        return [NewEvent("activation.rolled", payload, dice=outcome.dice)]


class Act(BoardCommand):
    name = "act"
    label = N_("Declare the action")
    help = N_("One of the seven actions (§3.3), or a vehicle's move (L77).")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit", "action"],
        "properties": {
            "unit": UNIT,
            "action": {"enum": [*tables.ACTIONS, *tables.VEHICLE_MOVES]},
            "moved": DISTANCE,
        },
    }

    def handle(self, ctx, inputs):
        unit = acting_unit(ctx, inputs["unit"], "declare")
        action = inputs["action"]
        moved = {"moved": inputs["moved"]} if "moved" in inputs else {}
        if unit.state["kind"] == "vehicle":
            if action not in tables.VEHICLE_MOVES:
                raise RuleInputError(
                    {"action": _("A vehicle moves: stationary, open, light_cover or medium_cover (L77).")}
                )
            working = sum(1 for w in unit.state["weapons"] if not w["destroyed"])
            vehicle = {"armour": unit.state["armour"], "immobilised": unit.state["immobilised"], "weapons": working}
            distance = {"distance": inputs["moved"]} if "moved" in inputs else {}
            outcome = run(ctx, "vehicle_move", {"vehicle": vehicle, "move": action, **distance})
        else:
            if action not in tables.ACTIONS:
                raise RuleInputError(
                    {"action": _("A squad takes one of: {actions} (L17–24).").format(actions=", ".join(tables.ACTIONS))}
                )
            outcome = run(ctx, "unit_action", {"action": action, **moved})
        show(ctx, outcome)
        return [NewEvent("action.chosen", {"unit": unit.key, "action": action, **moved})]


def shooting_inputs(ctx, shooter, target, inputs: dict, *, action: str | None) -> dict:
    """The Shooting action's inputs from the board: the shooter's figures (or a vehicle's weapons) that can fire at
    that range, the target's figures in the cover the player declared, or a vehicle's armour and facing."""
    settings = U.system_settings(ctx.settings)
    distance = inputs["distance"]
    groups = U.fire_groups(shooter, distance, settings, action=action, weapons=inputs.get("weapons"))
    if not groups:
        raise RuleInputError({"distance": _("Nothing of {shooter} can fire at {target} from there: out of range, "
                                            "suppressed, or not allowed with this action.").format(
                                              shooter=shooter.name, target=target.name)})  # fmt: skip
    if "line_of_sight" in inputs:
        for g in groups:
            g["line_of_sight"] = inputs["line_of_sight"]
    s = shooter.state
    shooter_in = {"kind": s["kind"], "name": shooter.name, "level": s["level"], "groups": groups}
    if s["kind"] == "vehicle":
        shooter_in["vehicle_move"] = s["stance"] if s["stance"] in tables.VEHICLE_MOVES else "stationary"
    else:
        shooter_in["action"] = action
    if target.state["kind"] == "vehicle":
        target_in = {"kind": "vehicle", "name": target.name, "armour": target.state["armour"],
                     "facing": inputs.get("facing", "side")}  # fmt: skip
    else:
        target_in = {
            "kind": "squad",
            "name": target.name,
            "groups": U.target_groups(target, inputs.get("cover", "none")),
        }
        stance = target.state.get("stance")
        if stance in ("crouch", "go_to_ground"):
            target_in["stance"] = stance
        if "edge_figures" in inputs:
            target_in["edge_figures"] = inputs["edge_figures"]
    return {"shooter": shooter_in, "target": target_in}


def shot_event(ctx, shooter, target, outcome, *, reaction: bool) -> NewEvent:
    split = next((e for e in outcome.effects if e["kind"] == "hits_to_split"), None)
    payload = {"shooter": shooter.key, "target": target.key, "reaction": reaction,
               "hits": outcome.result["hits"], "unsaved": outcome.result.get("unsaved", 0)}  # fmt: skip
    if split:
        owner = ctx.owner(target.key)
        chooser = owner if split["chooser"] == "target" else ctx.owner(shooter.key)
        payload["split"] = {"target": target.key, "side": owner, "chooser_side": chooser, "unsaved": split["unsaved"],
                            "allocatable": split.get("allocatable"), "shooter": shooter.key}  # fmt: skip
    kinds = ("crew_stunned", "weapon_destroyed", "immobilised", "destroyed")
    payload["vehicle_effects"] = [e["kind"] for e in outcome.effects if e["kind"] in kinds]
    return NewEvent("shot", payload, dice=outcome.dice)


class Shoot(BoardCommand):
    name = "shoot"
    label = N_("Shoot")
    help = N_("Every figure that can fire at the target from that distance (§3.5); its owner then splits the hits.")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit", "target", "distance"],
        "properties": {"unit": UNIT, "target": UNIT, **FIRE_FACTS},
    }

    def plan(self, ctx, inputs):
        shooter = acting_unit(ctx, inputs["unit"], "fire")
        target = enemy_of(ctx, shooter, inputs["target"])
        action = None if shooter.state["kind"] == "vehicle" else shooter.state["stance"]
        return shooter, target, shooting_inputs(ctx, shooter, target, inputs, action=action)

    def handle(self, ctx, inputs):
        shooter, target, fire = self.plan(ctx, inputs)
        outcome = run(ctx, "shooting", fire)
        show(ctx, outcome)
        return with_end(ctx, [shot_event(ctx, shooter, target, outcome, reaction=False)])


class React(BoardCommand):
    name = "react"
    label = N_("On Guard: fire")
    help = N_("A unit On Guard fires once a turn at an enemy unit that acts within its reach (L21, §5 B13).")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit", "distance"],
        "properties": {"unit": UNIT, "target": UNIT, **FIRE_FACTS},
    }

    def plan(self, ctx, inputs):
        """The reacting unit, its target and the Shooting action's inputs of the reaction (L21, §5 B13)."""
        require_playing(ctx)
        unit = ctx.own_unit(inputs["unit"])
        window = ctx.game.get("window")
        if not window:
            raise GameConflict(_("No enemy unit is acting now: On Guard fires at an enemy's action."))
        timing = "declared" if U.system_settings(ctx.settings)["on_guard_timing"] == "interrupt" else "resolved"
        if window["timing"] != timing:
            raise GameConflict(_("On Guard fires after the enemy declares its action, before it is resolved (§5 B13).")
                               if timing == "declared" else _("On Guard fires once the enemy's action is done."))  # fmt: skip
        target = enemy_of(ctx, unit, inputs.get("target", window["unit"]))
        if target.key != window["unit"]:
            raise RuleInputError(
                {"target": _("On Guard answers the unit that acts: {unit}.").format(unit=ctx.unit(window["unit"]).name)}
            )
        if not unit.state["on_guard"]:
            raise GameConflict(_("{unit} is not On Guard.").format(unit=unit.name))
        reaction = {"enemy_action": window["timing"], "used_this_turn": unit.state["reaction_used"]}
        fire = shooting_inputs(ctx, unit, target, inputs, action="on_guard")
        if unit.state["kind"] == "vehicle":
            fire["shooter"]["vehicle_move"] = "stationary"
        else:
            fire["reaction"] = reaction
        if unit.state["reaction_used"]:
            raise GameConflict(_("{unit} already reacted this turn (L21).").format(unit=unit.name))
        return unit, target, fire

    def handle(self, ctx, inputs):
        unit, target, fire = self.plan(ctx, inputs)
        outcome = run(ctx, "shooting", fire)
        show(ctx, outcome)
        return with_end(ctx, [shot_event(ctx, unit, target, outcome, reaction=True)])


class SplitHits(BoardCommand):
    name = "split_hits"
    label = N_("Split the unsaved hits")
    help = N_("Suppressed figures (up to the training limit) and casualties; none is both (L28, L31).")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["suppress"],
        "properties": {
            "suppress": {"type": "integer", "minimum": 0, "maximum": 300},
            "suppressed": {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 50},
            "casualties": {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 50},
        },
    }

    def handle(self, ctx, inputs):
        pending = ctx.game.get("pending_split")
        if not pending:
            raise GameConflict(_("No hits wait to be split."))
        if pending["chooser_side"] not in ctx.sides:
            raise NotYours(_("The other player splits these hits."))
        target = ctx.unit(pending["target"])
        settings = U.system_settings(ctx.settings)
        facts = {"kind": "squad", "level": target.state["level"], "figures": len(U.standing(target.state)),
                 "suppressed": len(U.suppressed(target.state))}  # fmt: skip
        if pending.get("allocatable") is not None:
            facts["allocatable"] = pending["allocatable"]
        outcome = run(
            ctx, "split_hits", {"unsaved": pending["unsaved"], "suppress": inputs["suppress"], "target": facts}
        )
        show(ctx, outcome)
        chosen = self._figures(target, inputs, outcome.result, settings)
        return with_end(ctx, [NewEvent("hits.split", {"target": target.key, **chosen})])

    @staticmethod
    def _figures(target, inputs, split: dict, settings: dict) -> dict:
        state = target.state
        standing = {f["n"]: f for f in U.standing(state)}
        sup = inputs.get("suppressed")
        if sup is None:
            sup = U.pick_figures(state, split["suppressed"], exclude=set(), unsuppressed=True)
        elif len(sup) != split["suppressed"] or len(set(sup)) != len(sup):
            raise RuleInputError(
                {"suppressed": _("Name {n} different figure(s) to suppress.").format(n=split["suppressed"])}
            )
        for n in sup:
            if n not in standing or standing[n]["suppressed"]:
                raise RuleInputError(
                    {"suppressed": _("Figure {n} is not a standing, unsuppressed figure.").format(n=n)}
                )
        strict = settings["suppressed_then_casualty"] == "never_while_suppressed"
        cas = inputs.get("casualties")
        if cas is None:
            cas = U.pick_figures(state, split["casualties"], exclude=set(sup), unsuppressed=strict)
        elif len(cas) != split["casualties"] or len(set(cas)) != len(cas):
            raise RuleInputError(
                {"casualties": _("Name {n} different figure(s) as casualties.").format(n=split["casualties"])}
            )
        for n in cas:
            if n not in standing or n in sup or (strict and standing[n]["suppressed"]):
                raise RuleInputError(
                    {"casualties": _("Figure {n} cannot be a casualty of this fire (L28, §5 B4).").format(n=n)}
                )
        return {"suppressed": sorted(sup), "casualties": sorted(cas)}


class Done(BoardCommand):
    name = "done"
    label = N_("End the unit's activation")
    help = N_("The acting unit has moved (and fired, or not): the next unit may try.")
    input_schema = {"type": "object", "additionalProperties": False, "required": ["unit"], "properties": {"unit": UNIT}}

    def handle(self, ctx, inputs):
        unit = acting_unit(ctx, inputs["unit"], "fire", "move", "assault")
        return [NewEvent("activation.done", {"unit": unit.key})]


class LoseWeapon(BoardCommand):
    name = "lose_weapon"
    label = N_("Choose the weapon lost")
    help = N_("«Уничтожено оружие (по выбору хозяина)»: the vehicle's owner picks it (L87).")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["weapon"],
        "properties": {"weapon": {"type": "integer", "minimum": 1}},
    }

    def handle(self, ctx, inputs):
        loss = ctx.game.get("pending_weapon_loss")
        if not loss:
            raise GameConflict(_("No weapon is to be lost."))
        vehicle = ctx.own_unit(loss["unit"])
        working = [w["n"] for w in vehicle.state["weapons"] if not w["destroyed"]]
        if inputs["weapon"] not in working:
            raise RuleInputError(
                {
                    "weapon": _("Choose one of the working weapons: {numbers}.").format(
                        numbers=", ".join(map(str, working))
                    )
                }
            )
        return [NewEvent("weapon.lost", {"unit": vehicle.key, "n": inputs["weapon"]})]


class EndGame(BoardCommand):
    name = "end"
    label = N_("End the battle")
    help = N_("The book has no victory conditions: the players end the battle and say who won (or nobody).")
    free = True
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "winner": {"type": ["integer", "null"], "minimum": 0},
            "reason": {"type": "string", "maxLength": 200},
        },
    }

    def handle(self, ctx, inputs):
        winner = inputs.get("winner")
        if winner is not None and winner not in ctx.game["sides"]:
            raise RuleInputError({"winner": _("No side {side} in this battle.").format(side=winner)})
        return [NewEvent("game.ended", {"winner": winner, "reason": inputs.get("reason", "agreed")})]
