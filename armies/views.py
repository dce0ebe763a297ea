"""Pages of the army builder: rosters (/rosters/), shared rosters (/s/<token>/), custom packs (/packs/) and clubs
(/clubs/). Thin: access through armies.selectors, writes through armies.services; the builder's live edits go
through the JSON API (static/armies/builder.js) and re-render the fragment of roster_live()."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armies import exports, selectors, services
from armies.forms import (
    PROFILE_TEMPLATES,
    ClubCreateForm,
    ImportForm,
    MemberAddForm,
    MemberRoleForm,
    PackCreateForm,
    ProfileForm,
    RosterCreateForm,
    RosterSettingsForm,
    UnitEditor,
    editor_initial,
)
from armies.models import Faction, Membership, Roster

DEFAULT_SYSTEM = "bronepekhota"


def _side_factions(packs) -> list[tuple[str, str]]:
    """(slug, name) of the army factions (not the shared green one) of the given packs, in pack order."""
    seen, result = set(), []
    for f in Faction.objects.filter(pack__in=packs, joins_any=False).order_by("pack_id", "id"):
        if f.slug not in seen:
            seen.add(f.slug)
            result.append((f.slug, f.name))
    return result


def _form_errors(form, exc: services.ServiceError) -> None:
    for field, message in exc.errors.items():
        form.add_error(field if field in form.fields else None, f"{message}")
    if not exc.errors:
        form.add_error(None, exc.message)


# Rosters -----------------------------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def roster_list(request):
    packs = list(selectors.packs_for_system(request.user, DEFAULT_SYSTEM))
    packs = selectors.latest_versions(packs)
    form = RosterCreateForm(request.POST or None, packs=packs, factions=_side_factions(packs))
    if request.method == "POST" and form.is_valid():
        pack = selectors.pack_get_for_user(request.user, form.cleaned_data["pack"])
        try:
            roster = services.roster_create(
                owner=request.user,
                pack=pack,
                name=form.cleaned_data["name"],
                faction=form.cleaned_data["faction"],
                points_limit=form.cleaned_data["points_limit"],
            )
        except services.ServiceError as exc:
            _form_errors(form, exc)
        else:
            return redirect("armies:roster", roster_id=roster.pk)
    rosters = selectors.roster_list_for_user(request.user)
    return render(request, "armies/roster_list.html", {"rosters": rosters, "form": form, "user_id": request.user.pk})


def _pack_catalogue(roster: Roster) -> list[dict]:
    """Units of the roster's pack that its army may take (own faction and shared green), grouped by kind."""
    allowed = {roster.faction} | set(
        Faction.objects.filter(pack=roster.pack, joins_any=True).values_list("slug", flat=True)
    )
    groups = {"squad": [], "vehicle": [], "gun": []}
    for p in selectors.pack_profiles(roster.pack):
        if p.faction.slug in allowed:
            groups.setdefault(p.kind, []).append(p)
    labels = {"squad": "Squads", "vehicle": "Vehicles", "gun": "Guns"}
    return [{"kind": k, "label": labels.get(k, k), "profiles": v} for k, v in groups.items() if v]


def _live_context(state: dict) -> dict:
    exports.decorate(state)
    slots, pilots = exports.pilot_slots(state), exports.pilot_names(state)
    for e in state["entries"]:
        e["pilot_slots"], e["pilot_labels"] = slots.get(e["key"], []), pilots.get(e["key"], [])
    return {"state": state}


def _opponent_param(request, roster: Roster) -> Roster | None:
    against = request.GET.get("against")
    if not against or not request.user.is_authenticated:
        return None
    opponent = selectors.roster_visible_to(request.user).filter(pk=against if against.isdigit() else 0).first()
    return opponent if opponent and opponent.pk != roster.pk else None


def _roster_page(request, roster: Roster, *, can_write: bool, token: str | None = None):
    opponent = _opponent_param(request, roster) if token is None else None
    state = selectors.roster_state(roster, can_write=can_write, opponent=opponent)
    context = {**_live_context(state), "roster": roster, "token": token}
    if token is None:
        user = request.user
        context["opponents"] = (
            selectors.roster_visible_to(user).filter(system=roster.system).exclude(pk=roster.pk).order_by("name")[:100]
        )
        context["is_owner"] = roster.owner_id == user.pk
        if can_write:
            context["catalogue"] = _pack_catalogue(roster)
            clubs = selectors.clubs_of(user) if roster.owner_id == user.pk else []
            context["settings_form"] = RosterSettingsForm(
                initial={
                    "name": roster.name,
                    "faction": roster.faction,
                    "points_limit": roster.points_limit,
                    "visibility": roster.visibility,
                    "club": roster.club_id,
                    "notes": roster.notes,
                },
                factions=_side_factions([roster.pack]),
                clubs=clubs or ([roster.club] if roster.club_id else []),
            )
        if context["is_owner"]:
            context["links"] = selectors.roster_share_links(roster)
    return render(request, "armies/roster_detail.html", context)


@login_required
@require_GET
def roster_detail(request, roster_id):
    roster = selectors.roster_get_for_user(request.user, roster_id)
    return _roster_page(request, roster, can_write=selectors.roster_can_write(request.user, roster))


@login_required
@require_GET
def roster_live(request, roster_id):
    """The live part of the builder (totals, issues, entries) as an HTML fragment for builder.js."""
    roster = selectors.roster_get_for_user(request.user, roster_id)
    opponent = _opponent_param(request, roster)
    state = selectors.roster_state(
        roster, can_write=selectors.roster_can_write(request.user, roster), opponent=opponent
    )
    return render(request, "armies/_roster_live.html", _live_context(state))


@login_required
@require_POST
def roster_settings(request, roster_id):
    roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
    clubs = selectors.clubs_of(request.user) if roster.owner_id == request.user.pk else []
    form = RosterSettingsForm(
        request.POST,
        factions=_side_factions([roster.pack]),
        clubs=list(clubs) or ([roster.club] if roster.club_id else []),
    )
    if not form.is_valid():
        messages.error(request, "Settings not saved: " + "; ".join(f"{k}: {v[0]}" for k, v in form.errors.items()))
        return redirect("armies:roster", roster_id=roster.pk)
    data = dict(form.cleaned_data)
    club_id = data.pop("club")
    data["club"] = selectors.club_get_for_user(request.user, club_id)[0] if club_id else None
    try:
        services.roster_update(roster=roster, user=request.user, **data)
    except services.ServiceError as exc:
        messages.error(request, "Settings not saved: " + (" ".join(exc.errors.values()) or exc.message))
    else:
        messages.success(request, "Roster settings saved.")
    return redirect("armies:roster", roster_id=roster.pk)


@login_required
@require_POST
def roster_copy(request, roster_id):
    roster = selectors.roster_get_for_user(request.user, roster_id)
    copy = services.roster_copy(roster=roster, user=request.user)
    messages.success(request, f"Copied into your rosters as «{copy.name}».")
    return redirect("armies:roster", roster_id=copy.pk)


@login_required
@require_POST
def roster_delete(request, roster_id):
    roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
    if roster.owner_id != request.user.pk:
        raise PermissionDenied("Only the roster's owner may delete it.")
    services.roster_delete(roster=roster)
    messages.success(request, f"Roster «{roster.name}» deleted.")
    return redirect("armies:rosters")


@login_required
@require_GET
def roster_print(request, roster_id):
    roster = selectors.roster_get_for_user(request.user, roster_id)
    return _print_page(request, roster)


def _print_page(request, roster: Roster):
    state = selectors.roster_state(roster)
    layout = "list" if request.GET.get("layout") == "list" else "cards"
    return render(request, "armies/roster_print.html", {**_live_context(state), "layout": layout})


@login_required
@require_GET
def roster_text(request, roster_id):
    roster = selectors.roster_get_for_user(request.user, roster_id)
    return HttpResponse(exports.roster_text(selectors.roster_state(roster)), content_type="text/plain; charset=utf-8")


def _export_response(roster: Roster) -> HttpResponse:
    body = json.dumps(services.roster_export(roster=roster), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    safe = "".join(c if c.isalnum() else "-" for c in roster.name.lower()).strip("-") or "roster"
    response["Content-Disposition"] = f'attachment; filename="{safe[:40]}.armlist.json"'
    return response


@login_required
@require_GET
def roster_export(request, roster_id):
    return _export_response(selectors.roster_get_for_user(request.user, roster_id))


@login_required
@require_http_methods(["GET", "POST"])
def roster_import(request):
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            roster = services.roster_import(
                user=request.user,
                data=form.cleaned_data["file"],
                visible_packs=selectors.pack_visible_to(request.user),
            )
        except services.ServiceError as exc:
            form.add_error("file", exc.message)
        else:
            messages.success(request, f"Imported «{roster.name}».")
            return redirect("armies:roster", roster_id=roster.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "armies/roster_import.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def roster_upgrade(request, roster_id):
    write = request.method == "POST"
    roster = selectors.roster_get_for_user(request.user, roster_id, write=write)
    target = selectors.pack_newer_version(roster.pack)
    if target is None:
        messages.info(request, "This roster already uses the newest version of its pack.")
        return redirect("armies:roster", roster_id=roster.pk)
    if write:
        try:
            plan = services.roster_upgrade(
                roster=roster, target=target, expected_version=int(request.POST.get("version") or 0) or None
            )
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request, f"Upgraded to version {target.version}: total {plan['total_before']} → {plan['total_after']}."
            )
        return redirect("armies:roster", roster_id=roster.pk)
    plan = services.roster_upgrade_plan(roster=roster, target=target)
    names = {e["key"]: e["profile"]["name"] for e in selectors.roster_for_rules(roster)["entries"]}
    context = {
        "roster": roster,
        "target": target,
        "plan": plan,
        "names": names,
        "can_write": selectors.roster_can_write(request.user, roster),
    }
    return render(request, "armies/roster_upgrade.html", context)


@login_required
@require_POST
def link_create(request, roster_id):
    roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
    try:
        link = services.share_link_create(roster=roster, user=request.user)
    except services.ServiceError as exc:
        raise PermissionDenied(exc.message) from exc
    messages.success(request, f"Share link created: {request.build_absolute_uri(f'/s/{link.token}/')}")
    return redirect(reverse("armies:roster", args=[roster.pk]) + "#sharing")


@login_required
@require_POST
def link_revoke(request, roster_id, link_id):
    roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
    if roster.owner_id != request.user.pk:
        raise PermissionDenied("Only the roster's owner manages its share links.")
    link = selectors.roster_share_links(roster).filter(pk=link_id).first()
    if link is None:
        raise Http404("No such link.")
    services.share_link_revoke(link=link)
    messages.success(request, "The link no longer works.")
    return redirect(reverse("armies:roster", args=[roster.pk]) + "#sharing")


# Shared by link (read-only) ----------------------------------------------------------------------------------
def _read_only(request):
    if request.method not in ("GET", "HEAD"):
        raise PermissionDenied("Share links are read-only.")


def shared_roster(request, token):
    roster = selectors.roster_for_token(token)
    _read_only(request)
    return _roster_page(request, roster, can_write=False, token=token)


def shared_print(request, token):
    roster = selectors.roster_for_token(token)
    _read_only(request)
    return _print_page(request, roster)


def shared_text(request, token):
    roster = selectors.roster_for_token(token)
    _read_only(request)
    return HttpResponse(exports.roster_text(selectors.roster_state(roster)), content_type="text/plain; charset=utf-8")


def shared_export(request, token):
    roster = selectors.roster_for_token(token)
    _read_only(request)
    return _export_response(roster)


@login_required
@require_POST
def shared_copy(request, token):
    roster = selectors.roster_for_token(token)
    copy = services.roster_copy(roster=roster, user=request.user)
    messages.success(request, f"Copied into your rosters as «{copy.name}».")
    return redirect("armies:roster", roster_id=copy.pk)


# Custom packs ------------------------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def pack_list(request):
    writable = [c for c in selectors.clubs_of(request.user) if c.pk in selectors.writable_club_ids(request.user)]
    form = PackCreateForm(request.POST or None, clubs=writable)
    if request.method == "POST" and form.is_valid():
        club = None
        if form.cleaned_data["club"]:
            club, _ = selectors.club_get_for_user(request.user, form.cleaned_data["club"], write=True)
        try:
            pack = services.pack_create(
                user=request.user, system=DEFAULT_SYSTEM, name=form.cleaned_data["name"], club=club
            )
        except services.ServiceError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, "Pack created. Add your units, then publish it to build rosters with it.")
            return redirect("armies:pack", pack_id=pack.pk)
    packs = (
        selectors.pack_visible_to(request.user).select_related("owner", "club").order_by("system", "slug", "-version")
    )
    return render(request, "armies/pack_list.html", {"packs": packs, "form": form})


@login_required
@require_GET
def pack_detail(request, pack_id):
    pack = selectors.pack_get_for_user(request.user, pack_id)
    newer = selectors.pack_newer_version(pack)
    draft = None
    if not pack.is_official:
        draft = selectors.pack_visible_to(request.user).filter(slug=pack.slug, published=False).first()
    context = {
        "pack": pack,
        "profiles": selectors.pack_profiles(pack),
        "factions": selectors.pack_factions(pack),
        "can_write": selectors.pack_can_write(request.user, pack),
        "newer": newer,
        "draft": draft if draft and draft.pk != pack.pk else None,
        "versions": selectors.pack_visible_to(request.user).filter(slug=pack.slug).order_by("-version"),
        "provenance": json.dumps(pack.meta.get("provenance") or {}, ensure_ascii=False, indent=1),
    }
    return render(request, "armies/pack_detail.html", context)


def _profile_form(request, pack, *, initial=None):
    factions = [(f.slug, f.name) for f in selectors.pack_factions(pack)]
    return ProfileForm(request.POST or None, initial=initial, factions=factions)


@login_required
@require_http_methods(["GET", "POST"])
def profile_edit(request, pack_id, slug=None):
    """A custom unit: the structured form for players, or (editor=json, or a posted `data` box) the JSON box."""
    pack = selectors.pack_get_for_user(request.user, pack_id, write=True)
    existing = selectors.pack_profiles(pack).filter(slug=slug).first() if slug else None
    if slug and existing is None:
        raise Http404("No such unit in this pack.")
    mode = request.POST.get("editor") or request.GET.get("editor") or ("json" if "data" in request.POST else "form")
    if mode == "json":
        return _profile_json_edit(request, pack, existing, slug)
    kind = existing.kind if existing else request.POST.get("kind") or request.GET.get("kind")
    kind = kind if kind in PROFILE_TEMPLATES else "squad"
    factions = [(f.slug, f.name) for f in selectors.pack_factions(pack)]
    if request.method == "GET":
        source = (
            {**existing.as_rules_dict(), "notes": existing.notes}
            if existing
            else {"faction": factions[0][0] if factions else "", "cost": 50, "data": PROFILE_TEMPLATES[kind]}
        )
        values = editor_initial(kind, source)
    else:
        values = request.POST
    editor = UnitEditor(kind, values, factions=factions)
    status = 200
    action = request.POST.get("action", "save")
    if request.method == "POST" and action != "save":  # add or remove a row without JS: re-render, save nothing
        editor = UnitEditor(kind, editor.with_rows_changed(action), factions=factions)
    elif request.method == "POST":
        profile = editor.profile(slug=existing.slug if existing else None)
        if not editor.errors:
            try:
                saved = services.profile_save(pack=pack, data=profile, slug=slug)
            except services.ServiceError as exc:
                editor.add_service_errors(exc.errors, exc.message)
            else:
                note = "" if saved.pack_id == pack.pk else f" in the new draft version {saved.pack.version}"
                messages.success(request, f"Saved «{saved.name}»{note}.")
                return redirect("armies:pack", pack_id=saved.pack_id)
        status = 400
    json_form = ProfileForm(initial=_json_initial(kind, existing), factions=factions, auto_id="json_%s")
    context = {
        "pack": pack,
        "existing": existing,
        "editor": editor,
        "kind": kind,
        "kinds": PROFILE_TEMPLATES,
        "json_form": json_form,
    }
    return render(request, "armies/profile_editor.html", context, status=status)


def _json_initial(kind: str, existing) -> dict:
    initial = {"kind": kind, "data": json.dumps(PROFILE_TEMPLATES[kind], ensure_ascii=False, indent=1), "cost": 50}
    if existing is not None:
        initial = {
            "name": existing.name,
            "slug": existing.slug,
            "faction": existing.faction.slug,
            "kind": existing.kind,
            "cost": existing.cost,
            "data": json.dumps(existing.data, ensure_ascii=False, indent=1),
            "notes": existing.notes,
        }
    return initial


def _profile_json_edit(request, pack, existing, slug):
    """The advanced editor: the whole Armlist as JSON in a text box, errors listed by field path."""
    kind = request.GET.get("kind") if request.GET.get("kind") in PROFILE_TEMPLATES else "squad"
    form = _profile_form(request, pack, initial=_json_initial(kind, existing))
    if request.method == "POST" and form.is_valid():
        try:
            profile = services.profile_save(pack=pack, data=form.cleaned_data, slug=slug)
        except services.ServiceError as exc:
            for path, message in exc.errors.items():
                field = path.split(".", 1)[0]
                form.add_error(field if field in form.fields else None, f"{path}: {message}")
            if not exc.errors:
                form.add_error(None, exc.message)
        else:
            note = "" if profile.pack_id == pack.pk else f" in the new draft version {profile.pack.version}"
            messages.success(request, f"Saved «{profile.name}»{note}.")
            return redirect("armies:pack", pack_id=profile.pack_id)
    status = 400 if request.method == "POST" else 200
    context = {"pack": pack, "form": form, "existing": existing, "templates": PROFILE_TEMPLATES}
    return render(request, "armies/profile_form.html", context, status=status)


@login_required
@require_POST
def profile_delete(request, pack_id, slug):
    pack = selectors.pack_get_for_user(request.user, pack_id, write=True)
    try:
        draft = services.profile_delete(pack=pack, slug=slug)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("armies:pack", pack_id=pack.pk)
    messages.success(request, "Unit removed.")
    return redirect("armies:pack", pack_id=draft.pk)


@login_required
@require_POST
def pack_publish(request, pack_id):
    pack = selectors.pack_get_for_user(request.user, pack_id, write=True)
    try:
        services.pack_publish(pack=pack)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Version {pack.version} published: rosters can use it now.")
    return redirect("armies:pack", pack_id=pack.pk)


@login_required
@require_GET
def profile_template(request, kind):
    if kind not in PROFILE_TEMPLATES:
        raise Http404("No such kind.")
    return JsonResponse(PROFILE_TEMPLATES[kind])


# Clubs -------------------------------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def club_list(request):
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = services.club_create(user=request.user, **form.cleaned_data)
        messages.success(request, f"Club «{club.name}» created; you are its owner.")
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
        "members": selectors.club_members(club),
        "rosters": rosters,
        "packs": club.data_packs.order_by("slug", "-version"),
        "add_form": MemberAddForm(),
        "roles": Membership.Role.choices,
        "is_owner": role == Membership.Role.OWNER,
    }
    return render(request, "armies/club_detail.html", context)


@login_required
@require_POST
def member_add(request, club_id):
    club, _ = selectors.club_get_for_user(request.user, club_id, owner_only=True)
    form = MemberAddForm(request.POST)
    if form.is_valid():
        try:
            services.member_add(club=club, **form.cleaned_data)
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{form.cleaned_data['username']} added.")
    else:
        messages.error(request, "Give a username and a role.")
    return redirect("armies:club", club_id=club.pk)


@login_required
@require_POST
def member_role(request, club_id, user_id):
    club, _ = selectors.club_get_for_user(request.user, club_id, owner_only=True)
    membership = selectors.club_members(club).filter(user_id=user_id).first()
    form = MemberRoleForm(request.POST)
    if membership is None:
        raise Http404("No such member.")
    if form.is_valid():
        try:
            services.member_set_role(membership=membership, role=form.cleaned_data["role"])
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{membership.user.username} is now {membership.role}.")
    return redirect("armies:club", club_id=club.pk)


@login_required
@require_POST
def member_remove(request, club_id, user_id):
    leaving = str(request.user.pk) == str(user_id)
    club, _ = selectors.club_get_for_user(request.user, club_id, owner_only=not leaving)
    membership = selectors.club_members(club).filter(user_id=user_id).first()
    if membership is None:
        raise Http404("No such member.")
    try:
        services.member_remove(membership=membership)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("armies:club", club_id=club.pk)
    if leaving:
        messages.success(request, f"You left «{club.name}».")
        return redirect("armies:clubs")
    messages.success(request, f"{membership.user.username} removed.")
    return redirect("armies:club", club_id=club.pk)
