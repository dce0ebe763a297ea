"""The commands a «Бронепехота» player sends from the board. Each handler is pure: it reads the state, rolls
through ctx.dice() (server roll or the dice typed in) and answers events; the generic runner stores them."""

from __future__ import annotations

from rules.contract import Command, CommandContext, GameConflict, NewEvent, NotYours, RuleInputError
from rules.systems.bronepekhota.actions.rolloff import Initiative
from rules.systems.bronepekhota.battle.adjust import ADJUST_HELP, adjust_effects
from rules.systems.bronepekhota.battle.resolve import BATTLE_ACTIONS, resolve_action
from rules.systems.bronepekhota.battle.units import system_settings, unit_facts, unit_label

_ANY_OBJECT = {"type": "object", "maxProperties": 40}


def require_active(ctx: CommandContext) -> None:
    if ctx.game.get("result") is not None:
        raise GameConflict("The battle is over. Undo the last events to play on.")


def require_turn(ctx: CommandContext, unit) -> None:
    """With `enforce_turns`, a unit acts only on its player's turn and only once per round (§3.2)."""
    if not ctx.settings.get("enforce_turns"):
        return
    game = ctx.game
    if not game.get("order"):
        raise GameConflict("Roll initiative and set the player order before units act (turns are enforced).")
    owner = ctx.owner(unit.key)
    facts = unit_facts(unit.state, unit.profile, settings=ctx.settings, round_=game["round"])
    if facts["activated"]:
        raise GameConflict(f"{unit_label(unit)} has already acted this round.")
    if not facts["activatable"]:
        raise GameConflict(f"{unit_label(unit)} cannot act: {facts['reason'] or 'not activatable'}.")
    if game.get("turn") != owner:
        raise GameConflict(f"It is not your turn: side {game.get('turn')} acts now (turns are enforced).")
    active = game.get("active_unit")
    if active and active != unit.key and active in ctx.state.units:
        other = ctx.state.units[active]
        raise GameConflict(
            f"{unit_label(other)} is acting: mark it done before another unit acts (turns are enforced)."
        )


class RoundStart(Command):
    name = "round"
    label = "Start the next round"
    help = "Per-round flags are cleared (panic recovers, §3.4.1) and initiative is due (§1.6)."

    def handle(self, ctx, inputs):
        require_active(ctx)
        game = ctx.game
        if ctx.settings.get("enforce_turns") and not game.get("round_over"):
            waiting = ", ".join(f"side {s}: {n}" for s, n in game.get("pending", {}).items() if n)
            raise GameConflict(f"Units still have to act this round ({waiting}); turns are enforced.")
        round_ = game["round"] + 1
        apply = [{"unit": k, "effect": {"kind": "new_round", "round": round_}} for k in ctx.state.units]
        return [NewEvent("round.started", {"round": round_, "apply": apply})]


def _unique_labels(names: dict) -> dict:
    seen: dict[str, int] = {}
    for n in names.values():
        seen[n] = seen.get(n, 0) + 1
    return {s: (n if seen[n] == 1 else f"{n} ({s})") for s, n in names.items()}


class InitiativeRoll(Command):
    name = "initiative"
    label = "Roll initiative"
    help = "Every player rolls Д12; the highest wins; ties re-roll (§3.1). Typed-in dice: the d12s in side order."

    def handle(self, ctx, inputs):
        require_active(ctx)
        game = ctx.game
        if game.get("initiative"):
            raise GameConflict("Initiative was already rolled this round.")
        contenders = [s for s in game["sides"] if s not in game.get("eliminated", [])]
        names = {int(k): v for k, v in game.get("side_names", {}).items()}
        labels = _unique_labels({s: names.get(s, f"Side {s}") for s in contenders})
        by_label = {v: k for k, v in labels.items()}
        outcome = Initiative().resolve(
            {"players": [labels[s] for s in contenders]}, system_settings(ctx.settings), ctx.dice()
        )
        rolls = [{str(by_label[p]): v for p, v in r["rolls"].items()} for r in outcome.result["rounds"]]
        winner = by_label[outcome.result["winner"]]
        summary = f"{names.get(winner, winner)} wins the initiative and sets the order of play."
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
    label = "Set the order of play"
    help = "The initiative winner decides the order in which players act this round (§1.6)."
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
            raise GameConflict("Roll initiative first: its winner decides the order.")
        if initiative["winner"] not in ctx.sides:
            raise NotYours("Only the initiative winner decides the order.")
        standing = [s for s in game["sides"] if s not in game.get("eliminated", [])]
        if sorted(order) != sorted(standing) or len(set(order)) != len(order):
            raise RuleInputError({"order": f"List every side still in play exactly once: {standing}."})
        return [NewEvent("order.set", {"order": order})]


class UnitDone(Command):
    name = "done"
    label = "Done for the round"
    help = "Marks a unit as done for the round: its Armlist is turned (§1.6)."
    input_schema = {"type": "object", "properties": {"unit": {"type": "string", "maxLength": 80}}}

    def handle(self, ctx, inputs):
        require_active(ctx)
        record = ctx.own_unit(inputs.get("unit"))
        if record.state.get("kind") == "gun":
            raise RuleInputError({"unit": "A gun is not a unit: it fires during its crew's activation (p.5)."})
        require_turn(ctx, record)
        facts = unit_facts(record.state, record.profile, settings=ctx.settings, round_=ctx.game["round"])
        if facts["activated"]:
            raise GameConflict(f"{unit_label(record)} is already marked done this round.")
        effect = {"kind": "activated", "value": True}
        return [NewEvent("unit.done", {"unit": record.key, "apply": [{"unit": record.key, "effect": effect}]})]


class UnitAdjust(Command):
    name = "adjust"
    label = "Adjust by hand (a ruling)"
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
            raise RuleInputError({"changes": "These values are already set: nothing to change."})
        payload = {
            "unit": record.key,
            "changes": changes,
            "note": (inputs.get("note") or "")[:500],
            "apply": [{"unit": record.key, "effect": e} for e in effects],
        }
        return [NewEvent("unit.adjusted", payload)]


class MissionComplete(Command):
    name = "mission"
    label = "Mission completed"
    help = "A player declares that a side completed the mission (§1.7): the game ends with that side as the winner."
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
            raise RuleInputError({"side": f"There is no side {side!r}."})
        if side in ctx.game.get("eliminated", []):
            raise RuleInputError({"side": "That side has no soldiers left."})
        return [NewEvent("mission.completed", {"side": side, "note": (inputs.get("note") or "")[:500]})]


class ResolveTest(Command):
    """One of the book's tests from the board (shoot, melee, grenade…): resolved on the server and applied as
    events, one per effect."""

    input_schema = _ANY_OBJECT

    def __init__(self, name: str, label: str):
        self.name = name
        self.label = label

    def handle(self, ctx, inputs):
        require_active(ctx)
        resolved = resolve_action(ctx, action=self.name, inputs=inputs, require_turn=require_turn)
        ctx.outcome = resolved.outcome
        ctx.notices.extend(resolved.notices)
        head = NewEvent(
            "action.resolved",
            {
                "action": self.name,
                "inputs": resolved.inputs,
                "units": resolved.roles,
                "by": resolved.by,
                "summary": resolved.outcome.get("summary", ""),
                "actor_unit": resolved.actor_unit,
                "outcome": resolved.outcome,
            },
            dice=resolved.outcome.get("dice", []),
        )
        children = [
            NewEvent(f"unit.{item['effect']['kind']}"[:40], {"unit": item["unit"], "apply": [item]})
            for item in resolved.effects
        ]
        return [head, *children]


_TEST_LABELS = {
    "shoot": "Shoot",
    "melee": "Melee",
    "grenade": "Throw a grenade",
    "grenade_burst": "Grenade burst",
    "repair": "Repair",
    "capture": "Capture",
    "ammo_refresh": "Refill ammo",
}

COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        RoundStart(),
        InitiativeRoll(),
        OrderSet(),
        UnitDone(),
        UnitAdjust(),
        MissionComplete(),
        *(ResolveTest(name, _TEST_LABELS[name]) for name in BATTLE_ACTIONS),
    )
}
