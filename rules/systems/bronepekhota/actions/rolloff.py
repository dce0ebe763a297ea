"""Roll-offs: initiative (§3.1, d12, the tied re-roll, A4) and the dispute roll (§3.14, A33)."""

from __future__ import annotations

from abc import abstractmethod

from rules.contract import prob
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.actions.common import BronAction, die_name, err
from rules.systems.bronepekhota.words import say

PLAYERS = {
    "type": "array",
    "minItems": 2,
    "maxItems": 8,
    "items": {"type": "string", "minLength": 1, "maxLength": 60},
    "description": "Player names (or ids), each once",
}
PURPOSES = (N_("initiative"), N_("dispute"))  # the roll-offs' dice, said in the reader's language where shown
MAX_ROUNDS = 200  # a tie every time for 200 rounds has probability < 1e-200


def roll_off(dice, players: list[str], faces: int, *, tied_only: bool, purpose: str) -> tuple[str, list[dict]]:
    """Everyone rolls; the highest wins; a tie for highest re-rolls (among the tied, or everyone)."""
    contenders = list(players)
    rounds = []
    for n in range(1, MAX_ROUNDS + 1):
        # "<what>: <who> (re-roll n)" in the roller's language, as the dice boxes and the log show it («Д12
        # инициатива: Синие (переброс 1)»); in English it reads as before ("initiative: Blue (re-roll 1)").
        again = " " + tr("(re-roll {n})").format(n=n - 1) if n > 1 else ""
        rolls = {p: dice.roll(faces, f"{tr(purpose)}: {p}{again}") for p in contenders}
        top = max(rolls.values())
        tied = [p for p in contenders if rolls[p] == top]
        rounds.append({"rolls": rolls, "tied": tied if len(tied) > 1 else []})
        if len(tied) == 1:
            return tied[0], rounds
        contenders = tied if tied_only else contenders
    raise err("dice", tr("The roll-off kept tying; roll again."))


def roll_off_odds(players: list[str], faces: int) -> dict:
    p_first = tables.roll_off_decided_first_time(len(players), faces)
    return {
        "p_win": {p: prob(tables.roll_off_winner_probability(len(players))) for p in players},
        "p_decided_first_roll": prob(p_first),
        "p_reroll": prob(1 - p_first),
    }


class _RollOff(BronAction):
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["players"],
        "properties": {"players": PLAYERS},
    }
    effect_kind = ""
    purpose = ""

    def check_inputs(self, inputs, settings):
        if len(set(inputs["players"])) != len(inputs["players"]):
            raise err("players", tr("Each player is listed once."))
        return inputs

    @abstractmethod
    def faces(self, settings) -> int: ...

    def tied_only(self, settings) -> bool:
        return True

    def resolve_clean(self, clean, settings, dice):
        faces = self.faces(settings)
        winner, rounds = roll_off(
            dice, clean["players"], faces, tied_only=self.tied_only(settings), purpose=self.purpose
        )
        steps = []
        for r in rounds:
            line = ", ".join(f"{p} {v}" for p, v in r["rolls"].items())
            if r["tied"]:
                text = tr("{die}: {rolls}; tie between {tied}, re-roll.").format(
                    die=die_name(faces), rolls=line, tied=", ".join(r["tied"])
                )
            else:
                text = tr("{die}: {rolls}.").format(die=die_name(faces), rolls=line)
            steps.append(text)
        effects = [{"kind": self.effect_kind, "role": "game", "winner": winner}]
        summary = say("{winner} wins.", winner=winner)
        return self.outcome(summary, {"winner": winner, "die": faces, "rounds": rounds}, effects, steps)

    def odds_clean(self, clean, settings):
        return {"die": self.faces(settings), **roll_off_odds(clean["players"], self.faces(settings))}


class Initiative(_RollOff):
    key = "initiative"
    label = N_("Initiative")
    spec_ref = "§3.1 (p.9), A4"
    effect_kind = "initiative"
    purpose = "initiative"
    description = (
        "Every player rolls d12; the highest holds the initiative and sets the player order for the round. A tie "
        "for highest is re-rolled (by the tied players, A4)."
    )

    def faces(self, settings):
        return tables.INITIATIVE_FACES

    def tied_only(self, settings):
        return settings["initiative_reroll"] == "tied_only"


class Dispute(_RollOff):
    key = "dispute"
    label = N_("Dispute roll")
    spec_ref = "§3.14 (p.51), A33"
    effect_kind = "dispute"
    purpose = "dispute"
    description = "Players who disagree each roll a die (d12 by default, A33); the higher wins; ties re-roll."

    def faces(self, settings):
        return int(settings["dispute_die"])
