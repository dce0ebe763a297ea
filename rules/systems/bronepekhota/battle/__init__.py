"""«Бронепехота»'s battle part: units from rosters, the commands of the board, the fold, views and the log.

Modules: units.py (building units, elements the actions take), fold.py (how events change the state),
commands.py (the board's commands), resolve.py (the book's tests played against units), adjust.py (rulings by
hand), view.py (what a phone shows), board.py (the widgets), text.py (the readable log).
"""

from __future__ import annotations

import copy

from rules.contract import Awaiting, BattlePart, Event, GameState, SideSetup, Start, UnitSetup
from rules.i18n import _ as tr
from rules.systems.bronepekhota.battle import board, fold, questions, text, view
from rules.systems.bronepekhota.battle.adjust import is_step_only
from rules.systems.bronepekhota.battle.commands import COMMANDS
from rules.systems.bronepekhota.battle.units import build_units, check_mounts, owner_of, system_settings

GAME_LEVEL_EVENTS = ("round.started", "initiative.rolled", "order.set", "mission.completed", "question.lapsed")


class BronepekhotaBattle(BattlePart):
    rules_version = 1
    commands = COMMANDS

    def start(self, *, sides: list[SideSetup], settings: dict) -> Start:
        units: list[UnitSetup] = []
        mount_limit = system_settings(settings)["enforce_mount_limit"]
        for side in sides:
            for built in build_units(side_index=side.index, snapshot=side.roster):
                check_mounts(built, enforce=mount_limit)
                units.append(UnitSetup.from_built(side.index, built))
        game = fold.initial_game(
            sides=[s.index for s in sides],
            units={u.key: u.side for u in units},
            names={"sides": {s.index: s.name for s in sides}, "units": {u.key: u.name for u in units}},
        )
        from rules.contract import UnitRecord

        state = GameState(
            game=game,
            units={u.key: UnitRecord(u.key, u.side, u.profile, copy.deepcopy(u.state), u.name, u.kind) for u in units},
            settings=settings,
        )
        fold.derive(state)
        return Start(game=state.game, units=units)

    def apply(self, state: GameState, event: Event) -> None:
        fold.apply(state, event)

    def awaiting(self, state: GameState) -> Awaiting:
        game = state.game
        if game.get("result") is not None:
            return Awaiting(kind="over", message=tr("The battle is over. Undo the last events to play on."))
        question = questions.pending(game)
        if question is not None:  # a pilot's test asked of his own player: nothing else goes until he answers
            return Awaiting(
                kind="question",
                sides=(question["side"],),
                commands=("answer",),
                prompt={"unit": question["unit"], "test": question["test"]},
                message=questions.waiting_text(game, question, state.settings),
            )
        # Turns are per unit and optional (enforce_turns): the handlers check them, so any player may send.
        turn = game.get("turn")
        return Awaiting(kind="anyone", sides=(turn,) if turn is not None else ())

    def commutes(self, state: GameState, name: str, inputs: dict, since: list[Event]) -> bool:
        """A ruling by hand written against an older version still applies when every event since concerned other
        units, or when it only moves a slider by steps and nothing game-level happened since (§ issue «two phones
        tapping at once»). Everything else gets 412 and the current state."""
        if name != "adjust":
            return False
        unit = inputs.get("unit")
        steps_only = is_step_only(inputs.get("changes"))
        for event in since:
            if event.type in GAME_LEVEL_EVENTS:
                return False
            touched = {item["unit"] for item in event.payload.get("apply") or ()}
            touched |= set((event.payload.get("units") or {}).values())
            if event.payload.get("unit"):
                touched.add(event.payload["unit"])
            if unit in touched and not steps_only:
                return False
        return True

    def owner(self, state: GameState, unit_key: str) -> int:
        unit = state.units[unit_key]
        return owner_of(unit.state, unit.side)

    def unit_view(self, state: GameState, unit, viewer_sides) -> dict:
        return view.unit_view(unit.state, unit.profile, settings=state.settings, round_=state.game.get("round"))

    board_template = "bronepekhota/board_sheets.html"
    board_script = "bronepekhota/board.js"

    def board(self, state_view: dict, viewer_sides, *, can_write: bool) -> dict:
        return board.board(state_view, viewer_sides, can_write=can_write)

    def client_data(self, state_view: dict) -> dict:
        return view.client_data(state_view)

    def example_script(self, state: GameState) -> list[tuple[int, str, dict, list | None]]:
        """Initiative (side 0 rolls 10 against 3), the order of play, a melee between the first soldiers of the
        first squads of sides 0 and 1, and that squad done."""
        squads = {}
        for key, unit in state.units.items():
            if unit.state["kind"] == "squad" and unit.side not in squads:
                squads[unit.side] = (key, next(s["num"] for s in unit.state["soldiers"] if s["role"] == "squad"))
        (a, sa), (b, sb) = squads[0], squads[1]
        return [
            (0, "initiative", {}, [10, 3]),
            (0, "order", {"order": [0, 1]}, None),
            (0, "melee", {"unit": a, "soldier": sa, "target": b, "target_soldier": sb}, [6, 1]),
            (0, "done", {"unit": a}, None),
        ]

    def describe_event(self, event: Event, names: dict) -> str:
        return text.describe_event(event.type, event.payload, units=names["units"], sides=names["sides"])


BATTLE = BronepekhotaBattle()
