"""What the book asks of the other player, as questions the game waits for (rules/contract/battle.py Awaiting
"question"), and the commands that answer them.

- A counter-attack (L212–214): when a blow fails, the one struck at «может немедленно атаковать в ответ»: its
  player strikes back (with the dice of that blow) or lets it go. A failed counter may be answered in turn
  (errata §3.12, the counter_on_counter setting).
- A reaction shot: a model on Overwatch shoots the first enemy in view that moves, shoots or fights (L101–103),
  and a suppressor shoots the model it pinned when that model moves or shoots (L317). The shooter's player
  shoots or holds fire (the model may not see it).
- The end of the scenario: the book has no victory conditions (spec §1), so one player proposes the result and
  the other confirms it or plays on.

The questions wait in `game["questions"]`, the first one asked now; an event that changes them carries the new
list in its payload ("questions"). Each names the side that answers.
"""

from __future__ import annotations

from rules.contract import Command, CommandContext, NewEvent
from rules.errors import GameConflict, RuleInputError
from rules.i18n import N_, _
from rules.systems.enforcers.actions import ACTIONS
from rules.systems.enforcers.battle.units import defence_weapon, map_effects, sheet
from rules.systems.enforcers.statuses import incapacitated
from rules.systems.enforcers.texts import T, join, parts
from rules.systems.enforcers.wounds import DEAD

# Moving, shooting and fighting draw an Overwatch shot (L103); moving and shooting a suppressor's (L317).
OVERWATCH_TRIGGERS = ("move", "shoot", "throw", "melee", "suppressive_fire")
BOOL = {"anyOf": [{"type": "boolean"}, {"enum": ["true", "false"]}]}


def truth(value) -> bool:
    """A yes/no input: a boolean, or the text a phone's select sends."""
    return value is True or value == "true"


def current(game: dict) -> dict | None:
    questions = game.get("questions") or []
    return questions[0] if questions else None


def rest(game: dict) -> list[dict]:
    return list((game.get("questions") or [])[1:])


def standing(unit) -> bool:
    return DEAD not in unit.state["statuses"] and not incapacitated(unit.state)


def side_name(game: dict, side: int) -> str:
    """A side by its roster's name (the battle's start keeps them)."""
    names = game.get("side_names") or {}
    return names.get(str(side)) or _("side of the models of player {n}").format(n=side + 1)


def reactions(ctx: CommandContext, command: str, actor, effects: list[dict]) -> list[dict]:
    """The reaction shots this command of `actor` draws, one question per side that may shoot: its suppressor
    (the action says so with a reaction_shot_due effect) and the enemies on Overwatch."""
    shooters: dict[str, str] = {}
    for effect in effects:
        due = effect.get("kind") == "reaction_shot_due" and effect.get("unit") == actor.key
        if due and effect.get("by") in ctx.state.units:
            shooters[effect["by"]] = "pinned"
    if command in OVERWATCH_TRIGGERS:
        for key, unit in ctx.state.units.items():
            if unit.side != actor.side and unit.state.get("overwatch") and standing(unit):
                shooters.setdefault(key, "overwatch")
    by_side: dict[int, dict] = {}
    for key, reason in shooters.items():
        side = ctx.owner(key)
        q = by_side.setdefault(side, {"kind": "reaction", "side": side, "target": actor.key, "shooters": {}})
        q["shooters"][key] = reason
    return list(by_side.values())


def counter_offer(ctx: CommandContext, striker_key: str, target_key: str, inputs: dict) -> dict:
    """The question to the side of the model that may strike back (L212): it stands where it was struck."""
    return {"kind": "counter", "side": ctx.owner(striker_key), "unit": striker_key, "target": target_key,
            "distance_cm": inputs.get("distance_cm", 0), "height_cm": -inputs.get("height_cm", 0)}  # fmt: skip


def prune(state) -> None:
    """Questions that can no longer be answered leave: a shooter or a counter-attacker out of the fight, a target
    already dead."""
    kept = []
    for q in state.game.get("questions") or []:
        if q["kind"] == "reaction":
            q["shooters"] = {k: r for k, r in q["shooters"].items() if k in state.units and standing(state.units[k])}
            target = state.units.get(q["target"])
            if not q["shooters"] or target is None or DEAD in target.state["statuses"]:
                continue
        elif q["kind"] == "counter":
            unit, target = state.units.get(q["unit"]), state.units.get(q["target"])
            if unit is None or target is None or not standing(unit) or DEAD in target.state["statuses"]:
                continue
        kept.append(q)
    state.game["questions"] = kept


def _asked(ctx: CommandContext, kind: str) -> dict:
    """The question of this kind the game waits for now (the runner has checked that the caller's side answers)."""
    q = current(ctx.game)
    if q is None or q["kind"] != kind:
        raise GameConflict(_("Nobody asked this: the question was already answered."))
    return q


# Counter-attack (L212–214) ------------------------------------------------------------------------------------------
class CounterAttack(Command):
    name = "counter_attack"
    label = N_("Counter-attack")
    help = N_(
        "The answer to a failed blow (L212–214): strike back at once, with a curse, no action spent, once a turn; "
        "or let it go."
    )
    input_schema = {"type": "object", "additionalProperties": False,
                    "properties": {"strike": BOOL, "use_reroll": BOOL}}  # fmt: skip

    def action_inputs(self, ctx, q: dict, inputs: dict) -> dict:
        striker, target = ctx.state.units[q["unit"]], ctx.state.units[q["target"]]
        return {"attacker": sheet(ctx.state, striker.key), "attacker_weapon": defence_weapon(ctx.state, striker.key),
                "defender": sheet(ctx.state, target.key), "defender_weapon": defence_weapon(ctx.state, target.key),
                "distance_cm": q["distance_cm"], "height_cm": q["height_cm"], "counter": True, "ask_counter": True,
                "use_reroll": truth(inputs.get("use_reroll", False))}  # fmt: skip

    def odds_inputs(self, ctx, inputs) -> tuple[str, dict] | None:
        """The blow struck back (melee with a curse, L214); letting it go rolls nothing."""
        q = _asked(ctx, "counter")
        if not truth(inputs.get("strike", True)):
            return None
        return "melee", self.action_inputs(ctx, q, inputs)

    def handle(self, ctx, inputs):
        q = _asked(ctx, "counter")
        striker, target = ctx.state.units[q["unit"]], ctx.state.units[q["target"]]
        left = rest(ctx.game)
        if not truth(inputs.get("strike", True)):
            summary = T("{name} does not counter-attack.", name=striker.name)
            ctx.outcome = {"summary": summary}
            payload = {"unit": striker.key, "effects": [], "spent": 0, "questions": left, "summary": summary,
                       "text": parts(summary)}  # fmt: skip
            return [NewEvent("counter_declined", payload)]
        action = self.action_inputs(ctx, q, inputs)
        outcome = ACTIONS["melee"].resolve(action, ctx.system_settings, ctx.dice())
        ctx.outcome = outcome.as_dict()
        effects = map_effects(outcome.effects, {"attacker": striker.key, "defender": target.key})
        if outcome.result.get("counter_possible"):  # a failed counter may be answered in turn (errata §3.12)
            left = [counter_offer(ctx, target.key, striker.key, q), *left]
        payload = {"unit": striker.key, "effects": effects, "spent": 0, "questions": left,
                   "summary": outcome.summary, "text": parts(outcome.summary)}  # fmt: skip
        return [NewEvent("counter_attack", payload, dice=outcome.dice)]


# Reaction shots (L101–103, L317) --------------------------------------------------------------------------------------
class HoldFire(Command):
    name = "hold_fire"
    label = N_("Hold fire")
    help = N_("The model on Overwatch or the suppressor does not shoot (it does not see the target).")
    input_schema = {"type": "object", "additionalProperties": False,
                    "properties": {"shooter": {"type": "string", "minLength": 1, "maxLength": 80}}}  # fmt: skip

    def handle(self, ctx, inputs):
        q = _asked(ctx, "reaction")
        shooters = dict(q["shooters"])
        chosen = inputs.get("shooter")
        if chosen is not None and chosen not in shooters:
            raise RuleInputError({"shooter": _("This model is not asked to shoot now.")})
        for key in [chosen] if chosen else list(shooters):
            shooters.pop(key)
        left = ([{**q, "shooters": shooters}] if shooters else []) + rest(ctx.game)
        names = [ctx.state.units[k].name for k in ([chosen] if chosen else q["shooters"])]
        summary = T("{names} hold fire.", names=join(", ", names))
        ctx.outcome = {"summary": summary}
        payload = {"unit": q["target"], "effects": [], "spent": 0, "questions": left, "summary": summary,
                   "text": parts(summary)}  # fmt: skip
        return [NewEvent("reaction_declined", payload)]


def after_reaction_shot(game: dict, shooter: str) -> list[dict]:
    """The questions once `shooter` has taken the shot it was asked for."""
    q = current(game)
    if q is None or q["kind"] != "reaction" or shooter not in q["shooters"]:
        return list(game.get("questions") or [])
    shooters = {k: r for k, r in q["shooters"].items() if k != shooter}
    return ([{**q, "shooters": shooters}] if shooters else []) + rest(game)


# The end of the scenario (no victory conditions in the book) --------------------------------------------------------
def result_text(game: dict, winner) -> str:
    if winner is None:
        return T("no winner")
    return T("victory of {side}", side=side_name(game, winner))


class ProposeEnd(Command):
    """Either player, at any time (not an answer to anything)."""

    name = "propose_end"
    free = True
    label = N_("Propose the end of the scenario")
    help = N_("The book has no victory conditions (they belong to the scenario): one player proposes the result, "
              "the other confirms it.")  # fmt: skip
    input_schema = {"type": "object", "additionalProperties": False,
                    "properties": {"winner": {"anyOf": [{"type": ["integer", "null"], "minimum": 0, "maximum": 9},
                                                        {"enum": ["none"]}]},
                                   "note": {"type": "string", "maxLength": 300}}}  # fmt: skip

    def handle(self, ctx, inputs):
        winner = inputs.get("winner")
        winner = None if winner == "none" else winner
        if winner is not None and winner not in ctx.game["sides"]:
            raise RuleInputError({"winner": _("There is no such side in this battle.")})
        if any(q["kind"] == "end" for q in ctx.game.get("questions") or []):
            raise GameConflict(_("The end of the scenario is already proposed: the other player answers."))
        by = ctx.one_side()
        others = [s for s in ctx.game["sides"] if s != by]
        question = {"kind": "end", "side": others[0] if others else by, "sides": others or [by], "by": by,
                    "winner": winner, "note": inputs.get("note", "")}  # fmt: skip
        summary = T("{side} proposes to end the scenario: {result}.", side=side_name(ctx.game, by),
                    result=result_text(ctx.game, winner))  # fmt: skip
        ctx.outcome = {"summary": summary}
        payload = {"effects": [], "spent": 0, "questions": [*(ctx.game.get("questions") or []), question],
                   "summary": summary, "text": parts(summary)}  # fmt: skip
        return [NewEvent("end_proposed", payload)]


class ConfirmEnd(Command):
    name = "confirm_end"
    label = N_("Confirm the end of the scenario")
    help = N_("The other player confirms the proposed result, or the game goes on.")
    input_schema = {"type": "object", "additionalProperties": False, "required": ["accept"],
                    "properties": {"accept": BOOL}}  # fmt: skip

    def handle(self, ctx, inputs):
        q = _asked(ctx, "end")
        if not truth(inputs["accept"]):
            summary = T("{side} plays on: the scenario is not over.", side=side_name(ctx.game, ctx.one_side()))
            ctx.outcome = {"summary": summary}
            payload = {"effects": [], "spent": 0, "questions": rest(ctx.game), "summary": summary,
                       "text": parts(summary)}  # fmt: skip
            return [NewEvent("end_declined", payload)]
        summary = T("The scenario ends: {result}.", result=result_text(ctx.game, q["winner"]))
        ctx.outcome = {"summary": summary}
        payload = {"winner": q["winner"], "note": q.get("note", ""), "questions": [], "confirmed_by": ctx.one_side(),
                   "summary": summary, "text": parts(summary)}  # fmt: skip
        return [NewEvent("game_ended", payload)]


REASONS = {"overwatch": N_("Overwatch, L103"), "pinned": N_("Pinned, L317")}
ANSWERS = {"counter": ("counter_attack",), "reaction": ("reaction_shot", "hold_fire"), "end": ("confirm_end",)}


def message(state, q: dict) -> str:
    """Whom the game waits for, and for what, in the book's words."""
    game = state.game
    side = side_name(game, q["side"])
    if q["kind"] == "counter":
        return _("{side} answers: does {name} counter-attack {target} at once (L212–214)?").format(
            side=side, name=state.units[q["unit"]].name, target=state.units[q["target"]].name
        )
    if q["kind"] == "reaction":
        names = ", ".join(state.units[k].name for k in q["shooters"])
        why = ", ".join(_(REASONS[r]) for r in sorted(set(q["shooters"].values())))
        return _("{side} answers: {names} may shoot {target} at once ({why}), or hold fire.").format(
            side=side, names=names, target=state.units[q["target"]].name, why=why
        )
    return _("{side} answers: {by} proposes to end the scenario ({result}); confirm, or play on.").format(
        side=side, by=side_name(game, q["by"]), result=result_text(game, q["winner"])
    )
