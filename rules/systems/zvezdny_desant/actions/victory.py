"""Victory points at the end of the game (§3.15, L788–796; §5 A23)."""

from __future__ import annotations

from fractions import Fraction

from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.actions.common import MAX_FIGURES, MAX_UNITS, PLAYERS, RuleAction, err


class VictoryPoints(RuleAction):
    key = "victory_points"
    label = N_("Victory points")
    spec_ref = "§3.15 (L788–796), §5 A23"
    description = N_(
        "At the end a player scores the full cost of every enemy unit completely destroyed, and half the cost of "
        "every enemy unit that lost more than ½ of its starting figures. More victory points wins; a tie is a draw."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["units"],
        "properties": {
            "players": PLAYERS,
            "units": {
                "type": "array",
                "minItems": 1,
                "maxItems": 2 * MAX_UNITS,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["side", "cost", "start", "alive"],
                    "properties": {
                        "unit": {"type": "string", "maxLength": 60},
                        "side": {"enum": [0, 1], "description": N_("The side that owns the unit")},
                        "cost": {"type": "integer", "minimum": 0, "maximum": 10000, "description": N_("Full cost")},
                        "start": {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES},
                        "alive": {"type": "integer", "minimum": 0, "maximum": MAX_FIGURES},
                    },
                },
            },
        },
    }

    def check_inputs(self, inputs, settings):
        for i, u in enumerate(inputs["units"]):
            if u["alive"] > u["start"]:
                raise err(
                    f"units.{i}.alive",
                    _("{alive} alive is more than the {start} it started with.").format(
                        alive=u["alive"], start=u["start"]
                    ),
                    {"alive_max": u["start"]},
                )
        return inputs

    def rule(self, clean, settings):
        players = clean["players"]
        vp = {0: Fraction(0), 1: Fraction(0)}
        steps = []
        for i, u in enumerate(clean["units"]):
            points = tables.unit_victory_points(u["cost"], u["start"], u["alive"], settings)
            scorer = 1 - u["side"]
            vp[scorer] += points
            name = u.get("unit") or f"unit {i + 1}"
            how = (_("destroyed: full cost") if u["alive"] == 0 else _("lost more than ½: half cost") if points
                   else _("not enough losses"))  # fmt: skip
            steps.append(
                _("{name} ({side}): {alive} of {start} lost, {how} → {points} VP to {scorer}.").format(
                    name=name,
                    side=players[u["side"]],
                    alive=u["start"] - u["alive"],
                    start=u["start"],
                    how=how,
                    points=tables.number(points),
                    scorer=players[scorer],
                )
            )
        winner = None if vp[0] == vp[1] else (0 if vp[0] > vp[1] else 1)
        summary = (
            _("{winner} wins, {winner2} to {winner3}.").format(
                winner=players[winner], winner2=tables.number(vp[winner]), winner3=tables.number(vp[1 - winner])
            )
            if winner is not None
            else _("A draw at {vp} victory points each.").format(vp=tables.number(vp[0]))
        )
        result = {"vp": {players[s]: tables.number(vp[s]) for s in (0, 1)}, "vp_by_side": [tables.number(vp[0]),
                  tables.number(vp[1])], "winner": winner, "draw": winner is None}  # fmt: skip
        effects = [{"kind": "victory", "role": "game", "winner": winner, "vp": result["vp_by_side"]}]
        return summary, result, effects, steps
