"""Writes of results (issue #29): a player proposes the result (the system's, when the game is over; or the players
end it: a winner they name, or unfinished), every player confirms or disputes it with a reason, the club's owner
settles a dispute. Each step is a runner event of the battle (so both phones see it at once, and the log keeps it);
the GameResult row is what histories and ladders read.

A confirmed result is final: it cannot be confirmed again, changed or disputed (409, nothing changed), and the
battle takes no more commands. A proposal that the game moved past (an undo, another move) is stale: it is proposed
again, and the votes start over.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.models import Battle, BattleEvent, BattleSide
from battles.results import selectors
from battles.results.models import GameResult, ResultSide, ResultVote
from rules.errors import GameConflict, NotYours, RuleInputError

MAX_REASON = 1000


def _locked(battle_id: int) -> Battle:
    return Battle.objects.select_for_update().get(pk=battle_id)


def _append(battle: Battle, user, side_index, type_: str, payload: dict) -> BattleEvent:
    seq = battle.version + 1
    event = BattleEvent.objects.create(
        battle=battle, seq=seq, actor=user, side_index=side_index, type=type_, payload=payload
    )
    battle.version = seq
    battle.save(update_fields=["version", "status", "updated_at"])
    return event


def _player_side(battle: Battle, user) -> int:
    sides = battle.sides_of(user)
    if not sides:
        raise NotYours(_("Only the battle's players confirm its result."))
    return min(sides)


def _players(battle: Battle) -> set[int]:
    return {p for p in BattleSide.objects.filter(battle=battle).values_list("player_id", flat=True) if p}


def _outcome(index: int, winner: int | None, draw: bool, kind: str) -> str:
    if kind == GameResult.Kind.UNFINISHED:
        return ResultSide.Outcome.NONE
    if draw or winner is None:
        return ResultSide.Outcome.DRAW
    return ResultSide.Outcome.WIN if index == winner else ResultSide.Outcome.LOSS


@transaction.atomic
def result_propose(
    *, battle_id: int, user, kind: str, winner: int | None = None, draw: bool = False, club_id: int | None = None
) -> GameResult:
    """A player proposes the result. `final`: the system's own, when it says the game is over; `agreed`: the
    players end it with the winner named here (or a draw); `unfinished`: it counts for nothing. The proposer's own
    vote is a confirmation."""
    battle = _locked(battle_id)
    side_index = _player_side(battle, user)
    existing = GameResult.objects.filter(battle=battle).first()
    if existing is not None and existing.status == GameResult.Status.CONFIRMED:
        raise GameConflict(_("The result is confirmed and final: it cannot be changed."))
    if kind not in GameResult.Kind.values:
        raise RuleInputError({"kind": _("Choose how the game ended.")})
    computed = selectors.proposal(battle)
    sides = list(BattleSide.objects.filter(battle=battle).order_by("index"))
    indexes = {s.index for s in sides}
    if kind == GameResult.Kind.FINAL:
        if not computed.over:
            raise GameConflict(_("The game is not over yet: play on, or end it here with a winner or as unfinished."))
        winner, draw = computed.winner, computed.draw
    elif kind == GameResult.Kind.AGREED:
        if draw:
            winner = None
        elif winner not in indexes:
            raise RuleInputError({"winner": _("Choose the side that won, or a draw.")})
    else:
        winner, draw = None, False
    clubs = {c.pk: c for c in selectors.common_clubs(battle)}
    if club_id is not None and club_id not in clubs:
        raise RuleInputError({"club": _("Choose a club every player of this battle belongs to.")})
    club = clubs.get(club_id) if club_id is not None else (next(iter(clubs.values())) if len(clubs) == 1 else None)
    now = timezone.now()
    if existing is not None:
        existing.delete()  # a proposal is replaced whole: its sides and votes start over
    result = GameResult.objects.create(
        battle=battle,
        system=battle.system,
        club=club,
        kind=kind,
        winner=winner,
        draw=bool(draw) and kind != GameResult.Kind.UNFINISHED,
        summary={"reason": computed.reason, "margin": computed.margin, "margin_of": computed.margin_of},
        battle_version=battle.version + 1,  # the proposal's own event
        proposed_by=user,
        proposed_at=now,
    )
    figures = {row["index"]: row for row in computed.sides}
    ResultSide.objects.bulk_create(
        ResultSide(
            result=result,
            index=s.index,
            name=s.name,
            player=s.player,
            roster=s.roster,
            roster_version=s.roster_version,
            faction=s.faction,
            units=[
                {
                    "slug": e.get("profile", {}).get("slug", ""),
                    "name": e.get("profile", {}).get("name", ""),
                    "count": e.get("count", 1),
                    "cost": e.get("profile", {}).get("cost"),
                }
                for e in (s.snapshot or {}).get("entries", [])
            ],  # fmt: skip
            outcome=_outcome(s.index, winner, result.draw, kind),
            points=figures.get(s.index, {}).get("points", 0),
            points_lost=figures.get(s.index, {}).get("points_lost", 0),
            units_total=figures.get(s.index, {}).get("units_total", 0),
            units_lost=figures.get(s.index, {}).get("units_lost", 0),
            vp=figures.get(s.index, {}).get("vp"),
        )
        for s in sides
    )
    ResultVote.objects.create(result=result, user=user, choice=ResultVote.Choice.CONFIRM, at=now)
    payload = {"kind": kind, "winner": winner, "draw": result.draw, "club": club.pk if club else None}
    _append(battle, user, side_index, "result.proposed", payload)
    _maybe_confirm(result, battle, now)
    return result


@transaction.atomic
def result_vote(*, battle_id: int, user, choice: str, reason: str = "") -> GameResult:
    """A player confirms the proposal, or disputes it with a reason. When every player has confirmed, the result
    is final."""
    battle = _locked(battle_id)
    side_index = _player_side(battle, user)
    result = GameResult.objects.select_for_update().filter(battle=battle).first()
    if result is None:
        raise GameConflict(_("No result has been proposed yet."))
    if result.status == GameResult.Status.CONFIRMED:
        raise GameConflict(_("The result is confirmed and final: it cannot be changed."))
    if selectors.stale(result, battle):
        raise GameConflict(_("The game went on after this result was proposed: propose it again."))
    reason = (reason or "").strip()
    if choice not in ResultVote.Choice.values:
        raise RuleInputError({"choice": _("Confirm or dispute the result.")})
    if choice == ResultVote.Choice.DISPUTE and not reason:
        raise RuleInputError({"reason": _("Say why you dispute the result.")})
    if len(reason) > MAX_REASON:
        raise RuleInputError({"reason": _("At most {n} characters.").format(n=MAX_REASON)})
    vote = ResultVote.objects.filter(result=result, user=user).first()
    if vote is not None and vote.choice == choice == ResultVote.Choice.CONFIRM:
        raise GameConflict(_("You have already confirmed this result."))
    now = timezone.now()
    ResultVote.objects.update_or_create(
        result=result, user=user, defaults={"choice": choice, "reason": reason, "at": now}
    )
    if choice == ResultVote.Choice.DISPUTE:
        result.status = GameResult.Status.DISPUTED
        result.save(update_fields=["status"])
    _append(battle, user, side_index, "result.voted", {"choice": choice, "reason": reason})
    _maybe_confirm(result, battle, now)
    return result


def _maybe_confirm(result: GameResult, battle: Battle, now) -> None:
    confirmed = set(
        ResultVote.objects.filter(result=result, choice=ResultVote.Choice.CONFIRM).values_list("user_id", flat=True)
    )
    players = _players(battle)
    if players and players <= confirmed:
        _confirm(result, battle, now)
    elif (
        result.status == GameResult.Status.DISPUTED
        and not ResultVote.objects.filter(result=result, choice=ResultVote.Choice.DISPUTE).exists()
    ):
        result.status = GameResult.Status.PROPOSED
        result.save(update_fields=["status"])


def _confirm(result: GameResult, battle: Battle, now) -> None:
    """Final: the battle takes no more commands (battles.services checks for this event)."""
    result.status = GameResult.Status.CONFIRMED
    result.confirmed_at = now
    result.save(update_fields=["status", "confirmed_at", "winner", "draw", "kind", "settled_by", "settle_note"])
    battle.status = Battle.Status.FINISHED
    payload = {"kind": result.kind, "winner": result.winner, "draw": result.draw}
    _append(battle, None, None, "result.confirmed", payload)


@transaction.atomic
def result_settle(
    *, result_id: int, user, kind: str, winner: int | None = None, draw: bool = False, note: str = ""
) -> GameResult:
    """The club's owner settles a disputed result: the outcome they rule, with a note; it is then final."""
    result = GameResult.objects.select_for_update().filter(pk=result_id).first()
    if result is None or not selectors.can_settle(user, result):
        raise NotYours(_("Only the owner of the club the result counts for settles a dispute."))
    if result.status != GameResult.Status.DISPUTED:
        raise GameConflict(_("Only a disputed result is settled; this one is not disputed."))
    battle = _locked(result.battle_id)
    sides = list(result.sides.all())
    if kind == GameResult.Kind.UNFINISHED:
        winner, draw = None, False
    elif draw:
        winner = None
    elif winner not in {s.index for s in sides}:
        raise RuleInputError({"winner": _("Choose the side that won, or a draw.")})
    if kind not in GameResult.Kind.values:
        raise RuleInputError({"kind": _("Choose how the game ended.")})
    note = (note or "").strip()[:MAX_REASON]
    result.kind, result.winner, result.draw = kind, winner, bool(draw)
    result.settled_by, result.settle_note = user, note
    for s in sides:
        s.outcome = _outcome(s.index, winner, result.draw, kind)
    ResultSide.objects.bulk_update(sides, ["outcome"])
    _append(battle, user, None, "result.settled", {"kind": kind, "winner": winner, "draw": result.draw, "note": note})
    _confirm(result, battle, timezone.now())
    return result
