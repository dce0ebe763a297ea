"""Pages of results (issue #29): a battle's result proposed, confirmed or disputed from its board; a player's
history; a club's results, ladder per game system, rating history, unit records and exports.

Access is the battle's (players write, spectators read, outsiders 404) and the club's (members read, outsiders 404;
the owner settles disputes)."""

from __future__ import annotations

import csv
import io
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from armies.selectors import club_get_for_user
from battles import selectors as battle_selectors
from battles.results import charts, selectors, services, words
from battles.results.models import GameResult
from config.downloads import attachment
from rules.errors import ArmlistError, NotYours
from rules.registry import all_systems, get_system


def _int(value) -> int | None:
    return int(value) if str(value or "").isdigit() else None


def _back(battle_id: int):
    return redirect(reverse("battles:detail", args=[battle_id]) + "#result-panel")


def _say(request, exc: ArmlistError) -> None:
    text = exc.message
    if exc.errors:
        text = " ".join(str(v) for v in exc.errors.values())
    messages.error(request, text)


@login_required
@require_POST
def result_propose(request, battle_id):
    access = battle_selectors.battle_access(request, battle_id)
    if not access.can_write:
        raise PermissionDenied(_("Only the battle's players confirm its result."))
    outcome = request.POST.get("outcome", "")
    kind, winner, draw = GameResult.Kind.FINAL, None, False
    if outcome == "unfinished":
        kind = GameResult.Kind.UNFINISHED
    elif outcome == "draw":
        kind, draw = GameResult.Kind.AGREED, True
    elif outcome.startswith("side-"):
        kind, winner = GameResult.Kind.AGREED, _int(outcome[5:])
    try:
        services.result_propose(
            battle_id=access.battle_id,
            user=request.user,
            kind=kind,
            winner=winner,
            draw=draw,
            club_id=_int(request.POST.get("club")),
        )
    except ArmlistError as exc:
        _say(request, exc)
    return _back(access.battle_id)


@login_required
@require_POST
def result_vote(request, battle_id):
    access = battle_selectors.battle_access(request, battle_id)
    if not access.can_write:
        raise PermissionDenied(_("Only the battle's players confirm its result."))
    try:
        services.result_vote(
            battle_id=access.battle_id,
            user=request.user,
            choice=request.POST.get("choice", ""),
            reason=request.POST.get("reason", ""),
        )
    except ArmlistError as exc:
        _say(request, exc)
    return _back(access.battle_id)


@login_required
@require_POST
def result_settle(request, result_id):
    result = GameResult.objects.filter(pk=_int(result_id) or 0).select_related("club").first()
    if result is None or result.club_id is None:
        raise Http404(_("No such result."))
    club_get_for_user(request.user, result.club_id)  # outsiders: 404
    outcome = request.POST.get("outcome", "")
    kind, winner, draw = GameResult.Kind.AGREED, None, False
    if outcome == "unfinished":
        kind = GameResult.Kind.UNFINISHED
    elif outcome == "draw":
        draw = True
    else:
        winner = _int(outcome[5:]) if outcome.startswith("side-") else None
    try:
        services.result_settle(
            result_id=result.pk,
            user=request.user,
            kind=kind,
            winner=winner,
            draw=draw,
            note=request.POST.get("note", ""),
        )
    except NotYours as exc:
        raise PermissionDenied(exc.message) from exc
    except ArmlistError as exc:
        _say(request, exc)
    return redirect(reverse("results:club", args=[result.club_id]) + f"?system={result.system}")


@login_required
@require_GET
def my_history(request):
    games = selectors.history_for_player(request.user)
    return render(request, "results/history.html", {"rows": words.history_rows(games, request.user), "title": None})


def _club_system(request, club) -> str:
    systems = [s.slug for s in all_systems() if s.battle is not None]
    wanted = request.GET.get("system", "")
    if wanted in systems:
        return wanted
    played = selectors.club_systems(club)
    return played[0] if played else (systems[0] if systems else "")


@login_required
@require_GET
def club_results(request, club_id):
    club, role = club_get_for_user(request.user, club_id)
    system = _club_system(request, club)
    games = selectors.history_for_club(club, system)
    ladder = selectors.ladder_rows(club, system)
    mine = next((row for row in ladder if row["player"].pk == request.user.pk), None)
    disputed = []
    if role == "owner":
        disputed = list(
            GameResult.objects.filter(club=club, status=GameResult.Status.DISPUTED)
            .select_related("battle")
            .prefetch_related("sides", "votes__user")
        )
    context = {
        "club": club,
        "system": system,
        "system_name": get_system(system).name if system else "",
        "systems": [{"slug": s.slug, "name": s.name} for s in all_systems() if s.battle is not None],
        "ladder": ladder,
        "rows": words.history_rows(games[:50], None),
        "my_chart": charts.rating_chart(mine["history"]) if mine else "",
        "mine": mine,
        "units": selectors.unit_rows(club, system, request.user),
        "disputed": [words.disputed_row(r) for r in disputed],
    }
    return render(request, "results/club.html", context)


@login_required
@require_GET
def club_export(request, club_id, fmt: str):
    club, _role = club_get_for_user(request.user, club_id)
    rows = [words.export_row(r) for r in selectors.history_for_club(club)]
    name = f"club-{club.pk}-results"
    if fmt == "json":
        body = json.dumps({"club": club.name, "results": rows}, ensure_ascii=False, indent=2)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = attachment(f"{name}.json")
        return response
    if fmt != "csv":
        raise Http404(_("No such format."))
    out = io.StringIO()
    columns = list(words.EXPORT_COLUMNS)
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = attachment(f"{name}.csv")
    return response
