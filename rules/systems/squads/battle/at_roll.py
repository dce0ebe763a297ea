"""The odds at the moment of the roll (rules/contract/at_roll.py): each board form that rolls, mapped to the action
its command resolves, with the action's inputs built by the command's own `plan` from the live state (the units'
standing and suppressed figures, their stance and leader, the battle's settings). So the form shows exactly the odds
of the roll its command would make, and refuses, with the command's words, exactly what the command would refuse.

| command | action | headline | after the roll |
|---|---|---|---|
| start_turn | initiative | — (each side's chance) | — |
| activate | activation_chain: the chosen unit first, then the side's other units in the board's order (L12) | the chosen unit activates | its roll with its modifiers |
| shoot, react | shooting (a vehicle target: the worst effect too) | at least one unsaved hit | the unsaved hits |
| assault, melee_round | melee | the defender wiped out / the melee ends | the defender's casualties |
| withdraw | withdrawal | the unit gets away | the distance moved |
"""

from __future__ import annotations

from rules.contract import CommandContext, GameConflict, GameState, NotYours, RuleInputError
from rules.contract.at_roll import AtRollPart, RollOdds
from rules.i18n import N_, _
from rules.systems.squads.battle import BATTLE
from rules.systems.squads.battle import units as U
from rules.systems.squads.battle.melee import melee_inputs
from rules.systems.squads.battle.rules import RULES

MISSING = {
    "unit": N_("Choose the unit."),
    "target": N_("Choose the target."),
    "distance": N_("Give the range to the target."),
}


class _NoDice:
    """A plan rolls nothing; a die asked for here would be a bug, said plainly."""

    def roll(self, faces, purpose):  # pragma: no cover - never called by a plan
        raise RuntimeError("the odds of a form roll no dice")

    roll_many = roll


class SquadsAtRoll(AtRollPart):
    compare_fields = {
        "activate": ("unit",),
        "shoot": ("target", "weapons"),
        "react": ("weapons",),
        "assault": ("target",),
    }
    rules = RULES

    def roll_odds(self, state: GameState, command: str, inputs: dict, sides: frozenset[int]) -> RollOdds | None:
        build = _BUILDERS.get(command)
        if build is None:
            return None
        cmd = BATTLE.commands[command]
        inputs = {k: v for k, v in (inputs or {}).items() if k != "die"}  # typed dice are no input
        for field in cmd.input_schema.get("required", ()):
            if inputs.get(field) in (None, ""):
                raise RuleInputError({field: _(MISSING.get(field, N_("This field is required.")))})
        ctx = CommandContext(part=BATTLE, state=state, sides=sides, next_seq=0, dice_source=_NoDice)
        try:
            BATTLE.check_allowed(state, cmd, sides)
            return build(cmd, ctx, cmd.validate(inputs))
        except (GameConflict, NotYours) as exc:  # the command would be refused: no odds, and why
            raise RuleInputError({"command": exc.message}) from exc


def _initiative(cmd, ctx, inputs) -> RollOdds:
    return RollOdds("initiative", cmd.plan(ctx, inputs))


def _activation(cmd, ctx, inputs) -> RollOdds:
    """«Инициатива» (L12): the player goes on while the rolls succeed; the form shows the chain from this unit on,
    the side's other units following in the board's order, as they stand now."""
    unit, facts = cmd.plan(ctx, inputs)
    settings = U.system_settings(ctx.settings)
    side = ctx.owner(unit.key)
    chain = [facts]
    for key in U.pending(ctx.state.units, side):
        other = ctx.state.units[key]
        if key != unit.key and not U.locked(other.state, settings):
            chain.append(U.activation_inputs(other))
    return RollOdds("activation_chain", {"units": chain}, "p_first_activates", N_("this unit activates"),
                    ("first_roll", "total"))  # fmt: skip


def _shot(cmd, ctx, inputs) -> RollOdds:
    _shooter, _target, fire = cmd.plan(ctx, inputs)
    return RollOdds("shooting", fire, "p_any_unsaved", N_("at least one hit goes through the armour"),
                    ("unsaved", "unsaved"))  # fmt: skip


def _assault(cmd, ctx, inputs) -> RollOdds:
    attacker, defender, reach = cmd.plan(ctx, inputs)
    return RollOdds("melee", melee_inputs(ctx, attacker, defender, 1, reach), "p_defender_wiped_out",
                    N_("the defending squad is wiped out"), ("defender_casualties", "defender_casualties"))  # fmt: skip


def _melee_round(cmd, ctx, inputs) -> RollOdds:
    attacker, defender = cmd.plan(ctx, inputs)
    return RollOdds("melee", melee_inputs(ctx, attacker, defender, 2, {}), "p_melee_over",
                    N_("the melee ends this turn"), ("defender_casualties", "defender_casualties"))  # fmt: skip


def _withdrawal(cmd, ctx, inputs) -> RollOdds:
    _unit, _opponent, rolled = cmd.plan(ctx, inputs)
    if rolled is None:
        raise RuleInputError({"attempt": _("Staying in the melee rolls no dice.")})
    return RollOdds("withdrawal", rolled, "p_escaped", N_("the squad gets out of the melee"), ("move", "distance"))


_BUILDERS = {
    "start_turn": _initiative,
    "activate": _activation,
    "shoot": _shot,
    "react": _shot,
    "assault": _assault,
    "melee_round": _melee_round,
    "withdraw": _withdrawal,
}

AT_ROLL = SquadsAtRoll()
