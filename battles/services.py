"""Writes of battles. Every change is a command that appends events to the log and updates the stored state.

This module knows no game: the system's battle part (rules/contract/battle.py) answers what a command means.
How a command holds (one place, `command_run`):
- it runs in a transaction holding `select_for_update` on the battle row, so concurrent writers serialize;
- a retried command (same idempotency key) returns the events of the first one and records nothing; the same key
  with a different request is refused;
- the command must name the version it was based on; a stale one raises StaleVersion (HTTP 412) and changes nothing;
- the system's handler turns (state, inputs, dice) into events; they get consecutive seqs after `Battle.version`,
  are folded into the state by the system, and the battle's version becomes the last seq, in the same transaction.
Undo appends an "undo" event naming an earlier command; the state is then rebuilt by replaying the log without
the undone command (and everything it caused), so nothing is deleted and the replay equals the stored state. Undo,
and the two-player undo past a reveal or an answered question, live in battles/undo.py.
"""

from __future__ import annotations

import copy
import hashlib
import json
import secrets
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from battles import rows
from battles.game import (  # the read model (battles/game.py); the writes below use it, callers may find it here
    NEUTRAL_EVENTS,  # noqa: F401
    RESULT_EVENTS,  # noqa: F401
    RUNNER_EVENTS,
    _as_event,
    active_events,  # noqa: F401
    battle_part,
    describe_event,  # noqa: F401
    load_state,
    name_maps,  # noqa: F401
    replay,  # noqa: F401
    replay_matches,  # noqa: F401
    undone_heads,  # noqa: F401
)
from battles.models import Battle, BattleEvent, BattleSide, BattleUnit
from rules import dice as dicelib
from rules.contract import GameState, SideSetup, run_command
from rules.errors import (
    ArmlistError,
    GameConflict,
    IdempotencyKeyReused,
    NotYours,
    PreconditionRequired,
    RuleInputError,
    StaleVersion,
)
from rules.registry import get_system

MAX_SIDES = 6


# The runner's errors are rules.errors' (StaleVersion 412, PreconditionRequired 428, IdempotencyKeyReused 422,
# besides RuleInputError 400, GameConflict 409 and NotYours 403): imported above, one hierarchy for every app.


@dataclass
class CommandResult:
    battle: Battle
    events: list[BattleEvent]
    outcome: dict | None = None
    replayed: bool = False
    notices: list[str] = field(default_factory=list)


def request_fingerprint(operation: str, data: dict) -> str:
    """Stable hash of what a request asks for (not of the version it was based on)."""
    body = {k: v for k, v in (data or {}).items() if k != "version"} if isinstance(data, dict) else data
    raw = json.dumps({"op": operation, "data": body}, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


# Starting a battle --------------------------------------------------------------------------------------------
def battle_create(
    *,
    user,
    name: str,
    rosters: list,
    system_settings: dict | None = None,
    enforce_turns: bool = False,
    mission: str = "",
    my_side: int = 0,
) -> Battle:
    """A battle from two or more rosters the caller may read (checked by the caller via armies.selectors).

    Each roster is snapshotted: its entries and full profiles are copied, so later edits never reach the game.
    The caller controls side `my_side`; every other side gets an invitation token.
    """
    from armies.selectors import roster_for_rules

    if len(rosters) < 2:
        raise RuleInputError({"rosters": _("A battle needs at least two rosters.")})
    if len(rosters) > MAX_SIDES:
        raise RuleInputError(
            {"rosters": _("At most {MAX_SIDES} rosters take part in one battle.").format(MAX_SIDES=MAX_SIDES)}
        )
    systems = {r.system for r in rosters}
    if len(systems) != 1:
        raise RuleInputError({"rosters": _("All rosters must be for the same game system.")})
    system = systems.pop()
    part = battle_part(system)
    if not 0 <= my_side < len(rosters):
        raise RuleInputError(
            {"my_side": _("Pick your side: a number from 0 to {rosters}.").format(rosters=len(rosters) - 1)}
        )
    name = (name or "").strip() or _(" vs ").join(r.name for r in rosters)[:120]  # «Синие против Красных»
    resolved = get_system(system).resolve_settings(system_settings or {})
    settings = {"system": resolved, "enforce_turns": bool(enforce_turns)}
    snapshots = [roster_for_rules(roster) for roster in rosters]
    start = part.start(
        sides=[SideSetup(i, r.name, r.faction, snapshots[i]) for i, r in enumerate(rosters)], settings=settings
    )

    with transaction.atomic():
        battle = Battle.objects.create(
            system=system,
            rules_version=part.rules_version,
            name=name[:120],
            created_by=user,
            settings=settings,
            mission=mission or "",
            spectator_token=new_token(),
            players={str(user.pk): [my_side]},
        )
        sides = {}
        for index, roster in enumerate(rosters):
            sides[index] = BattleSide.objects.create(
                battle=battle,
                index=index,
                name=roster.name[:120],
                faction=roster.faction,
                roster=roster,
                roster_version=getattr(roster, "version", 0) or 0,
                snapshot=snapshots[index],
                player=user if index == my_side else None,
                invite_token=new_token(),
            )
        BattleUnit.objects.bulk_create(
            BattleUnit(
                battle=battle,
                side=sides[u.side],
                key=u.key,
                name=u.name[:160],
                kind=u.kind[:20],
                position=position,
                profile=u.profile,
                entry=u.entry,
                initial_state=u.state,
                state=copy.deepcopy(u.state),
            )
            for position, u in enumerate(start.units)
        )
        payload = {
            "game": start.game,
            "settings": battle.settings,
            "sides": [{"index": i, "name": r.name, "roster": r.pk} for i, r in enumerate(rosters)],
            "mission": battle.mission,
        }
        BattleEvent.objects.create(
            battle=battle,
            seq=1,
            actor=user,
            side_index=my_side,
            type="battle.started",
            payload=payload,
            rules_version=part.rules_version,
        )
        battle.version = 1
        battle.state = start.game
        battle.save(update_fields=["version", "state", "updated_at"])
    return battle


def battle_join(*, token: str, user) -> BattleSide:
    """Takes the side behind an invitation link. Joining twice is harmless; a side someone else holds is refused."""
    with transaction.atomic():
        side = BattleSide.objects.select_related("battle").filter(invite_token=token).first() if token else None
        if side is None:
            raise GameConflict(_("This invitation link does not exist."))
        battle = Battle.objects.select_for_update().get(pk=side.battle_id)
        side.refresh_from_db()
        if side.player_id == user.id:
            return side
        if side.player_id is not None:
            raise GameConflict(_("{name} is already played by someone else.").format(name=side.name))
        side.player = user
        side.save(update_fields=["player"])
        battle.players = {**battle.players, str(user.pk): sorted({*battle.players.get(str(user.pk), []), side.index})}
        seq = battle.version + 1
        BattleEvent.objects.create(
            battle=battle,
            seq=seq,
            actor=user,
            side_index=side.index,
            type="side.joined",
            payload={"side": side.index, "player": user.get_username()},
        )
        battle.version = seq
        battle.save(update_fields=["version", "players", "updated_at"])
    return side


# The command runner -------------------------------------------------------------------------------------------
def _replayed_result(battle: Battle, head: BattleEvent) -> CommandResult:
    related = ("actor", "undoes", "cause")
    head = BattleEvent.objects.select_related(*related).get(pk=head.pk)
    events = [head, *BattleEvent.objects.filter(battle=battle, cause=head).select_related(*related).order_by("seq")]
    return CommandResult(battle=battle, events=events, outcome=head.payload.get("outcome"), replayed=True)


def _locked(
    battle_id, idempotency_key, user, request_hash, expected_version=None, known: Battle | None = None
) -> tuple[Battle, set[int], CommandResult | None]:
    """The battle row under lock, the caller's sides, and the first answer if this is a retry. `known`: the row as
    read before the lock; it is the row still when the version did not move (every change of a battle moves it)."""
    if known is not None and rows.locked_version(known.pk) == known.version:
        battle = known
    else:
        battle = rows.locked_battle(battle_id) if str(battle_id).isdigit() else None
    if battle is None:
        raise GameConflict(_("No such battle."))
    user_sides = battle.sides_of(user)
    if not user_sides:
        raise NotYours(_("Only the battle's players may change it."))
    # A retry is answered before the version check: its first attempt already moved the version on. Looked up once
    # the lock is held, so a copy that waited for the lock while the first one committed sees it.
    # Keys belong to their sender: another player's key is not looked at (it would tell which keys they used).
    earlier_head = rows.earlier_head(battle.pk, user.pk, idempotency_key) if idempotency_key else None
    if earlier_head is not None:
        head = BattleEvent.objects.get(pk=earlier_head)
        if head.request_hash and request_hash and head.request_hash != request_hash:
            raise IdempotencyKeyReused(
                _("You already used this Idempotency-Key for a different request: use a new key for each change.")
            )
        return battle, user_sides, _replayed_result(battle, head)
    if (
        battle.status == Battle.Status.FINISHED
        and BattleEvent.objects.filter(battle=battle, type="result.confirmed").exists()
    ):  # battles/results: both players confirmed the result, which is final
        raise GameConflict(_("The result is confirmed and final: the battle takes no more moves."))
    return battle, user_sides, None


def _check_version(battle: Battle, expected_version: int | None) -> None:
    """428 without a version, 412 with a stale one. (A retry is recognised before this, in `_locked`.)"""
    if expected_version is None:
        raise PreconditionRequired(
            'Say which version this change is based on: an If-Match header with the ETag (e.g. "v12") or a '
            "`version` field."
        )
    if expected_version != battle.version:
        raise StaleVersion(
            battle.version,
            expected_version,
            message=_("The battle is at version {current}; this change was based on version {given}.").format(
                current=battle.version, given=expected_version
            ),
        )


def _rebases(battle: Battle, part, state: GameState, name, inputs, expected_version) -> bool:
    """A write based on an older version still applies when the system says it commutes with every event since
    (two phones tapping different units at once). Never across an undo, which rewrites history."""
    if not isinstance(expected_version, int) or not 0 < expected_version < battle.version:
        return False
    later = list(BattleEvent.objects.filter(battle=battle, seq__gt=expected_version).order_by("seq"))
    if any(row.type in RUNNER_EVENTS and row.type not in NEUTRAL_EVENTS for row in later):
        return False
    since = [_as_event(part, row) for row in later if row.type not in RUNNER_EVENTS]
    return bool(part.commutes(state, name, inputs if isinstance(inputs, dict) else {}, since))


def _store(battle, user, specs, *, idempotency_key, request_hash, part, undoes: BattleEvent | None = None):
    head_side = min(battle.sides_of(user)) if len(battle.sides_of(user)) == 1 else None
    events: list[BattleEvent] = []
    head_event = None
    seq = battle.version
    for i, spec in enumerate(specs):
        seq += 1
        event = BattleEvent(
            battle=battle,
            seq=seq,
            actor=user,
            side_index=spec.side if spec.side is not None else head_side,
            type=spec.type,
            payload=spec.payload,
            dice=spec.dice,
            visible_to=list(spec.visible_to) if spec.visible_to is not None else None,
            rules_version=part.rules_version,
            idempotency_key=(idempotency_key or None) if i == 0 else None,
            request_hash=request_hash if i == 0 else "",
            closes=bool(getattr(spec, "closes", False)),
            cause=head_event,
            undoes=undoes if i == 0 else None,
        )
        if i == 0:
            event.save()
            head_event = event
        events.append(event)
    BattleEvent.objects.bulk_create(events[1:])
    return events, seq


def _fingerprints(state: GameState) -> dict[str, str]:
    """Each unit's state as canonical JSON: what a command is compared with to find the units it changed. A copy
    made before the fold (which may edit a state in place), and cheaper than a deep copy."""
    return {key: _canonical(unit.state) for key, unit in state.units.items()}


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _save_state(battle: Battle, state: GameState, stored: dict[str, str], *, keys, version: int) -> None:
    for key in keys:
        new_state = state.units[key].state
        if stored[key] != _canonical(new_state):
            rows.save_unit_state(battle.pk, key, new_state)
    battle.version = version
    battle.state = state.game
    finished = state.game.get("result") is not None
    battle.status = Battle.Status.FINISHED if finished else Battle.Status.ACTIVE
    rows.save_progress(battle)


@dataclass
class _Prepared:
    """A command worked out before the write lock, on the version the phone saw."""

    battle: Battle
    version: int
    sides: frozenset
    state: GameState
    stored: dict[str, str]
    specs: list
    ctx: object


def _prepare(battle_id, user, name, inputs, dice_source, expected_version) -> _Prepared | None:
    """The command run on the version the phone based it on, outside the write transaction, so the lock is held
    only for the writes (on SQLite the lock is the whole database's: with forty phones, running the rules under it
    made every other write wait; issue #11). None whenever it cannot stand: the version moved, the reads straddled
    a write, or the rules refused (then the locked path answers on the state that counts)."""
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        return None
    battle = rows.battle(battle_id) if str(battle_id).isdigit() else None
    if battle is None or battle.version != expected_version or not battle.sides_of(user):
        return None
    part = battle_part(battle.system)
    state = load_state(battle)
    if rows.battle_version(battle.pk) != expected_version:
        return None  # a write landed between the two reads: the units may be newer than the game
    stored = _fingerprints(state)
    sides = frozenset(battle.sides_of(user))
    try:
        specs, ctx = run_command(
            part, state, name, inputs, sides=sides, next_seq=expected_version + 1, dice_source=dice_source
        )
    except ArmlistError:
        return None
    return _Prepared(battle, expected_version, sides, state, stored, specs, ctx)


def command_run(
    *,
    battle_id,
    user,
    name: str,
    inputs: dict | None = None,
    dice: list | None = None,
    seed: int | None = None,
    expected_version: int | None,
    idempotency_key: str | None = None,
    request_hash: str = "",
) -> CommandResult:
    """Runs one of the system's commands for a player: `dice` are the dice typed in from the table (else the
    server rolls, seeded by `seed` when given)."""
    inputs = inputs if inputs is not None else {}

    def dice_source():
        return dicelib.dice_source(seed=seed, dice=dice)

    prepared = _prepare(battle_id, user, name, copy.deepcopy(inputs), dice_source, expected_version)
    with transaction.atomic():
        known = prepared.battle if prepared is not None else None
        battle, user_sides, replayed = _locked(battle_id, idempotency_key, user, request_hash, expected_version, known)
        if replayed is not None:
            return replayed
        part = battle_part(battle.system)
        if prepared is not None and prepared.version == battle.version and prepared.sides == frozenset(user_sides):
            state, stored, specs, ctx = prepared.state, prepared.stored, prepared.specs, prepared.ctx
        else:
            state = load_state(battle)
            if not _rebases(battle, part, state, name, inputs, expected_version):
                _check_version(battle, expected_version)
            # Before the fold: one that edits a unit's state in place would otherwise leave nothing "changed" to store.
            stored = _fingerprints(state)
            specs, ctx = run_command(
                part,
                state,
                name,
                inputs,
                sides=frozenset(user_sides),
                next_seq=battle.version + 1,
                dice_source=dice_source,
            )
        if ctx.outcome is not None and "outcome" not in specs[0].payload:
            specs[0].payload = {**specs[0].payload, "outcome": ctx.outcome}
        events, seq = _store(battle, user, specs, idempotency_key=idempotency_key, request_hash=request_hash, part=part)
        _save_state(battle, state, stored, keys=state.changed, version=seq)
    return CommandResult(battle=battle, events=events, outcome=ctx.outcome, notices=ctx.notices)
