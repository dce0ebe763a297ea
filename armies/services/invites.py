"""Club invitations: a link (and its QR code) the club's owner makes with a role, that lets whoever opens it, signed
in, join the club; it works until it expires or is revoked (as a battle's invitation lets a player take a side)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from armies.models import Club, ClubInvite, Membership
from armies.services.common import ServiceError

# An invitation gives at most editing rights: ownership is handed over by an owner, member by member.
INVITE_ROLES = (Membership.Role.MEMBER, Membership.Role.EDITOR)
INVITE_DAYS = (1, 3, 7, 30)
DEFAULT_DAYS = 7


class InviteDead(ServiceError):
    """The link exists but no longer works (410): `reason`, also answered as `state`, is "expired" or "revoked"."""

    status = 410
    code = "gone"

    def __init__(self, invite: ClubInvite, reason: str):
        if reason == "revoked":
            message = _("This invitation to «{club}» was revoked.").format(club=invite.club.name)
        else:
            message = _("This invitation to «{club}» has expired.").format(club=invite.club.name)
        super().__init__(message, data={"state": reason})
        self.invite, self.reason = invite, reason


def invite_state(invite: ClubInvite, now=None) -> str:
    """ "live", "expired" or "revoked"."""
    if invite.revoked_at is not None:
        return "revoked"
    return "live" if invite.is_live(now) else "expired"


@transaction.atomic
def club_invite_create(*, club: Club, user, role: str = Membership.Role.MEMBER, days: int = DEFAULT_DAYS):
    if role not in INVITE_ROLES:
        raise ServiceError(_("An invitation makes a member or an editor."), {"role": _("member or editor")})
    if isinstance(days, bool) or not isinstance(days, int) or days not in INVITE_DAYS:
        choices = ", ".join(map(str, INVITE_DAYS))
        raise ServiceError(
            _("An invitation lasts {choices} days.").format(choices=choices),
            {"days": _("one of {choices}").format(choices=choices)},
        )
    return ClubInvite.objects.create(
        club=club,
        token=secrets.token_urlsafe(24),
        role=role,
        created_by=user,
        expires_at=timezone.now() + timedelta(days=days),
    )


@transaction.atomic
def club_invite_revoke(*, invite: ClubInvite) -> ClubInvite:
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


@transaction.atomic
def club_join(*, invite: ClubInvite, user) -> tuple[Membership, bool]:
    """Joins the club with the invitation's role: (membership, joined now). A member keeps the role they have
    (an invitation never lowers nor raises it); a dead link raises InviteDead and changes nothing."""
    invite = ClubInvite.objects.select_for_update().select_related("club").get(pk=invite.pk)
    state = invite_state(invite)
    if state != "live":
        raise InviteDead(invite, state)
    membership, created = Membership.objects.get_or_create(club=invite.club, user=user, defaults={"role": invite.role})
    if created:
        ClubInvite.objects.filter(pk=invite.pk).update(uses=F("uses") + 1)
    return membership, created
