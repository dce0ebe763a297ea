"""Results on the pages of other apps, through the template only (no app imports this one): the board's result
panel, a club's ladder summary, a roster's record, and real results beside a balance job's simulated odds."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.translation import gettext as _

from battles.results import selectors, words

register = template.Library()


@register.simple_tag
def result_headline(result) -> str:
    return words.headline(result)


@register.simple_tag
def result_margin(result) -> str:
    return words.margin_text(result.summary or {})


@register.simple_tag
def result_sides(result) -> str:
    rows = [
        {
            "name": s.name,
            "player": s.player.get_username() if s.player else "",
            "outcome": words.outcome_label(s.outcome),
            "vp": s.vp,
            "units_lost": s.units_lost,
            "units_total": s.units_total,
            "points_lost": s.points_lost,
        }
        for s in result.sides.all()
    ]
    return render_to_string("results/_sides.html", {"rows": rows})


@register.simple_tag
def proposal_headline(proposal, battle) -> str:
    names = {s["index"]: s["name"] for s in proposal.sides}
    if proposal.winner is None:
        text = _("A draw.")
    else:
        text = _("{winner} won.").format(winner=names.get(proposal.winner, "?"))
    margin = words.margin_text({"margin": proposal.margin, "margin_of": proposal.margin_of})
    return f"{text} {margin}".strip()


@register.simple_tag
def proposal_sides(proposal) -> str:
    rows = [{**s, "player": "", "outcome": ""} for s in proposal.sides]
    return render_to_string("results/_sides.html", {"rows": rows})


@register.simple_tag(takes_context=True)
def club_results_summary(context, club) -> str:
    """The club page's corner: the leaders of each game's ladder and the latest games, with the link to all."""
    request = context.get("request")
    ladders = []
    for system in selectors.club_systems(club):
        rows = selectors.ladder_rows(club, system)[:3]
        if rows:
            ladders.append({"system": system, "name": words.system_name(system), "rows": rows})
    recent = words.history_rows(selectors.history_for_club(club)[:5], getattr(request, "user", None))
    return render_to_string(
        "results/_club_summary.html", {"club": club, "ladders": ladders, "recent": recent}, request=request
    )


@register.simple_tag(takes_context=True)
def roster_record(context, roster) -> str:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    record = selectors.roster_record(user, roster)
    if not record["overall"].games:
        return ""
    return render_to_string("results/_roster_record.html", {"record": record}, request=request)


@register.simple_tag(takes_context=True)
def job_real_record(context, job) -> str:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    found = selectors.real_record_for_job(user, job)
    if not found:
        return ""
    return render_to_string("results/_job_record.html", {"found": found, "job": job}, request=request)


@register.filter
def percent(value) -> str:
    if value is None:
        return "—"
    return format_html("{} %", round(100 * float(value)))
