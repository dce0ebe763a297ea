"""Results as a player reads them, in the reader's language: a game's line in a history, the proposal on the board,
and the flat rows of the exports."""

from __future__ import annotations

from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _

from battles.results.models import GameResult, ResultSide
from rules.registry import get_system

EXPORT_COLUMNS = (
    "date", "system", "battle", "kind", "winner", "margin", "margin_of",
    "side_a", "player_a", "roster_a", "roster_version_a", "outcome_a", "vp_a", "points_a", "points_lost_a",
    "side_b", "player_b", "roster_b", "roster_version_b", "outcome_b", "vp_b", "points_b", "points_lost_b",
)  # fmt: skip


def outcome_label(outcome: str) -> str:
    return {
        ResultSide.Outcome.WIN: _("win"),
        ResultSide.Outcome.DRAW: _("draw"),
        ResultSide.Outcome.LOSS: _("loss"),
    }.get(outcome, _("no result"))


def headline(result: GameResult) -> str:
    """Who won, as the log and the history say it."""
    sides = {s.index: s for s in result.sides.all()}
    if result.kind == GameResult.Kind.UNFINISHED:
        return _("Unfinished: the game counts for nothing.")
    if result.draw or result.winner is None:
        return _("A draw.")
    winner = sides.get(result.winner)
    name = side_name(winner) if winner else "?"
    return _("{winner} won.").format(winner=name)


def side_name(side) -> str:
    player = side.player.get_username() if getattr(side, "player", None) else ""
    return f"{side.name} ({player})" if player else side.name


def margin_text(summary: dict) -> str:
    margin, of = summary.get("margin"), summary.get("margin_of")
    if margin is None:
        return ""
    value = formats.number_format(round(float(margin), 1), decimal_pos=None)
    if of == "vp":
        return _("by {n} victory points").format(n=value)
    return _("by {n} points of units destroyed").format(n=value)


def history_rows(results, user) -> list[dict]:
    rows = []
    for r in results:
        sides = list(r.sides.all())
        mine = next((s for s in sides if user is not None and s.player_id == user.pk), None)
        rows.append(
            {
                "result": r,
                "date": r.confirmed_at,
                "system": system_name(r.system),
                "headline": headline(r),
                "margin": margin_text(r.summary or {}),
                "sides": [
                    {
                        "name": s.name,
                        "player": s.player.get_username() if s.player else "",
                        "roster": s.roster,
                        "roster_version": s.roster_version,
                        "outcome": outcome_label(s.outcome),
                        "outcome_code": s.outcome,
                        "vp": s.vp,
                        "units_lost": s.units_lost,
                        "units_total": s.units_total,
                        "points_lost": s.points_lost,
                    }
                    for s in sides
                ],
                "mine": outcome_label(mine.outcome) if mine else "",
                "mine_code": mine.outcome if mine else "",
                "log_url": reverse("battles:log", args=[r.battle_id]),
                "club": r.club,
            }
        )
    return rows


def disputed_row(result: GameResult) -> dict:
    return {
        "result": result,
        "headline": headline(result),
        "sides": list(result.sides.all()),
        "reasons": [
            {"player": v.user.get_username(), "reason": v.reason} for v in result.votes.all() if v.choice == "dispute"
        ],
        "log_url": reverse("battles:log", args=[result.battle_id]),
    }


def export_row(result: GameResult) -> dict:
    """One confirmed game as a flat row (CSV and JSON exports): codes and numbers, the same in every language."""
    row = {
        "date": result.confirmed_at.isoformat() if result.confirmed_at else "",
        "system": result.system,
        "battle": result.battle_id,
        "kind": result.kind,
        "winner": "draw" if result.draw else ("" if result.winner is None else result.winner),
        "margin": (result.summary or {}).get("margin"),
        "margin_of": (result.summary or {}).get("margin_of", ""),
    }
    for side, letter in zip(list(result.sides.all())[:2], "ab", strict=False):
        row.update(
            {
                f"side_{letter}": side.name,
                f"player_{letter}": side.player.get_username() if side.player else "",
                f"roster_{letter}": side.roster_id or "",
                f"roster_version_{letter}": side.roster_version,
                f"outcome_{letter}": side.outcome,
                f"vp_{letter}": side.vp,
                f"points_{letter}": side.points,
                f"points_lost_{letter}": side.points_lost,
            }
        )
    return row


def system_name(slug: str) -> str:
    try:
        return get_system(slug).name
    except Exception:  # noqa: BLE001 (a system no longer installed: its slug)
        return slug
