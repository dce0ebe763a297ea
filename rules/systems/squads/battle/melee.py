"""Melee commands (§3.8, L42): the assault and its first round, the rounds at the start of later turns, and the
withdrawal that replaces a locked unit's activation."""

from __future__ import annotations

from rules.contract import GameConflict, NewEvent, RuleInputError
from rules.i18n import N_, _
from rules.systems.squads.battle import units as U
from rules.systems.squads.battle.commands import (
    UNIT,
    BoardCommand,
    acting_unit,
    enemy_of,
    require_playing,
    run,
    show,
    with_end,
)
from rules.systems.squads.battle.units import system_settings


def majority_armour(state: dict) -> str:
    counts: dict[str, int] = {}
    for f in U.standing(state):
        counts[f["armour"]] = counts.get(f["armour"], 0) + 1
    return max(counts, key=counts.get) if counts else "none"


def melee_side(unit, in_reach: int | None, *, clear: bool) -> dict:
    """A side of the Melee action: figures, those in reach, those suppressed before the attack (they strike last)."""
    live = U.standing(unit.state)
    reach = len(live) if in_reach is None else min(in_reach, len(live))
    waiting = 0 if clear else min(len(U.suppressed(unit.state)), reach)
    return {"name": unit.name, "level": unit.state["level"], "figures": len(live), "in_reach": reach,
            "suppressed": waiting, "armour": majority_armour(unit.state)}  # fmt: skip


def casualty_figures(state: dict, count: int) -> list[int]:
    """The figures that fall: those that already struck (not suppressed) first, the leader last (the owner's best
    choice, §3.8); then the suppressed ones."""
    first = U.pick_figures(state, count, exclude=set(), unsuppressed=True)
    rest = U.pick_figures(state, count - len(first), exclude=set(first), unsuppressed=False)
    return first + rest


def melee_inputs(ctx, attacker, defender, round_: int, in_reach: dict) -> dict:
    """The Melee action's inputs of a round (L42): the first with the figures in reach, later ones whole."""
    clear = round_ > 1 and system_settings(ctx.settings)["melee_round_clears_suppression"]
    return {"round": round_, "attacker": melee_side(attacker, in_reach.get("attacker"), clear=clear),
            "defender": melee_side(defender, in_reach.get("defender"), clear=clear)}  # fmt: skip


def fight(ctx, attacker, defender, round_: int, in_reach: dict, cleared: list[str]) -> list[NewEvent]:
    clear = round_ > 1 and system_settings(ctx.settings)["melee_round_clears_suppression"]
    outcome = run(ctx, "melee", melee_inputs(ctx, attacker, defender, round_, in_reach))
    show(ctx, outcome)
    lost = outcome.result["casualties"]
    casualties = {
        role: casualty_figures(unit.state, lost[role])
        for role, unit in (("attacker", attacker), ("defender", defender))
    }
    payload = {"attacker": attacker.key, "defender": defender.key, "round": round_, "casualties": casualties,
               "over": outcome.result["over"], "cleared": cleared if clear else []}  # fmt: skip
    return with_end(ctx, [NewEvent("melee.fought", payload, dice=outcome.dice)])


class Assault(BoardCommand):
    name = "assault"
    label = N_("Assault")
    help = N_("After an Assault move: both sides roll a die per figure in reach, at once (L42).")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit", "target"],
        "properties": {
            "unit": UNIT,
            "target": UNIT,
            "in_reach": {"type": "integer", "minimum": 0, "maximum": 50, "description": 'Attackers within 3"/8 cm'},
            "defender_in_reach": {"type": "integer", "minimum": 0, "maximum": 50},
        },
    }

    def plan(self, ctx, inputs):
        attacker = acting_unit(ctx, inputs["unit"], "assault")
        defender = enemy_of(ctx, attacker, inputs["target"])
        if attacker.state["kind"] != "squad" or defender.state["kind"] != "squad":
            raise RuleInputError({"target": _("Melee is between squads (L41).")})
        if defender.state.get("melee"):
            raise RuleInputError({"target": _("{unit} is already in a melee.").format(unit=defender.name)})
        reach = {"attacker": inputs.get("in_reach"), "defender": inputs.get("defender_in_reach")}
        return attacker, defender, reach

    def handle(self, ctx, inputs):
        attacker, defender, reach = self.plan(ctx, inputs)
        return fight(ctx, attacker, defender, 1, reach, [])


class MeleeRound(BoardCommand):
    name = "melee_round"
    label = N_("Fight the melee")
    help = N_("«Бой продолжается в начале каждого следующего хода» (L42): each melee fights a round.")
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"melee": {"type": "integer", "minimum": 0, "maximum": 50}},
    }

    def plan(self, ctx, inputs):
        require_playing(ctx)
        due = ctx.game.get("melee_due") or []
        index = inputs.get("melee", 0)
        if index >= len(due):
            raise GameConflict(_("No melee waits to be fought this turn."))
        a, d = (ctx.unit(k) for k in due[index])
        if not {ctx.owner(a.key), ctx.owner(d.key)} & set(ctx.sides):
            raise GameConflict(_("Only the players in this melee fight it."))
        return a, d

    def handle(self, ctx, inputs):
        a, d = self.plan(ctx, inputs)
        return fight(ctx, a, d, 2, {}, [a.key, d.key])


class Withdraw(BoardCommand):
    name = "withdraw"
    label = N_("Withdraw from melee")
    help = N_(
        "Replaces a locked unit's activation: pass an activation roll, move d6\" away; the enemy may follow (L42)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit"],
        "properties": {
            "unit": UNIT,
            "attempt": {"type": "boolean", "description": "false: stay in the fight this turn"},
            "sees_enemy": {"type": "boolean"},
        },
    }

    def plan(self, ctx, inputs):
        """The unit, its opponent, and the Withdrawal action's inputs (None when the unit stays in the fight)."""
        require_playing(ctx)
        unit = ctx.own_unit(inputs["unit"])
        melee = unit.state.get("melee") if unit.state["kind"] == "squad" else None
        if not melee:
            raise GameConflict(_("{unit} is not in a melee.").format(unit=unit.name))
        if ctx.game.get("acting"):
            raise GameConflict(_("Another unit is acting: finish it first."))
        if U.side_to_act(ctx.state) != ctx.owner(unit.key) or unit.state["attempted"]:
            raise GameConflict(_("It is not this unit's activation now."))
        opponent = ctx.unit(melee["with"][0])
        if not inputs.get("attempt", True):
            return unit, opponent, None
        mine = U.activation_inputs(unit, sees_enemy=inputs.get("sees_enemy", True))
        theirs = U.activation_inputs(opponent)
        for facts in (mine, theirs):  # the roll is the withdrawal itself, not a normal activation
            facts.pop("in_melee", None)
            facts.pop("melee_role", None)
        return unit, opponent, {"withdrawing": mine, "pursuer": theirs}

    def handle(self, ctx, inputs):
        unit, opponent, rolled = self.plan(ctx, inputs)
        if rolled is None:
            payload = {
                "unit": unit.key,
                "opponent": opponent.key,
                "outcome": "stayed",
                "passes_to": None,
                "cleared": [],
            }
            return [NewEvent("withdrawal.rolled", payload)]
        outcome = run(ctx, "withdrawal", rolled)
        show(ctx, outcome)
        r = outcome.result
        cleared = [unit.key] + ([opponent.key] if r["success"] else [])
        passes = U.next_side(ctx.state, ctx.owner(unit.key)) if r["outcome"] == "failed" else None
        payload = {"unit": unit.key, "opponent": opponent.key, "outcome": r["outcome"], "passes_to": passes,
                   "cleared": cleared, "distance": r.get("distance")}  # fmt: skip
        return [NewEvent("withdrawal.rolled", payload, dice=outcome.dice)]
