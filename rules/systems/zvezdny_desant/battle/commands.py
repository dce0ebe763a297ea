"""The commands players send during a battle. Each handler is pure: it reads the state, rolls through ctx.dice()
(server dice or dice typed in from the table) and answers events; the fold (fold.py) applies them.

Turn (§1.3): start_turn (First Player roll) → give_orders from both sides in secret → the public reveal → act, unit
by unit in initiative order → fight each melee → end_turn. After the last turn (5 by default) the game ends with
victory points. mark and end_game are accepted at any time (rulings by hand).
"""

from __future__ import annotations

import copy

from rules import dice as dicelib
from rules.contract import Command, CommandContext, Event, GameConflict, NewEvent, RuleInputError
from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.actions.common import roll_off
from rules.systems.zvezdny_desant.actions.melee import Melee, strike_dice
from rules.systems.zvezdny_desant.actions.orders import OrderCards
from rules.systems.zvezdny_desant.actions.shooting import Shooting
from rules.systems.zvezdny_desant.battle import rules

UNIT = {"type": "string", "minLength": 1, "maxLength": 80}
COUNT = {"type": "integer", "minimum": 0, "maximum": 50}
NO_INPUTS = {"type": "object", "properties": {}, "additionalProperties": False}


def _enemy(ctx: CommandContext, key, field: str, of_side: int):
    unit = ctx.unit(key, field_name=field)
    if unit.side == of_side:
        raise RuleInputError({field: _("{name} is a unit of your own side.").format(name=unit.name)})
    if not rules.alive(unit):
        raise RuleInputError({field: _("{name} is already destroyed.").format(name=unit.name)})
    return unit


def _event(seq: int, new: NewEvent) -> Event:
    return Event(seq, new.type, new.payload, new.side, new.visible_to)


class StartTurn(Command):
    name = "start_turn"
    label = N_("Start of the turn: First Player")
    help = N_("Both players roll D20; the higher is First Player this turn (L152–156). Ties: §5 A6.")
    input_schema = NO_INPUTS

    def handle(self, ctx, inputs):
        dice = ctx.dice()
        previous = ctx.game.get("previous_first")
        sides = [rules.side_name(ctx.game, s) for s in rules.SIDES]
        rolled = roll_off(dice, sides, ctx.system_settings, N_("First Player roll"), previous=previous)
        dice.finish()
        payload = {"turn": ctx.game["turn"], "first_player": rolled["winner"], "rolls": rolled["rounds"],
                   "kept": rolled["kept"]}  # fmt: skip
        first = rules.side_name(ctx.game, rolled["winner"])
        ctx.outcome = {"summary": _("{side} is the First Player.").format(side=first), **payload}
        return [NewEvent("turn_started", payload, dice=dice.as_list())]


class GiveOrders(Command):
    name = "give_orders"
    label = N_("Orders")
    help = N_(
        "Your orders for this turn, in secret: every unit not in melee and not panicked gets «Move», «Defence» "
        "or «Attack» and an initiative; the initiatives spend all your command points (10 in «Skirmish»)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "patternProperties": {  # the phone's order form sends one flat field per unit: "<unit>:order", "<unit>:initiative"
            "^[^:]{1,80}:order$": {"enum": list(tables.ORDERS)},
            "^[^:]{1,80}:initiative$": {"type": "integer", "minimum": 0, "maximum": 100},
        },
        "properties": {
            "orders": {
                "type": "array",
                "maxItems": 24,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["unit", "order", "initiative"],
                    "properties": {
                        "unit": UNIT,
                        "order": {"enum": list(tables.ORDERS)},
                        "initiative": {"type": "integer", "minimum": 0, "maximum": 100},
                    },
                },
            }
        },
    }

    @staticmethod
    def cards(inputs: dict) -> list[dict]:
        """The orders as a list, from either form of the inputs."""
        if "orders" in inputs:
            return inputs["orders"]
        keys = dict.fromkeys(k.rsplit(":", 1)[0] for k in inputs)
        missing = [f"{k}:{f}" for k in keys for f in ("order", "initiative") if f"{k}:{f}" not in inputs]
        if missing:
            raise RuleInputError({missing[0]: _("This field is required.")})
        return [{"unit": k, "order": inputs[f"{k}:order"], "initiative": inputs[f"{k}:initiative"]} for k in keys]

    def handle(self, ctx, inputs):
        side = ctx.one_side()
        eligible = rules.eligible_for_orders(ctx.state, side)
        given = {}
        for i, card in enumerate(self.cards(inputs)):
            unit = ctx.own_unit(card["unit"], field_name=f"orders.{i}.unit")
            if unit.key not in eligible:
                raise RuleInputError(
                    {
                        f"orders.{i}.unit": _(
                            "{name} gets no order now (destroyed, in melee or panicked, L228)."
                        ).format(name=unit.name)
                    }
                )
            if unit.key in given:
                raise RuleInputError({f"orders.{i}.unit": _("{name} has two orders.").format(name=unit.name)})
            given[unit.key] = {"order": card["order"], "initiative": card["initiative"]}
        missing = [ctx.state.units[k].name for k in eligible if k not in given]
        if missing:
            raise RuleInputError({"orders": _("Every unit needs an order (L226): ") + ", ".join(missing) + "."})
        cards = [{"unit": k, **v} for k, v in given.items()]
        OrderCards().validate(  # the command-point rules of the order_cards action (L216–220, A7)
            {"units": cards, "command_points": ctx.game["cp"]}, ctx.system_settings
        )
        spent = sum(c["initiative"] for c in cards)
        if spent > ctx.game["cp"]:
            raise RuleInputError(
                {
                    "orders": _("{spent} command points spent: you have {cp} (L216).").format(
                        spent=spent, cp=ctx.game["cp"]
                    )
                }
            )
        events = [NewEvent("orders_given", {"side": side, "orders": given}, visible_to=(side,))]
        ctx.outcome = {"summary": _("Orders given in secret."), "orders": given}
        others = set(rules.SIDES) - {side} - set(ctx.game["ordered"])
        if not others:  # both sides have ordered: all cards are turned face up (L248)
            everything = {k: v for s, orders in ctx.game["orders"].items() if int(s) != side for k, v in orders.items()}
            everything.update(given)
            events.append(NewEvent("orders_revealed", {"orders": everything, "first_player": ctx.game["first_player"]}))
        return events


ACT_SHOOT = {
    "anyOf": [
        {"type": "null"},
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["target"],
            "properties": {
                "target": UNIT,
                "cover": {"enum": list(tables.COVERS), "default": "open", "description": N_("The target unit's cover")},
                "hidden": {
                    **COUNT,
                    "default": 0,
                    "description": N_("Target figures out of sight or range: cannot die"),
                },
                "distance": {
                    "type": "number",
                    "minimum": 0,
                    "maximum": 500,
                    "description": N_("Steps to the target; weapons whose Rng is shorter cannot hit"),
                },
                "out_of_command_distance": {**COUNT, "default": 0, "description": N_("Own figures that cannot shoot")},
                "modifier": {"type": "integer", "minimum": -20, "maximum": 20, "default": 0},
            },
        },
    ]
}
ACT_ASSAULT = {
    "anyOf": [
        {"type": "null"},
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["target"],
            "properties": {
                "target": UNIT,
                "engaged": {"type": "boolean", "default": True, "description": N_("A figure came within 3 steps")},
                "also": {"type": "array", "maxItems": 10, "items": UNIT, "default": [],
                         "description": N_("Other enemy units within 3 steps at the end of the charge (A24)")},
            },
        },
    ]
}  # fmt: skip


class Act(Command):
    name = "act"
    label = N_("Carry out the order")
    help = N_(
        "The unit whose turn it is carries out its order: «Defence» stays (and may shoot), «Move» moves (and "
        "may assault), «Attack» may move, shoot and assault. Shooting rolls the hit and wound tests."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit"],
        "properties": {
            "unit": UNIT,
            "move": {"type": "boolean", "default": False},
            "shoot": ACT_SHOOT,
            "assault": ACT_ASSAULT,
            # The phone's form sends flat fields instead (battle/view.py): what the unit does, a target, its cover.
            "do": {"enum": ["stay", "shoot", "move", "move_shoot", "assault", "shoot_assault"]},
            "target": UNIT,
            "cover": {"enum": list(tables.COVERS)},
            "distance": {"type": "number", "minimum": 0, "maximum": 500},
            "hidden": COUNT,
            "reached": {"enum": ["yes", "no"]},
        },
    }

    @staticmethod
    def from_form(inputs: dict) -> dict:
        """The flat form's fields as move/shoot/assault (the target and cover count only where they are used)."""
        flat = ("target", "cover", "distance", "hidden", "reached")
        if "do" not in inputs:
            if any(k in inputs for k in flat):
                raise RuleInputError({"do": _("Say what the unit does with its target.")})
            return inputs
        if any(k in inputs for k in ("move", "shoot", "assault")):
            raise RuleInputError({"do": _("Send either the form's fields or move/shoot/assault, not both.")})
        do = inputs["do"]
        out = {"unit": inputs["unit"], "move": do in ("move", "move_shoot")}
        if do in ("shoot", "move_shoot", "assault", "shoot_assault") and "target" not in inputs:
            raise RuleInputError({"target": _("Choose a target.")})
        if do in ("shoot", "move_shoot", "shoot_assault"):
            out["shoot"] = {"target": inputs["target"], "cover": inputs.get("cover", "open"),
                            **{k: inputs[k] for k in ("distance", "hidden") if k in inputs}}  # fmt: skip
        if do in ("assault", "shoot_assault"):
            out["assault"] = {"target": inputs["target"], "engaged": inputs.get("reached", "yes") == "yes"}
        return out

    @staticmethod
    def checked(ctx: CommandContext, inputs: dict):
        """The acting unit and the inputs as move/shoot/assault, after every check of the order and the turn
        (L180–202, L256–266, A15): what the handler and the form's odds (battle/at_roll.py) both refuse."""
        inputs = Act.from_form(inputs)
        unit = ctx.own_unit(inputs["unit"])
        slot = rules.next_slot(ctx.state)
        if slot is None or unit.side != slot[0]:
            raise GameConflict(_("It is not this side's turn to act."))
        if unit.state["acted"] or unit.state["initiative"] != slot[1] or not rules.can_act(unit):
            raise RuleInputError(
                {
                    "unit": _("{name} does not act now: a unit with initiative {slot} does.").format(
                        name=unit.name, slot=slot[1]
                    )
                }
            )
        order = unit.state["order"]
        shoot, assault, move = inputs.get("shoot"), inputs.get("assault"), inputs.get("move", False)
        if order == "defence" and (move or assault):
            raise RuleInputError({"move": _("«Defence»: the unit stays in place; it may only shoot (L191).")})
        if order == "move" and shoot:
            raise RuleInputError({"shoot": _("«Move» cannot shoot (L180–184).")})
        same_target = ctx.system_settings["shoot_then_assault_target"] == "same_unit"
        if shoot and assault and shoot["target"] != assault["target"] and same_target:
            raise RuleInputError({"assault.target": _("After shooting, a unit assaults the unit it shot (A15).")})
        return unit, inputs

    def handle(self, ctx, inputs):
        unit, inputs = self.checked(ctx, inputs)
        shoot, assault, move = inputs.get("shoot"), inputs.get("assault"), inputs.get("move", False)
        events = [NewEvent("activated", {"unit": unit.key, "initiative": unit.state["initiative"],
                                         "moved": bool(move or assault), "order": unit.state["order"]})]  # fmt: skip
        if shoot:  # the shot leads, so the write answer and the history line show its dice
            events.insert(0, self._shoot(ctx, unit, shoot))
        if assault:
            events += self._assault(ctx, unit, assault)
        ctx.outcome = ctx.outcome or {"summary": _("{unit} carries out its order.").format(unit=unit.name)}
        return _end_if_wiped_after(ctx, events)

    @staticmethod
    def shot_inputs(ctx: CommandContext, unit, shoot: dict):
        """The target and the shooting action's inputs for this shot, from the live state: the shooter's living
        figures by weapon, the target's figures, markers, order and card (L400–573). The handler rolls them; the
        form's odds are computed from the very same inputs."""
        target = _enemy(ctx, shoot["target"], "shoot.target", unit.side)
        if target.state["in_melee"]:
            raise RuleInputError({"shoot.target": _("A unit in melee cannot be shot at (L410).")})
        hidden = shoot.get("hidden", 0)
        if hidden >= target.state["figures"]:
            raise RuleInputError({"shoot.hidden": _("No figure of the target is in sight: choose another (L408).")})
        groups = rules.shooter_groups(unit)
        out, apart = shoot.get("out_of_command_distance", 0), []
        for g in reversed(groups):  # figures out of Command Distance cannot shoot (L106): last weapons first
            take = min(out, g["count"])
            if take:
                g["count"] -= take
                apart.append({**g, "count": take, "in_command_distance": False})
                out -= take
        groups = [g for g in groups if g["count"]] + apart
        if not groups:
            raise RuleInputError({"shoot": _("{name} has no ranged weapon.").format(name=unit.name)})
        seen = {"count": target.state["figures"] - hidden, "cover": shoot.get("cover", "open")}
        if "distance" in shoot:
            seen["distance"] = shoot["distance"]
        target_groups = [seen] + ([{"count": hidden, "seen_by": [], "in_range_of": []}] if hidden else [])
        inputs = {
            "shooter": {"order": unit.state["order"], "initiative": unit.state["initiative"], "groups": groups},
            "target": {"order": target.state["order"], "initiative": target.state["initiative"],
                       "armour": target.profile["kbr"], "stk": target.profile["stk"],
                       "markers": target.state["markers"], "groups": target_groups},
            "modifier": shoot.get("modifier", 0),
        }  # fmt: skip
        return target, inputs

    @staticmethod
    def _shoot(ctx, unit, shoot: dict) -> NewEvent:
        target, inputs = Act.shot_inputs(ctx, unit, shoot)
        outcome = Shooting().resolve(inputs, ctx.system_settings, ctx.dice())
        r = outcome.result
        # "result": the numbers the form's odds place the roll by ("a 12 % result", battle/at_roll.py)
        ctx.outcome = {"summary": f"{unit.name} → {target.name}: {outcome.summary}", "steps": outcome.steps,
                       "result": {k: r[k] for k in ("hits", "wounds", "removed", "markers")}}  # fmt: skip
        payload = {"unit": unit.key, "target": target.key, "need": r["need"], "hits": r["hits"], "wounds": r["wounds"],
                   "removed": r["removed"], "markers": r["markers"], "summary": outcome.summary}  # fmt: skip
        return NewEvent("shot", payload, dice=outcome.dice)

    @staticmethod
    def _assault(ctx, unit, assault: dict) -> list[NewEvent]:
        target = _enemy(ctx, assault["target"], "assault.target", unit.side)
        if target.state["in_melee"] and not ctx.system_settings["assault_unit_in_melee"]:
            raise RuleInputError({"assault.target": _("Assaulting a unit in melee is off in these settings (A27).")})
        if not assault.get("engaged", True):
            return []  # the charge fell short: just a move towards the enemy (L609)
        units = [unit.key, target.key]
        if ctx.system_settings["melee_engages"] == "any_within_3":
            for i, key in enumerate(assault.get("also", [])):
                other = _enemy(ctx, key, f"assault.also.{i}", unit.side)
                units.append(other.key)
        return [NewEvent("melee_started", {"units": list(dict.fromkeys(units)), "by": unit.key})]


def _end_if_wiped_after(ctx: CommandContext, events: list[NewEvent]) -> list[NewEvent]:
    """A side with nothing left ends the game at once: a copy of the state is folded forward to see it."""
    preview = copy.deepcopy(ctx.state)
    for offset, event in enumerate(events):
        ctx.part.apply(preview, _event(ctx.next_seq + offset, event))
    if len(rules.living_sides(preview)) < 2:
        result = rules.victory(preview, ctx.system_settings)
        events.append(NewEvent("game_over", {**result, "reason": "wiped_out"}))
    return events


FIGHT_INPUTS = {
    # The phone's form sends the melee's number as the text of its choice ("1").
    "melee": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 1000},
                        {"type": "string", "pattern": "^[1-9][0-9]{0,2}$"}]},
    "contact": {"type": "object", "maxProperties": 24, "additionalProperties": COUNT},
    "near": {"type": "object", "maxProperties": 24, "additionalProperties": COUNT},
    "targets": {"type": "object", "maxProperties": 24,
                "additionalProperties": {"type": "object", "maxProperties": 24, "additionalProperties": COUNT}},
}  # fmt: skip


def melee_units(ctx: CommandContext, melee: dict, inputs: dict) -> list[dict]:
    """The melee action's units, named as the players read them (names are unique in a battle), in the melee's
    order. By default every figure is in base contact and strikes the first enemy unit listed (§3.13)."""
    contact, near, targets = inputs.get("contact", {}), inputs.get("near", {}), inputs.get("targets", {})
    names = {k: ctx.state.units[k].name or k for k in melee["units"]}
    units = []
    for key in melee["units"]:
        u = ctx.state.units[key]
        enemies = [k for k in melee["units"] if ctx.state.units[k].side != u.side]
        figures = u.state["figures"]
        in_contact = min(contact.get(key, figures), figures)
        close = min(near.get(key, 0), figures - in_contact)
        strikers = in_contact + close
        aimed = targets.get(key, {enemies[0]: strikers} if strikers else {})
        units.append({"unit": names[key], "ref": key, "side": u.side, "figures": figures, "bsp": u.profile["bsp"],
                      "stk": u.profile["stk"], "markers": u.state["markers"], "in_contact": in_contact, "near": close,
                      "strikes_per_figure": u.profile["strikes_per_figure"],
                      "wounds_per_strike": u.profile["wounds_per_strike"],
                      "targets": {names.get(k, k): n for k, n in aimed.items()}})  # fmt: skip
    return units


def strike_rounds(units: list[dict], settings: dict) -> list[tuple[int, int, str, str]]:
    """(side, dice, striking unit, struck unit) of every batch of strikes, in the order the melee action rolls
    them."""
    clean = Melee().validate({"units": units}, settings)
    return [(u["side"], figures * u["strikes_per_figure"], u["unit"], name)
            for u in clean["units"] for name, figures in u["targets"].items()]  # fmt: skip


def _melee(ctx: CommandContext, number) -> dict:
    number = int(number)
    melee = next((m for m in ctx.game["melees"] if m["id"] == number), None)
    if melee is None:
        raise RuleInputError({"melee": _("There is no melee #{melee} now.").format(melee=number)})
    if melee["id"] in ctx.game["fought"]:
        raise GameConflict(_("Melee #{id} has already fought this turn.").format(id=melee["id"]))
    return melee


def _fought(ctx: CommandContext, melee: dict, units: list[dict], dice) -> list[NewEvent]:
    """Strikes and casualties of both sides at once (L659), from `dice` in the melee action's order."""
    outcome = Melee().resolve({"units": units}, ctx.system_settings, dice)
    keys = {u["unit"]: u["ref"] for u in units}
    fates = {keys[k]: {"removed": v["removed"], "markers": v["markers"]} for k, v in outcome.result["units"].items()}
    payload = {"melee": melee["id"], "units": fates, "winner": outcome.result["winner"], "summary": outcome.summary}
    ctx.outcome = {"summary": outcome.summary, "steps": outcome.steps}
    return _end_if_wiped_after(ctx, [NewEvent("melee_fought", payload, dice=outcome.dice)])


class Fight(Command):
    name = "fight"
    label = N_("Close combat")
    help = N_(
        "One melee's strikes (§3.13): you roll a D20 for every strike of your figures; then the other player rolls "
        "for his and the casualties of both sides are removed at once (L659). By default every figure is in base "
        "contact and each unit strikes the first enemy unit listed; give contact, near and targets when it is "
        "otherwise."
    )
    input_schema = {"type": "object", "additionalProperties": False, "required": ["melee"], "properties": FIGHT_INPUTS}

    def handle(self, ctx, inputs):
        melee = _melee(ctx, inputs["melee"])
        units = melee_units(ctx, melee, inputs)
        if len(ctx.sides) > 1:  # one phone holds both sides: all strikes at once
            return _fought(ctx, melee, units, ctx.dice())
        side = ctx.one_side()
        rounds = strike_rounds(units, ctx.system_settings)
        dice = ctx.dice()
        rolls = [strike_dice(dice, n, unit, target) for s, n, unit, target in rounds if s == side and n]
        dice.finish()
        if not any(n for s, n, *_names in rounds if s != side):  # the enemy has nobody who can strike: no question
            return _fought(ctx, melee, units, dicelib.TableDice([r for batch in rolls for r in batch]))
        rolled = [r for batch in rolls for r in batch]
        payload = {"melee": melee["id"], "side": side, "rolls": rolled,
                   **{k: inputs[k] for k in ("contact", "near", "targets") if k in inputs}}  # fmt: skip
        other = rules.side_name(ctx.game, 1 - side)
        ctx.outcome = {"summary": _("Strikes rolled: {rolls}. Now {side} rolls a D20 for each strike of its "
                                    "figures.").format(rolls=", ".join(map(str, rolled)) or "—", side=other)}  # fmt: skip
        return [NewEvent("strikes_rolled", payload, dice=dice.as_list())]


class Strike(Command):
    name = "strike"
    label = N_("Strike back")
    help = N_(
        "The answer to the other player's strikes in close combat: a D20 for each strike of your figures; then "
        "the casualties of both sides are removed at once (L659)."
    )
    input_schema = NO_INPUTS

    def handle(self, ctx, inputs):
        asked = ctx.game.get("strikes")
        if not asked:
            raise GameConflict(_("No strikes are waiting for an answer now."))
        side = ctx.one_side()
        if side == asked["side"]:
            raise GameConflict(_("Your strikes are rolled: the other player answers with his."))
        melee = _melee(ctx, asked["melee"])
        units = melee_units(ctx, melee, asked)
        rounds = strike_rounds(units, ctx.system_settings)
        dice = ctx.dice()
        mine = [strike_dice(dice, n, unit, target) for s, n, unit, target in rounds if s == side and n]
        dice.finish()
        theirs, mine = iter(asked["rolls"]), iter(mine)
        values = []
        for s, n, *_names in rounds:  # both sides' dice in the order the melee action uses them
            if not n:
                continue
            values += next(mine) if s == side else [next(theirs) for _i in range(n)]
        return _fought(ctx, melee, units, dicelib.TableDice(values))


class EndTurn(Command):
    name = "end_turn"
    label = N_("End the turn")
    help = N_("Ends the Close Combat phase and the turn; after the last turn the game ends with victory points.")
    input_schema = NO_INPUTS

    def handle(self, ctx, inputs):
        waiting = [m["id"] for m in ctx.game["melees"] if m["id"] not in ctx.game["fought"]]
        if waiting:
            raise GameConflict(_("Fight every melee first: ") + ", ".join(f"#{i}" for i in waiting) + ".")
        turn = ctx.game["turn"]
        events = [NewEvent("turn_ended", {"turn": turn})]
        if turn >= ctx.game["max_turns"]:
            result = rules.victory(ctx.state, ctx.system_settings)
            events.append(NewEvent("game_over", {**result, "reason": "turns"}))
        return events


class Mark(Command):
    name = "mark"
    label = N_("Panic / fire suppression (by hand)")
    help = N_(
        "Rulings by hand for the full rules' states (§5 A4): a panicked unit gets no order; a suppressed one stays."
    )
    free = True
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit"],
        "properties": {"unit": UNIT, "panicked": {"type": "boolean"}, "suppressed": {"type": "boolean"}},
    }

    def handle(self, ctx, inputs):
        unit = ctx.own_unit(inputs["unit"])
        if not ctx.system_settings["states_by_hand"]:
            raise RuleInputError({"unit": _("Panic and suppression by hand are off in these settings (§5 A4).")})
        flags = {k: inputs[k] for k in ("panicked", "suppressed") if k in inputs}
        if not flags:
            raise RuleInputError({"panicked": _("Say what to mark: panicked and/or suppressed.")})
        return [NewEvent("marked", {"unit": unit.key, **flags})]


class Wounds(Command):
    name = "wounds"
    label = N_("Wound markers (by hand)")
    help = N_(
        "A ruling by hand: one wound marker more or fewer on a unit (L544–565); shots and melees count their own."
    )
    free = True
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit", "step"],
        "properties": {"unit": UNIT, "step": {"type": "integer", "enum": [-1, 1]}},
    }

    def handle(self, ctx, inputs):
        unit = ctx.own_unit(inputs["unit"])
        if not rules.alive(unit):
            raise RuleInputError({"unit": _("{name} is already destroyed.").format(name=unit.name)})
        markers, stk = unit.state["markers"] + inputs["step"], unit.profile["stk"]
        # Markers are pooled by the unit's СТК: at СТК markers a figure dies (L565), which only a shot or a melee
        # decides, so by hand the count stays from 0 to СТК − 1.
        if not 0 <= markers < stk:
            raise RuleInputError(
                {
                    "step": _("Wound markers stay from 0 to {most} (at {stk} a figure is removed).").format(
                        most=stk - 1, stk=stk
                    )
                }
            )
        return [NewEvent("wounds_marked", {"unit": unit.key, "step": inputs["step"], "markers": markers})]


class EndGame(Command):
    name = "end_game"
    label = N_("End the game")
    help = N_("Ends the game now by agreement and counts the victory points.")
    free = True
    input_schema = NO_INPUTS

    def handle(self, ctx, inputs):
        return [NewEvent("game_over", {**rules.victory(ctx.state, ctx.system_settings), "reason": "agreed"})]


COMMANDS = {
    c.name: c for c in (StartTurn(), GiveOrders(), Act(), Fight(), Strike(), EndTurn(), Mark(), Wounds(), EndGame())
}
