"""Commands around the actions: readying and reloading weapons (L71–73, L95–99), reaction shots (Overwatch,
suppressors, L103, L317), and the GM's rulings by hand (damage, falls, Fear tests, statuses, HP and AP, the end
of the game), which are accepted whatever the game awaits."""

from __future__ import annotations

from rules.contract import Command, NewEvent
from rules.errors import GameConflict, RuleInputError
from rules.i18n import N_, _
from rules.systems.enforcers import agents
from rules.systems.enforcers.actions import ACTIONS
from rules.systems.enforcers.battle import questions
from rules.systems.enforcers.battle.commands import (
    KEY,
    SHOT_INPUTS,
    WEAPON_INDEX,
    active_unit,
    numbered,
    schema,
    shot_inputs,
    target_unit,
)
from rules.systems.enforcers.battle.units import best_friendly_ld, map_effects, sheet, weapon_of
from rules.systems.enforcers.texts import T, parts
from rules.systems.enforcers.words import STATUS
from rules.systems.enforcers.wounds import set_hp

STATUS_NAMES = agents.STATUS_NAMES


class ReadyWeapon(Command):
    name = "ready_weapon"
    label = N_("Draw, stow or switch")
    help = N_("Free once an activation: draw or stow a weapon, or switch to another (L71–73, A9).")
    input_schema = schema({"weapon": WEAPON_INDEX, "how": {"enum": ["draw", "stow", "switch"]}}, ("weapon", "how"))

    def handle(self, ctx, inputs):
        inputs = numbered(inputs)
        actor = active_unit(ctx)
        weapon_of(ctx.state, actor.key, inputs["weapon"])
        how = inputs["how"]
        unlimited_switch = ctx.system_settings.get("free_weapon_swaps") == "switch_unlimited"
        uses_free = not (how == "switch" and unlimited_switch)
        if uses_free and actor.state["free_swap_used"]:
            raise GameConflict(_("Only one free draw, stow or switch per activation (L73, A9)."))
        drawn = {i for i, w in enumerate(actor.state["weapons"]) if w.get("drawn")}
        if how == "draw":
            drawn.add(inputs["weapon"])
        elif how == "stow":
            drawn.discard(inputs["weapon"])
        else:
            drawn = {inputs["weapon"]}
        effect = {"unit": actor.key, "kind": "weapon_readied", "how": how, "drawn": sorted(drawn),
                  "uses_free": uses_free}  # fmt: skip
        name = actor.state["weapons"][inputs["weapon"]].get("name") or T("weapon {n}", n=inputs["weapon"])
        if how == "draw":
            summary = T("{name}: draws {weapon} (no action).", name=actor.name, weapon=name)
        elif how == "stow":
            summary = T("{name}: stows {weapon} (no action).", name=actor.name, weapon=name)
        else:
            summary = T("{name}: switches to {weapon} (no action).", name=actor.name, weapon=name)
        ctx.outcome = {"summary": summary}
        return [
            NewEvent(
                "weapon_readied",
                {"unit": actor.key, "effects": [effect], "spent": 0, "summary": summary, "text": parts(summary)},
            )
        ]


class Reload(Command):
    name = "reload"
    label = N_("Reload")
    help = N_("Перезарядка: with a spare magazine, one action fills the weapon (L95–99).")
    input_schema = schema({"weapon": WEAPON_INDEX}, ("weapon",))

    def handle(self, ctx, inputs):
        inputs = numbered(inputs)
        actor = active_unit(ctx)
        if actor.state["actions_left"] < 1:
            raise GameConflict(_("{name} has no action left: end the activation.").format(name=actor.name))
        weapon = weapon_of(ctx.state, actor.key, inputs["weapon"])
        if not weapon.get("capacity"):
            raise RuleInputError(
                {
                    "weapon": _("{weapon} has no magazine to change.").format(
                        weapon=weapon.get("name") or _("This weapon")
                    )
                }
            )
        if actor.state["spare_magazines"] < 1:
            raise RuleInputError({"weapon": _("{name} has no spare magazine (L97).").format(name=actor.name)})
        effect = {"unit": actor.key, "kind": "reloaded", "weapon": inputs["weapon"], "ammo": weapon["capacity"],
                  "spare_magazines": actor.state["spare_magazines"] - 1}  # fmt: skip
        summary = T(
            "{name} reloads {weapon}: {n} rounds.",
            name=actor.name,
            weapon=weapon.get("name") or T("the weapon"),
            n=weapon["capacity"],
        )
        ctx.outcome = {"summary": summary}
        return [
            NewEvent(
                "reloaded",
                {"unit": actor.key, "effects": [effect], "spent": 1, "summary": summary, "text": parts(summary)},
            )
        ]


class ReactionShot(Command):
    name = "reaction_shot"
    label = N_("Reaction shot")
    help = N_(
        "A model on Overwatch shoots the first enemy that moves, shoots or fights (L103); a suppressor shoots the "
        "model it pinned when that model moves or shoots (L317). No action is spent: the answer to the question "
        "the move or the shot asked."
    )
    input_schema = schema({"shooter": KEY, **SHOT_INPUTS}, ("shooter", "weapon"))

    def prepare(self, ctx, inputs) -> tuple:
        inputs = numbered(inputs)
        asked = questions.current(ctx.game)
        if asked and asked["kind"] == "reaction" and not inputs.get("target"):
            inputs["target"] = asked["target"]
        if not inputs.get("target"):
            raise RuleInputError({"target": _("Choose the target.")})
        shooter = ctx.own_unit(inputs["shooter"], field_name="shooter")
        target = target_unit(ctx, inputs["target"])
        pinned_by = target.state["statuses"].get("pinned", {}).get("by")
        if not shooter.state.get("overwatch") and pinned_by != shooter.key:
            raise GameConflict(
                _("{shooter} is neither on Overwatch nor suppressing {target}.").format(
                    shooter=shooter.name, target=target.name
                )
            )
        action, roles, extra = shot_inputs(ctx, shooter.key, inputs)
        return shooter, pinned_by, action, roles, extra

    def odds_inputs(self, ctx, inputs) -> tuple[str, dict]:
        return "shoot", self.prepare(ctx, inputs)[2]

    def handle(self, ctx, inputs):
        shooter, pinned_by, action, roles, extra = self.prepare(ctx, inputs)
        outcome = ACTIONS["shoot"].resolve(action, ctx.system_settings, ctx.dice())
        ctx.outcome = outcome.as_dict()
        effects = map_effects(outcome.effects, roles, **extra)
        if shooter.state.get("overwatch") and pinned_by != shooter.key:  # Overwatch fires once (L103)
            effects.append({"unit": shooter.key, "kind": "stance", "stance": "overwatch", "on": False})
        payload = {
            "unit": shooter.key,
            "effects": effects,
            "spent": 0,
            "summary": outcome.summary,
            "text": parts(outcome.summary),
            "questions": questions.after_reaction_shot(ctx.game, shooter.key),
        }
        return [NewEvent("reaction_shot", payload, dice=outcome.dice)]


class _Ruling(Command):
    """A ruling by hand through one of the book's procedures on one unit."""

    free = True
    action_key = ""
    role = "agent"
    passed: tuple[str, ...] = ()

    def prepare(self, ctx, inputs) -> tuple:
        unit = ctx.unit(inputs["unit"])
        friend = best_friendly_ld(ctx.state, unit.key)
        action = {self.role: sheet(ctx.state, unit.key, friendly_ld=friend),
                  **{k: inputs[k] for k in self.passed if k in inputs}}  # fmt: skip
        return unit, action

    def odds_inputs(self, ctx, inputs) -> tuple[str, dict]:
        return self.action_key, self.prepare(ctx, inputs)[1]

    def handle(self, ctx, inputs):
        unit, action = self.prepare(ctx, inputs)
        outcome = ACTIONS[self.action_key].resolve(action, ctx.system_settings, ctx.dice())
        ctx.outcome = outcome.as_dict()
        payload = {"unit": unit.key, "effects": map_effects(outcome.effects, {self.role: unit.key}), "spent": 0,
                   "summary": outcome.summary, "text": parts(outcome.summary)}  # fmt: skip
        return [NewEvent(self.name, payload, dice=outcome.dice)]


class Damage(_Ruling):
    name = "damage"
    action_key = "damage"
    role = "target"
    label = N_("Damage by hand")
    help = N_("Damage by hand (a blast, a trap, the GM's call): AP first, then HP (§3.13).")
    passed = ("amount", "kinetic", "bypass_armour", "cause")
    input_schema = schema({"unit": KEY, "amount": {"type": "integer", "minimum": 0, "maximum": 99},
                           "kinetic": {"type": "boolean"}, "bypass_armour": {"type": "boolean"},
                           "cause": {"type": "string", "maxLength": 60}}, ("unit", "amount"))  # fmt: skip


class Fall(_Ruling):
    name = "fall"
    action_key = "fall"
    label = N_("Fall")
    help = N_("A fall over DX/2 cm: damage and a TN test against Stunned (§3.15).")
    passed = ("height_cm",)
    input_schema = schema({"unit": KEY, "height_cm": {"type": "integer", "minimum": 0, "maximum": 200}},
                          ("unit", "height_cm"))  # fmt: skip


class FearTest(_Ruling):
    name = "fear_test"
    action_key = "fear_test"
    label = N_("Fear test")
    help = N_("The GM calls a Fear test: WL or a friend's LD; a failure makes the model afraid (§3.16).")
    input_schema = schema({"unit": KEY}, ("unit",))


class SetStatus(Command):
    name = "set_status"
    label = N_("Status by hand")
    help = N_("Give or take a status by hand (water on a burning agent, the GM's ruling).")
    free = True
    input_schema = schema({"unit": KEY, "status": {"enum": list(STATUS_NAMES)}, "on": questions.BOOL,
                           "turns": {"type": ["integer", "null"], "minimum": 0, "maximum": 99},
                           "stacks": {"type": "integer", "minimum": 1, "maximum": 9}},
                          ("unit", "status", "on"))  # fmt: skip

    def handle(self, ctx, inputs):
        inputs = numbered(inputs)
        unit = ctx.unit(inputs["unit"])
        status = inputs["status"]
        if inputs["on"]:
            effect = {"unit": unit.key, "kind": "status_gained", "status": status, "by": "hand"}
            if status == "stunned":
                effect["stacks"] = inputs.get("stacks", 1)
            else:
                effect["turns"] = inputs.get("turns")
        else:
            if status not in unit.state["statuses"]:
                raise RuleInputError({"status": _("{name} does not have this status.").format(name=unit.name)})
            effect = {"unit": unit.key, "kind": "status_removed", "status": status, "reason": "by hand"}
        label = T(STATUS[status]) if status in STATUS else status
        if inputs["on"]:
            summary = T("{name}: {status} on (by hand).", name=unit.name, status=label)
        else:
            summary = T("{name}: {status} off (by hand).", name=unit.name, status=label)
        ctx.outcome = {"summary": summary}
        return [
            NewEvent(
                "status_set",
                {"unit": unit.key, "effects": [effect], "spent": 0, "summary": summary, "text": parts(summary)},
            )
        ]


class Adjust(Command):
    name = "adjust"
    label = N_("HP and AP by hand")
    help = N_("Set HP or AP by hand (armour repaired in battle, a correction); the wound state follows (§3.13).")
    free = True
    input_schema = schema({"unit": KEY, "hp": {"type": "integer", "minimum": -60, "maximum": 40},
                           "ap": {"type": "integer", "minimum": 0, "maximum": 40}}, ("unit",))  # fmt: skip

    def handle(self, ctx, inputs):
        unit = ctx.unit(inputs["unit"])
        agent = sheet(ctx.state, unit.key)
        effects: list[dict] = []
        if "ap" in inputs:
            if inputs["ap"] > agents.max_ap(agent):
                raise RuleInputError(
                    {"ap": _("AP cannot go above the armour's {n} (L226).").format(n=agents.max_ap(agent))}
                )
            effects.append({"role": "agent", "kind": "ap", "ap": inputs["ap"]})
        if "hp" in inputs:
            if inputs["hp"] > agents.max_hp(agent, "unit"):
                raise RuleInputError(
                    {"hp": _("HP cannot go above HL {n} (L47).").format(n=agents.max_hp(agent, "unit"))}
                )
            set_hp(agent, inputs["hp"], ctx.system_settings, effects, role="agent", cause="by hand")
        if not effects:
            raise RuleInputError(_("Give the HP or the AP to set."))
        summary = T(
            "{name}: HP {hp}, AP {ap} (by hand).", name=unit.name, hp=agent["hp"], ap=inputs.get("ap", agent["ap"])
        )
        ctx.outcome = {"summary": summary}
        payload = {
            "unit": unit.key,
            "effects": map_effects(effects, {"agent": unit.key}),
            "spent": 0,
            "summary": summary,
            "text": parts(summary),
        }
        return [NewEvent("adjusted", payload)]


class EndGame(Command):
    name = "end_game"
    label = N_("End the scenario")
    help = N_("The book has no victory conditions (they belong to the scenario): the table ends the game.")
    free = True
    input_schema = schema({"winner": {"type": ["integer", "null"], "minimum": 0, "maximum": 9},
                           "note": {"type": "string", "maxLength": 300}})  # fmt: skip

    def handle(self, ctx, inputs):
        winner = inputs.get("winner")
        if winner is not None and winner not in ctx.game["sides"]:
            raise RuleInputError({"winner": _("There is no such side in this battle.")})
        summary = T("The scenario ends: {result}.", result=questions.result_text(ctx.game, winner))
        ctx.outcome = {"summary": summary}
        return [
            NewEvent(
                "game_ended",
                {
                    "winner": winner,
                    "note": inputs.get("note", ""),
                    "questions": [],
                    "summary": summary,
                    "text": parts(summary),
                },
            )
        ]
