"""Undo: a compensating event (nothing is deleted), and the two-player undo past a closing point.

DESIGN.md: "A revealed secret or an answered question cannot be taken back by one side: such an undo needs both
players, or is refused with a reason." A closing point is an event that revealed what was hidden or answered a
question (rules/contract/battle.py: `BattlePart.closing_events`, answers to `Awaiting(kind="question")`). So:

- `event_undo`: one player undoes a command. Refused (409) when it would change nothing, and when a closing point
  at or after it was seen by a side another player holds (`UndoNeedsAgreement`): otherwise one side could change
  its secret orders after seeing the other's, or answer a question again after seeing the result.
- `undo_propose`: such an undo is proposed (a public `undo.proposed` event, naming the sides that must agree);
- `undo_confirm`: each of those sides' players confirms (`undo.agreed`); the last confirmation records the `undo`,
  itself a closing point (what both agreed to, one may not redo alone);
- `undo_decline`: the other player declines, or the proposer withdraws (`undo.declined`).
A proposal stays open while nothing else is recorded: any other write (a command, an undo) lets it lapse, so a
confirmation always undoes the battle the proposal was made on.

Every undo recorded changes the game: an undo that would leave it as it is answers 409 and records nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from battles import rows
from battles.game import (  # the read model: who must agree, the open proposal, the log and its words
    NOT_UNDOABLE,
    RESULT_EVENTS,
    UNDO_STEPS,
    agreed_sides,
    battle_part,
    describe_event,
    load_state,
    name_maps,
    open_proposal,
    replay,
    undone_heads,
    witnesses_of,
)
from battles.models import Battle, BattleEvent
from battles.services import CommandResult, _canonical, _check_version, _fingerprints, _locked, _save_state, _store
from rules.contract import GameState, NewEvent, NothingToUndo, UndoNeedsAgreement
from rules.errors import ArmlistError, GameConflict, RuleInputError


# Checks shared by every way of undoing -------------------------------------------------------------------------
def _target(battle: Battle, seq, viewer_sides=None) -> BattleEvent:
    """The command to undo: a head event this viewer may see (None: any), not already undone."""
    target = BattleEvent.objects.filter(battle=battle, seq=seq).first() if isinstance(seq, int) else None
    hidden = (
        target is not None
        and viewer_sides is not None
        and target.visible_to is not None
        and not set(target.visible_to) & set(viewer_sides)
    )
    if target is None or hidden:
        raise RuleInputError({"seq": _("There is no event #{seq} in this battle.").format(seq=seq)})
    if target.cause_id is not None:
        head = target.cause
        raise RuleInputError(
            {"seq": _("Event #{seq} is part of #{seq2}: undo #{seq2} instead.").format(seq=seq, seq2=head.seq)}
        )
    if target.type in NOT_UNDOABLE:
        raise RuleInputError({"seq": _("The start of the battle and players joining cannot be undone.")})
    if target.type in RESULT_EVENTS:
        raise RuleInputError({"seq": _("A result is not undone: dispute it, or propose it again on the board.")})
    if target.type in UNDO_STEPS:
        raise RuleInputError({"seq": _("A proposal to undo is not undone: withdraw or decline it.")})
    if target.seq in undone_heads(battle):
        what = _("Undo") if target.type == "undo" else _("Event")
        raise GameConflict(_("{what} #{seq} was already undone.").format(what=what, seq=seq))
    return target


def _state_without(battle: Battle, target: BattleEvent) -> GameState:
    """The game as it would be with #target undone (the log replayed with one more undo), refused when that is the
    game as it is: an undo must change something."""
    events = list(BattleEvent.objects.filter(battle=battle).order_by("seq"))
    probe = BattleEvent(battle=battle, seq=battle.version + 1, type="undo", payload={"undoes": target.seq})
    try:
        state = replay(battle, events=[*events, probe])
    except ArmlistError:
        raise
    except Exception as exc:  # noqa: BLE001 - a fold meets a log it was never played in (a later event needs #target)
        raise GameConflict(
            _("Later events depend on #{seq}: undo them first, newest first.").format(seq=target.seq)
        ) from exc
    stored = {key: unit_state for key, _side, _profile, unit_state, _name, _kind in rows.units(battle.pk)}
    if _canonical(state.game) == _canonical(battle.state) and all(
        _canonical(state.units[key].state) == _canonical(unit_state) for key, unit_state in stored.items()
    ):
        raise NothingToUndo(
            _(
                "Undoing #{seq} would change nothing in the game (what it did no longer counts), so nothing was recorded."
            ).format(seq=target.seq)
        )
    return state


def _undo_payload(part, battle: Battle, target: BattleEvent, *, public: bool) -> dict:
    """What an undo (or a proposal) says of the command it takes back. Shown to everyone, a hidden command is named
    only as hidden: its content stays with its side."""
    payload = {"undoes": target.seq, "undone_type": target.type}
    if public and target.visible_to is not None:
        return {**payload, "hidden": True, "undone_side": target.side_index}
    return {**payload, "undone_summary": describe_event(part, target, name_maps(battle))}


def _record(battle, user, spec, *, idempotency_key, request_hash, part, undoes=None, state=None) -> CommandResult:
    """Stores one runner event; with `state` (an undo), the replayed state too; else only the version moves."""
    stored = _fingerprints(load_state(battle)) if state is not None else None
    events, version = _store(
        battle, user, [spec], idempotency_key=idempotency_key, request_hash=request_hash, part=part, undoes=undoes
    )
    if state is not None:
        _save_state(battle, state, stored, keys=state.units.keys(), version=version)
    else:
        battle.version = version
        rows.save_progress(battle)
    return CommandResult(battle=battle, events=events)


# Undo by one player ----------------------------------------------------------------------------------------------
def event_undo(*, battle_id, user, expected_version, seq: int, idempotency_key=None, request_hash="") -> CommandResult:
    """Undoes an earlier command (the last one or any before it) with a compensating event. Undoing an undo redoes.
    Any player may undo what no other player has seen revealed or answered since (a correction agreed at the
    table); the log shows who did. A secret command's undo is as secret as the command."""
    with transaction.atomic():
        battle, user_sides, replayed = _locked(battle_id, idempotency_key, user, request_hash, expected_version)
        if replayed is not None:
            return replayed
        _check_version(battle, expected_version)
        part = battle_part(battle.system)
        target = _target(battle, seq, user_sides)
        state = _state_without(battle, target)
        needed, closing = witnesses_of(battle, part, user_sides, target.seq)
        if needed:
            raise UndoNeedsAgreement(
                _(
                    "#{closing} revealed what was hidden or answered a question, and the other player has seen it: "
                    "undoing #{seq} now needs their agreement. Propose the undo; they confirm it on their phone."
                ).format(closing=closing, seq=target.seq)
            )
        spec = NewEvent(
            "undo",
            _undo_payload(part, battle, target, public=False),
            visible_to=tuple(target.visible_to) if target.visible_to else None,
        )
        return _record(
            battle,
            user,
            spec,
            idempotency_key=idempotency_key,
            request_hash=request_hash,
            part=part,
            undoes=target,
            state=state,
        )


# Undo by agreement -----------------------------------------------------------------------------------------------
def _open(battle: Battle, seq) -> BattleEvent:
    row = (
        BattleEvent.objects.filter(battle=battle, seq=seq, type="undo.proposed").first()
        if isinstance(seq, int)
        else None
    )
    if row is None:
        raise RuleInputError({"proposal": _("There is no proposal #{seq} in this battle.").format(seq=seq)})
    current = open_proposal(battle)
    if current is None or current.pk != row.pk:
        raise GameConflict(
            _(
                "Proposal #{seq} is no longer open: the battle went on since. Propose it again if you still want it."
            ).format(seq=seq)
        )
    return row


def undo_propose(
    *, battle_id, user, expected_version, seq: int, idempotency_key=None, request_hash=""
) -> CommandResult:
    """Proposes an undo that needs the other players (a public event): they confirm or decline it on their phones."""
    with transaction.atomic():
        battle, user_sides, replayed = _locked(battle_id, idempotency_key, user, request_hash, expected_version)
        if replayed is not None:
            return replayed
        _check_version(battle, expected_version)
        part = battle_part(battle.system)
        target = _target(battle, seq, user_sides)
        _state_without(battle, target)
        needed, _closing = witnesses_of(battle, part, user_sides, target.seq)
        if not needed:
            raise GameConflict(_("Undoing #{seq} needs nobody's agreement: undo it yourself.").format(seq=target.seq))
        payload = {**_undo_payload(part, battle, target, public=True), "needs": sorted(needed)}
        spec = NewEvent("undo.proposed", payload)
        return _record(battle, user, spec, idempotency_key=idempotency_key, request_hash=request_hash, part=part)


def undo_confirm(
    *, battle_id, user, expected_version, proposal: int, idempotency_key=None, request_hash=""
) -> CommandResult:
    """Agrees to an open proposal for the caller's sides; once every side asked has agreed, the undo is recorded,
    in the open (a hidden command is named only as hidden)."""
    with transaction.atomic():
        battle, user_sides, replayed = _locked(battle_id, idempotency_key, user, request_hash, expected_version)
        if replayed is not None:
            return replayed
        _check_version(battle, expected_version)
        part = battle_part(battle.system)
        row = _open(battle, proposal)
        needs = set(row.payload.get("needs", []))
        agreed = agreed_sides(battle, row)
        mine = set(user_sides) & (needs - agreed)
        if not mine:
            if row.actor_id == user.pk:
                raise GameConflict(_("You proposed this undo: the other player confirms it on their phone."))
            raise GameConflict(_("Your agreement is not asked for this undo, or you have already given it."))
        target_seq = row.payload.get("undoes")
        if needs - agreed - mine:  # other players still to agree
            spec = NewEvent("undo.agreed", {"proposal": row.seq, "undoes": target_seq, "sides": sorted(mine)})
            return _record(battle, user, spec, idempotency_key=idempotency_key, request_hash=request_hash, part=part)
        target = _target(battle, target_seq)
        state = _state_without(battle, target)
        # What both players agreed to, one of them may not take back alone either: the undo is a closing point.
        spec = NewEvent("undo", {**_undo_payload(part, battle, target, public=True), "proposal": row.seq}, closes=True)
        return _record(
            battle,
            user,
            spec,
            idempotency_key=idempotency_key,
            request_hash=request_hash,
            part=part,
            undoes=target,
            state=state,
        )


def undo_decline(
    *, battle_id, user, expected_version, proposal: int, idempotency_key=None, request_hash=""
) -> CommandResult:
    """Declines an open proposal (a player asked to agree) or withdraws it (its proposer): nothing is undone."""
    with transaction.atomic():
        battle, user_sides, replayed = _locked(battle_id, idempotency_key, user, request_hash, expected_version)
        if replayed is not None:
            return replayed
        _check_version(battle, expected_version)
        part = battle_part(battle.system)
        row = _open(battle, proposal)
        withdrawn = row.actor_id == user.pk
        if not withdrawn and not set(user_sides) & set(row.payload.get("needs", [])):
            raise GameConflict(_("This proposal is not yours to decline."))
        payload = {"proposal": row.seq, "undoes": row.payload.get("undoes"), "withdrawn": withdrawn}
        spec = NewEvent("undo.declined", payload)
        return _record(battle, user, spec, idempotency_key=idempotency_key, request_hash=request_hash, part=part)
