"""The odds and the rule at the moment of the roll (rules/contract/at_roll.py) for «Бронепехота».

Every form of the board that rolls is mapped to the action its command resolves by the command's own `plan`
(commands.py, resolve.plan_action): every check the command makes (whose turn, the soldier's and the vehicle's state,
the weapon fitted, the rate of fire, the ammo, the question pending) and the action's inputs built from the live
state (the shooter's and the target's current strength, ammo, pilot and his Бр, the shots and actions used this
round, the battle's settings), stopped before the dice. So the form shows exactly the odds of the roll its command
would make, and refuses, in the command's words, exactly what the command would refuse.

| command | action | headline | after the roll |
|---|---|---|---|
| shoot | virtual_shot / real_shot (by the battle's mode) | the target destroyed | the damage (virtual) |
| melee | melee | the defender destroyed | the margin of attack over defence |
| grenade | grenade: the throw, the thrower in the burst of 1 | someone destroyed | the burst's distance |
| grenade_burst | grenade: the burst where it fell, the victims ticked | someone destroyed | how many destroyed |
| survival_test, answer (survival) | survival_test | he survives | — |
| armour_test, answer (armour) | armour_test | the pilot survives | — |
| emergency_landing | emergency_landing | the vehicle destroyed | the damage |
| panic, move, jump, repair, capture, tow, ammo_refresh | their own action (no die: certain) | the test succeeds | — |
| initiative, deployment, dispute | initiative / dispute | — (each side's chance) | — |
"""

from __future__ import annotations

from rules.contract import CommandContext, GameConflict, GameState, NotYours, RuleInputError
from rules.contract.at_roll import AtRollPart, RollOdds
from rules.dice import TableDice
from rules.i18n import N_, _
from rules.systems.bronepekhota.actions import ACTIONS
from rules.systems.bronepekhota.battle import BATTLE
from rules.systems.bronepekhota.battle.resolve import Plan
from rules.systems.bronepekhota.battle.rules_at_hand import RULES
from rules.systems.bronepekhota.battle.units import system_settings

# The headline chance of each rules action a form rolls: (odds key, what it means).
HEADLINES = {
    "virtual_shot": ("p_destroyed", N_("the target is destroyed")),
    "real_shot": ("p_destroyed", N_("the target is destroyed")),
    "melee": ("p_defender_destroyed", N_("the defender is destroyed")),
    "grenade": ("p_any_destroyed", N_("the burst destroys someone (the thrower too)")),
    "survival_test": ("p_survived", N_("he survives")),
    "armour_test": ("p_pilot_survives", N_("the pilot survives")),
    "emergency_landing": ("p_destroyed", N_("the vehicle is destroyed")),
    "panic": ("p_deserted", N_("he deserts")),
    "movement": ("p_ok", N_("the move is within his speed")),
    "jump": ("p_ok", N_("the jump is within the jump pack's reach")),
    "repair": ("p_repaired", N_("the damage is repaired")),
    "capture": ("p_captured", N_("it is captured")),
    "towing": ("p_ok", N_("the tow is made")),
}
# Where a rolled outcome falls: (odds key of an ordered distribution, key of the outcome's result).
PLACES = {
    "virtual_shot": ("damage", "damage"),
    "melee": ("margin", "margin"),
    "emergency_landing": ("damage", "damage"),
}


def _no_dice():  # pragma: no cover - a plan stops before any die
    raise RuntimeError("the odds of a form roll no dice")


class BronepekhotaAtRoll(AtRollPart):
    compare_fields = {"shoot": ("target", "weapon"), "melee": ("target",)}
    rules = RULES

    def roll_odds(self, state: GameState, command: str, inputs: dict, sides: frozenset[int]) -> RollOdds | None:
        cmd = BATTLE.commands.get(command)
        if cmd is None or not hasattr(cmd, "plan"):
            return None  # the order of play, a unit done, a ruling by hand: no die is rolled
        inputs = {k: v for k, v in (inputs or {}).items() if k not in ("dice", "version")}
        ctx = CommandContext(part=BATTLE, state=state, sides=sides, next_seq=0, dice_source=_no_dice)
        try:
            BATTLE.check_allowed(state, cmd, sides)
            planned = cmd.plan(ctx, cmd.validate(inputs))
        except (GameConflict, NotYours) as exc:  # the command would be refused: no odds, and why
            raise RuleInputError({"command": exc.message}) from exc
        if command == "answer":
            _question, planned = planned
            if planned is None:
                raise RuleInputError({"command": _("The pilot is gone: the question lapses, nothing is rolled.")})
        if isinstance(planned, Plan):
            return _from_plan(ctx, planned)
        action, rules_inputs, _labels = planned  # a roll-off of the sides: initiative, deployment, a dispute
        return RollOdds(action, rules_inputs)


def _from_plan(ctx: CommandContext, plan: Plan) -> RollOdds:
    key = plan.rules_key
    if key == "movement":
        # A move the mover has not the speed points for is refused by its command (resolve.py): so here.
        moved = ACTIONS[key].resolve(plan.rules_inputs, system_settings(ctx.settings), TableDice([]))
        if not moved.result["ok"]:
            raise RuleInputError({"path": moved.summary})
    headline, label = HEADLINES.get(key, ("", ""))
    place = PLACES.get(key)
    if key == "grenade":
        thrown = plan.action == "grenade" and "burst_steps" not in plan.rules_inputs
        place = ("burst", "burst_steps") if thrown else ("destroyed", "destroyed")
    return RollOdds(key, plan.rules_inputs, headline, label, place)


AT_ROLL = BronepekhotaAtRoll()
