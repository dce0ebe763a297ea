"""Pages of the balance jobs: the list with the two submission forms, one job's page, and the downloads.
Thin: reads through selectors, writes through services; jobs of other users are 404.

The forms are drawn for one game system with a simulator (?system=<slug>, or the form's hidden `system`; the first
such system by default), from its simulator part's params_schema and its settings; rosters and packs come from the
roster source (rules/jobs/sources.py). A job's page reads its own system's part: what the model simulates and
leaves out, the parameters' labels, the forces."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from config.downloads import attachment
from rules.errors import RuleInputError
from rules.jobs import reading, selectors, services
from rules.jobs.broker import BrokerUnavailable
from rules.jobs.forms import DuelJobForm, RosterJobForm
from rules.jobs.sources import source
from rules.models import BalanceJob
from rules.registry import get_system, known
from rules.sources import book_source


def _system(request):
    """The system whose forms the page draws: ?system= (or the form's hidden `system`), else the first system
    with a simulator; None when no system has one. An unknown or simulator-less choice is a 404."""
    systems = services.simulated_systems()
    slug = request.POST.get("system") or request.GET.get("system")
    if not slug:
        return systems[0] if systems else None
    for system in systems:
        if system.slug == slug:
            return system
    raise Http404(_("No game system with a simulator by that name."))


def _page(request, system, roster_form=None, duel_form=None, status=200):
    rosters, packs = [], []
    if system is not None:
        kinds = system.simulator.job_kinds
        if "rosters" in kinds:
            rosters = source().rosters_for_user(request.user, system.slug)
            roster_form = roster_form or RosterJobForm(system=system, rosters=rosters)
        if "units" in kinds:
            packs = source().packs_for_user(request.user, system.slug)
            duel_form = duel_form or DuelJobForm(system=system, packs=packs)
    jobs = list(selectors.job_list_for_user(request.user)[:100])
    for job in jobs:
        job.display_title = reading.title(job)
        job.system_name = get_system(job.system).name if known(job.system) else job.system
    context = {
        "jobs": jobs,
        "system": system,
        "systems": services.simulated_systems(),
        "model": _model(system.simulator) if system else None,
        "roster_form": roster_form,
        "duel_form": duel_form,
        "rosters": rosters,
        "packs": packs,
    }
    return render(request, "rules/jobs.html", context, status=status)


def _model(part) -> dict:
    return {
        "simulated": [_(line) for line in part.simulated],
        "left_out": [_(line) for line in part.left_out],
        "description": part.description,
        "version": part.model_version,
    }


def _setting_value(setting, value):
    """A setting's value as the battle set-up page says it: the book's word for a choice, yes or no."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return dict(setting.describe()["choice_labels"]).get(value, value)


def _apply_errors(form, exc: RuleInputError) -> None:
    for field, message in exc.errors.items():
        name = field.split(".", 1)[-1] if field.startswith("params.") else field
        if field.startswith("settings."):
            name = f"opt_{field.split('.', 1)[1]}"
        form.add_error(name if name in form.fields else None, message)


@login_required
def jobs_page(request):
    return _page(request, _system(request))


@login_required
@require_POST
def roster_job_submit(request):
    system = _system(request)
    if system is None or "rosters" not in system.simulator.job_kinds:
        raise Http404(_("No simulator here runs roster against roster."))
    form = RosterJobForm(request.POST, system=system, rosters=source().rosters_for_user(request.user, system.slug))
    if form.is_valid():
        try:
            job = services.balance_job_submit_rosters(
                user=request.user,
                roster_a_id=form.cleaned_data["roster_a"],
                roster_b_id=form.cleaned_data["roster_b"],
                roster_b_link=form.cleaned_data["roster_b_link"].strip(),
                battles=form.cleaned_data["battles"],
                params=form.params(),
                settings=form.settings(),
                seed=form.cleaned_data["seed"],
            )
        except Http404:
            if not form.cleaned_data["roster_b_link"].strip():
                raise
            form.add_error("roster_b_link", _("No roster is shared by this link: it is mistyped or was revoked."))
        except RuleInputError as exc:
            _apply_errors(form, exc)
        except BrokerUnavailable as exc:
            form.add_error(None, exc.message)
            return _page(request, system, roster_form=form, status=503)
        else:
            return redirect("jobs:job", job_id=job.pk)
    return _page(request, system, roster_form=form, status=400)


@login_required
@require_POST
def duel_job_submit(request):
    system = _system(request)
    if system is None or "units" not in system.simulator.job_kinds:
        raise Http404(_("No simulator here runs unit against unit."))
    form = DuelJobForm(request.POST, system=system, packs=source().packs_for_user(request.user, system.slug))
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
            form.add_error(None, exc.message)
            return _page(request, system, duel_form=form, status=503)
        else:
            return redirect("jobs:job", job_id=job.pk)
    return _page(request, system, duel_form=form, status=400)


@login_required
@require_http_methods(["GET", "HEAD"])
def job_page(request, job_id: int):
    job = selectors.job_get_for_user(request.user, job_id)
    system = get_system(job.system) if known(job.system) else None
    part = system.simulator if system else None
    by_key = {s.key: s for s in system.settings} if system else {}
    changed = [
        {
            "label": _(str(by_key[k].label)),
            "value": _setting_value(by_key[k], v),
            "source": book_source(by_key[k].source),
        }
        for k, v in job.settings.items()
        if k in by_key and v != by_key[k].default
    ]
    ignored = [
        {"label": _(str(by_key[k].label)), "why": _(why)}
        for k, why in (part.ignored_settings if part else {}).items()
        if k in by_key and job.settings.get(k) != by_key[k].default
    ]
    properties = (part.params_schema.get("properties") or {}) if part else {}
    params = []
    for key, value in job.params.items():
        prop = properties.get(key) or {}
        # The system's titles and value names are msgids: shown in the reader's language, as the job form shows them.
        shown = (prop.get("x-labels") or {}).get(value, value) if isinstance(value, str | int) else value
        shown = _(shown) if isinstance(shown, str) and shown else shown
        if isinstance(value, bool):
            shown = _("yes") if value else _("no")
        label = _(prop["title"]) if prop.get("title") else key.replace("_", " ").capitalize()
        params.append({"label": label, "value": shown})
    forces = []
    if job.kind == BalanceJob.Kind.ROSTERS and part is not None:
        forces = part.describe_forces(job.inputs.get("forces"))
    report = []
    if part is not None and job.status == BalanceJob.Status.DONE and job.result:
        # The system's own reading of the numbers (e.g. a build's worth in its currency): SimulatorPart.report.
        report = part.report({"kind": job.kind, "inputs": job.inputs, "result": job.result, "params": job.params,
                              "settings": job.settings})  # fmt: skip
    words = None
    if job.kind == BalanceJob.Kind.ROSTERS and job.status == BalanceJob.Status.DONE and job.result:
        words = reading.roster_reading(
            job.result,
            name_a=job.inputs.get("side_a", {}).get("name") or _("Side A"),
            name_b=job.inputs.get("side_b", {}).get("name") or _("Side B"),
        )
    job.display_title = reading.title(job)
    context = {
        "job": job,
        "reading": words,
        "system_name": system.name if system else job.system,
        "progress": selectors.job_progress(job),
        "params": params,
        "changed_settings": changed,
        "ignored_settings": ignored,
        "forces": forces,
        "report": report,
        "model": _model(part) if part else None,
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
    response["Content-Disposition"] = attachment(f"balance-job-{job.pk}.json")
    return response


@login_required
def job_result_csv(request, job_id: int):
    job = selectors.job_get_for_user(request.user, job_id)
    if job.status != BalanceJob.Status.DONE:
        return HttpResponse(_("The job has no result yet."), status=409, content_type="text/plain; charset=utf-8")
    table = request.GET.get("table", "")
    suffix = "-matrix" if table == "matrix" and job.kind == BalanceJob.Kind.DUELS else ""
    response = HttpResponse(selectors.job_result_csv(job, table), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = attachment(f"balance-job-{job.pk}{suffix}.csv")
    return response
