"""Pages of clubs: the list and creation, a club's rosters, packs and members, and the owner's member controls."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armies import selectors, services
from armies.forms import ClubCreateForm, MemberAddForm, MemberRoleForm
from armies.models import Membership
from armies.views.invites import InviteForm, invite_rows


# Clubs -------------------------------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def club_list(request):
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = services.club_create(user=request.user, **form.cleaned_data)
        messages.success(request, _("Club «{name}» created; you are its owner.").format(name=club.name))
        return redirect("armies:club", club_id=club.pk)
    memberships = Membership.objects.filter(user=request.user).select_related("club").order_by("club__name")
    return render(request, "armies/club_list.html", {"memberships": memberships, "form": form})


@login_required
@require_GET
def club_detail(request, club_id):
    club, role = selectors.club_get_for_user(request.user, club_id)
    rosters = selectors.roster_list_for_user(request.user).filter(club=club, visibility__in=selectors.CLUB_VISIBLE)
    context = {
        "club": club,
        "role": role,
        "role_label": Membership.Role(role).label if role in Membership.Role.values else role,
        "members": selectors.club_members(club),
        "rosters": rosters,
        "packs": club.data_packs.order_by("slug", "-version"),
        "add_form": MemberAddForm(),
        "roles": Membership.Role.choices,
        "is_owner": role == Membership.Role.OWNER,
    }
    if context["is_owner"]:  # invitation links are the owner's alone; members never see their tokens
        context["invites"] = invite_rows(request, club)
        context["invite_form"] = InviteForm()
    return render(request, "armies/club_detail.html", context)


@login_required
@require_POST
def member_add(request, club_id):
    club, _ignored = selectors.club_get_for_user(request.user, club_id, owner_only=True)
    form = MemberAddForm(request.POST)
    if form.is_valid():
        try:
            services.member_add(club=club, **form.cleaned_data)
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("{username} added.").format(username=form.cleaned_data["username"]))
    else:
        messages.error(request, _("Give a username and a role."))
    return redirect("armies:club", club_id=club.pk)


@login_required
@require_POST
def member_role(request, club_id, user_id):
    club, _ignored = selectors.club_get_for_user(request.user, club_id, owner_only=True)
    membership = selectors.club_members(club).filter(user_id=user_id).first()
    form = MemberRoleForm(request.POST)
    if membership is None:
        raise Http404(_("No such member."))
    if form.is_valid():
        try:
            services.member_set_role(membership=membership, role=form.cleaned_data["role"])
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("{username} is now {role}.").format(
                    username=membership.user.username, role=membership.get_role_display()
                ),
            )
    return redirect("armies:club", club_id=club.pk)


@login_required
@require_POST
def member_remove(request, club_id, user_id):
    leaving = str(request.user.pk) == str(user_id)
    club, _ignored = selectors.club_get_for_user(request.user, club_id, owner_only=not leaving)
    membership = selectors.club_members(club).filter(user_id=user_id).first()
    if membership is None:
        raise Http404(_("No such member."))
    try:
        services.member_remove(membership=membership)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("armies:club", club_id=club.pk)
    if leaving:
        messages.success(request, _("You left «{name}».").format(name=club.name))
        return redirect("armies:clubs")
    messages.success(request, _("{username} removed.").format(username=membership.user.username))
    return redirect("armies:club", club_id=club.pk)
