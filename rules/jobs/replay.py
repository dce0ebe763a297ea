"""The job behind a pack's suggested points (rules/jobs/pricing.py), opened from the builder's link.

The link names the pack and the duel job recorded in it (battles, seed, parameters, settings). A job is a user's
own, so the page opens the viewer's job with exactly that recipe when there is one; otherwise it shows the duel
form filled in with it, and running it gives the numbers in the pack again (the same seed, the same numbers)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from rules.errors import RuleInputError
from rules.jobs import services
from rules.jobs.forms import DuelJobForm
from rules.jobs.sources import source
from rules.jobs.views import _page
from rules.models import BalanceJob
from rules.registry import get_system


def recipe_from_query(query) -> dict:
    """{"pack", "battles", "seed", "params", "settings"} from the link's query; ValueError when it is broken."""
    params = json.loads(query.get("params") or "{}")
    settings = json.loads(query.get("settings") or "{}")
    if not isinstance(params, dict) or not isinstance(settings, dict):
        raise ValueError("params and settings are JSON objects")
    recipe = {k: int(query[k]) for k in ("pack", "battles", "seed")}
    if min(recipe.values()) < 0:
        raise ValueError("negative")
    return {**recipe, "params": params, "settings": settings}


def duel_job_like(user, *, pack_id: int, battles: int, seed: int, params: dict, settings: dict, units: int):
    """The user's newest duel job of every unit of the pack with this recipe (not failed or cancelled), or None."""
    candidates = BalanceJob.objects.filter(
        owner=user, kind=BalanceJob.Kind.DUELS, pack_id=pack_id, battles=battles, seed=seed
    ).exclude(status__in=(BalanceJob.Status.FAILED, BalanceJob.Status.CANCELLED))
    for job in candidates.order_by("-created_at", "-id"):
        if job.params == params and job.settings == settings and len(job.inputs.get("profiles") or []) == units:
            return job
    return None


@login_required
@require_http_methods(["GET", "HEAD"])
def duel_replay(request):
    try:
        recipe = recipe_from_query(request.GET)
    except (KeyError, ValueError, TypeError):
        return HttpResponseBadRequest(_("This link to a balance job is broken: it needs a pack, battles and a seed."))
    pack = source().pack_for_user(request.user, recipe["pack"])  # 404 for a pack the viewer may not read
    try:
        part = services.simulator_for(pack.system, kind=BalanceJob.Kind.DUELS, field="pack")
        params = services._params(part, recipe["params"])
        settings = services._settings(part, pack.system, recipe["settings"])
    except RuleInputError as exc:
        return HttpResponseBadRequest(str(exc))
    units = len(source().pack_profiles(request.user, pack.id))
    job = duel_job_like(request.user, pack_id=pack.id, battles=recipe["battles"], seed=recipe["seed"],
                        params=params, settings=settings, units=units)  # fmt: skip
    if job is not None:
        return redirect("jobs:job", job_id=job.pk)
    system = get_system(pack.system)
    initial = {"pack": pack.id, "battles": recipe["battles"], "seed": recipe["seed"], **recipe["params"]}
    initial.update({f"opt_{k}": v for k, v in recipe["settings"].items()})
    form = DuelJobForm(system=system, packs=source().packs_for_user(request.user, pack.system), initial=initial)
    messages.info(
        request,
        _("Run this job to see how the suggested points of «{pack}» were found: the same seed gives the same numbers.")
        .format(pack=pack.name),
    )  # fmt: skip
    return _page(request, system, duel_form=form)
