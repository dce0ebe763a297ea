"""The battle part: how a game starts from rosters, which commands players send, how each event changes the
state, whom the game awaits, and what each viewer may see. Called by `battles` only through this protocol.

The generic runner (battles/services) owns everything that is not about one game: the event store, the row lock,
If-Match/412, Idempotency-Key, undo by replay, per-viewer filtering of events, and one endpoint
`POST /api/v1/battles/<id>/commands/<name>/`. For each command it:

1. loads the state (`GameState`: the game dict plus every unit's record) under the battle's lock;
2. asks `awaiting(state)` whether this side may send this command now (409 if not);
3. validates the inputs against the command's `input_schema` (400 naming the field);
4. calls the command's pure `handle(ctx, inputs)`, which reads the state, rolls or takes the typed-in dice
   through `ctx.dice()`, and answers a list of `NewEvent`s (it never writes);
5. folds each event into the state with `apply(state, event)`, stores the events and the new state together.

Replaying the stored events through `apply` from the initial state must give the stored state; undo is a
compensating event after which the runner replays the log without the undone command.

Secrets: a `NewEvent` with `visible_to` is shown only to those sides (spectators never see it) until the system
emits a public event that reveals it. `redact_game` removes from the game dict what a viewer may not see yet.

Closing points (DESIGN.md: "a revealed secret or an answered question cannot be taken back by one side"): an event
that reveals what was hidden (a type in `BattlePart.closing_events`, or a `NewEvent` with `closes=True`) and the
answer to a question (any command sent while `awaiting()` is a "question") close what came before them. The runner
refuses a one-sided undo of anything at or before a closing point that another player has seen
(`UndoNeedsAgreement`, 409): such an undo is proposed by one player and carried out when the others confirm it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from rules.contract.schema import validate
from rules.errors import GameConflict, NotYours, RuleInputError
from rules.i18n import _


class UndoNeedsAgreement(GameConflict):
    """A one-sided undo of what another player has seen revealed or answered (409): it needs their agreement."""

    code = "undo_needs_agreement"


class NothingToUndo(GameConflict):
    """An undo that would leave the game exactly as it is (409): nothing is recorded."""

    code = "undo_changes_nothing"


@dataclass
class UnitRecord:
    """One thing on the table that has its own state (a squad, a vehicle, a figure, an agent)."""

    key: str
    side: int  # the side that brought it; the system may let control change (see BattlePart.owner)
    profile: dict
    state: dict
    name: str = ""
    kind: str = ""


@dataclass
class GameState:
    """What the runner holds while a command runs: the game-level dict and every unit's record."""

    game: dict
    units: dict[str, UnitRecord]
    settings: dict  # the battle's settings: {"system": {...system settings...}, "enforce_turns": bool}
    changed: set[str] = field(default_factory=set)

    @property
    def system_settings(self) -> dict:
        return self.settings.get("system", {})


@dataclass
class Event:
    """A stored event as the fold sees it."""

    seq: int
    type: str
    payload: dict
    side: int | None = None
    visible_to: tuple[int, ...] | None = None


@dataclass
class NewEvent:
    """An event a command handler asks to record. The first one of a command is its head; the runner links the
    others to it (`cause`), so an undo of the head takes them all back."""

    type: str
    payload: dict
    dice: list = field(default_factory=list)
    visible_to: tuple[int, ...] | None = None  # None: everyone; else only these sides until revealed
    side: int | None = None  # the side that acted; the runner fills it in when the caller holds one side
    #: A closing point: it reveals what was hidden or answers a question, so what came before it cannot be undone
    #: by one side alone. The runner sets it for the part's `closing_events` and for the answer to a question.
    closes: bool = False


@dataclass
class SideSetup:
    """One side at the start: its index, name, faction, and the roster snapshot (as the army part sees it)."""

    index: int
    name: str
    faction: str
    roster: dict


@dataclass
class UnitSetup:
    key: str
    side: int
    name: str
    kind: str
    profile: dict
    entry: dict
    state: dict

    @classmethod
    def from_built(cls, side: int, unit: dict) -> UnitSetup:
        """A unit of `side` as a system builds it from a roster entry: a dict with its key, name, kind, profile,
        entry and state."""
        return cls(key=unit["key"], side=side, name=unit["name"], kind=unit["kind"], profile=unit["profile"],
                   entry=unit["entry"], state=unit["state"])  # fmt: skip


@dataclass
class Start:
    game: dict
    units: list[UnitSetup]


@dataclass
class Awaiting:
    """Whom the game waits for now.

    kind: "anyone" (any player may act: a free game), "sides" (these sides, e.g. the side whose turn it is),
    "all" (these sides at once, each in secret, e.g. orders), "question" (one side must answer a prompt before
    anything else happens), "over" (the game has ended).
    `commands`: when set, only these commands are accepted now (others get 409); `free_commands` are accepted
    from anyone at any time (rulings by hand, ending the game).
    """

    kind: str = "anyone"
    sides: tuple[int, ...] = ()
    commands: tuple[str, ...] | None = None
    prompt: dict | None = None
    message: str = ""

    def as_dict(self) -> dict:
        return {
            "kind": self.kind,
            "sides": list(self.sides),
            "commands": list(self.commands) if self.commands is not None else None,
            "prompt": self.prompt,
            "message": self.message,
        }


class CommandContext:
    """What a handler may use: the state (read it, never write it), the caller's sides, settings and dice."""

    def __init__(self, *, part: BattlePart, state: GameState, sides: frozenset[int], next_seq: int, dice_source):
        self.part = part
        self.state = state
        self.sides = sides
        self.next_seq = next_seq  # the seq the command's head event will get
        self._dice_source = dice_source
        self._dice = None
        self.outcome: dict | None = None  # what the caller's phone shows as the result
        self.notices: list[str] = []

    @property
    def game(self) -> dict:
        return self.state.game

    @property
    def settings(self) -> dict:
        return self.state.settings

    @property
    def system_settings(self) -> dict:
        return self.state.system_settings

    def dice(self):
        """The dice source of this command: server-rolled (seeded) or the dice typed in from the table. One source
        per command: a command that resolves two tests draws them from the same dice, in order."""
        if self._dice is None:
            self._dice = self._dice_source()
        return self._dice

    def unit(self, key, *, field_name: str = "unit") -> UnitRecord:
        unit = self.state.units.get(key) if isinstance(key, str) else None
        if unit is None:
            raise RuleInputError({field_name: _("There is no unit {key!r} in this battle.").format(key=key)})
        return unit

    def owner(self, key: str) -> int:
        return self.part.owner(self.state, key)

    def own_unit(self, key, *, field_name: str = "unit") -> UnitRecord:
        """A unit the caller controls."""
        unit = self.unit(key, field_name=field_name)
        if self.owner(unit.key) not in self.sides:
            raise NotYours(
                _("{unit} belongs to another player: only they act with it.").format(unit=unit.name or unit.key)
            )
        return unit

    def one_side(self) -> int:
        """The caller's side, for commands a side gives as a whole (orders, answers)."""
        if len(self.sides) != 1:
            raise RuleInputError({"side": _("You hold several sides here: say which one gives this command.")})
        return next(iter(self.sides))


class Command(ABC):
    """One thing a player may do in a battle."""

    name: str = ""
    label: str = ""
    help: str = ""
    input_schema: dict = {"type": "object", "properties": {}, "additionalProperties": False}
    #: Accepted whatever the game awaits (a ruling by hand, ending the game by agreement).
    free: bool = False
    #: Accepted while the game is over (e.g. nothing but undo, which the runner owns).
    when_over: bool = False

    def validate(self, inputs) -> dict:
        if not isinstance(inputs, dict):
            raise RuleInputError({"inputs": _("must be an object")})
        validate(self.input_schema, inputs)
        return inputs

    @abstractmethod
    def handle(self, ctx: CommandContext, inputs: dict) -> list[NewEvent]:
        """Pure: reads ctx.state, rolls through ctx.dice(), answers events. Raises RuleInputError (400),
        NotYours (403) or GameConflict (409)."""

    def describe(self) -> dict:
        """`label` and `help` are msgids (marked N_() by the system): read in the reader's language."""
        return {"name": self.name, "label": _(self.label), "help": _(self.help), "input_schema": self.input_schema}


class BattlePart(ABC):
    """A system's battle rules for the generic runner."""

    #: Bumped when the meaning of stored events changes; `upcast` brings older events up to date.
    rules_version: int = 1
    commands: dict[str, Command] = {}
    #: Event types that reveal what was hidden (e.g. every side's secret orders turned face up). Once one is
    #: recorded, an undo of it or of anything before it needs every other player who saw it (DESIGN.md). Answers
    #: to a question (`Awaiting(kind="question")`) are closing points without being listed here.
    closing_events: frozenset[str] = frozenset()

    # Starting ------------------------------------------------------------------------------------------------
    @abstractmethod
    def start(self, *, sides: list[SideSetup], settings: dict) -> Start:
        """The initial game dict and every unit with its initial state. `settings` is the battle's settings."""

    # Folding -------------------------------------------------------------------------------------------------
    @abstractmethod
    def apply(self, state: GameState, event: Event) -> None:
        """Folds one event into `state` (game dict and unit records; add changed unit keys to state.changed).
        Must be deterministic: replaying the log gives the stored state."""

    def upcast(self, event: Event, version: int) -> Event:
        """An event written under `rules_version` `version`, brought up to this version. Default: unchanged."""
        return event

    # Whose move ----------------------------------------------------------------------------------------------
    def awaiting(self, state: GameState) -> Awaiting:
        if state.game.get("result") is not None:
            return Awaiting(kind="over", message=_("The battle is over. Undo the last events to play on."))
        return Awaiting()

    def owner(self, state: GameState, unit_key: str) -> int:
        """The side that controls a unit now (by default the side that brought it)."""
        return state.units[unit_key].side

    def check_allowed(self, state: GameState, command: Command, sides: frozenset[int]) -> None:
        """Refuses a command the game does not await now from these sides (409)."""
        awaiting = self.awaiting(state)
        if awaiting.kind == "over":
            if not command.when_over:
                raise GameConflict(awaiting.message or _("The battle is over."))
            return
        if command.free:
            return
        if awaiting.commands is not None and command.name not in awaiting.commands:
            label = _(command.label) if command.label else command.name
            raise GameConflict(awaiting.message or _("«{label}» is not possible now.").format(label=label))
        if awaiting.kind in ("sides", "all", "question") and not (set(awaiting.sides) & set(sides)):
            raise GameConflict(awaiting.message or _("It is not your move: the game waits for another player."))

    def commutes(self, state: GameState, name: str, inputs: dict, since: list[Event]) -> bool:
        """May this command, written against an older version, apply on top of the events recorded `since`? True
        when it commutes with each (a step of one unit's slider, a change to a unit nobody else touched): the two
        phones' taps both count. False (the default) answers 412 with the current state."""
        return False

    # What each viewer sees -----------------------------------------------------------------------------------
    def redact_game(self, game: dict, viewer_sides: frozenset[int]) -> dict:
        """The game dict as this viewer may see it (secrets of other sides removed). Default: all of it."""
        return game

    def unit_view(self, state: GameState, unit: UnitRecord, viewer_sides: frozenset[int]) -> dict:
        """What a phone shows of one unit; JSON-safe. Default: its state."""
        return dict(unit.state)

    #: Optional assets of the system's own sheets (e.g. a shot form), kept inside the system package:
    #: a template under <package>/templates/ and a script under <package>/static/ (settings add those folders).
    board_template: str = ""
    board_script: str = ""

    def board(self, view: dict, viewer_sides: frozenset[int], *, can_write: bool) -> dict:
        """The phone board as widgets (rules/contract/board.py) for the state as this viewer sees it (`view` is
        what the state API answers). {"banner": {...} | None, "turnbar": [widget…], "groups": [{"title",
        "subtitle", "units": [card…]}], "footer": [widget…]}; a card is {"key", "title", "subtitle", "flags",
        "stats", "done", "dead", "widgets"}."""
        groups = [
            {
                "title": side["name"],
                "subtitle": "",
                "units": [
                    {
                        "key": u["key"],
                        "title": u["name"],
                        "subtitle": u["kind"],
                        "flags": [],
                        "stats": None,
                        "done": False,
                        "dead": False,
                        "widgets": [],
                    }
                    for u in view["units"]
                    if u["owner"] == side["index"]
                ],
            }
            for side in view["sides"]
        ]
        return {"banner": None, "turnbar": [], "groups": groups, "footer": []}

    def client_data(self, view: dict) -> dict:
        """JSON the system's board script reads (choices for its sheets). Default: none."""
        return {}

    def describe_event(self, event: Event, names: dict) -> str:
        """One line of the history in the book's words. `names`: {"units": {key: name}, "sides": {i: name}}."""
        return event.type

    def example_script(self, state: GameState) -> list[tuple[int, str, dict, list | None]]:
        """A short game from this start state as (side, command, inputs, typed-in dice or None): the contract test
        suite plays it through the real runner on every registered system. Default: none (the suite then fails
        for this system, so every battle part provides one)."""
        return []

    def result_summary(self, state: GameState) -> dict | None:
        return state.game.get("result")

    def describe(self) -> dict:
        return {
            "rules_version": self.rules_version,
            "commands": [c.describe() for c in self.commands.values()],
        }


def run_command(
    part: BattlePart, state: GameState, name: str, inputs, *, sides: frozenset[int], next_seq: int, dice_source
) -> tuple[list[NewEvent], CommandContext]:
    """Steps 2–5 of the runner, pure: is the command awaited, are its inputs valid, which events does it give;
    then folds them into `state` (a working copy the caller owns). Raises the contract's errors."""
    command = part.commands.get(name) if isinstance(name, str) else None
    if command is None:
        raise RuleInputError({"command": _("There is no command {name!r} in this game.").format(name=name)})
    part.check_allowed(state, command, sides)
    answers = answers_question(part.awaiting(state), command, sides)
    inputs = command.validate(inputs if inputs is not None else {})
    ctx = CommandContext(part=part, state=state, sides=sides, next_seq=next_seq, dice_source=dice_source)
    events = command.handle(ctx, inputs)
    if not events:
        raise RuleInputError(_("Nothing to record."))
    only_side = next(iter(sides)) if len(sides) == 1 else None
    for offset, new in enumerate(events):
        if new.side is None:
            new.side = only_side
        if (offset == 0 and answers) or new.type in part.closing_events:
            new.closes = True
        part.apply(state, Event(next_seq + offset, new.type, new.payload, new.side, new.visible_to))
    return events, ctx


def answers_question(awaiting: Awaiting, command: Command, sides: frozenset[int]) -> bool:
    """Is this command the answer of the side the game asked (a question the other side may see answered)? Free
    commands (rulings by hand) answer nothing."""
    return (
        awaiting.kind == "question"
        and not command.free
        and (awaiting.commands is None or command.name in awaiting.commands)
        and bool(set(awaiting.sides) & set(sides))
    )


def undo_witnesses(closing: list[Event], others: frozenset[int] | set[int]) -> frozenset[int]:
    """The sides whose players must agree to an undo: `closing` are the closing points at or after the undone
    command (its own effects included; undone ones too, for what was seen stays seen), `others` the sides held by
    players other than the one undoing. A closing point shown to everyone (`visible_to` None) was seen by all."""
    seen: set[int] = set()
    for event in closing:
        seen |= set(others) if event.visible_to is None else set(event.visible_to) & set(others)
    return frozenset(seen)
