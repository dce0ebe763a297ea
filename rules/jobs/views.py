"""Pages of the balance jobs: the list with the two submission forms, one job's page, and the downloads.
Thin: reads through selectors, writes through services; jobs of other users are 404."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from armies.selectors import packs_for_system, roster_list_for_user
from config.api import BrokerUnavailable
from rules.jobs import analysis, selectors, services
from rules.jobs.forms import DuelJobForm, RosterJobForm
from rules.models import BalanceJob
from rules.systems.base import RuleInputError
from rules.systems.bronepekhota import simulate
from rules.systems.bronepekhota.settings import SETTINGS_BY_KEY


def _forms(request, roster_form=None, duel_form=None):
    rosters = [r for r in roster_list_for_user(request.user) if r.system == services.SYSTEM]
    packs = list(packs_for_system(request.user, services.SYSTEM))
    return (
        roster_form or RosterJobForm(rosters=rosters),
        duel_form or DuelJobForm(packs=packs),
        rosters,
        packs,
    )


def _page(request, roster_form=None, duel_form=None, status=200):
    roster_form, duel_form, rosters, packs = _forms(request, roster_form, duel_form)
    jobs = selectors.job_list_for_user(request.user)[:100]
    return render(
        request,
        "rules/jobs.html",
        {"jobs": jobs, "roster_form": roster_form, "duel_form": duel_form, "rosters": rosters, "packs": packs},
        status=status,
    )


def _apply_errors(form, exc: RuleInputError) -> None:
    for field, message in exc.errors.items():
        name = field.split(".", 1)[-1] if field.startswith("params.") else field
        if field.startswith("settings."):
            name = f"opt_{field.split('.', 1)[1]}"
        form.add_error(name if name in form.fields else None, message)


@login_required
def jobs_page(request):
    return _page(request)


@login_required
@require_POST
def roster_job_submit(request):
    rosters = [r for r in roster_list_for_user(request.user) if r.system == services.SYSTEM]
    form = RosterJobForm(request.POST, rosters=rosters)
    if form.is_valid():
        try:
            job = services.balance_job_submit_rosters(
                user=request.user,
                roster_a_id=form.cleaned_data["roster_a"],
                roster_b_id=form.cleaned_data["roster_b"],
                battles=form.cleaned_data["battles"],
                params=form.params(),
                settings=form.settings(),
                seed=form.cleaned_data["seed"],
            )
        except RuleInputError as exc:
            _apply_errors(form, exc)
        except BrokerUnavailable as exc:
            form.add_error(None, str(exc.detail))
            return _page(request, roster_form=form, status=503)
        else:
            return redirect("jobs:job", job_id=job.pk)
    return _page(request, roster_form=form, status=400)


@login_required
@require_POST
def duel_job_submit(request):
    form = DuelJobForm(request.POST, packs=list(packs_for_system(request.user, services.SYSTEM)))
    if form.is_valid():
        try:
            job = services.balance_job_submit_duels(
                user=request.user,
                pack_id=form.cleaned_data["pack"],
                profiles=form.profile_slugs(),
                battles=form.cleaned_data["battles"],
                params=form.params(),
                settings=form.settings(),
                seed=form.cleaned_data["seed"],
            )
        except RuleInputError as exc:
            _apply_errors(form, exc)
        except BrokerUnavailable as exc:
            form.add_error(None, str(exc.detail))
            return _page(request, duel_form=form, status=503)
        else:
            return redirect("jobs:job", job_id=job.pk)
    return _page(request, duel_form=form, status=400)


@login_required
@require_http_methods(["GET", "HEAD"])
def job_page(request, job_id: int):
    job = selectors.job_get_for_user(request.user, job_id)
    changed = [
        {"label": SETTINGS_BY_KEY[k].label, "value": v, "source": SETTINGS_BY_KEY[k].source}
        for k, v in job.settings.items()
        if k in SETTINGS_BY_KEY and v != SETTINGS_BY_KEY[k].default
    ]
    ignored = [
        {"label": SETTINGS_BY_KEY[k].label, "why": why}
        for k, why in simulate.IGNORED_SETTINGS.items()
        if k in SETTINGS_BY_KEY and job.settings.get(k) != SETTINGS_BY_KEY[k].default
    ]
    context = {
        "job": job,
        "progress": selectors.job_progress(job),
        "changed_settings": changed,
        "ignored_settings": ignored,
        "model": simulate.MODEL_DESCRIPTION,
        "method": analysis.__doc__,
        "chart_data": {
            "kind": job.kind,
            "result": job.result,
            "sides": [job.inputs.get("side_a", {}).get("name"), job.inputs.get("side_b", {}).get("name")],
        },
    }
    return render(request, "rules/jobs_detail.html", context)


@login_required
def job_result_json(request, job_id: int):
    job = selectors.job_get_for_user(request.user, job_id)
    body = {
        "job": {"id": job.pk, "kind": job.kind, "title": job.title, "status": job.status, "seed": job.seed},
        "params": job.params,
        "settings": job.settings,
        "battles": job.battles,
        "total_battles": job.total_battles,
        "model_version": job.model_version,
        "warnings": job.warnings,
        "result": job.result,
    }
    response = HttpResponse(json.dumps(body, ensure_ascii=False, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="balance-job-{job.pk}.json"'
    return response


@login_required
def job_result_csv(request, job_id: int):
    job = selectors.job_get_for_user(request.user, job_id)
    if job.status != BalanceJob.Status.DONE:
        return HttpResponse("The job has no result yet.", status=409, content_type="text/plain; charset=utf-8")
    table = request.GET.get("table", "")
    suffix = "-matrix" if table == "matrix" and job.kind == BalanceJob.Kind.DUELS else ""
    response = HttpResponse(selectors.job_result_csv(job, table), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="balance-job-{job.pk}{suffix}.csv"'
    return response
