"""Roll-offs: the First Player at the start of every turn (§3.1, L152–156) and the deployment roll with the
alternating placement and the zones (§3.2, L762–780). Ties: §5 A6; zone geometry: §5 A31."""

from __future__ import annotations

from fractions import Fraction

from rules.contract import prob
from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.actions.common import PLAYERS, ZdAction, err, joint, roll_off

P_TIE = Fraction(1, tables.D20)
P_HIGHER = (1 - P_TIE) / 2  # one player's D20 above the other's: 190 of the 400 pairs


def first_roll(players: list[str]) -> dict[str, dict]:
    """Who rolls higher on the first roll of a roll-off, each player by name; the rest is the tie."""
    return {p: prob(P_HIGHER) for p in players}


def rolloff_steps(players: list[str], result: dict) -> list[str]:
    steps = []
    for rolls in result["rounds"]:
        line = f"D20: {players[0]} {rolls[0]}, {players[1]} {rolls[1]}"
        steps.append(line + ("; a tie" if rolls[0] == rolls[1] else "") + ".")
    if result["kept"]:
        steps.append(
            _("Tie: {winner} stays First Player (§5 A6, keep_previous).").format(winner=players[result["winner"]])
        )
    return steps


class FirstPlayer(ZdAction):
    key = "first_player"
    label = N_("The First Player")
    spec_ref = "§3.1 (L148, L152–156), §5 A6"
    description = N_(
        "At the start of every turn both players roll D20; the higher is First Player until the end of the turn. "
        "He breaks initiative ties and closes in first. The odds give who rolls higher on the first roll, the "
        "tie, who ends up First Player, and the two together."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "players": PLAYERS,
            "previous": {"enum": [0, 1, None], "default": None, "description": N_("Last turn's First Player (0 or 1)")},
        },
    }

    def check_inputs(self, inputs, settings):
        if inputs["players"][0] == inputs["players"][1]:
            raise err("players", _("The two players need different names."))
        return inputs

    def resolve_clean(self, clean, settings, dice):
        players = clean["players"]
        result = roll_off(dice, players, settings, N_("First Player roll"), previous=clean["previous"])
        winner = result["winner"]
        effects = [{"kind": "first_player", "role": "game", "side": winner, "player": players[winner]}]
        summary = _("{winner} is First Player this turn.").format(winner=players[winner])
        return self.outcome(summary, {"winner": winner, **result}, effects, rolloff_steps(players, result))

    def odds_clean(self, clean, settings):
        players, previous = clean["players"], clean["previous"]
        # (higher on the first roll or None for a tie, First Player): the higher roll is First Player (L156); a tie
        # keeps last turn's (A6 keep_previous) or is rolled again, where either wins half the time.
        both = {(players[i], players[i]): P_HIGHER for i in (0, 1)}
        if settings["rolloff_ties"] == "keep_previous" and previous is not None:
            both[(None, players[previous])] = P_TIE
        else:
            both.update({(None, players[i]): P_TIE / 2 for i in (0, 1)})
        win = {i: sum((p for (_roll, first), p in both.items() if first == players[i]), Fraction(0)) for i in (0, 1)}
        return {
            "p_first": {players[i]: prob(win[i]) for i in (0, 1)},
            "p_tie_on_first_roll": prob(P_TIE),
            "p_wins_first_roll": first_roll(players),
            "roll_off": joint(both, ("first_roll", "first_player")),
        }


class Deployment(ZdAction):
    key = "deployment"
    label = N_("Deployment of the units")
    spec_ref = "§3.2 (L762–780), §5 A6, A31"
    description = N_(
        "Both roll D20; the higher picks a deployment zone and places one unit first, then the players alternate. "
        "A player left with two or more units after the other has finished places them all. The zones are at "
        "least 20 steps apart."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["units"],
        "properties": {
            "players": PLAYERS,
            "units": {
                "type": "array",
                "minItems": 2,
                "maxItems": 2,
                "items": {"type": "integer", "minimum": 0, "maximum": 40},
                "description": N_("How many units each player deploys"),
            },
            "table_length": {
                "type": "integer",
                "minimum": 24,
                "maximum": 200,
                "default": 48,
                "description": N_("Table length in steps between the two long edges the zones face (1.2 m = 48)"),
            },
        },
    }

    def check_inputs(self, inputs, settings):
        if inputs["players"][0] == inputs["players"][1]:
            raise err("players", _("The two players need different names."))
        self.zones(inputs["table_length"], settings)
        return inputs

    @staticmethod
    def zones(length: int, settings: dict) -> dict:
        """Zone depth and the neutral band (A31): «neutral_20» keeps exactly the 20-step gap and splits the rest;
        «thirds» splits in three and needs every third to be at least the gap."""
        if settings["deployment_geometry"] == "thirds":
            if length < 3 * tables.DEPLOYMENT_GAP:
                raise err(
                    "table_length",
                    _(
                        "Equal thirds of {length} steps leave {length2:.1f} steps between the zones; the book asks for at least {deployment_gap} (a table of 60 steps or more)."
                    ).format(length=length, length2=length / 3, deployment_gap=tables.DEPLOYMENT_GAP),
                    {"table_length_min": 3 * tables.DEPLOYMENT_GAP, "deployment_gap": tables.DEPLOYMENT_GAP},
                )
            return {"zone_depth": length / 3, "neutral": length / 3}
        if length <= tables.DEPLOYMENT_GAP:
            raise err(
                "table_length",
                _("The table must be longer than the {deployment_gap}-step neutral band.").format(
                    deployment_gap=tables.DEPLOYMENT_GAP
                ),
                {"table_length_min": tables.DEPLOYMENT_GAP + 1, "deployment_gap": tables.DEPLOYMENT_GAP},
            )
        return {"zone_depth": (length - tables.DEPLOYMENT_GAP) / 2, "neutral": tables.DEPLOYMENT_GAP}

    @staticmethod
    def placement(first: int, units: list[int]) -> list[dict]:
        """Turns of placement: alternate one unit each from the roll's winner; the rest at once (L780)."""
        left = list(units)
        out: list[dict] = []
        side = first
        while left[0] or left[1]:
            if left[1 - side] == 0 and left[side] >= 2:
                out.append({"side": side, "units": left[side], "together": True})
                break
            if left[side]:
                out.append({"side": side, "units": 1, "together": False})
                left[side] -= 1
            side = 1 - side
        return out

    def resolve_clean(self, clean, settings, dice):
        players = clean["players"]
        result = roll_off(dice, players, settings, N_("Deployment roll"))
        winner = result["winner"]
        order = self.placement(winner, clean["units"])
        zones = self.zones(clean["table_length"], settings)
        steps = rolloff_steps(players, result)
        steps.append(
            _("{winner} picks a deployment zone; {winner2} takes the opposite one.").format(
                winner=players[winner], winner2=players[1 - winner]
            )
        )
        steps += [
            f"{players[t['side']]} places "
            + (_("all {units} remaining units.").format(units=t["units"]) if t["together"] else _("one unit."))
            for t in order
        ]
        effects = [{"kind": "deployment", "role": "game", "chooser": winner, "placement": order, **zones}]
        summary = _("{winner} picks the zone and deploys first.").format(winner=players[winner])
        return self.outcome(summary, {"winner": winner, "placement": order, **zones, **result}, effects, steps)

    def odds_clean(self, clean, settings):
        players = clean["players"]
        return {
            "p_chooses_zone": {p: prob(Fraction(1, 2)) for p in players},
            "p_tie_on_first_roll": prob(P_TIE),
            "p_wins_first_roll": first_roll(players),
            **self.zones(clean["table_length"], settings),
        }
