"""«Отряды»'s battle part: units from rosters, the commands, the fold, whom the game awaits, views and the log.

Modules: units.py (building units and the facts the actions take), fold.py (how events change the state),
commands.py and melee.py (the commands), view.py (what a phone shows, the board, the log).

Whom the game awaits (spec §4): the chooser of a pending split of unsaved hits (a question to the target's side,
command split_hits); a vehicle's owner choosing the weapon lost; then the melees due at the start of the turn;
then the acting unit's owner (and On Guard units of the other side, which may react); then the side holding the
initiative; when every unit has tried, anyone may start the next turn. `end` is free: the book has no victory
conditions.
"""

from __future__ import annotations

from rules.contract import Awaiting, BattlePart, Event, GameState, SideSetup, Start, UnitRecord, UnitSetup
from rules.i18n import _, ngettext
from rules.systems.squads.battle import board as B
from rules.systems.squads.battle import fold, view
from rules.systems.squads.battle import units as U
from rules.systems.squads.battle.commands import (
    Act,
    Activate,
    Done,
    EndGame,
    LoseWeapon,
    React,
    Shoot,
    SplitHits,
    StartTurn,
)
from rules.systems.squads.battle.melee import Assault, MeleeRound, Withdraw

COMMANDS = {
    c.name: c
    for c in (
        StartTurn(),
        Activate(),
        Act(),
        Shoot(),
        React(),
        SplitHits(),
        Done(),
        Assault(),
        MeleeRound(),
        Withdraw(),
        LoseWeapon(),
        EndGame(),
    )
}


class SquadsBattle(BattlePart):
    rules_version = 1
    commands = COMMANDS
    board_script = "squads/board.js"

    def start(self, *, sides: list[SideSetup], settings: dict) -> Start:
        units = [UnitSetup.from_built(side.index, b) for side in sides for b in U.build_units(side.index, side.roster)]
        game = fold.initial_game([s.index for s in sides], {s.index: s.name for s in sides})
        return Start(game=game, units=units)

    def apply(self, state: GameState, event: Event) -> None:
        fold.apply(state, event)

    def awaiting(self, state: GameState) -> Awaiting:
        game = state.game
        if game.get("result") is not None:
            return Awaiting(kind="over", message=_("The battle is over: undo the last events to play on."))
        split = game.get("pending_split")
        if split:
            target = state.units[split["target"]]
            return Awaiting(
                kind="question",
                sides=(split["chooser_side"],),
                commands=("split_hits",),
                prompt={"unsaved": split["unsaved"], "target": split["target"], "level": target.state["level"]},
                message=ngettext(
                    "{name}: {n} unsaved hit to split into suppression and casualties.",
                    "{name}: {n} unsaved hits to split into suppression and casualties.",
                    split["unsaved"],
                ).format(name=target.name, n=split["unsaved"]),
            )
        loss = game.get("pending_weapon_loss")
        if loss:
            vehicle = state.units[loss["unit"]]
            return Awaiting(kind="question", sides=(self.owner(state, vehicle.key),), commands=("lose_weapon",),
                            message=_("{name}: its owner chooses the weapon lost.").format(name=vehicle.name))  # fmt: skip
        everyone = tuple(game["sides"])
        if not game["turn"]:
            return Awaiting(kind="sides", sides=everyone, commands=("start_turn",), message=_("Roll the initiative."))
        if game.get("melee_due"):
            involved = tuple(sorted({state.units[k].side for pair in game["melee_due"] for k in pair}))
            return Awaiting(kind="sides", sides=involved, commands=("melee_round",),
                            message=_("Ongoing melees fight first this turn (L42)."))  # fmt: skip
        if game.get("acting"):
            acting = state.units[game["acting"]]
            return Awaiting(kind="sides", sides=everyone, commands=("act", "shoot", "assault", "done", "react"),
                            message=_("{name} is acting; units On Guard may react.").format(name=acting.name))  # fmt: skip
        side = U.side_to_act(state)
        if side is None:
            return Awaiting(kind="sides", sides=everyone, commands=("start_turn", "react"),
                            message=_("Every unit has tried: start the next turn."))  # fmt: skip
        return Awaiting(kind="sides", sides=everyone, commands=("activate", "withdraw", "react"),
                        message=_("{side} holds the initiative.").format(side=game["side_names"].get(str(side), side)))  # fmt: skip

    def unit_view(self, state: GameState, unit: UnitRecord, viewer_sides) -> dict:
        return view.unit_view(unit)

    def board(self, state_view: dict, viewer_sides, *, can_write: bool) -> dict:
        return B.board(state_view, viewer_sides, can_write=can_write)

    def client_data(self, view: dict) -> dict:
        """For the dice boxes (static/battles/dice_boxes.js): the commands whose dice may be typed in, and their words."""
        return {"dice_commands": list(B.DICE_COMMANDS), "dice_legend": _("Dice rolled at the table (optional)"),
                "dice_note": _("Empty: the server rolls.")}  # fmt: skip

    def describe_event(self, event: Event, names: dict) -> str:
        return view.describe_event(event.type, event.payload, names.get("units", {}), names.get("sides", {}))

    def example_script(self, state: GameState) -> list[tuple[int, str, dict, list | None]]:
        """The example rosters' first squads: side 0 wins the initiative (5 against 2), its regulars activate
        (4) and fire aimed at 10" (6, 5, 1, 2: two hits on unarmoured figures), side 1 splits them (one
        suppressed, one casualty); side 0's veterans fail (1) and go On Guard, so the initiative passes; side 1's
        squad activates (6 − 1 suppressed) and walks, and the veterans react before it is resolved (4, 1, 1)."""
        first = {}
        for key, unit in state.units.items():
            first.setdefault(unit.side, []).append(key)
        (a1, a2), b1 = first[0][:2], first[1][0]
        return [
            (0, "start_turn", {}, [5, 2]),
            (0, "activate", {"unit": a1}, [4]),
            (0, "act", {"unit": a1, "action": "aimed_fire"}, None),
            (0, "shoot", {"unit": a1, "target": b1, "distance": 10}, [6, 5, 1, 2]),
            (1, "split_hits", {"suppress": 1}, None),
            (0, "activate", {"unit": a2}, [1]),
            (1, "activate", {"unit": b1}, [6]),
            (1, "act", {"unit": b1, "action": "walk", "moved": 3}, None),
            (0, "react", {"unit": a2, "distance": 12}, [4, 1, 1]),
            (1, "split_hits", {"suppress": 0}, None),
            (1, "done", {"unit": b1}, None),
        ]


BATTLE = SquadsBattle()
