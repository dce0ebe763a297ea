"""Club invitation links: the owner makes one with a role and a lifetime (with its QR code on the club page) and
may revoke it; someone signed in opens /clubs/join/<token>/ and joins. A dead link gets a page that says why."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from armies import selectors, services
from armies.models import Membership


def _days_label(n: int) -> str:
    return ngettext_lazy("{n} day", "{n} days", n).format(n=n)


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        choices=[(r.value, r.label) for r in services.INVITE_ROLES],
        initial=Membership.Role.MEMBER,
        label=gettext_lazy("Joins as"),
    )
    days = forms.TypedChoiceField(coerce=int, initial=7, label=gettext_lazy("Works for"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["days"].choices = [(n, _days_label(n)) for n in services.INVITE_DAYS]


def invite_rows(request, club) -> list[dict]:
    """Each invitation of the club with its state and its absolute link (for Copy and the QR code)."""
    return [
        {
            "invite": invite,
            "state": services.invite_state(invite),
            "url": request.build_absolute_uri(reverse("armies:club-join", args=[invite.token])),
        }
        for invite in selectors.club_invites(club)[:50]
    ]


@login_required
@require_POST
def invite_create(request, club_id):
    club, _role = selectors.club_get_for_user(request.user, club_id, owner_only=True)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a role and how long the link works."))
    else:
        try:
            services.club_invite_create(club=club, user=request.user, **form.cleaned_data)
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Invitation link created: send it, or show its QR code."))
    return redirect(reverse("armies:club", args=[club.pk]) + "#invites")


@login_required
@require_POST
def invite_revoke(request, club_id, invite_id):
    club, _role = selectors.club_get_for_user(request.user, club_id, owner_only=True)
    invite = selectors.club_invites(club).filter(pk=invite_id).first() if str(invite_id).isdigit() else None
    if invite is None:
        messages.error(request, _("No such invitation."))
    else:
        services.club_invite_revoke(invite=invite)
        messages.success(request, _("The invitation link no longer works."))
    return redirect(reverse("armies:club", args=[club.pk]) + "#invites")


@login_required
@require_http_methods(["GET", "POST"])
def club_join(request, token):
    invite = selectors.invite_for_token(token)
    role = selectors.club_role(request.user, invite.club)
    state = services.invite_state(invite)
    if role is not None:  # already in: nothing to join, whatever the link's state
        messages.info(request, _("You are already a member of «{club}».").format(club=invite.club.name))
        return redirect("armies:club", club_id=invite.club_id)
    if request.method == "POST" and state == "live":
        try:
            services.club_join(invite=invite, user=request.user)
        except services.InviteDead as exc:
            state = exc.reason
        else:
            messages.success(
                request,
                _("You joined «{club}» as {role}.").format(club=invite.club.name, role=invite.get_role_display()),
            )
            return redirect("armies:club", club_id=invite.club_id)
    status = 200 if state == "live" else 410
    return render(request, "armies/club_join.html", {"invite": invite, "state": state}, status=status)
