"""A roster-against-roster result in a player's words (issue #19, «Balance results in a player's words»): the win
chances, who is stronger by about how many points, and what would even the battle.

The estimate reads the result as analysis.py does (Bradley–Terry): side A's score s gives odds r = s / (1 − s), so A
fights like an army r times as strong as B. If strength grows in step with points, A is worth r × cost_B of B's
points: B would need about cost_B × (r − 1) more points to match it, or A could give up cost_A × (1 − 1/r) of its
own. That is a straight-line guess, good for small gaps; when one side wins nearly every battle it says nothing
useful, and the text says so instead of printing a huge number.
"""

from __future__ import annotations

import math

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

ROUND_TO = 5  # points are quoted to the nearest 5: the simulation is not more precise than that
LOPSIDED = 0.95  # beyond this score (or below 1 − it) the straight-line estimate is meaningless
EVEN = 1.1  # odds within 10 % of 1:1 (a score of about 0.48–0.52): an even battle, as analysis.py's "balanced"


def _points(value: float) -> int:
    return max(ROUND_TO, int(round(value / ROUND_TO)) * ROUND_TO)


def _percent(p: float) -> int:
    return int(round(100 * p))


def title(job) -> str:
    """A job's title in the reader's language: the titles the services make ("Blue vs Red", "Duels: pack (5
    units)") are worded again when shown; a title the player typed is theirs, shown as typed."""
    inputs = job.inputs or {}
    if job.kind == "rosters":
        a, b = (inputs.get(side, {}).get("name") or "" for side in ("side_a", "side_b"))
        if a and b and job.title == f"{a} vs {b}"[:200]:
            return _("{a} against {b}").format(a=a, b=b)
    elif job.kind == "duels":
        pack, n = (inputs.get("pack") or {}).get("name") or "", len(inputs.get("profiles") or [])
        if job.title == f"Duels: {pack} ({n} units)"[:200]:
            return ngettext("Duels: {pack} ({n} unit)", "Duels: {pack} ({n} units)", n).format(pack=pack, n=n)
    return job.title


def roster_reading(result: dict, *, name_a: str, name_b: str) -> dict:
    """What the job page leads with: chances in whole percent, a headline, what would even it, how sure it is."""
    verdict = result.get("verdict") or {}
    if verdict.get("level") == "no_contact" or _never_fought(result):
        return _no_contact_reading(result, name_a=name_a, name_b=name_b)
    score = float(result["score_a"]["p"])
    cost_a, cost_b = float(result.get("cost_a") or 0), float(result.get("cost_b") or 0)
    chances = [
        {"side": "a", "label": _("%(name)s wins") % {"name": name_a}, "percent": _percent(result["win_a"]["p"])},
        {"side": "draw", "label": _("Draw"), "percent": _percent(result["draw"]["p"])},
        {"side": "b", "label": _("%(name)s wins") % {"name": name_b}, "percent": _percent(result["win_b"]["p"])},
    ]
    a_ahead = score >= 0.5
    strong, weak = (name_a, name_b) if a_ahead else (name_b, name_a)
    strong_cost, weak_cost = (cost_a, cost_b) if a_ahead else (cost_b, cost_a)
    edge = max(score, 1 - score)  # the stronger side's expected score
    r = edge / (1 - edge) if edge < 1 else float("inf")
    even_it = ""
    if r <= EVEN:
        headline = _("An even battle: the two armies are about as strong as each other.")
    elif edge >= LOPSIDED:
        headline = _("%(strong)s wins almost every battle: the armies are too far apart to say by how many points.") % {
            "strong": strong
        }
        even_it = _("To even it, change the forces (for example, a smaller %(strong)s) and run the study again.") % {
            "strong": strong
        }
    elif not (cost_a and cost_b):
        headline = _("%(strong)s is the stronger army.") % {"strong": strong}
    else:
        more = _points(weak_cost * (r - 1))
        less = _points(strong_cost * (1 - 1 / r))
        headline = _("%(strong)s is stronger by about %(points)s points.") % {"strong": strong, "points": more}
        even_it = _(
            "To even it, give %(weak)s about %(more)s more points of units, or take about %(less)s points from "
            "%(strong)s."
        ) % {"weak": weak, "more": more, "less": less, "strong": strong}
    fair = {
        "balanced": _("For what each army costs, the points are fair."),
        "acceptable": _("For what each army costs, the points are a little off, but within the usual tolerance."),
        "unbalanced": _(
            "For what each army costs, the points are off: one army gets more for its points than the other."
        ),
    }.get(verdict.get("level"), "")
    sure = (
        _("%(battles)s battles were played; that is enough to be fairly sure of this.")
        if verdict.get("certain", True)
        else _("%(battles)s battles were played; more battles would make this surer.")
    ) % {"battles": result.get("battles", 0)}
    return {
        "chances": chances,
        "headline": headline,
        "even_it": even_it,
        "fair": fair,
        "sure": sure,
        "verdict": verdict_text(verdict) if verdict else "",
    }


def _never_fought(result: dict) -> bool:
    """A result stored before analysis.py named it: every battle a draw, each ending the same way."""
    from rules.jobs.analysis import never_fought

    try:
        n = int(result["battles"])
        surviving = {side: result["surviving"][side] for side in ("a", "b")}
        draws = round(float(result["draw"]["p"]) * n)
    except (KeyError, TypeError, ValueError):
        return False
    return never_fought(draws=draws, battles=n, surviving=surviving)


def _no_contact_reading(result: dict, *, name_a: str, name_b: str) -> dict:
    battles = result.get("battles", 0)
    return {
        "chances": [
            {"side": "a", "label": _("%(name)s wins") % {"name": name_a}, "percent": 0},
            {"side": "draw", "label": _("Draw"), "percent": 100},
            {"side": "b", "label": _("%(name)s wins") % {"name": name_b}, "percent": 0},
        ],
        "headline": _(
            "The armies never harmed each other: each of the %(battles)s battles ended in a draw, and every one "
            "ended the same way."
        )
        % {"battles": battles},
        "even_it": _(
            "So these battles say nothing about whether the points are fair. The warnings below say why the armies "
            "could not fight; change the rosters and run the study again."
        ),
        "fair": "",
        "sure": "",
        "no_contact": True,
        "verdict": verdict_text({"level": "no_contact"}),
    }


def verdict_text(verdict: dict) -> str:
    """The statistics' verdict (analysis.verdict) in the viewer's language: how far side A's or B's odds are from
    what the points ratio predicts, against the book's advice (or Armlist's, when the system states none). Results
    stored before the thresholds were kept in the verdict read with analysis.py's defaults."""
    level = verdict.get("level")
    if level == "no_contact":
        return _("No verdict: the armies never harmed each other, so the battles say nothing about the points.")
    k = verdict.get("k")
    if not isinstance(k, (int, float)) or not math.isfinite(k) or k <= 0:
        return _("Unbalanced: one side has no points to compare.")
    info, warning = verdict.get("info", 10), verdict.get("warning", 20)
    values = {
        "side": _("A") if verdict.get("favoured", "a") != "b" else _("B"),
        "factor": formats.number_format(round(max(k, 1 / k), 2), 2),  # number_format cuts, never rounds
        "info": info,
        "warning": warning,
    }
    book = verdict.get("advice", True)
    if level == "balanced":
        text = (
            _(
                "Balanced: side %(side)s's odds of winning are %(factor)s× what the points ratio predicts, within "
                "%(info)s %% (the book advises armies within %(info)s–%(warning)s %%)."
            )
            if book
            else _(
                "Balanced: side %(side)s's odds of winning are %(factor)s× what the points ratio predicts, within "
                "%(info)s %% (Armlist advises armies within %(info)s–%(warning)s %%)."
            )
        )
    elif level == "acceptable":
        text = (
            _(
                "Acceptable: side %(side)s's odds of winning are %(factor)s× what the points ratio predicts, within "
                "the book's %(warning)s %% but not its %(info)s %%."
            )
            if book
            else _(
                "Acceptable: side %(side)s's odds of winning are %(factor)s× what the points ratio predicts, within "
                "Armlist's %(warning)s %% but not its %(info)s %%."
            )
        )
    else:
        text = (
            _(
                "Unbalanced: side %(side)s's odds of winning are %(factor)s× what the points ratio predicts, outside "
                "the book's %(info)s–%(warning)s %%."
            )
            if book
            else _(
                "Unbalanced: side %(side)s's odds of winning are %(factor)s× what the points ratio predicts, outside "
                "Armlist's %(info)s–%(warning)s %%."
            )
        )
    text %= values
    if not verdict.get("certain", True):
        text += " " + _("More battles would settle it: the %(confidence)s %% interval crosses a threshold.") % {
            "confidence": 95
        }
    return text
