"""«Энфорсеры»'s battle part (spec §4): agents from rosters, popcorn activations of two actions, the book's tests
as commands, statuses ticking as events with their dice, and a phone board.

Modules: units.py (agents and the sheets the actions take), fold.py (how events change the state), commands.py
(an activation's commands), rulings.py (weapons, reaction shots, rulings by hand), board.py (the widgets).
"""

from __future__ import annotations

from rules.contract import Awaiting, BattlePart, Event, GameState, SideSetup, Start, UnitSetup
from rules.i18n import _, ngettext
from rules.systems.enforcers import agents
from rules.systems.enforcers.battle import board, commands, fold, questions, rulings
from rules.systems.enforcers.battle.units import build_units
from rules.systems.enforcers.texts import parts, render
from rules.systems.enforcers.wounds import current_wound

TURN_COMMANDS = ("shoot", "throw", "melee", "move", "listen", "aim", "overwatch", "take_cover", "suppressive_fire",
                 "medical_aid", "prayer", "reload", "ready_weapon", "end_activation")  # fmt: skip
COMMANDS = {
    c.name: c
    for c in (
        commands.Activate(),
        commands.Shoot(),
        commands.Throw(),
        commands.Melee(),
        commands.Move(),
        commands.Listen(),
        commands.Aim(),
        commands.Overwatch(),
        commands.TakeCover(),
        commands.SuppressiveFire(),
        commands.MedicalAid(),
        commands.Prayer(),
        rulings.Reload(),
        rulings.ReadyWeapon(),
        commands.EndActivation(),
        rulings.ReactionShot(),
        questions.HoldFire(),
        questions.CounterAttack(),
        questions.ProposeEnd(),
        questions.ConfirmEnd(),
        rulings.Damage(),
        rulings.Fall(),
        rulings.FearTest(),
        rulings.SetStatus(),
        rulings.Adjust(),
        rulings.EndGame(),
    )
}


class EnforcersBattle(BattlePart):
    rules_version = 1
    commands = COMMANDS
    board_template = "enforcers/board_sheets.html"  # the stylesheet of its folds and dice boxes
    board_script = "enforcers/board.js"  # dice typed in from the table, one box per die the test asks for

    def client_data(self, view: dict) -> dict:
        """For the board script: the commands whose dice may be typed in, and its words."""
        return {"dice_commands": list(board.DICE_COMMANDS), "dice_legend": _("Dice rolled at the table (optional)"),
                "dice_note": _("Empty: the server rolls."),
                "submits": {"counter_attack": _("Counter-attack")}}  # fmt: skip

    def start(self, *, sides: list[SideSetup], settings: dict) -> Start:
        units: list[UnitSetup] = []
        notes: list = []
        for side in sides:
            built, left_home = build_units(side.index, side.roster)
            notes += [{"side": side.name, "text": parts(note)} for note in left_home]
            units += [UnitSetup.from_built(side.index, u) for u in built]
        names = {s.index: s.name for s in sides}
        return Start(game=fold.initial_game([s.index for s in sides], notes, names), units=units)

    def apply(self, state: GameState, event: Event) -> None:
        fold.apply(state, event)

    def awaiting(self, state: GameState) -> Awaiting:
        game = state.game
        if game.get("result") is not None:
            return Awaiting(kind="over", message=_("The scenario is over: {result}. Undo the last events to play "
                                                   "on.").format(result=questions.result_text(
                                                       game, game["result"].get("winner"))))  # fmt: skip
        asked = questions.current(game)
        if asked is not None:
            sides = tuple(asked.get("sides") or (asked["side"],))
            return Awaiting(kind="question", sides=sides, commands=questions.ANSWERS[asked["kind"]], prompt=asked,
                            message=questions.message(state, asked))  # fmt: skip
        awaited = self._turn(state)
        if not state.settings.get("enforce_turns", True):  # a free game: anyone may act, the next step is still said
            return Awaiting(kind="anyone", sides=awaited.sides, message=awaited.message)
        return awaited

    def _turn(self, state: GameState) -> Awaiting:
        """Whose turn it is: the side of the acting model, or the side that picks the next one (L63–69)."""
        game = state.game
        if game["phase"] == "activation":
            unit = state.units[game["active"]]
            left = unit.state["actions_left"]
            allowed = TURN_COMMANDS if left else ("ready_weapon", "end_activation")
            side = questions.side_name(game, unit.side)
            if left:
                message = ngettext(
                    "{side}: {name} is acting ({n} action left): an action, or end the activation.",
                    "{side}: {name} is acting ({n} actions left): an action, or end the activation.",
                    left,
                ).format(side=side, name=unit.name, n=left)
            else:
                message = _("{side}: {name} has no action left: end its activation (its statuses tick then).").format(
                    side=side, name=unit.name
                )
            return Awaiting(kind="sides", sides=(unit.side,), commands=allowed, message=message)
        picker = game.get("picker")
        sides = tuple(game["sides"]) if picker is None else (picker,)
        if picker is None:
            message = _("Popcorn initiative: the players choose who activates first (L63).")
        else:
            message = _("Popcorn initiative: {side} picks the next model to activate, one that has not acted this "
                        "round (L63–65).").format(side=questions.side_name(game, picker))  # fmt: skip
        return Awaiting(kind="sides", sides=sides, commands=("activate",), message=message)

    def unit_view(self, state: GameState, unit, viewer_sides: frozenset[int]) -> dict:
        s = unit.state
        settings = state.system_settings
        return {
            **s,
            "wound": current_wound(s),
            "alive": "dead" not in s["statuses"],
            "max_hp": agents.max_hp(s, "unit"),
            "max_ap": agents.max_ap(s),
            "derived": agents.derived(s, settings),
            "effective_stats": agents.effective_stats(s),
            "acting": state.game.get("active") == unit.key,
        }

    def board(self, view: dict, viewer_sides: frozenset[int], *, can_write: bool) -> dict:
        return board.board(view, viewer_sides, can_write=can_write)

    def example_script(self, state: GameState) -> list[tuple[int, str, dict, list | None]]:
        """A round and a half between the first agents of sides 0 and 1 (the typed-in dice make the shot miss and
        the blow land whatever the seed), then a ruling by hand."""
        ours = next(k for k, u in state.units.items() if u.side == 0)
        theirs = next(k for k, u in state.units.items() if u.side == 1)
        return [
            (0, "activate", {"unit": ours}, None),
            (0, "shoot", {"target": theirs, "weapon": 0, "range_band": "medium"}, [15]),
            (0, "move", {"distance_cm": 3}, None),
            (0, "end_activation", {}, None),
            (0, "activate", {"unit": theirs}, None),
            (1, "melee", {"target": ours, "distance_cm": 1}, [5]),
            (1, "end_activation", {}, None),
            (1, "activate", {"unit": theirs}, None),
            (1, "take_cover", {}, None),
            (1, "end_activation", {}, None),
            (1, "activate", {"unit": ours}, None),
            (0, "aim", {"same_point": True}, None),
            (0, "damage", {"unit": theirs, "amount": 1}, None),
            (0, "end_activation", {}, None),
        ]

    def describe_event(self, event: Event, names: dict) -> str:
        unit = (names.get("units") or {}).get(event.payload.get("unit"), event.payload.get("unit") or "")
        # Newer events keep their text as data (texts.py) and are read in the reader's language; older ones
        # stored the English summary, shown as it was.
        stored = event.payload.get("text")
        summary = render(stored) if stored else event.payload.get("summary") or event.type.replace("_", " ")
        if event.type == "activation_started":
            return _("{unit} activates. {summary}").format(unit=unit, summary=summary).strip()
        if event.type == "game_ended":
            return summary
        return f"{unit}: {summary}" if unit and not summary.startswith(unit) else summary


BATTLE = EnforcersBattle()
