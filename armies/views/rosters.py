"""Pages of rosters: the list and creation, the builder (its live edits go through the JSON API, then
static/armies/builder.js fetches the fragment of roster_live() again), print, text, export and import, pack
upgrades, share links, and the read-only pages behind a share link (/s/<token>/)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armies import exports, selectors, services, systems
from armies.forms import ImportForm, RosterCreateForm, RosterSettingsForm
from armies.models import Faction, Roster
from armies.views.common import army_packs, form_errors, pack_factions, side_factions
from config.downloads import attachment, safe_filename


# Rosters -----------------------------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def roster_list(request):
    packs = army_packs(request.user)
    names = dict(systems.army_systems()) if len({p.system for p in packs}) > 1 else {}
    form = RosterCreateForm(request.POST or None, packs=packs, factions=pack_factions(packs), systems=names)
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
            form_errors(form, exc)
        else:
            return redirect("armies:roster", roster_id=roster.pk)
    rosters = selectors.with_faction_names(selectors.roster_list_for_user(request.user))
    return render(request, "armies/roster_list.html", {"rosters": rosters, "form": form, "user_id": request.user.pk})


def _pack_catalogue(roster: Roster) -> list[dict]:
    """Units of the roster's packs (main, then extra custom packs) that its army may take (own faction and those
    that join any army), grouped by kind under the system's headings; a unit of an extra pack carries its pack."""
    packs = selectors.roster_packs(roster)
    shared = set(Faction.objects.filter(pack__in=packs, joins_any=True).values_list("pack_id", "slug"))
    labels = systems.kind_groups(roster.system)
    groups: dict[str, list] = {kind: [] for kind in labels}
    for pack in packs:
        for p in selectors.pack_profiles(pack):
            if p.faction.slug == roster.faction or (pack.pk, p.faction.slug) in shared:
                p.note = systems.profile_note(roster.system, p.as_rules_dict())
                p.from_pack = None if pack.pk == roster.pack_id else pack
                groups.setdefault(p.kind, []).append(p)
    return [{"kind": k, "label": labels.get(k, k), "profiles": v} for k, v in groups.items() if v]


def _settings_form(user, roster: Roster, data=None) -> RosterSettingsForm:
    clubs = list(selectors.clubs_of(user)) if roster.owner_id == user.pk else []
    return RosterSettingsForm(
        data,
        initial={
            "name": roster.name,
            "faction": roster.faction,
            "points_limit": roster.points_limit,
            "visibility": roster.visibility,
            "club": roster.club_id,
            "notes": roster.notes,
            "extra_packs": [p.pk for p in selectors.roster_packs(roster)[1:]],
        },
        factions=side_factions([roster.pack]),
        clubs=clubs or ([roster.club] if roster.club_id else []),
        packs=selectors.extra_pack_choices(user, roster),
    )


def _link_rows(request, roster: Roster) -> list[dict]:
    """Each share link with its real state, asked of the same selector that serves /s/<token>/: "live" (it opens
    the roster), "revoked", or "stopped" (not revoked, but the roster is not shared by link now)."""
    rows = []
    for link in selectors.roster_share_links(roster):
        try:
            selectors.roster_for_token(link.token)
            state = "live"
        except Http404:
            state = "revoked" if link.revoked_at else "stopped"
        url = request.build_absolute_uri(reverse("armies:shared", args=[link.token]))
        rows.append({"link": link, "state": state, "url": url})
    return rows


def _live_context(state: dict) -> dict:
    return {"state": exports.decorate(state)}


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
            context["builder_tools"] = systems.builder_tools(roster.system)
            context["settings_form"] = _settings_form(user, roster)
        if context["is_owner"]:
            context["links"] = _link_rows(request, roster)
            context["live_links"] = sum(row["state"] == "live" for row in context["links"])
            context["stopped_links"] = any(row["state"] == "stopped" for row in context["links"])
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
    form = _settings_form(request.user, roster, request.POST)
    if not form.is_valid():
        messages.error(request, _("Settings not saved: ") + "; ".join(f"{k}: {v[0]}" for k, v in form.errors.items()))
        return redirect("armies:roster", roster_id=roster.pk)
    data = dict(form.cleaned_data)
    club_id = data.pop("club")
    data["club"] = selectors.club_get_for_user(request.user, club_id)[0] if club_id else None
    # Only packs the form offered (pinned, or readable by this user) can be chosen: a forged id fails validation.
    chosen = set(data.pop("extra_packs"))
    packs = [p for p in selectors.extra_pack_choices(request.user, roster) if p.pk in chosen]
    was_live = sum(row["state"] == "live" for row in _link_rows(request, roster))
    try:
        services.roster_update_with_packs(roster=roster, user=request.user, extra_packs=packs, **data)
    except services.NotAllowed as exc:  # an editor changing who sees it: 403, as the API answers
        raise PermissionDenied(exc.message) from exc
    except services.ServiceError as exc:
        messages.error(request, _("Settings not saved: ") + (" ".join(exc.errors.values()) or exc.message))
    else:
        messages.success(request, _("Roster settings saved."))
        stopped = was_live - sum(row["state"] == "live" for row in _link_rows(request, roster))
        if stopped > 0:
            messages.warning(
                request,
                ngettext(
                    "{n} share link stopped working: the roster is no longer shared by link.",
                    "{n} share links stopped working: the roster is no longer shared by link.",
                    stopped,
                ).format(n=stopped),
            )
    return redirect("armies:roster", roster_id=roster.pk)


def _tool_inputs(tool: dict, data) -> dict:
    """The form of a builder tool as its inputs: numbers as numbers (empty: left out), checks as true/false."""
    inputs: dict = {}
    for f in tool["fields"]:
        raw = data.get(f["name"], "")
        if f.get("type") == "check":
            inputs[f["name"]] = raw in ("on", "1", "true")
        elif f.get("type") == "int":
            raw = raw.strip()
            if raw:
                inputs[f["name"]] = int(raw) if raw.lstrip("-").isdigit() else raw  # the schema names a bad one
        elif raw != "":
            inputs[f["name"]] = raw
    return inputs


@login_required
@require_POST
def builder_tool(request, roster_id, key):
    """A system's builder tool from the roster page (a plain form): adds what it made and says how it was made."""
    roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
    tool = next((t for t in systems.builder_tools(roster.system) if t["key"] == key), None)
    if tool is None:
        raise Http404(_("No such tool."))
    try:
        result, entries = services.builder_tool_run(roster=roster, key=key, inputs=_tool_inputs(tool, request.POST))
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("armies:roster", roster_id=roster.pk)
    for line in result.lines:
        messages.success(request, line)
    anchor = f"#entry-{entries[0].key}" if entries else ""
    return redirect(reverse("armies:roster", kwargs={"roster_id": roster.pk}) + anchor)


@login_required
@require_POST
def roster_copy(request, roster_id):
    roster = selectors.roster_get_for_user(request.user, roster_id)
    copy = services.roster_copy(roster=roster, user=request.user)
    messages.success(request, _("Copied into your rosters as «{name}».").format(name=copy.name))
    return redirect("armies:roster", roster_id=copy.pk)


@login_required
@require_POST
def roster_delete(request, roster_id):
    roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
    if roster.owner_id != request.user.pk:
        raise PermissionDenied(_("Only the roster's owner may delete it."))
    services.roster_delete(roster=roster)
    messages.success(request, _("Roster «{name}» deleted.").format(name=roster.name))
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
    # RFC 6266: the roster's own (often Cyrillic) name, and a transliterated ASCII name for old browsers.
    name = safe_filename(roster.name, limit=60) or "roster"
    fallback = f"{services.slug_from(roster.name, limit=40) or 'roster'}.armlist.json"
    response["Content-Disposition"] = attachment(f"{name}.armlist.json", fallback=fallback)
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
            messages.success(request, _("Imported «{name}».").format(name=roster.name))
            if not services.export_verified(form.cleaned_data["file"]):
                messages.warning(request, services.import_notice(False))
            return redirect("armies:roster", roster_id=roster.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "armies/roster_import.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def roster_upgrade(request, roster_id):
    write = request.method == "POST"
    roster = selectors.roster_get_for_user(request.user, roster_id, write=write)
    # ?pack=<id> names which of the roster's packs to upgrade (an extra custom pack); the main pack otherwise.
    chosen = request.POST.get("pack") or request.GET.get("pack") or ""
    packs = selectors.roster_packs(roster)
    current = next((p for p in packs if str(p.pk) == chosen), roster.pack)
    target = selectors.pack_newer_version(current)
    if target is None:
        messages.info(request, _("This roster already uses the newest version of its pack."))
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
        "current": current,
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
    messages.success(
        request, _("Share link created: {token}").format(token=request.build_absolute_uri(f"/s/{link.token}/"))
    )
    return redirect(reverse("armies:roster", args=[roster.pk]) + "#sharing")


@login_required
@require_POST
def link_revoke(request, roster_id, link_id):
    roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
    if roster.owner_id != request.user.pk:
        raise PermissionDenied(_("Only the roster's owner manages its share links."))
    link = selectors.roster_share_links(roster).filter(pk=link_id).first()
    if link is None:
        raise Http404(_("No such link."))
    services.share_link_revoke(link=link)
    messages.success(request, _("The link no longer works."))
    return redirect(reverse("armies:roster", args=[roster.pk]) + "#sharing")


# Shared by link (read-only) ----------------------------------------------------------------------------------
def _read_only(request):
    if request.method not in ("GET", "HEAD"):
        raise PermissionDenied(_("Share links are read-only."))


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
    messages.success(request, _("Copied into your rosters as «{name}».").format(name=copy.name))
    return redirect("armies:roster", roster_id=copy.pk)
