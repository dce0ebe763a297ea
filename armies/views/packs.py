"""Pages of data packs and custom units: the pack list and creation, a pack's units and versions, publishing, and
the custom-unit editor (the structured form of armies.editor, drawn from what the pack's system declares, with
the whole unit as JSON as the advanced editor)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armies import selectors, services, systems
from armies.editor import UnitEditor, editor_initial, layout_for
from armies.forms import PackCreateForm, ProfileForm
from armies.views.common import form_errors

NEW_UNIT_COST = 50


@login_required
@require_http_methods(["GET", "POST"])
def pack_list(request):
    writable = [c for c in selectors.clubs_of(request.user) if c.pk in selectors.writable_club_ids(request.user)]
    choices = systems.army_systems()
    form = PackCreateForm(request.POST or None, clubs=writable, systems=choices)
    if request.method == "POST" and form.is_valid():
        club = None
        if form.cleaned_data["club"]:
            club, _ignored = selectors.club_get_for_user(request.user, form.cleaned_data["club"], write=True)
        try:
            pack = services.pack_create(
                user=request.user,
                system=form.cleaned_data["system"] or next(iter(choices), ("", ""))[0],
                name=form.cleaned_data["name"],
                club=club,
            )
        except services.ServiceError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("Pack created. Add your units, then publish it to build rosters with it."))
            return redirect("armies:pack", pack_id=pack.pk)
    packs = (
        selectors.pack_visible_to(request.user).select_related("owner", "club").order_by("system", "slug", "-version")
    )
    return render(request, "armies/pack_list.html", {"packs": packs, "form": form})


def _kinds(pack) -> list[tuple[str, str]]:
    """(kind, label) of the units a pack's system lets players make."""
    if not systems.known_system(pack.system):
        return []
    return [(kind, form.get("label") or kind) for kind, form in layout_for(pack.system)["kinds"].items()]


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
        "system_name": systems.system_name(pack.system),
        "profiles": selectors.pack_profiles(pack),
        "factions": selectors.pack_factions(pack),
        "can_write": selectors.pack_can_write(request.user, pack),
        "kinds": _kinds(pack),
        "kind_labels": systems.kind_labels(pack.system) if systems.known_system(pack.system) else {},
        "newer": newer,
        "draft": draft if draft and draft.pk != pack.pk else None,
        "versions": selectors.pack_visible_to(request.user).filter(slug=pack.slug).order_by("-version"),
        "provenance": json.dumps(_provenance(pack.meta.get("provenance") or {}), ensure_ascii=False, indent=1),
    }
    return render(request, "armies/pack_detail.html", context)


def _provenance(value):
    """A pack's provenance in the reader's language: each key and text through the catalogues under the context
    "pack provenance" (a system translates its own pack's words there); numbers, and texts without a translation, stay
    as they are."""
    if isinstance(value, dict):
        return {_provenance(k): _provenance(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_provenance(v) for v in value]
    return pgettext("pack provenance", value) if isinstance(value, str) and value else value


def _editor_context(pack):
    """The system's editor layout, its kinds for the JSON form and its factions; 404 when it has no army builder."""
    if not systems.known_system(pack.system):
        raise Http404(_("This pack's game system has no army builder here."))
    layout = layout_for(pack.system)
    kinds = [(k, (f.get("label") or k).capitalize()) for k, f in layout["kinds"].items()]
    factions = [(f.slug, f.name) for f in selectors.pack_factions(pack)]
    return layout, kinds, factions


def _kind_of(layout: dict, *candidates) -> str:
    return next((k for k in candidates if k in layout["kinds"]), next(iter(layout["kinds"]), ""))


@login_required
@require_http_methods(["GET", "POST"])
def profile_edit(request, pack_id, slug=None):
    """A custom unit: the structured form for players, or (editor=json, or a posted `data` box) the JSON box."""
    pack = selectors.pack_get_for_user(request.user, pack_id, write=True)
    existing = selectors.pack_profiles(pack).filter(slug=slug).first() if slug else None
    if slug and existing is None:
        raise Http404(_("No such unit in this pack."))
    layout, kinds, factions = _editor_context(pack)
    mode = request.POST.get("editor") or request.GET.get("editor") or ("json" if "data" in request.POST else "form")
    kind = _kind_of(layout, existing and existing.kind, request.POST.get("kind"), request.GET.get("kind"))
    if mode == "json" or not layout["kinds"]:
        return _profile_json_edit(request, pack, existing, slug, layout=layout, kinds=kinds, factions=factions)
    form = layout["kinds"][kind]
    if request.method == "GET":
        source = (
            {**existing.as_rules_dict(), "notes": existing.notes}
            if existing
            else {"faction": factions[0][0] if factions else "", "cost": NEW_UNIT_COST, "data": form["template"]}
        )
        values = editor_initial(form, source)
    else:
        values = request.POST
    editor = UnitEditor(form, kind, values, factions=factions)
    status = 200
    action = request.POST.get("action", "save")
    if request.method == "POST" and action != "save":  # add or remove a row without JS: re-render, save nothing
        editor = UnitEditor(form, kind, editor.with_rows_changed(action), factions=factions)
    elif request.method == "POST":
        profile = editor.profile(slug=existing.slug if existing else None)
        if not editor.errors:
            try:
                saved = services.profile_save(pack=pack, data=profile, slug=slug)
            except services.ServiceError as exc:
                editor.add_service_errors(exc.errors, exc.message)
            else:
                note = "" if saved.pack_id == pack.pk else f" in the new draft version {saved.pack.version}"
                messages.success(request, _("Saved «{name}»{note}.").format(name=saved.name, note=note))
                return redirect("armies:pack", pack_id=saved.pack_id)
        status = 400
    json_form = ProfileForm(
        initial=_json_initial(layout, kind, existing), factions=factions, kinds=kinds, auto_id="json_%s"
    )
    context = {
        "pack": pack,
        "existing": existing,
        "editor": editor,
        "kind": kind,
        "kind_label": form.get("label") or kind,
        "kinds": [(k, f.get("label") or k) for k, f in layout["kinds"].items()],
        "help": layout.get("help") or [],
        "reference": layout.get("reference") or [],
        "templates": {k: f.get("template") or {} for k, f in layout["kinds"].items()},
        "json_form": json_form,
    }
    return render(request, "armies/profile_editor.html", context, status=status)


def _json_initial(layout: dict, kind: str, existing) -> dict:
    template = (layout["kinds"].get(kind) or {}).get("template") or {}
    initial = {"kind": kind, "data": json.dumps(template, ensure_ascii=False, indent=1), "cost": NEW_UNIT_COST}
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


def _profile_json_edit(request, pack, existing, slug, *, layout, kinds, factions):
    """The advanced editor: the whole unit as JSON in a text box, errors listed by field path."""
    kind = _kind_of(layout, request.GET.get("kind"))
    form = ProfileForm(
        request.POST or None, initial=_json_initial(layout, kind, existing), factions=factions, kinds=kinds
    )
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
            messages.success(request, _("Saved «{name}»{note}.").format(name=profile.name, note=note))
            return redirect("armies:pack", pack_id=profile.pack_id)
    status = 400 if request.method == "POST" else 200
    context = {
        "pack": pack,
        "form": form,
        "existing": existing,
        "reference": layout.get("reference") or [],
        "templates": {k: f.get("template") or {} for k, f in layout["kinds"].items()},
    }
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
    messages.success(request, _("Unit removed."))
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
        messages.success(
            request, _("Version {version} published: rosters can use it now.").format(version=pack.version)
        )
    return redirect("armies:pack", pack_id=pack.pk)


@login_required
@require_GET
def profile_template(request, kind):
    """The starting values of a new unit of `kind` (?system=, default: the first system that has that kind)."""
    wanted = request.GET.get("system")
    for slug, _name in systems.army_systems():
        if wanted in (None, slug):
            form = layout_for(slug)["kinds"].get(kind)
            if form is not None:
                return JsonResponse(form.get("template") or {})
    raise Http404(_("No such kind."))
