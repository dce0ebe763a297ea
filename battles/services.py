"""Writes of battles. Every change is a command that appends events to the log and updates the projection.

How a command holds (one place, `_run_command`):
- it runs in a transaction holding `select_for_update` on the battle row, so concurrent writers serialize;
- a retried command (same idempotency key) returns the events of the first one and records nothing; the same key
  with a different request is refused;
- the command must name the version it was based on; a stale one raises StaleVersion (HTTP 412) and changes nothing;
- its events get consecutive seqs after `Battle.version`, are folded into the projection by battles.projection, and
  the battle's version becomes the last seq, all in the same transaction.
Undo appends an "undo" event naming an earlier event; the projection is then rebuilt by replaying the log without
the undone command (and everything it caused), so nothing is deleted and the replay equals the stored state.
"""

from __future__ import annotations

import copy
import hashlib
import json
import secrets
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import OuterRef, Subquery

from battles import rules_bridge
from battles.models import Battle, BattleEvent, BattleSide, BattleUnit
from battles.projection import Projection, UnitRecord, initial_game
from rules.systems.base import RuleInputError

MAX_SIDES = 6


# Errors -------------------------------------------------------------------------------------------------------
class BattleInputError(RuleInputError):
    """Input the battle refuses (HTTP 400): unknown unit, a slider out of its scale, a rule broken."""


class BattleConflict(Exception):
    """A command that does not fit the game's state (HTTP 409): out of turn, the battle is over."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class PreconditionRequired(Exception):
    """A write that does not say which version it was based on (HTTP 428)."""


class StaleVersion(Exception):
    """A write based on an older version (HTTP 412). Carries the current version."""

    def __init__(self, current: int, given: int):
        self.current = current
        self.given = given
        super().__init__(f"The battle is at version {current}; this change was based on version {given}.")


class IdempotencyKeyReused(Exception):
    """The same idempotency key sent with a different request (HTTP 422)."""


@dataclass
class CommandResult:
    battle: Battle
    events: list[BattleEvent]
    outcome: dict | None = None
    replayed: bool = False
    notices: list[str] = field(default_factory=list)


@dataclass
class EventSpec:
    type: str
    payload: dict
    dice: list = field(default_factory=list)
    undoes_seq: int | None = None
    side: int | None = None  # the side that acted; defaults to the caller's side when they hold only one


def request_fingerprint(operation: str, data: dict) -> str:
    """Stable hash of what a request asks for (not of the version it was based on)."""
    body = {k: v for k, v in (data or {}).items() if k != "version"}
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
        raise BattleInputError({"rosters": "A battle needs at least two rosters."})
    if len(rosters) > MAX_SIDES:
        raise BattleInputError({"rosters": f"At most {MAX_SIDES} rosters take part in one battle."})
    systems = {r.system for r in rosters}
    if len(systems) != 1:
        raise BattleInputError({"rosters": "All rosters must be for the same game system."})
    system = systems.pop()
    if not 0 <= my_side < len(rosters):
        raise BattleInputError({"my_side": f"Pick your side: a number from 0 to {len(rosters) - 1}."})
    name = (name or "").strip() or " vs ".join(r.name for r in rosters)[:120]
    resolved = rules_bridge.resolve_settings(system, system_settings or {})

    with transaction.atomic():
        battle = Battle.objects.create(
            system=system,
            name=name[:120],
            created_by=user,
            settings={"system": resolved, "enforce_turns": bool(enforce_turns)},
            mission=mission or "",
            spectator_token=new_token(),
            players={str(user.pk): [my_side]},
        )
        units: list[BattleUnit] = []
        for index, roster in enumerate(rosters):
            snapshot = roster_for_rules(roster)
            side = BattleSide.objects.create(
                battle=battle,
                index=index,
                name=roster.name[:120],
                faction=roster.faction,
                roster=roster,
                roster_version=getattr(roster, "version", 0) or 0,
                snapshot=snapshot,
                player=user if index == my_side else None,
                invite_token=new_token(),
            )
            for built in rules_bridge.build_units(system, side_index=index, snapshot=snapshot):
                units.append(
                    BattleUnit(
                        battle=battle,
                        side=side,
                        key=built["key"],
                        name=built["name"][:160],
                        kind=built["kind"],
                        position=len(units),
                        profile=built["profile"],
                        entry=built["entry"],
                        initial_state=built["state"],
                        state=copy.deepcopy(built["state"]),
                    )
                )
        BattleUnit.objects.bulk_create(units)
        sides = list(range(len(rosters)))
        game = initial_game(
            sides=sides,
            units={u.key: u.side.index for u in units},
            names={"sides": {i: r.name for i, r in enumerate(rosters)}, "units": {u.key: u.name for u in units}},
        )
        projection = Projection(
            game=game,
            units={u.key: UnitRecord(u.key, u.side.index, u.profile, u.state) for u in units},
            settings=battle.settings,
        )
        projection.derive()
        payload = {
            "game": projection.game,
            "settings": battle.settings,
            "sides": [{"index": i, "name": r.name, "roster": r.pk} for i, r in enumerate(rosters)],
            "mission": battle.mission,
        }
        BattleEvent.objects.create(
            battle=battle, seq=1, actor=user, side_index=my_side, type="battle.started", payload=payload
        )
        battle.version = 1
        battle.state = projection.game
        battle.save(update_fields=["version", "state", "updated_at"])
    return battle


def battle_join(*, token: str, user) -> BattleSide:
    """Takes the side behind an invitation link. Joining twice is harmless; a side someone else holds is refused."""
    with transaction.atomic():
        side = BattleSide.objects.select_related("battle").filter(invite_token=token).first() if token else None
        if side is None:
            raise BattleConflict("This invitation link does not exist.")
        battle = Battle.objects.select_for_update().get(pk=side.battle_id)
        side.refresh_from_db()
        if side.player_id == user.id:
            return side
        if side.player_id is not None:
            raise BattleConflict(f"{side.name} is already played by someone else.")
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
class CommandContext:
    def __init__(self, *, battle: Battle, user, projection: Projection, user_sides: set[int]):
        self.battle = battle
        self.user = user
        self.projection = projection
        self.user_sides = user_sides
        self.settings = battle.settings
        self.outcome: dict | None = None
        self.notices: list[str] = []

    @property
    def game(self) -> dict:
        return self.projection.game

    def unit(self, key, *, field_name: str = "unit") -> UnitRecord:
        unit = self.projection.units.get(key) if isinstance(key, str) else None
        if unit is None:
            raise BattleInputError({field_name: f"There is no unit {key!r} in this battle."})
        return unit

    def own_unit(self, key, *, field_name: str = "unit") -> UnitRecord:
        """A unit the caller controls (each player controls their own side)."""
        unit = self.unit(key, field_name=field_name)
        owner = self.projection.owner(unit.key)
        if owner not in self.user_sides:
            raise PermissionDenied(f"{rules_bridge.unit_label(unit)} belongs to another player: only they act with it.")
        return unit

    def require_active(self) -> None:
        if self.game.get("result") is not None:
            raise BattleConflict("The battle is over. Undo the last events to play on.")

    def require_turn(self, unit: UnitRecord) -> None:
        """With `enforce_turns`, a unit acts only on its player's turn and only once per round (§3.2)."""
        if not self.settings.get("enforce_turns"):
            return
        game = self.game
        if not game.get("order"):
            raise BattleConflict("Roll initiative and set the player order before units act (turns are enforced).")
        owner = self.projection.owner(unit.key)
        facts = rules_bridge.unit_facts(unit.state, unit.profile, settings=self.settings, round_=game["round"])
        if facts["activated"]:
            raise BattleConflict(f"{rules_bridge.unit_label(unit)} has already acted this round.")
        if not facts["activatable"]:
            raise BattleConflict(f"{rules_bridge.unit_label(unit)} cannot act: {facts['reason'] or 'not activatable'}.")
        if game.get("turn") != owner:
            raise BattleConflict(f"It is not your turn: side {game.get('turn')} acts now (turns are enforced).")
        active = game.get("active_unit")
        if active and active != unit.key and active in self.projection.units:
            other = self.projection.units[active]
            raise BattleConflict(
                f"{rules_bridge.unit_label(other)} is acting: mark it done before another unit acts (turns are enforced)."
            )


def _load_projection(battle: Battle) -> Projection:
    # Only the columns the projection needs: the side's roster snapshot and the initial states stay in the database.
    # No copies: tracker effects return new states, and `battle` is discarded if the command fails.
    rows = (
        BattleUnit.objects.filter(battle=battle)
        .order_by("position")
        .values_list("key", "side__index", "profile", "state")
    )
    units = {key: UnitRecord(key, side, profile, state) for key, side, profile, state in rows}
    return Projection(game=battle.state, units=units, settings=battle.settings)


def _replayed_result(battle: Battle, head: BattleEvent) -> CommandResult:
    related = ("actor", "undoes", "cause")
    head = BattleEvent.objects.select_related(*related).get(pk=head.pk)
    events = [head, *BattleEvent.objects.filter(battle=battle, cause=head).select_related(*related).order_by("seq")]
    return CommandResult(battle=battle, events=events, outcome=head.payload.get("outcome"), replayed=True)


def _run_command(
    *,
    battle_id,
    user,
    expected_version: int | None,
    idempotency_key: str | None,
    request_hash: str,
    handler,
) -> CommandResult:
    with transaction.atomic():
        # One statement: lock the battle row and look the idempotency key up.
        earlier = BattleEvent.objects.filter(battle=OuterRef("pk"), idempotency_key=idempotency_key or None)
        locked = (
            Battle.objects.select_for_update(of=("self",))
            .filter(pk=battle_id)
            .order_by()
            .annotate(earlier_head=Subquery(earlier.order_by().values("pk")[:1]))
        )
        battle = next(iter(locked[:1]), None)
        if battle is None:
            raise BattleConflict("No such battle.")
        user_sides = battle.sides_of(user)
        if not user_sides:
            raise PermissionDenied("Only the battle's players may change it.")
        # A retry is answered before the version check: its first attempt already moved the version on.
        if idempotency_key and battle.earlier_head is not None:
            head = BattleEvent.objects.get(pk=battle.earlier_head)
            if head.actor_id != user.pk or (head.request_hash and request_hash and head.request_hash != request_hash):
                raise IdempotencyKeyReused()
            return _replayed_result(battle, head)
        if expected_version is None:
            raise PreconditionRequired()
        if expected_version != battle.version:
            raise StaleVersion(battle.version, expected_version)
        projection = _load_projection(battle)
        stored = {k: u.state for k, u in projection.units.items()}
        ctx = CommandContext(battle=battle, user=user, projection=projection, user_sides=user_sides)
        specs: list[EventSpec] = handler(ctx)
        if not specs:
            raise BattleInputError("Nothing to record.")

        head_side = min(user_sides) if len(user_sides) == 1 else None
        events: list[BattleEvent] = []
        seq = battle.version
        head_event = None
        rebuild = False
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
                idempotency_key=(idempotency_key or None) if i == 0 else None,
                request_hash=request_hash if i == 0 else "",
                cause=head_event,
            )
            if spec.undoes_seq is not None:
                event.undoes = BattleEvent.objects.get(battle=battle, seq=spec.undoes_seq)
                rebuild = True
            else:
                projection.apply(spec.type, spec.payload)
            if i == 0:
                head_event = event
                if ctx.outcome is not None:
                    event.payload = {**event.payload, "outcome": ctx.outcome}
                event.save()
            events.append(event)
        BattleEvent.objects.bulk_create(events[1:])

        if rebuild:
            projection = replay(battle)
        for key in projection.units if rebuild else projection.changed:
            new_state = projection.units[key].state
            if stored[key] != new_state:
                BattleUnit.objects.filter(battle=battle, key=key).update(state=new_state)
        battle.version = seq
        battle.state = projection.game
        finished = projection.game.get("result") is not None
        battle.status = Battle.Status.FINISHED if finished else Battle.Status.ACTIVE
        battle.save(update_fields=["version", "state", "status", "updated_at"])
    return CommandResult(battle=battle, events=events, outcome=ctx.outcome, notices=ctx.notices)


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


def undone_heads(battle: Battle) -> set[int]:
    """Seqs of the commands whose effect is cancelled now (an undo undone by a later undo is among them). Reads
    only the undo events, so it stays cheap however long the log grows."""
    undos = BattleEvent.objects.filter(battle=battle, type="undo").order_by("-seq").values_list("seq", "payload")
    undone: set[int] = set()
    for seq, payload in undos:
        if seq not in undone:
            undone.add(payload.get("undoes"))
    return undone


def replay(battle: Battle, *, events: list[BattleEvent] | None = None) -> Projection:
    """Folds the log from each unit's initial state: what the stored state must equal."""
    if events is None:
        events = list(BattleEvent.objects.filter(battle=battle).order_by("seq"))
    rows = (
        BattleUnit.objects.filter(battle=battle)
        .order_by("position")
        .values_list("key", "side__index", "profile", "initial_state")
    )
    units = {key: UnitRecord(key, side, profile, initial) for key, side, profile, initial in rows}
    projection = Projection(game={}, units=units, settings=battle.settings)
    for event in active_events(events):
        projection.apply(event.type, event.payload)
    return projection


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
    projection = replay(battle, events=events)
    if projection.game != battle.state:
        return False, f"game state differs: stored {battle.state!r} replayed {projection.game!r}"
    for unit in BattleUnit.objects.filter(battle=battle):
        if projection.units[unit.key].state != unit.state:
            return (
                False,
                f"unit {unit.key} differs: stored {unit.state!r} replayed {projection.units[unit.key].state!r}",
            )
    return True, ""


# Commands -----------------------------------------------------------------------------------------------------
def round_start(*, battle_id, user, expected_version, idempotency_key=None, request_hash="") -> CommandResult:
    """Starts the next round: per-round flags are cleared (panic recovers, §3.4.1) and initiative is due (§1.6)."""

    def handler(ctx: CommandContext) -> list[EventSpec]:
        ctx.require_active()
        game = ctx.game
        if ctx.settings.get("enforce_turns") and not game.get("round_over"):
            waiting = ", ".join(f"side {s}: {n}" for s, n in game.get("pending", {}).items() if n)
            raise BattleConflict(f"Units still have to act this round ({waiting}); turns are enforced.")
        round_ = game["round"] + 1
        apply = [{"unit": k, "effect": rules_bridge.new_round_effect(round_)} for k in ctx.projection.units]
        return [EventSpec("round.started", {"round": round_, "apply": apply})]

    return _run_command(
        battle_id=battle_id,
        user=user,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        handler=handler,
    )


def initiative_roll(
    *, battle_id, user, expected_version, idempotency_key=None, request_hash="", dice: list | None = None, seed=None
) -> CommandResult:
    """Every player rolls d12; the highest wins; ties re-roll (§3.1, setting `initiative_reroll`).

    `dice`: the d12s rolled at the table, in side order for the first roll, then for each re-roll.
    """

    def handler(ctx: CommandContext) -> list[EventSpec]:
        ctx.require_active()
        if ctx.game.get("initiative"):
            raise BattleConflict("Initiative was already rolled this round.")
        contenders = [s for s in ctx.game["sides"] if s not in ctx.game.get("eliminated", [])]
        names = dict(BattleSide.objects.filter(battle=ctx.battle).values_list("index", "name"))
        rolls, winner, dice_list, steps = rules_bridge.roll_initiative(
            ctx.battle.system, contenders, names=names, settings=ctx.settings, dice=dice, seed=seed
        )
        summary = f"{names.get(winner, winner)} wins the initiative and sets the order of play."
        ctx.outcome = {"summary": summary, "rolls": rolls, "winner": winner, "steps": steps, "dice": dice_list}
        return [EventSpec("initiative.rolled", {"rolls": rolls, "winner": winner}, dice=dice_list)]

    return _run_command(
        battle_id=battle_id,
        user=user,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        handler=handler,
    )


def order_set(
    *, battle_id, user, expected_version, order: list, idempotency_key=None, request_hash=""
) -> CommandResult:
    """The initiative winner decides the order in which players act this round (§1.6)."""

    def handler(ctx: CommandContext) -> list[EventSpec]:
        ctx.require_active()
        game = ctx.game
        initiative = game.get("initiative")
        if initiative is None:
            raise BattleConflict("Roll initiative first: its winner decides the order.")
        if initiative["winner"] not in ctx.user_sides:
            raise PermissionDenied("Only the initiative winner decides the order.")
        standing = [s for s in game["sides"] if s not in game.get("eliminated", [])]
        if not isinstance(order, list) or sorted(order) != sorted(standing) or len(set(order)) != len(order):
            raise BattleInputError({"order": f"List every side still in play exactly once: {standing}."})
        return [EventSpec("order.set", {"order": order})]

    return _run_command(
        battle_id=battle_id,
        user=user,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        handler=handler,
    )


def unit_done(*, battle_id, user, expected_version, unit: str, idempotency_key=None, request_hash="") -> CommandResult:
    """Marks a unit as done for the round: its Armlist is turned (§1.6)."""

    def handler(ctx: CommandContext) -> list[EventSpec]:
        ctx.require_active()
        record = ctx.own_unit(unit)
        if record.state.get("kind") == "gun":
            raise BattleInputError({"unit": "A gun is not a unit: it fires during its crew's activation (p.5)."})
        ctx.require_turn(record)
        facts = rules_bridge.unit_facts(record.state, record.profile, settings=ctx.settings, round_=ctx.game["round"])
        if facts["activated"]:
            raise BattleConflict(f"{rules_bridge.unit_label(record)} is already marked done this round.")
        effect = rules_bridge.done_effect()
        return [EventSpec("unit.done", {"unit": record.key, "apply": [{"unit": record.key, "effect": effect}]})]

    return _run_command(
        battle_id=battle_id,
        user=user,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        handler=handler,
    )


def unit_adjust(
    *,
    battle_id,
    user,
    expected_version,
    unit: str,
    changes: dict,
    note: str = "",
    idempotency_key=None,
    request_hash="",
) -> CommandResult:
    """A change by hand (a ruling, a correction): slider positions, soldiers, pilot, flags. Checked against the
    unit's scales; recorded as an event like everything else."""

    def handler(ctx: CommandContext) -> list[EventSpec]:
        record = ctx.own_unit(unit)
        effects = rules_bridge.adjust_effects(record.state, record.profile, changes)
        if not effects:
            raise BattleInputError({"changes": "These values are already set: nothing to change."})
        payload = {
            "unit": record.key,
            "changes": changes,
            "note": (note or "")[:500],
            "apply": [{"unit": record.key, "effect": e} for e in effects],
        }
        return [EventSpec("unit.adjusted", payload)]

    return _run_command(
        battle_id=battle_id,
        user=user,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        handler=handler,
    )


def action_resolve(
    *,
    battle_id,
    user,
    expected_version,
    action: str,
    inputs: dict,
    dice: list | None = None,
    seed: int | None = None,
    idempotency_key=None,
    request_hash="",
) -> CommandResult:
    """Resolves one of the book's tests from the tracker (shot, melee, grenade, repair, capture…): the server rolls
    (or uses the dice typed in), records every die, and applies the outcome as events, one per effect."""

    def handler(ctx: CommandContext) -> list[EventSpec]:
        ctx.require_active()
        resolved = rules_bridge.resolve_action(ctx, action=action, inputs=inputs, dice=dice, seed=seed)
        ctx.outcome = resolved.outcome
        ctx.notices.extend(resolved.notices)
        head = EventSpec(
            "action.resolved",
            {
                "action": action,
                "inputs": resolved.inputs,
                "units": resolved.roles,
                "by": resolved.by,
                "summary": resolved.outcome.get("summary", ""),
                "actor_unit": resolved.actor_unit,
            },
            dice=resolved.outcome.get("dice", []),
        )
        children = [
            EventSpec(rules_bridge.effect_event_type(item["effect"]), {"unit": item["unit"], "apply": [item]})
            for item in resolved.effects
        ]
        return [head, *children]

    return _run_command(
        battle_id=battle_id,
        user=user,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        handler=handler,
    )


def event_undo(*, battle_id, user, expected_version, seq: int, idempotency_key=None, request_hash="") -> CommandResult:
    """Undoes an earlier command (the last one or any before it) with a compensating event. Undoing an undo redoes.
    Any player may undo (a correction agreed at the table); the log shows who did."""

    def handler(ctx: CommandContext) -> list[EventSpec]:
        target = BattleEvent.objects.filter(battle=ctx.battle, seq=seq).first() if isinstance(seq, int) else None
        if target is None:
            raise BattleInputError({"seq": f"There is no event #{seq} in this battle."})
        if target.cause_id is not None:
            head = target.cause
            raise BattleInputError({"seq": f"Event #{seq} is part of #{head.seq}: undo #{head.seq} instead."})
        if target.type in ("battle.started", "side.joined"):
            raise BattleInputError({"seq": "The start of the battle and players joining cannot be undone."})
        if target.seq in undone_heads(ctx.battle):
            what = "Undo" if target.type == "undo" else "Event"
            raise BattleConflict(f"{what} #{seq} was already undone.")
        payload = {"undoes": target.seq, "undone_type": target.type, "undone_summary": describe_event(target)}
        return [EventSpec("undo", payload, undoes_seq=target.seq)]

    return _run_command(
        battle_id=battle_id,
        user=user,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        handler=handler,
    )


def mission_complete(
    *, battle_id, user, expected_version, side: int, note: str = "", idempotency_key=None, request_hash=""
) -> CommandResult:
    """A player declares that a side completed the mission (§1.7): the game ends with that side as the winner."""

    def handler(ctx: CommandContext) -> list[EventSpec]:
        ctx.require_active()
        if side not in ctx.game["sides"]:
            raise BattleInputError({"side": f"There is no side {side!r}."})
        if side in ctx.game.get("eliminated", []):
            raise BattleInputError({"side": "That side has no soldiers left."})
        return [EventSpec("mission.completed", {"side": side, "note": (note or "")[:500]})]

    return _run_command(
        battle_id=battle_id,
        user=user,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        handler=handler,
    )


# Readable log -------------------------------------------------------------------------------------------------
def describe_event(
    event: BattleEvent, *, units: dict[str, str] | None = None, sides: dict[int, str] | None = None
) -> str:
    """One line of the history, in plain words."""
    return rules_bridge.describe_event(event.type, event.payload, units=units or {}, sides=sides or {})
