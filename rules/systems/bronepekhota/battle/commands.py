"""The commands a «Бронепехота» player sends from the board. Each handler is pure: it reads the state, rolls
through ctx.dice() (server roll or the dice typed in) and answers events; the generic runner stores them."""

from __future__ import annotations

from rules.contract import Command, CommandContext, GameConflict, NewEvent, NotYours, RuleInputError
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota.actions.rolloff import Dispute, Initiative
from rules.systems.bronepekhota.battle.adjust import ADJUST_HELP, adjust_effects
from rules.systems.bronepekhota.battle.questions import question_test, question_text
from rules.systems.bronepekhota.battle.resolve import BATTLE_ACTIONS, Plan, plan_action, play
from rules.systems.bronepekhota.battle.units import (
    actor_facts,
    actor_key,
    solo_soldiers,
    system_settings,
    unit_facts,
    unit_label,
)

_ANY_OBJECT = {"type": "object", "maxProperties": 40}


def require_active(ctx: CommandContext) -> None:
    if ctx.game.get("result") is not None:
        raise GameConflict(tr("The battle is over. Undo the last events to play on."))


def require_turn(ctx: CommandContext, unit, soldier=None) -> None:
    """With `enforce_turns`, a unit acts only on its player's turn and only once per round (§3.2). A dismounted
    pilot who acts alone (A19 off) is a unit of his own: `soldier` names him."""
    if not ctx.settings.get("enforce_turns"):
        return
    game = ctx.game
    if not game.get("order"):
        raise GameConflict(tr("Roll initiative and set the player order before units act (turns are enforced)."))
    owner = ctx.owner(unit.key)
    solo = soldier in solo_soldiers(unit.state, system_settings(ctx.settings))
    key = actor_key(unit.key, soldier, solo=solo)
    facts = actor_facts(ctx.state.units, key, settings=ctx.settings, round_=game["round"])
    label = unit_label(unit) + (tr(", soldier {num} on his own").format(num=soldier) if solo else "")
    if facts["activated"]:
        raise GameConflict(tr("{unit} has already acted this round.").format(unit=label))
    if not facts["activatable"]:
        reason = tr(facts.get("reason") or N_("not activatable"))
        raise GameConflict(tr("{unit} cannot act: {reason}.").format(unit=label, reason=reason))
    if game.get("turn") != owner:
        raise GameConflict(
            tr("It is not your turn: {side} acts now (turns are enforced).").format(
                side=side_name(ctx, game.get("turn"))
            )
        )
    active = game.get("active_unit")
    if active and active != key and actor_facts(ctx.state.units, active, settings=ctx.settings) is not None:
        raise GameConflict(
            tr("{unit} is acting: mark it done before another unit acts (turns are enforced).").format(
                unit=active_label(ctx, active)
            )
        )


def active_label(ctx: CommandContext, key: str) -> str:
    from rules.systems.bronepekhota.battle.units import split_actor

    unit_key, num = split_actor(key)
    unit = ctx.state.units[unit_key]
    return unit_label(unit) + (tr(", soldier {num} on his own").format(num=num) if num is not None else "")


def require_deployment_done(ctx: CommandContext) -> None:
    """Once deployment has started, every unit is placed before the first initiative (p.3–4)."""
    deployment = ctx.game.get("deployment") or {}
    if deployment.get("open") and deployment.get("started"):
        left = ", ".join(f"{side_name(ctx, s)}: {n}" for s, n in deployment.get("left", {}).items() if n)
        raise GameConflict(tr("Finish the deployment first: units still to place ({left}).").format(left=left))


class RoundStart(Command):
    name = "round"
    label = N_("Start the next round")
    help = N_("Per-round flags are cleared (panic recovers, §3.4.1) and initiative is due (§1.6).")

    def handle(self, ctx, inputs):
        require_active(ctx)
        game = ctx.game
        if ctx.settings.get("enforce_turns") and not game.get("round_over"):
            waiting = ", ".join(f"{side_name(ctx, s)}: {n}" for s, n in game.get("pending", {}).items() if n)
            raise GameConflict(
                tr("Units still have to act this round ({waiting}); turns are enforced.").format(waiting=waiting)
            )
        round_ = game["round"] + 1
        apply = [{"unit": k, "effect": {"kind": "new_round", "round": round_}} for k in ctx.state.units]
        return [NewEvent("round.started", {"round": round_, "apply": apply})]


def _side_labels(ctx, sides) -> dict:
    """Each side by its name, told apart when two share one: the players of a roll-off."""
    names = {int(k): v for k, v in ctx.game.get("side_names", {}).items()}
    return _unique_labels({s: names.get(s, f"Side {s}") for s in sides})


def _unique_labels(names: dict) -> dict:
    seen: dict[str, int] = {}
    for n in names.values():
        seen[n] = seen.get(n, 0) + 1
    return {s: (n if seen[n] == 1 else f"{n} ({s})") for s, n in names.items()}


class InitiativeRoll(Command):
    name = "initiative"
    label = N_("Roll initiative")
    help = N_("Every player rolls Д12; the highest wins; ties re-roll (§3.1). Typed-in dice: the d12s in side order.")

    def plan(self, ctx, inputs) -> tuple[str, dict, dict]:
        """The roll its command makes: the Initiative action, every side still in play by its name."""
        require_active(ctx)
        game = ctx.game
        if game.get("initiative"):
            raise GameConflict(tr("Initiative was already rolled this round."))
        require_deployment_done(ctx)
        contenders = [s for s in game["sides"] if s not in game.get("eliminated", [])]
        labels = _side_labels(ctx, contenders)
        return "initiative", {"players": [labels[s] for s in contenders]}, labels

    def handle(self, ctx, inputs):
        game = ctx.game
        _action, rules_inputs, labels = self.plan(ctx, inputs)
        names = {int(k): v for k, v in game.get("side_names", {}).items()}
        by_label = {v: k for k, v in labels.items()}
        outcome = Initiative().resolve(rules_inputs, system_settings(ctx.settings), ctx.dice())
        rolls = [{str(by_label[p]): v for p, v in r["rolls"].items()} for r in outcome.result["rounds"]]
        winner = by_label[outcome.result["winner"]]
        summary = tr("{side} wins the initiative and sets the order of play.").format(side=names.get(winner, winner))
        ctx.outcome = {
            "summary": summary,
            "rolls": rolls,
            "winner": winner,
            "steps": outcome.steps,
            "dice": outcome.dice,
        }
        return [NewEvent("initiative.rolled", {"rolls": rolls, "winner": winner}, dice=outcome.dice)]


class OrderSet(Command):
    name = "order"
    label = N_("Set the order of play")
    help = N_("The initiative winner decides the order in which players act this round (§1.6).")
    input_schema = {
        "type": "object",
        "properties": {"order": {"type": "array", "items": {"type": "integer"}, "maxItems": 6}},
        "required": ["order"],
    }

    def handle(self, ctx, inputs):
        require_active(ctx)
        game = ctx.game
        order = inputs["order"]
        initiative = game.get("initiative")
        if initiative is None:
            raise GameConflict(tr("Roll initiative first: its winner decides the order."))
        if initiative["winner"] not in ctx.sides:
            raise NotYours(tr("Only the initiative winner decides the order."))
        standing = [s for s in game["sides"] if s not in game.get("eliminated", [])]
        if sorted(order) != sorted(standing) or len(set(order)) != len(order):
            raise RuleInputError(
                {"order": tr("List every side still in play exactly once: {sides}.").format(sides=standing)}
            )
        return [NewEvent("order.set", {"order": order})]


class UnitDone(Command):
    name = "done"
    label = N_("Done for the round")
    help = N_(
        "Marks a unit as done for the round: its Armlist is turned (§1.6). With `soldier`: a dismounted pilot who "
        "acts as a one-man unit (setting dismounted_pilot_rejoins_squad off, §5 A19)."
    )
    input_schema = {
        "type": "object",
        "properties": {"unit": {"type": "string", "maxLength": 80}, "soldier": {"type": "integer"}},
    }

    def handle(self, ctx, inputs):
        require_active(ctx)
        record = ctx.own_unit(inputs.get("unit"))
        if record.state.get("kind") == "gun":
            raise RuleInputError({"unit": tr("A gun is not a unit: it fires during its crew's activation (p.5).")})
        num = inputs.get("soldier")
        if num is not None:
            if num not in solo_soldiers(record.state, system_settings(ctx.settings)):
                raise RuleInputError(
                    {
                        "soldier": tr(
                            "Only a dismounted pilot acting as a one-man unit is marked done on his own "
                            "(setting dismounted_pilot_rejoins_squad off, A19); others are done with their squad."
                        )
                    }
                )
            require_turn(ctx, record, num)
            key = actor_key(record.key, num, solo=True)
            if actor_facts(ctx.state.units, key, settings=ctx.settings)["activated"]:
                raise GameConflict(
                    tr("Soldier {num} of {unit} is already done this round.").format(num=num, unit=unit_label(record))
                )
            effect = {"kind": "activated", "soldier": num, "value": True}
            payload = {"unit": record.key, "soldier": num, "actor": key}
            return [NewEvent("unit.done", {**payload, "apply": [{"unit": record.key, "effect": effect}]})]
        require_turn(ctx, record)
        facts = unit_facts(record.state, record.profile, settings=ctx.settings, round_=ctx.game["round"])
        if facts["activated"]:
            raise GameConflict(tr("{unit} is already marked done this round.").format(unit=unit_label(record)))
        effect = {"kind": "activated", "value": True}
        return [NewEvent("unit.done", {"unit": record.key, "apply": [{"unit": record.key, "effect": effect}]})]


class DeploymentRoll(Command):
    name = "deployment"
    label = N_("Roll off: who deploys first")
    help = N_(
        "Deployment alternates one unit at a time (setting deployment_order, §5 A3): every player rolls Д12, the "
        "highest places first; ties re-roll (as initiative). Typed-in dice: the d12s in side order."
    )

    def plan(self, ctx, inputs) -> tuple[str, dict, dict]:
        """The roll-off its command makes: the Initiative action's Д12 of every side."""
        require_active(ctx)
        deployment = _deployment(ctx)
        if not deployment["alternate"]:
            raise RuleInputError({"deployment_order": tr("Deployment is free in these settings: place in any order.")})
        if deployment["first"] is not None:
            raise GameConflict(tr("Who deploys first was already rolled."))
        labels = _side_labels(ctx, ctx.game["sides"])
        return "initiative", {"players": [labels[s] for s in ctx.game["sides"]]}, labels

    def handle(self, ctx, inputs):
        game = ctx.game
        _action, rules_inputs, labels = self.plan(ctx, inputs)
        names = {int(k): v for k, v in game.get("side_names", {}).items()}
        by_label = {v: k for k, v in labels.items()}
        outcome = Initiative().resolve(rules_inputs, system_settings(ctx.settings), ctx.dice())
        rolls = [{str(by_label[p]): v for p, v in r["rolls"].items()} for r in outcome.result["rounds"]]
        winner = by_label[outcome.result["winner"]]
        ctx.outcome = {
            "summary": tr("{side} places the first unit; then the sides alternate.").format(
                side=names.get(winner, winner)
            ),
            "rolls": rolls,
            "winner": winner,
            "steps": outcome.steps,
            "dice": outcome.dice,
        }
        return [NewEvent("deployment.rolled", {"rolls": rolls, "winner": winner}, dice=outcome.dice)]


class Deploy(Command):
    name = "deploy"
    label = N_("Placed on the table")
    help = N_(
        "Deployment (p.3–4): a unit is placed in its side's zone. Alternate (the default, §5 A3): one unit at a "
        "time, the roll-off winner first; free: in any order. Once started, every unit is placed before initiative."
    )
    input_schema = {"type": "object", "properties": {"unit": {"type": "string", "maxLength": 80}}}

    def handle(self, ctx, inputs):
        require_active(ctx)
        record = ctx.own_unit(inputs.get("unit"))
        deployment = _deployment(ctx)
        if record.key in deployment["placed"]:
            raise GameConflict(tr("{unit} is already on the table.").format(unit=unit_label(record)))
        if deployment["alternate"]:
            if deployment["first"] is None:
                raise GameConflict(tr("Roll off first: the winner places the first unit (deployment alternates)."))
            if deployment["next"] != record.side:
                raise GameConflict(
                    tr("{side} places the next unit: deployment alternates one unit at a time.").format(
                        side=side_name(ctx, deployment["next"])
                    )
                )
        return [NewEvent("deployment.placed", {"unit": record.key, "side": record.side})]


def _deployment(ctx: CommandContext) -> dict:
    deployment = ctx.game.get("deployment")
    if deployment is None or "open" not in deployment:
        raise GameConflict(tr("This battle was started before deployment was tracked."))
    if not deployment["open"]:
        raise GameConflict(tr("Deployment is over: it happens before the first initiative roll (p.3–4)."))
    return deployment


class DisputeRoll(Command):
    name = "dispute"
    label = N_("Dispute roll")
    help = N_(
        "Players who cannot agree each roll a die (Д12 by default, setting dispute_die, §5 A33); the highest wins, "
        "ties re-roll (p.51 §12.2). `sides`: who disputes (default: every side in play); `note`: what about."
    )
    free = True
    input_schema = {
        "type": "object",
        "properties": {
            "sides": {"type": "array", "items": {"type": "integer"}, "maxItems": 8},
            "note": {"type": "string", "maxLength": 500},
        },
    }

    def plan(self, ctx, inputs) -> tuple[str, dict, dict]:
        """The roll its command makes: the Dispute action's die of every disputing side."""
        require_active(ctx)
        game = ctx.game
        standing = [s for s in game["sides"] if s not in game.get("eliminated", [])]
        sides = inputs.get("sides") or standing
        if len(set(sides)) != len(sides) or len(sides) < 2 or any(s not in game["sides"] for s in sides):
            raise RuleInputError(
                {"sides": tr("Name two or more different sides of this battle: {sides}.").format(sides=game["sides"])}
            )
        if not set(sides) & set(ctx.sides):
            raise NotYours(tr("Only a player in the dispute asks for the roll."))
        labels = _side_labels(ctx, sides)
        return "dispute", {"players": [labels[s] for s in sides]}, labels

    def handle(self, ctx, inputs):
        game = ctx.game
        _action, rules_inputs, labels = self.plan(ctx, inputs)
        sides = list(labels)
        names = {int(k): v for k, v in game.get("side_names", {}).items()}
        by_label = {v: k for k, v in labels.items()}
        rules = system_settings(ctx.settings)
        outcome = Dispute().resolve(rules_inputs, rules, ctx.dice())
        rolls = [{str(by_label[p]): v for p, v in r["rolls"].items()} for r in outcome.result["rounds"]]
        winner = by_label[outcome.result["winner"]]
        note = (inputs.get("note") or "")[:500]
        summary = (tr("{side} wins the dispute ({note}).") if note else tr("{side} wins the dispute.")).format(
            side=names.get(winner, winner), note=note
        )
        ctx.outcome = {
            "summary": summary,
            "rolls": rolls,
            "winner": winner,
            "steps": outcome.steps,
            "dice": outcome.dice,
        }
        payload = {"rolls": rolls, "winner": winner, "die": outcome.result["die"], "note": note, "sides": sides}
        return [NewEvent("dispute.rolled", payload, dice=outcome.dice)]


class UnitAdjust(Command):
    name = "adjust"
    label = N_("Adjust by hand (a ruling)")
    help = ADJUST_HELP
    free = True  # a correction agreed at the table is possible whatever the turn, and after the end
    when_over = True
    input_schema = {
        "type": "object",
        "properties": {
            "unit": {"type": "string", "maxLength": 80},
            "changes": _ANY_OBJECT,
            "note": {"type": "string", "maxLength": 500},
        },
    }

    def handle(self, ctx, inputs):
        record = ctx.own_unit(inputs.get("unit"))
        changes = inputs.get("changes")
        effects = adjust_effects(record.state, record.profile, changes)
        if not effects:
            raise RuleInputError({"changes": tr("These values are already set: nothing to change.")})
        payload = {
            "unit": record.key,
            "changes": changes,
            "note": (inputs.get("note") or "")[:500],
            "apply": [{"unit": record.key, "effect": e} for e in effects],
        }
        return [NewEvent("unit.adjusted", payload)]


class MissionComplete(Command):
    name = "mission"
    label = N_("Mission completed")
    help = N_("A player declares that a side completed the mission (§1.7): the game ends with that side as the winner.")
    free = True
    input_schema = {
        "type": "object",
        "properties": {"side": {"type": "integer"}, "note": {"type": "string", "maxLength": 500}},
        "required": ["side"],
    }

    def handle(self, ctx, inputs):
        require_active(ctx)
        side = inputs["side"]
        if side not in ctx.game["sides"]:
            raise RuleInputError({"side": tr("There is no side {side}.").format(side=side)})
        if side in ctx.game.get("eliminated", []):
            raise RuleInputError({"side": tr("That side has no soldiers left.")})
        return [NewEvent("mission.completed", {"side": side, "note": (inputs.get("note") or "")[:500]})]


class ResolveTest(Command):
    """One of the book's tests from the board (shoot, melee, grenade…): resolved on the server and applied as
    events, one per effect."""

    input_schema = _ANY_OBJECT

    def __init__(self, name: str, label: str):
        self.name = name
        self.label = label

    def plan(self, ctx, inputs) -> Plan:
        """The test as it would be rolled now (every check of the command), no die cast."""
        require_active(ctx)
        return plan_action(ctx, action=self.name, inputs=inputs, require_turn=require_turn)

    def handle(self, ctx, inputs):
        resolved = play(ctx, self.plan(ctx, inputs))
        return resolved_events(ctx, self.name, resolved)


def resolved_events(ctx: CommandContext, action: str, resolved, **more) -> list[NewEvent]:
    """A test played: its head event (the outcome, the questions it asks the other players) and one event per
    effect; the sender's phone shows the outcome and what each side must do next."""
    ctx.outcome = dict(resolved.outcome)
    ctx.outcome["steps"] = [*resolved.outcome.get("steps", []), next_after(ctx, resolved.questions)]
    ctx.notices.extend(resolved.notices)
    payload = {
        "action": action,
        "inputs": resolved.inputs,
        "units": resolved.roles,
        "by": resolved.by,
        "summary": resolved.outcome.get("summary", ""),
        # The summary as msgids and parameters: the log says it in each reader's language (text.py, words.py).
        "said": getattr(resolved.outcome.get("summary"), "parts", None),
        "actor_unit": resolved.actor_unit,
        "outcome": ctx.outcome,  # as the sender's phone showed it (a retry answers the same)
        **more,
    }
    if resolved.questions:
        payload["questions"] = resolved.questions
    head = NewEvent("action.resolved", payload, dice=resolved.outcome.get("dice", []))
    children = [
        NewEvent(f"unit.{item['effect']['kind']}"[:40], {"unit": item["unit"], "apply": [item]})
        for item in resolved.effects
    ]
    return [head, *children]


def next_after(ctx: CommandContext, questions: list[dict]) -> str:
    """What each side must do after a roll, in the book's words: the test the other player now takes, or none."""
    if questions:
        names = ctx.game.get("side_names", {})
        asked = "; ".join(
            tr("{side}: {test}").format(
                side=names.get(str(q["side"]), q["side"]), test=question_text(ctx.game, q, ctx.settings)
            )
            for q in questions
        )
        return tr("Next: {asked}.").format(asked=asked)
    return tr("Next: no test is owed.")


class Answer(Command):
    """The answer to a question the game asks one player (setting pilot_tests): the pilot of his vehicle takes
    the test he is asked for, with the dice typed in or rolled by the server."""

    name = "answer"
    label = N_("Answer: the pilot's test")
    help = N_(
        "The vehicle's player takes his pilot's test on his own phone: the survival test (Д6), in real shooting "
        "the armour test first (Д12 or Д20), and a flyer's emergency landing (Д6) if the pilot dies in flight."
    )

    def plan(self, ctx, inputs) -> tuple[dict, Plan | None]:
        """The question answered and the pilot's test it plays (None: the pilot is gone, the question lapses)."""
        require_active(ctx)
        questions = ctx.game.get("questions") or []
        if not questions:
            raise GameConflict(tr("No question is waiting for an answer: it was answered already."))
        q = questions[0]
        if q["side"] not in ctx.sides:
            raise NotYours(
                tr("This question is for {side}: only their player answers it.").format(side=side_name(ctx, q["side"]))
            )
        action, test_inputs = question_test(ctx, q)
        if action is None:
            return q, None
        return q, plan_action(ctx, action=action, inputs=test_inputs, require_turn=require_turn)

    def handle(self, ctx, inputs):
        q, plan = self.plan(ctx, inputs)
        if plan is None:  # the pilot is gone meanwhile (a ruling by hand): nothing is left to test
            return [NewEvent("question.lapsed", {"answers": q["id"], "unit": q["unit"]})]
        return resolved_events(ctx, plan.action, play(ctx, plan), answers=q["id"])


def side_name(ctx: CommandContext, side) -> str:
    return ctx.game.get("side_names", {}).get(str(side), str(side))


_TEST_LABELS = {
    "shoot": N_("Shoot"),
    "melee": N_("Melee"),
    "grenade": N_("Throw a grenade"),
    "grenade_burst": N_("Grenade burst"),
    "repair": N_("Repair"),
    "capture": N_("Capture"),
    "ammo_refresh": N_("Refill ammo"),
    "move": N_("Move"),
    "jump": N_("Jump (jump pack)"),
    "tow": N_("Towing"),
    "survival_test": N_("Survival test"),
    "armour_test": N_("Armour test"),
    "emergency_landing": N_("Emergency landing"),
    "panic": N_("Panic flight"),
}

COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        RoundStart(),
        InitiativeRoll(),
        OrderSet(),
        UnitDone(),
        DeploymentRoll(),
        Deploy(),
        DisputeRoll(),
        UnitAdjust(),
        MissionComplete(),
        Answer(),
        *(ResolveTest(name, _TEST_LABELS[name]) for name in BATTLE_ACTIONS),
    )
}
