"""The odds and the rule at the moment of the roll (issue #31): each board form that rolls mapped to the action whose
exact odds it shows, built from the live state exactly as the command builds what it rolls.

- «Исполнение приказа» (act) with a shot: the shooting action (hit tests, wound tests, casualties) for this unit's
  living figures by weapon, the chosen target's figures, markers, order and card, the cover, distance and figures
  out of sight typed in the form (Act.shot_inputs, the very inputs the handler resolves). Targets are ranked by the
  chance to remove at least one figure (a whole unit is seldom destroyed by one volley; that chance is shown too);
  after the roll the board places the wounds dealt in their distribution.
- «Первый игрок» (start_turn): the First Player roll between the two sides, with last turn's First Player.
- «Ближний бой» (fight): the melee action for the melee's units as the command counts them (every figure in base
  contact, each unit striking the first enemy listed).
- The answer to the other side's strikes (strike): the same melee with the strikes already rolled fixed (the melee
  action's `rolled`): what is left to chance is this player's own dice.

Each form is checked as the runner and the command check it (whose turn, the schema, the order's limits, the
target), so a refused form shows why instead of odds. The state is the viewer's: the other side's secret orders are
removed before this part sees it (battles/odds.py); the orders the odds read are the revealed ones on the units.
"""

from __future__ import annotations

from rules.contract import AtRollPart, CommandContext, GameConflict, NotYours, RollOdds, RuleInputError
from rules.i18n import N_, _
from rules.systems.zvezdny_desant.battle import BATTLE, rules
from rules.systems.zvezdny_desant.battle.commands import Act, _melee, melee_units, strike_rounds
from rules.systems.zvezdny_desant.battle.rules_at_hand import RULES

CASUALTY = N_("at least one figure of the target is removed")


def _no_dice():
    raise GameConflict(_("The odds roll no dice."))


class ZdAtRoll(AtRollPart):
    compare_fields = {"act": ("target",)}
    rules = RULES

    def roll_odds(self, state, command, inputs, sides):
        handler = {"act": _act, "start_turn": _first_player, "fight": _fight, "strike": _strike}.get(command)
        if handler is None:
            return None
        part = BATTLE
        cmd = part.commands[command]
        try:
            part.check_allowed(state, cmd, sides)  # whose turn, as the runner asks first
            checked = cmd.validate(dict(inputs or {}))
            ctx = CommandContext(part=part, state=state, sides=sides, next_seq=0, dice_source=_no_dice)
            return handler(ctx, checked)
        except (GameConflict, NotYours) as exc:  # the form shows why, never odds
            raise RuleInputError({"command": exc.message}) from exc


def _act(ctx: CommandContext, inputs: dict) -> RollOdds:
    unit, inputs = Act.checked(ctx, inputs)
    shoot = inputs.get("shoot")
    if not shoot:
        if inputs.get("assault"):
            raise RuleInputError({"do": _("An assault rolls no dice now: its strikes are rolled in the Close Combat "
                                          "phase, whose form shows their odds.")})  # fmt: skip
        raise RuleInputError({"do": _("This rolls no dice: choose to shoot to see the odds.")})
    _target, shooting = Act.shot_inputs(ctx, unit, shoot)
    return RollOdds("shooting", shooting, "p_any_removed", CASUALTY, place=("wounds", "wounds"))


def _first_player(ctx: CommandContext, inputs: dict) -> RollOdds:
    names = [rules.side_name(ctx.game, s) for s in rules.SIDES]
    if names[0] == names[1]:  # two sides of one name are told apart by their place, as the melee's are
        names = [f"{n} ({i + 1})" for i, n in enumerate(names)]
    return RollOdds("first_player", {"players": names, "previous": ctx.game.get("previous_first")})


def _fight(ctx: CommandContext, inputs: dict) -> RollOdds:
    melee = _melee(ctx, inputs["melee"])
    return RollOdds("melee", {"units": _units(melee_units(ctx, melee, inputs))})


def _strike(ctx: CommandContext, inputs: dict) -> RollOdds:
    asked = ctx.game.get("strikes")
    if not asked:
        raise GameConflict(_("No strikes are waiting for an answer now."))
    if ctx.one_side() == asked["side"]:
        raise GameConflict(_("Your strikes are rolled: the other player answers with his."))
    melee = _melee(ctx, asked["melee"])
    units = melee_units(ctx, melee, asked)
    # The first side's dice, in the order it rolled them (strike_rounds), go back to the unit that rolled them.
    rolled: dict[str, list[int]] = {}
    theirs = iter(asked["rolls"])
    for side, count, unit, _target in strike_rounds(units, ctx.system_settings):
        if side == asked["side"] and count:
            rolled.setdefault(unit, []).extend(next(theirs) for _i in range(count))
    out = _units(units)
    for u in out:
        if u["side"] == asked["side"]:
            u["rolled"] = rolled.get(u["unit"], [])
    return RollOdds("melee", {"units": out})


def _units(units: list[dict]) -> list[dict]:
    """The melee action's units without the board's own keys (`ref` is echoed, never read)."""
    return [{k: v for k, v in u.items() if k != "ref"} for u in units]


AT_ROLL = ZdAtRoll()
