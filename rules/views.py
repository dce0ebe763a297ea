"""The odds page: a system with a page of its own (presets from its pack, a chart) renders it from its package;
any other gets a form drawn from each action's input schema. Both call the odds API (rules/api.py)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from rules.errors import RuleInputError
from rules.registry import all_systems, get_system


@require_GET
def odds_page(request):
    systems = all_systems()
    slug = request.GET.get("system") or (systems[0].slug if systems else "")
    try:
        system = get_system(slug)
    except RuleInputError:
        raise Http404(_("No such game system.")) from None
    context = {"system": system, "systems": systems}
    if system.odds_template:
        context.update(system.odds_context())
        return render(request, system.odds_template, context)
    context["actions"] = [a.describe() for a in system.actions.values()]
    return render(request, "rules/odds_generic.html", context)
