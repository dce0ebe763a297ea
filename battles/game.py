"""The read model of a battle: its system's battle part, its state, its log as it counts and as people read it.

One module that both sides use: battles/selectors (reads) and battles/services, battles/undo (writes) take these
from here, so no read ever calls the write side. A request looks the part up once (`battle_part`, a registry lookup).
"""

from __future__ import annotations

import bisect
import copy

from django.utils.translation import gettext as _

from battles import rows
from battles.memo import Memo
from battles.models import Battle, BattleEvent, BattleSide, BattleUnit
from rules.contract import Event, GameState, UnitRecord, undo_witnesses
from rules.errors import RuleInputError
from rules.registry import get_system

#: Events the runner itself writes; the system's fold never sees them.
#: The steps of a result both players confirm (battles/results): proposed, voted, settled, and confirmed, which
#: closes the battle to commands.
RESULT_EVENTS = ("result.proposed", "result.voted", "result.settled", "result.confirmed")
RUNNER_EVENTS = (
    "battle.started",
    "side.joined",
    "undo",
    "undo.proposed",
    "undo.agreed",
    "undo.declined",
    *RESULT_EVENTS,
)
#: Runner events that change no state: a write based on a version before them may still rebase over them.
NEUTRAL_EVENTS = ("side.joined", "undo.proposed", "undo.agreed", "undo.declined", *RESULT_EVENTS)


def battle_part(system: str):
    part = get_system(system).battle
    if part is None:
        raise RuleInputError({"system": _("{name} has no battle tracker yet.").format(name=get_system(system).name)})
    return part


# The state -----------------------------------------------------------------------------------------------------
def load_state(battle: Battle) -> GameState:
    """The stored state, as the system's fold works on it. No copies: the fold replaces unit states, and `battle`
    is discarded if the command fails."""
    units = {
        key: UnitRecord(key, side, profile, state, name, kind)
        for key, side, profile, state, name, kind in rows.units(battle.pk)
    }
    return GameState(game=battle.state, units=units, settings=battle.settings)


def _as_event(part, row: BattleEvent) -> Event:
    event = Event(
        row.seq,
        row.type,
        row.payload,
        row.side_index,
        tuple(row.visible_to) if row.visible_to is not None else None,
    )
    if row.rules_version != part.rules_version:
        event = part.upcast(event, row.rules_version)
    return event


# Replay -------------------------------------------------------------------------------------------------------
def active_events(events: list[BattleEvent]) -> list[BattleEvent]:
    """The events that count: not undone, and not caused by an undone command. An undo of an undo restores."""
    seq_of_pk = {e.pk: e.seq for e in events}
    undone: set[int] = set()
    # A later undo decides about an earlier one, so walk from the newest: an undo that is itself undone is skipped.
    for event in sorted(events, key=lambda e: e.seq, reverse=True):
        if event.type == "undo" and event.seq not in undone:
            undone.add(event.payload.get("undoes"))
    return [
        e
        for e in sorted(events, key=lambda e: e.seq)
        if e.type != "undo" and e.seq not in undone and (e.cause_id is None or seq_of_pk.get(e.cause_id) not in undone)
    ]


def undone_heads(battle: Battle, marks: BoardMarks | None = None) -> set[int]:
    """Seqs of the commands whose effect is cancelled now (an undo undone by a later undo is among them). Reads
    only the undo events, so it stays cheap however long the log grows (or takes them from the board's `marks`)."""
    undone: set[int] = set()
    for seq, payload in marks.undos if marks is not None else rows.undos(battle.pk):
        if seq not in undone:
            undone.add(payload.get("undoes"))
    return undone


class BoardMarks:
    """What a board's undo marks and open proposal read from the log, in one read (battles/rows.py mark_rows), for
    one request: the undos (newest first), the closing points (oldest first) and whether any proposal to undo was
    made. The same answers as `rows.undos`, `closing_points` and `rows.last_proposal` give each."""

    def __init__(self, battle: Battle, part):
        found = rows.mark_rows(battle.pk, part.closing_events)
        self.undos = [(seq, payload) for seq, kind, _side, _to, _closes, payload in reversed(found) if kind == "undo"]
        self.closing = [
            Event(seq, kind, {}, side, tuple(to) if to is not None else None)
            for seq, kind, side, to, closes, _payload in found
            if closes or kind in part.closing_events
        ]
        self.proposed = any(kind == "undo.proposed" for _seq, kind, *_rest in found)


def replay(battle: Battle, *, events: list[BattleEvent] | None = None) -> GameState:
    """Folds the log from each unit's initial state: what the stored state must equal."""
    part = battle_part(battle.system)
    if events is None:
        events = list(BattleEvent.objects.filter(battle=battle).order_by("seq"))
    initial = (
        BattleUnit.objects.filter(battle=battle)
        .order_by("position", "id")
        .values_list("key", "side__index", "profile", "initial_state", "name", "kind")
    )
    units = {key: UnitRecord(key, side, profile, init, name, kind) for key, side, profile, init, name, kind in initial}
    state = GameState(game={}, units=units, settings=battle.settings)
    for row in active_events(events):
        if row.type == "battle.started":
            state.game = copy.deepcopy(row.payload["game"])
        elif row.type not in RUNNER_EVENTS:
            part.apply(state, _as_event(part, row))
    return state


# Readable log -------------------------------------------------------------------------------------------------
# The roster names of a battle's units and sides are fixed at its start: read once per server process (keyed by the
# battle's spectator token too, which no other battle shares, so a reused id never reads another battle's names).
_ROSTER_NAMES: Memo[tuple[dict, dict]] = Memo(512)


def name_maps(battle: Battle) -> dict:
    """Unit and side names for the log: kept in the game state since the start when the system keeps them."""
    game = battle.state or {}

    def roster_names():
        units = dict(BattleUnit.objects.filter(battle=battle).values_list("key", "name"))
        sides = dict(BattleSide.objects.filter(battle=battle).values_list("index", "name"))
        return units, sides

    unit_names, side_names = _ROSTER_NAMES.get_or_make((battle.pk, battle.spectator_token), roster_names)
    # The roster's names from the table, then the names the game keeps (they may change in play): a log line never
    # falls back to a unit's internal key («0.307264.1»).
    units = {**unit_names, **(game.get("unit_names") or {})}
    sides = {int(k): v for k, v in game["side_names"].items()} if "side_names" in game else dict(side_names)
    return {"units": units, "sides": sides}


def describe_event(part, event: BattleEvent, names: dict, *, depth: int = 0) -> str:
    """One line of the history, in plain words: the runner's own events here, the rest by the system. An undo names
    what it cancelled as the reader reads it now (their language, the roster's names), not as stored at the time."""
    payload = event.payload
    sides = names["sides"]

    def side(index):
        return sides.get(index, sides.get(str(index), _("side {index}").format(index=index)))

    if event.type == "battle.started":
        return _("The battle starts: {sides}.").format(
            sides=_(" vs ").join(s["name"] for s in payload.get("sides", []))
        )
    if event.type == "side.joined":
        return _("{player} joins as {side}.").format(player=payload.get("player"), side=side(payload.get("side")))
    if event.type in ("undo", "undo.proposed", "undo.agreed", "undo.declined"):
        return _describe_undo(part, event, names, side, depth)
    if event.type in RESULT_EVENTS:
        return _describe_result(event, side)
    return part.describe_event(_as_event(part, event), names)


def _describe_result(event: BattleEvent, side) -> str:
    """The steps of the result both players confirm (battles/results), in the log."""
    payload = event.payload
    if payload.get("kind") == "unfinished":
        outcome = _("unfinished, counting for nothing")
    elif payload.get("draw") or payload.get("winner") is None:
        outcome = _("a draw")
    else:
        outcome = _("{side} won").format(side=side(payload.get("winner")))
    if event.type == "result.proposed":
        return _("{side} proposes the result: {outcome}.").format(side=side(event.side_index), outcome=outcome)
    if event.type == "result.voted" and payload.get("choice") == "dispute":
        return _("{side} disputes the result: «{reason}».").format(
            side=side(event.side_index), reason=payload.get("reason", "")
        )
    if event.type == "result.voted":
        return _("{side} confirms the result.").format(side=side(event.side_index))
    if event.type == "result.settled":
        return _("The club's owner settles the result: {outcome}.").format(outcome=outcome)
    return _("The result is final: {outcome}.").format(outcome=outcome)


def _describe_undo(part, event: BattleEvent, names: dict, side, depth: int) -> str:
    """An undo, or a step of a two-player undo (battles/undo.py), naming the undone command as the reader reads it.
    A hidden command undone in the open (by agreement) is named only as hidden: the undo never tells its secret."""
    payload = event.payload
    seq = payload.get("undoes")
    if payload.get("hidden"):
        who = payload.get("undone_side")
        summary = _("a hidden event of {side}").format(side=side(who)) if who is not None else _("a hidden event")
    else:
        target = None
        if depth < 4:
            target = (
                event.undoes
                if event.undoes_id
                else BattleEvent.objects.filter(battle_id=event.battle_id, seq=seq).first()
            )
        summary = describe_event(part, target, names, depth=depth + 1) if target else payload.get("undone_summary", "")
    restores = payload.get("undone_type") == "undo"
    if event.type == "undo.proposed":
        if restores:
            return _("Proposed: restore #{seq}: {summary}").format(seq=seq, summary=summary)
        return _("Proposed: undo #{seq}: {summary}").format(seq=seq, summary=summary)
    if event.type == "undo.agreed":
        return _("Agreed to undo #{seq}.").format(seq=seq)
    if event.type == "undo.declined":
        if payload.get("withdrawn"):
            return _("The proposal to undo #{seq} was withdrawn.").format(seq=seq)
        return _("The proposal to undo #{seq} was declined.").format(seq=seq)
    if restores:
        return _("Restored #{seq}: {summary}").format(seq=seq, summary=summary)
    return _("Undone #{seq}: {summary}").format(seq=seq, summary=summary)


def replay_matches(battle: Battle) -> tuple[bool, str]:
    """(True, "") when replaying the log gives the stored game and unit states; else a description of the first
    difference. Used by the tests on every stored battle."""
    battle.refresh_from_db()
    events = list(BattleEvent.objects.filter(battle=battle).order_by("seq"))
    seqs = [e.seq for e in events]
    if seqs != list(range(1, len(seqs) + 1)):
        return False, f"event seqs are not 1..n: {seqs[:10]}…"
    if battle.version != (seqs[-1] if seqs else 0):
        return False, f"version {battle.version} != last seq {seqs[-1] if seqs else 0}"
    state = replay(battle, events=events)
    if state.game != battle.state:
        return False, f"game state differs: stored {battle.state!r} replayed {state.game!r}"
    for unit in BattleUnit.objects.filter(battle=battle):
        if state.units[unit.key].state != unit.state:
            return False, f"unit {unit.key} differs: stored {unit.state!r} replayed {state.units[unit.key].state!r}"
    return True, ""


# Undo: who must agree, and the proposal still open (battles/undo.py writes them) -------------------------------
#: The steps of a two-player undo: runner events that change no state and are never undone themselves.
UNDO_STEPS = ("undo.proposed", "undo.agreed", "undo.declined")
NOT_UNDOABLE = ("battle.started", "side.joined")


def closing_points(battle: Battle, part, *, since: int = 1) -> list[Event]:
    """The battle's closing points from seq `since` on, oldest first, undone ones included (what was seen stays
    seen). Events of a type the system declares closing count even when stored before the flag existed."""
    found = rows.closing_rows(battle.pk, part.closing_events, since=since)
    return [Event(seq, kind, {}, side, tuple(to) if to is not None else None) for seq, kind, side, to in found]


def other_players_sides(battle: Battle, sides) -> frozenset[int]:
    """The sides held by players other than the one holding `sides` (a side nobody took has seen nothing)."""
    held = {s for taken in battle.players.values() for s in taken}
    return frozenset(held - set(sides))


def witnesses_of(battle: Battle, part, sides, seq: int) -> tuple[frozenset[int], int | None]:
    """(the other sides whose players must agree to undo #seq, the first closing point they saw)."""
    others = other_players_sides(battle, sides)
    closing = closing_points(battle, part, since=seq)
    first = next((c.seq for c in closing if undo_witnesses([c], others)), None)
    return undo_witnesses(closing, others), first


def agreement_needed(battle: Battle, part, sides, marks: BoardMarks | None = None):
    """For the board: a function telling, for a line of the log, whether this viewer's undo of it needs the other
    players (the same rule as `event_undo`, for every line at once)."""
    others = other_players_sides(battle, sides)
    closing = marks.closing if marks is not None else closing_points(battle, part)
    seqs = [c.seq for c in closing]
    # suffix[i]: whether any closing point from the i-th on was seen by another player
    suffix = [False] * (len(closing) + 1)
    for i in range(len(closing) - 1, -1, -1):
        suffix[i] = suffix[i + 1] or bool(undo_witnesses([closing[i]], others))
    return lambda seq: suffix[bisect.bisect_left(seqs, seq)]


def open_proposal(battle: Battle, marks: BoardMarks | None = None) -> BattleEvent | None:
    """The proposal to undo that is still open: the newest one, when nothing but agreements to it (or a player
    joining) was recorded after it."""
    if marks is not None and not marks.proposed:
        return None
    last = rows.last_proposal(battle.pk)
    if last is None:
        return None
    for kind, payload in rows.events_after(battle.pk, last.seq):
        if kind == "side.joined" or (kind == "undo.agreed" and payload.get("proposal") == last.seq):
            continue
        return None
    return last


def agreed_sides(battle: Battle, proposal: BattleEvent) -> set[int]:
    """The sides that have agreed to an open proposal so far."""
    return {s for payload in rows.agreements_after(battle.pk, proposal.seq) for s in payload.get("sides", [])}
