"""The roster page's campaign form: carry a finished battle into the crew (the owner only), then back to the
roster, whose history shows the new scenario."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from armies import campaign, selectors, services
from armies.services.campaign import scenario_carry


@login_required
@require_POST
def scenario_carry_page(request, roster_id):
    roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
    if roster.owner_id != request.user.pk:
        raise PermissionDenied(_("Only the roster's owner may carry a scenario into it."))
    battle = campaign.battle_for_carry(request.user, roster, request.POST.get("battle", ""))
    try:
        record = scenario_carry(roster=roster, user=request.user, battle=battle)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Scenario {number} («{battle}») is carried into the roster.").format(
                number=record.number, battle=record.battle_name
            ),
        )
    return redirect(f"{reverse('armies:roster', args=[roster.pk])}#campaign")
