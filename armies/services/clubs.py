"""Clubs and their members: owners manage members, a club always keeps an owner."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from armies.models import Club, Membership
from armies.services.common import ServiceError


# Clubs -------------------------------------------------------------------------------------------------------
@transaction.atomic
def club_create(*, user, name: str, description: str = "") -> Club:
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("Give the club a name."), {"name": "required"})
    club = Club.objects.create(name=name[:100], description=description or "")
    Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    return club


@transaction.atomic
def member_add(*, club: Club, username: str, role: str = Membership.Role.MEMBER) -> Membership:
    from django.contrib.auth import get_user_model

    if role not in Membership.Role.values:
        raise ServiceError(_("The role must be owner, editor or member."), {"role": "unknown"})
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise ServiceError(_("No user named {username!r}.").format(username=username), {"username": "unknown"})
    membership, created = Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
    if not created:
        raise ServiceError(
            _("{get_username} is already a member.").format(get_username=user.get_username()),
            {"username": _("already a member")},
        )
    return membership


@transaction.atomic
def member_set_role(*, membership: Membership, role: str) -> Membership:
    if role not in Membership.Role.values:
        raise ServiceError(_("The role must be owner, editor or member."), {"role": "unknown"})
    if membership.role == Membership.Role.OWNER and role != Membership.Role.OWNER:
        _keep_an_owner(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


def _keep_an_owner(membership: Membership) -> None:
    owners = Membership.objects.filter(club=membership.club, role=Membership.Role.OWNER).exclude(pk=membership.pk)
    if not owners.exists():
        raise ServiceError(_("A club needs at least one owner; make someone else owner first."))


@transaction.atomic
def member_remove(*, membership: Membership) -> None:
    if membership.role == Membership.Role.OWNER:
        _keep_an_owner(membership)
    membership.delete()
