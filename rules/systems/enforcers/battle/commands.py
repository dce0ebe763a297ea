"""The commands of an activation (§3.2–§3.9): pick the next model (popcorn), its actions, and the end of its
activation with the status ticks. Each handler builds the action's inputs from the units, resolves the book's
test through the command's dice, and answers one event whose effects name the units they change."""

from __future__ import annotations

from abc import abstractmethod

from rules.contract import Command, CommandContext, NewEvent
from rules.errors import GameConflict, RuleInputError
from rules.i18n import N_, _
from rules.systems.enforcers import statuses
from rules.systems.enforcers.actions import ACTIONS
from rules.systems.enforcers.actions.common import GM_DICE
from rules.systems.enforcers.battle import fold, questions
from rules.systems.enforcers.battle.questions import BOOL, truth
from rules.systems.enforcers.battle.units import (
    action_weapon,
    best_friendly_ld,
    defence_weapon,
    map_effects,
    sheet,
    weapon_of,
)
from rules.systems.enforcers.rolling import LiveRoller
from rules.systems.enforcers.texts import T, join, parts
from rules.systems.enforcers.wounds import DEAD

KEY = {"type": "string", "minLength": 1, "maxLength": 80}
# A weapon by its index; a phone's <select> sends it as a digit string ("0"), which `numbered` turns into a number.
WEAPON_INDEX = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 20},
                          {"type": "string", "pattern": "^(1?[0-9]|20)$"}]}  # fmt: skip


BOOL_INPUTS = ("out_of_arc", "as_fear_action", "use_reroll", "same_point", "kinetic", "bypass_armour", "on")


def numbered(inputs: dict) -> dict:
    """The inputs as a phone's form sends them, read as the rules take them: a weapon index sent as a digit
    string is a number, «true»/«false» from a select are yes and no, one target picked for suppressive fire is
    a list of one."""
    out = dict(inputs)
    if isinstance(out.get("weapon"), str):
        out["weapon"] = int(out["weapon"])
    for key in BOOL_INPUTS:
        if isinstance(out.get(key), str):
            out[key] = truth(out[key])
    if isinstance(out.get("targets"), str):
        out["targets"] = [out["targets"]]
    return out


def schema(properties: dict | None = None, required: tuple = ()) -> dict:
    return {"type": "object", "additionalProperties": False, "required": list(required),
            "properties": properties or {}}  # fmt: skip


def active_unit(ctx: CommandContext):
    """The model acting now, which the caller must control."""
    game = ctx.game
    if game.get("phase") != "activation" or not game.get("active"):
        raise GameConflict(_("No model is acting: pick the next one first."))
    return ctx.own_unit(game["active"])


def target_unit(ctx: CommandContext, key, field: str = "target"):
    unit = ctx.unit(key, field_name=field)
    if DEAD in unit.state["statuses"]:
        raise RuleInputError({field: _("{name} is dead.").format(name=unit.name)})
    return unit


class ActionCommand(Command):
    """An action of the activation that resolves one of the book's tests (1 action unless said otherwise)."""

    action_key = ""
    cost = 1
    ends_activation = False

    @abstractmethod
    def build(self, ctx: CommandContext, actor, inputs: dict) -> tuple[dict, dict[str, str], dict]:
        """(action inputs, role -> unit key, extra fields per effect kind)."""

    def prepare(self, ctx: CommandContext, inputs: dict) -> tuple:
        """Everything the command checks and builds before it rolls: (actor, inputs, action inputs, roles, extra).
        The odds at the moment of the roll (at_roll.py) take the same path, so they refuse what the command does."""
        inputs = numbered(inputs)
        actor = active_unit(ctx)
        if actor.state["actions_left"] < self.cost:
            raise GameConflict(_("{name} has no action left: end the activation.").format(name=actor.name))
        action_inputs, roles, extra = self.build(ctx, actor, inputs)
        return actor, inputs, action_inputs, roles, extra

    def odds_inputs(self, ctx: CommandContext, inputs: dict) -> tuple[str, dict] | None:
        """(the action this command rolls, its inputs on this state)."""
        return self.action_key, self.prepare(ctx, inputs)[2]

    def handle(self, ctx: CommandContext, inputs: dict) -> list[NewEvent]:
        actor, inputs, action_inputs, roles, extra = self.prepare(ctx, inputs)
        outcome = ACTIONS[self.action_key].resolve(action_inputs, ctx.system_settings, ctx.dice())
        ctx.outcome = outcome.as_dict()
        effects = map_effects(outcome.effects, roles, **extra)
        ends = self.ends_activation or any(e["kind"] == "activation_ends" for e in effects)
        payload = {"unit": actor.key, "effects": effects, "spent": self.cost, "summary": outcome.summary,
                   "text": parts(outcome.summary), "ends_activation": ends}  # fmt: skip
        asked = self.questions(ctx, actor, inputs, outcome) + questions.reactions(ctx, self.name, actor, effects)
        if asked:
            payload["questions"] = asked + list(ctx.game.get("questions") or [])
        return [NewEvent(self.name, payload, dice=outcome.dice)]

    def questions(self, ctx: CommandContext, actor, inputs: dict, outcome) -> list[dict]:
        """What this action asks of the other player (a counter-attack); reaction shots are added by handle."""
        return []


class Activate(Command):
    name = "activate"
    label = N_("Activate")
    help = N_("Popcorn initiative (L63–65): pick a model that has not acted this round; it starts its activation.")
    input_schema = schema({"unit": KEY}, ("unit",))

    def handle(self, ctx, inputs):
        if ctx.game.get("phase") != "pick":
            raise GameConflict(_("A model is still acting: end its activation first."))
        unit = ctx.unit(inputs["unit"])
        if unit.key in ctx.game["activated"]:
            raise GameConflict(_("{name} has already acted this round (L65).").format(name=unit.name))
        if DEAD in unit.state["statuses"]:
            raise RuleInputError({"unit": _("{name} is dead.").format(name=unit.name)})
        picker = ctx.game.get("picker")
        if picker is not None and picker not in ctx.sides:
            raise GameConflict(_("The side of the model that acted last picks who goes next (L63)."))
        agent = sheet(ctx.state, unit.key, friendly_ld=best_friendly_ld(ctx.state, unit.key))
        agent["ranged_drawn"] = any(w.get("drawn") and w.get("ranged") for w in unit.state["weapons"])
        dice = ctx.dice()
        out = statuses.start_of_activation(agent, LiveRoller(dice, ctx.system_settings), ctx.system_settings)
        dice.finish()
        effects = map_effects(out["effects"], {"agent": unit.key})
        summary = join(" ", out["steps"])
        ctx.outcome = {"summary": summary, "actions": out["actions"]}
        payload = {"unit": unit.key, "effects": effects, "summary": summary, "text": parts(summary)}
        return [NewEvent("activation_started", payload, dice=[r.as_dict() for r in dice.rolls])]


class EndActivation(Command):
    name = "end_activation"
    label = N_("End activation")
    help = N_(
        "The end of the model's activation: Poisoned, Bleeding, Burning, Disoriented, Pinned and Dying tick (§3.17)."
    )
    input_schema = schema()

    def prepare(self, ctx, inputs) -> tuple:
        actor = active_unit(ctx)
        return actor, sheet(ctx.state, actor.key, friendly_ld=best_friendly_ld(ctx.state, actor.key))

    def odds_inputs(self, ctx, inputs) -> tuple[str, dict] | None:
        """The status upkeep of the acting model (§3.17), when something of it rolls or costs HP."""
        _actor, agent = self.prepare(ctx, inputs)
        if not set(agent["statuses"]) & set(statuses.TICKING):
            return None
        return "status_tick", {"agent": agent, "moment": "end_of_activation"}

    def handle(self, ctx, inputs):
        actor, agent = self.prepare(ctx, inputs)
        settings = ctx.system_settings
        dice = ctx.dice()
        out = statuses.end_of_activation(agent, LiveRoller(dice, settings), settings)
        dice.finish()
        effects = map_effects(out["effects"], {"agent": actor.key})
        round_over = not [k for k in fold.waiting_units(ctx.state) if k != actor.key]
        round_effects = []
        if round_over:
            for key in ctx.state.units:
                other = agent if key == actor.key else sheet(ctx.state, key)
                round_effects += map_effects(statuses.end_of_round(other, settings)["effects"], {"agent": key})
        summary = join(" ", out["steps"]) if out["steps"] else T("{name} ends its activation.", name=actor.name)
        if round_over:
            summary += T(" Round {round} is over.", round=ctx.game["round"])
        ctx.outcome = {"summary": summary, "result": {"hp": agent["hp"]}}  # the board places the HP in its odds
        payload = {"unit": actor.key, "effects": effects, "round_over": round_over, "round_effects": round_effects,
                   "summary": summary, "text": parts(summary)}  # fmt: skip
        return [NewEvent("activation_ended", payload, dice=[r.as_dict() for r in dice.rolls])]


def _shot_situation(inputs: dict) -> dict:
    keys = ("mode", "cover", "range_band", "height_cm", "out_of_arc", "use_reroll", "as_fear_action",
            "stray_victim_off_line_cm", *GM_DICE)  # fmt: skip
    return {k: inputs[k] for k in keys if k in inputs}


SHOT_INPUTS = {
    "target": KEY,
    "weapon": WEAPON_INDEX,
    "mode": {"enum": ["single", "burst", "auto"]},
    "cover": {"enum": ["none", "partial", "full"]},
    "range_band": {"enum": ["short", "medium", "long"]},
    "height_cm": {"type": "number", "minimum": -500, "maximum": 500},
    "out_of_arc": BOOL,
    "stray_victim": {"anyOf": [KEY, {"type": "null"}]},
    "stray_victim_off_line_cm": {"type": "number", "minimum": 0, "maximum": 100},
    "as_fear_action": BOOL,
    "use_reroll": BOOL,
    **GM_DICE,
}


def shot_inputs(ctx, shooter_key: str, inputs: dict) -> tuple[dict, dict, dict]:
    target = target_unit(ctx, inputs["target"])
    weapon = weapon_of(ctx.state, shooter_key, inputs["weapon"])
    action = {"shooter": sheet(ctx.state, shooter_key), "weapon": action_weapon(weapon),
              "target": sheet(ctx.state, target.key), **_shot_situation(inputs),
              "target_moved_twice": target.state["moves_last_activation"] >= 2}  # fmt: skip
    roles = {"shooter": shooter_key, "target": target.key}
    if inputs.get("stray_victim"):
        victim = target_unit(ctx, inputs["stray_victim"], "stray_victim")
        action["stray_victim"] = sheet(ctx.state, victim.key)
        roles["stray_victim"] = victim.key
    return action, roles, {"ammo_spent": {"weapon": inputs["weapon"]}}


class Shoot(ActionCommand):
    name = action_key = "shoot"
    label = N_("Shoot")
    help = N_("Стрелять: a BS test with the shooting modifiers (§3.10).")
    input_schema = schema(SHOT_INPUTS, ("target", "weapon"))

    def build(self, ctx, actor, inputs):
        return shot_inputs(ctx, actor.key, inputs)


class Throw(ActionCommand):
    name = action_key = "throw"
    label = N_("Throw")
    help = N_("Метательное оружие: up to 1.5 x TN cm; a miss scatters (§3.11).")
    input_schema = schema({**{k: v for k, v in SHOT_INPUTS.items() if k not in ("mode", "stray_victim")},
                           "distance_cm": {"type": "number", "minimum": 0, "maximum": 500},
                           "direction_deg": {"type": "number", "minimum": 0, "maximum": 360}},
                          ("target", "weapon", "distance_cm"))  # fmt: skip

    def build(self, ctx, actor, inputs):
        target = target_unit(ctx, inputs["target"])
        weapon = weapon_of(ctx.state, actor.key, inputs["weapon"])
        action = {"thrower": sheet(ctx.state, actor.key), "weapon": action_weapon(weapon),
                  "target": sheet(ctx.state, target.key), "distance_cm": inputs["distance_cm"],
                  **{k: inputs[k] for k in ("direction_deg",) if k in inputs}, **_shot_situation(inputs)}  # fmt: skip
        action.pop("mode", None)
        return action, {"thrower": actor.key, "target": target.key}, {}


class Melee(ActionCommand):
    name = action_key = "melee"
    label = N_("Fight")
    help = N_("Сражаться: a WS test with the melee modifiers; counters follow at once (§3.12).")
    input_schema = schema({"target": KEY, "weapon": {"anyOf": [WEAPON_INDEX, {"type": "null"}]},
                           "distance_cm": {"type": "number", "minimum": 0, "maximum": 50},
                           "start_distance_cm": {"type": "number", "minimum": 0, "maximum": 500},
                           "height_cm": {"type": "number", "minimum": -500, "maximum": 500},
                           "out_of_arc": BOOL, "as_fear_action": BOOL, "use_reroll": BOOL, **GM_DICE},
                          ("target",))  # fmt: skip

    def build(self, ctx, actor, inputs):
        target = target_unit(ctx, inputs["target"])
        if inputs.get("weapon") is None:
            weapon = defence_weapon(ctx.state, actor.key)
        else:
            chosen = weapon_of(ctx.state, actor.key, inputs["weapon"])
            weapon = {**action_weapon(chosen), "reach_cm": chosen.get("reach_cm") or 0}
        situation = {k: inputs[k] for k in ("distance_cm", "start_distance_cm", "height_cm", "out_of_arc",
                                             "as_fear_action", "use_reroll", *GM_DICE) if k in inputs}  # fmt: skip
        action = {"attacker": sheet(ctx.state, actor.key), "attacker_weapon": weapon,
                  "defender": sheet(ctx.state, target.key), "defender_weapon": defence_weapon(ctx.state, target.key),
                  **situation, "ask_counter": True}  # fmt: skip
        return action, {"attacker": actor.key, "defender": target.key}, {}

    def questions(self, ctx, actor, inputs, outcome):
        if not outcome.result.get("counter_possible"):
            return []
        return [questions.counter_offer(ctx, inputs["target"], actor.key, inputs)]


class _Simple(ActionCommand):
    """An action that takes only the acting agent (and a few inputs passed through)."""

    passed: tuple[str, ...] = ()

    def build(self, ctx, actor, inputs):
        action = {"agent": sheet(ctx.state, actor.key), **{k: inputs[k] for k in self.passed if k in inputs}}
        return action, {"agent": actor.key}, {"ammo_spent": {"weapon": inputs.get("weapon")}}


class Move(_Simple):
    name = action_key = "move"
    label = N_("Move")
    help = N_("Движение: up to DX cm; difficult terrain counts double (§3.4).")
    passed = ("distance_cm", "difficult_cm", "jump_across_cm", "jump_up_cm", "use_reroll")
    input_schema = schema({k: {"type": "number", "minimum": 0, "maximum": 200} for k in passed[:4]}
                          | {"use_reroll": BOOL})  # fmt: skip


class Listen(_Simple):
    name = action_key = "listen"
    label = N_("Listen")
    help = N_("Слушать: a PR test reveals every enemy within PR cm (§3.5).")
    passed = ("use_reroll",)
    input_schema = schema({"use_reroll": BOOL})


class Aim(_Simple):
    name = action_key = "aim"
    label = N_("Aim")
    help = N_("Прицеливание: +1 blessing on the next shot at the point; aims stack (§3.6).")
    passed = ("same_point",)
    input_schema = schema({"same_point": BOOL})


class Overwatch(_Simple):
    name = action_key = "overwatch"
    label = N_("Overwatch")
    help = N_("Предупреждающий огонь: the activation ends; shoot the first enemy that moves, shoots or fights.")
    ends_activation = True
    input_schema = schema()


class TakeCover(_Simple):
    name = action_key = "take_cover"
    label = N_("Take cover")
    help = N_("Залечь в укрытие: the activation ends; shooters get a curse and no crits against it.")
    ends_activation = True
    input_schema = schema()


class SuppressiveFire(ActionCommand):
    name = action_key = "suppressive_fire"
    label = N_("Suppressive fire")
    help = N_("Подавляющий огонь: everyone at the point and on the line is Pinned; half the magazine (§3.7).")
    input_schema = schema({"weapon": WEAPON_INDEX, "targets": {"anyOf": [KEY, {"type": "array", "items": KEY,
                                                                                "maxItems": 20, "uniqueItems": True}]}},
                          ("weapon", "targets"))  # fmt: skip

    def build(self, ctx, actor, inputs):
        weapon = weapon_of(ctx.state, actor.key, inputs["weapon"])
        targets = [target_unit(ctx, key, f"targets.{i}").key for i, key in enumerate(inputs["targets"])]
        action = {"agent": sheet(ctx.state, actor.key), "weapon": action_weapon(weapon),
                  "targets": [sheet(ctx.state, k) for k in targets]}  # fmt: skip
        roles = {"agent": actor.key, **{f"targets.{i}": k for i, k in enumerate(targets)}}
        return action, roles, {"ammo_spent": {"weapon": inputs["weapon"]}}


class MedicalAid(ActionCommand):
    name = action_key = "medical_aid"
    label = N_("Medical aid")
    help = N_("Медицинская помощь: a med-kit and an HL test; one status may also be removed (§3.8).")
    input_schema = schema({"target": {"anyOf": [KEY, {"type": "null"}]},
                           "mode": {"enum": ["restore_hp", "revive", "stabilize"]},
                           "remove_status": {"enum": [None, "fear", "bleeding", "poisoned", "burning", "stunned",
                                                      "disoriented", "pinned"]},
                           "use_reroll": BOOL}, ("mode",))  # fmt: skip

    def build(self, ctx, actor, inputs):
        target = inputs.get("target")
        action = {"healer": sheet(ctx.state, actor.key), "mode": inputs["mode"], "has_medkit": actor.state["medkit"],
                  "target": None if target in (None, actor.key) else sheet(ctx.state, target_unit(ctx, target).key),
                  **{k: inputs[k] for k in ("remove_status", "use_reroll") if k in inputs}}  # fmt: skip
        roles = {"healer": actor.key}
        if action["target"] is not None:
            roles["target"] = target
        return action, roles, {}


class Prayer(ActionCommand):
    name = action_key = "prayer"
    label = N_("Pray")
    help = N_("Молитва: needs the perk Prayer; once a round (§2.8).")
    input_schema = schema({"prayer": {"enum": ["anointing", "benediction", "intercession", "last_rites"]},
                           "target": {"anyOf": [KEY, {"type": "null"}]},
                           "anointing": {"enum": ["heal", "remove_status"]},
                           "remove_status": {"enum": [None, "fear", "bleeding", "poisoned", "burning", "stunned",
                                                      "disoriented", "pinned"]},
                           "use_reroll": BOOL}, ("prayer",))  # fmt: skip

    def build(self, ctx, actor, inputs):
        target = inputs.get("target")
        perks = {p.lower() for p in actor.state["perks"]}
        action = {"priest": sheet(ctx.state, actor.key), "prayer": inputs["prayer"],
                  "has_prayer_perk": "prayer" in perks, "prayed_this_round": actor.state["prayed_this_round"],
                  "target": None if target in (None, actor.key) else sheet(ctx.state, target_unit(ctx, target).key),
                  **{k: inputs[k] for k in ("anointing", "remove_status", "use_reroll") if k in inputs}}  # fmt: skip
        roles = {"priest": actor.key, **({"target": target} if action["target"] is not None else {})}
        return action, roles, {}
