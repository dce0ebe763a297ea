"""«5150»'s battle part (spec §4): one unit per figure, the turn's activation dice, shooting, return fire, Recovery,
reloading, covering fire, moves, charges and melee, rulings by hand, and victory when a side has no figure left on the
table (or by points when the players end it).

Every reaction test the book puts to the OTHER player is a question asked on his own phone, which the game waits for
(typed-in dice or a server roll): «ОБСТРЕЛЯН» after fire that did no damage, «В ПОЛЕ ВИДИМОСТИ» after a move into
sight, «МЕНЯ АТАКОВАЛИ» after a charge, the fire they allow, the melee a charge brings, and «ОСТАТЬСЯ ИЛИ УБЕЖАТЬ» at
the end of an activation. After every roll both boards say what it means and what each side does next.

Modules: units.py (figures from rosters, activation facts), fold.py (how events change the state), commands.py,
tables.py and charge.py (the board's commands), prompts.py (questions and what comes next), explain.py (the same on
the acting phone's result), view.py (what a phone shows, the log).
"""

from __future__ import annotations

from rules.contract import Awaiting, BattlePart, Event, GameState, SideSetup, Start, UnitSetup
from rules.i18n import _
from rules.systems.thw5150 import core
from rules.systems.thw5150.battle import fold, prompts, view
from rules.systems.thw5150.battle.charge import CHARGE_COMMANDS
from rules.systems.thw5150.battle.commands import COMMANDS
from rules.systems.thw5150.battle.tables import TABLE_COMMANDS
from rules.systems.thw5150.battle.units import build_units, number_alike, side_name, system_settings

ACTING = ("shoot", "recover", "reload", "covering_fire", "move", "grenade", "melee", "charge", "end_activation")
# Which command answers each kind of question (fold.py lists the kinds).
ANSWERS = {"received_fire": ("answer_reaction",), "return_fire": ("shoot", "decline_return_fire"),
           "in_sight": ("in_sight",), "being_charged": ("answer_charge",), "melee": ("melee",),
           "stay_or_run": ("stay_or_run",)}  # fmt: skip


class Thw5150Battle(BattlePart):
    rules_version = 1
    commands = {**COMMANDS, **{c.name: c for c in (*TABLE_COMMANDS, *CHARGE_COMMANDS)}}

    def start(self, *, sides: list[SideSetup], settings: dict) -> Start:
        built = [(side.index, b) for side in sides for b in build_units(side.index, side.roster, settings)]
        number_alike([b for _side, b in built])
        units = [UnitSetup.from_built(index, b) for index, b in built]
        game = fold.initial_game(
            [s.index for s in sides], {u.key: u.side for u in units}, {s.index: s.name for s in sides}
        )
        return Start(game=game, units=units)

    def apply(self, state: GameState, event: Event) -> None:
        fold.apply(state, event)

    def awaiting(self, state: GameState) -> Awaiting:
        game = state.game
        if game.get("result") is not None:
            return Awaiting(kind="over", message=_("The battle is over. Undo the last events to play on."))
        if game["pending"]:
            q = game["pending"][0]
            return Awaiting(kind="question", sides=(q["side"],), commands=ANSWERS[q["kind"]],
                            prompt={"question": q["kind"], **{k: v for k, v in q.items() if k != "kind"}},
                            message=prompts.awaited(game, q, {k: u.name for k, u in state.units.items()}))  # fmt: skip
        if game["phase"] == "roll":
            return Awaiting(kind="anyone", commands=("activation",), message=_("Roll the activation dice."))
        if game["doubles"]:
            return Awaiting(kind="anyone", commands=("reload", "end_activation"),
                            message=_("Doubles: nobody moves or fires; reload, then end the turn."))  # fmt: skip
        active = game["active"]
        return Awaiting(kind="sides", sides=(active,), commands=ACTING,
                        message=_("{side} activates (die {die}).").format(side=side_name(game, active),
                                                                          die=game["dice"][str(active)]))  # fmt: skip

    def unit_view(self, state: GameState, unit, viewer_sides: frozenset[int]) -> dict:
        return {**unit.state, "name": unit.name, "out": unit.state["condition"] in core.GONE}

    def board(self, view_: dict, viewer_sides: frozenset[int], *, can_write: bool) -> dict:
        return view.board(view_, viewer_sides, can_write, system_settings(view_.get("settings") or {}))

    def describe_event(self, event: Event, names: dict) -> str:
        return view.describe(event, names)

    def example_script(self, state: GameState) -> list[tuple[int, str, dict, list | None]]:
        """Side 0 rolls first (2 against 1), one of its armed figures fires one die (a 1: a miss at Rep 6 or
        less) at a side-1 figure, whose player answers «ОБСТРЕЛЯН» with 6s (pass 0: in the open it runs away)."""
        units = list(state.units.values())
        shooter = next((u for u in units if u.side == 0 and u.state["weapon"] and u.state["rep"] <= 6), None)
        target = next((u for u in units if u.side == 1), None)
        script: list[tuple[int, str, dict, list | None]] = [(0, "activation", {}, [2, 1])]
        if shooter is not None and target is not None:
            script.append((0, "shoot", {"shooter": shooter.key, "targets": [{"unit": target.key, "dice": 1}]}, [1]))
            script.append((1, "answer_reaction", {}, [6, 6, 6] if target.state["leader"] else [6, 6]))
            if sum(1 for u in units if u.side == 1) == 1:
                return script  # its only figure ran away: side 0 has won
        script += [(0, "end_activation", {}, None), (1, "end_activation", {}, None)]
        return script


BATTLE = Thw5150Battle()
