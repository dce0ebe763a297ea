"""The odds and the rule at the moment of the roll (rules/contract/at_roll.py) for «5150».

Every board form that rolls is mapped to the action its command resolves by running the command's own handler in
a planning context (commands.Planning): it makes every check the command makes (whose turn, the figure's state, the
target, the question pending, the dice against the rate of fire) and builds the action's inputs from the live state
(the figures' Rep, condition, cover, weapons and armour, the group's Leader and Heroes, the battle's settings), then
stops where it would roll (commands.Planned). So the form shows exactly the odds of the roll its command would make,
and refuses, with the command's words, exactly what the command would refuse.

| command | action | headline | after the roll |
|---|---|---|---|
| activation | activation: the figures on the table by side and group | — (who acts first, doubles) | — |
| shoot (and return fire) | shooting | a target out of the fight or dead | the volley's hits |
| melee | melee | an opponent out of the fight or dead | the opponents out of the fight or dead |
| grenade | grenade | a figure under the template out of the fight or dead | — |
| recover | recovery | back in the fight | — |
| charge, answer_reaction, in_sight, answer_charge, stay_or_run | the group test's table | — (the group's joint result) | — |
"""

from __future__ import annotations

from rules.contract import GameConflict, GameState, NotYours, RuleInputError
from rules.contract.at_roll import AtRollPart, RollOdds
from rules.i18n import N_, _
from rules.systems.thw5150.battle import BATTLE
from rules.systems.thw5150.battle.commands import Planned, Planning
from rules.systems.thw5150.battle.rules_at_hand import RULES
from rules.systems.thw5150.battle.units import ON_TABLE, leader_rep, side_name
from rules.systems.thw5150.battle.view import group_label

# The headline chance and the outcome's place of each action a form rolls (None: no headline / no place).
HEADLINES = {
    "shooting": ("p_casualty", N_("the target out of the fight or dead")),
    "melee": ("p_opponent_casualty", N_("the opponent out of the fight or dead")),
    "grenade": ("p_casualty", N_("a figure under the template out of the fight or dead")),
    "recovery": ("p_returns", N_("back in the fight, it may act at once")),
}
PLACES = {"shooting": ("hits", "hits"), "melee": ("opponents_casualties", "opponents_casualties")}
ROLLING = ("shoot", "melee", "grenade", "recover", "charge", "answer_reaction", "in_sight", "answer_charge",
           "stay_or_run")  # fmt: skip


def _no_dice():  # pragma: no cover - a planning run stops before any die
    raise RuntimeError("the odds of a form roll no dice")


class Thw5150AtRoll(AtRollPart):
    compare_fields = {"shoot": ("target", "weapon"), "melee": ("opponent",), "grenade": ("target",)}
    rules = RULES

    def roll_odds(self, state: GameState, command: str, inputs: dict, sides: frozenset[int]) -> RollOdds | None:
        if command != "activation" and command not in ROLLING:
            return None
        cmd = BATTLE.commands[command]
        inputs = {k: v for k, v in (inputs or {}).items() if k not in ("dice", "version")}
        try:
            BATTLE.check_allowed(state, cmd, sides)
            inputs = cmd.validate(inputs)
            if command == "activation":
                return RollOdds("activation", activation_inputs(state))
            ctx = Planning(part=BATTLE, state=state, sides=sides, next_seq=0, dice_source=_no_dice)
            try:
                cmd.handle(ctx, inputs)
            except Planned as planned:
                headline, label = HEADLINES.get(planned.action, ("", ""))
                return RollOdds(planned.action, planned.inputs, headline, label, PLACES.get(planned.action))
        except (GameConflict, NotYours) as exc:  # the command would be refused: no odds, and why
            raise RuleInputError({"command": exc.message}) from exc
        raise RuleInputError({"command": _("This command rolls no dice: there are no odds to show.")})


def activation_inputs(state: GameState) -> dict:
    """The activation dice's sides as the table stands: each side's groups, with the Rep of the figures still on
    the table and the Rep the group activates on (its Leader's, or the acting Group Leader's, L284–294); a group
    with nobody to lead it activates on each figure's own Rep (units.may_activate)."""
    sides: dict[int, dict[str, list[int]]] = {}
    for u in state.units.values():
        if u.state["condition"] in ON_TABLE:
            sides.setdefault(u.side, {}).setdefault(u.state["group"], []).append(u.state["rep"])
    out = []
    for side in sorted(sides):
        groups = []
        for group, reps in sides[side].items():
            lead = leader_rep(state.units, group) or min(reps)  # min: nobody is lifted above his own Rep
            groups.append({"name": group_label(group), "reps": reps, "leader_rep": lead})
        out.append({"name": side_name(state.game, side), "groups": groups})
    if len(out) < 2:
        raise RuleInputError({"command": _("Only one side has figures on the table: no activation dice to roll.")})
    return {"sides": out}


AT_ROLL = Thw5150AtRoll()
