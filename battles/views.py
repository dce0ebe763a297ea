"""Battle pages: the list, starting a battle, the phone board (polled as an HTML fragment with ETag), the log,
joining by invitation and watching by spectator link. Thin: reads in selectors, writes in services."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from armies.selectors import roster_get_for_user, roster_list_for_user
from battles import rules_bridge, selectors, services
from battles.models import Battle

BOARD_LOG_LINES = 12


@login_required
@require_GET
def battle_list(request):
    battles = selectors.battles_for_user(request.user)
    return render(request, "battles/list.html", {"battles": battles})


def _settings_form(system: str, values: dict) -> list[dict]:
    groups = []
    for category, title in (
        ("option", "Options agreed before play"),
        ("house", "House rules"),
        ("ambiguity", "Readings of unclear rules"),
    ):
        items = [
            dict(s, value=values.get(s["key"], s["default"]))
            for s in rules_bridge.settings_for_form(system)
            if s["category"] == category
        ]
        if items:
            groups.append({"title": title, "items": items})
    return groups


def _parse_settings(system: str, post) -> dict:
    """Form values -> setting overrides; anything unreadable is reported by resolve_settings."""
    values = {}
    for setting in rules_bridge.settings_for_form(system):
        key = setting["key"]
        name = f"setting_{key}"
        if setting["kind"] == "bool":
            values[key] = post.get(name) == "on"
        elif name in post:
            raw = post.get(name, "")
            if setting["kind"] == "int" or all(isinstance(c, int) for c in setting["choices"] or [None]):
                values[key] = int(raw) if raw.strip().lstrip("-").isdigit() else raw
            else:
                values[key] = raw
    return values


@login_required
@require_http_methods(["GET", "POST"])
def battle_new(request):
    rosters = list(roster_list_for_user(request.user))
    system = "bronepekhota"
    context = {"rosters": rosters, "errors": {}, "values": {}, "chosen": [], "my_roster": None}
    if request.method == "POST":
        chosen = [r for r in request.POST.getlist("rosters") if r.isdigit()]
        my_roster = request.POST.get("my_roster", "")
        values = _parse_settings(system, request.POST)
        context.update(values=values, chosen=chosen, my_roster=my_roster)
        links = [line for line in request.POST.get("roster_links", "").splitlines() if line.strip()]
        context["roster_links"] = request.POST.get("roster_links", "")
        try:
            picked = [roster_get_for_user(request.user, rid) for rid in chosen]
            picked += [selectors.roster_from_share_link(link) for link in links[:6]]
            my_side = chosen.index(my_roster) if my_roster in chosen else 0
            battle = services.battle_create(
                user=request.user,
                name=request.POST.get("name", ""),
                rosters=picked,
                system_settings=values,
                enforce_turns=request.POST.get("enforce_turns") == "on",
                mission=request.POST.get("mission", "")[:2000],
                my_side=my_side,
            )
        except Http404:
            context["errors"] = {
                "rosters": "One of the rosters does not exist or is not visible to you, or a share link was revoked."
            }
        except rules_bridge.RuleInputError as exc:
            context["errors"] = exc.errors
        else:
            messages.success(request, "Battle started. Send the invitation link to your opponent.")
            return redirect("battles:detail", battle_id=battle.pk)
    context["setting_groups"] = _settings_form(system, context["values"])
    status = 400 if context["errors"] else 200
    return render(request, "battles/new.html", context, status=status)


def _board_context(request, access: selectors.Access) -> dict:
    battle = Battle.objects.get(pk=access.battle_id)
    access.version = battle.version
    state = selectors.battle_state(battle, access)
    names = {s["index"]: s["name"] for s in state["sides"]}
    groups = []
    for side in sorted(state["sides"], key=lambda s: (not s["mine"], s["index"])):
        units = [u for u in state["units"] if u["owner"] == side["index"]]
        lost = sum(1 for u in state["units"] if u["side"] == side["index"] and not u["view"]["alive"])
        groups.append(
            {"side": side, "units": units, "soldiers": state["soldiers"].get(str(side["index"]), 0), "lost": lost}
        )
    initiative = state["initiative"]
    standing = [s["index"] for s in state["sides"] if s["index"] not in state["eliminated"]]
    order_choices = []
    if initiative and not state["order"] and initiative["winner"] in access.sides:
        for first in standing:
            order = [first] + [s for s in standing if s != first]
            order_choices.append({"label": f"{names[first]} first", "order": json.dumps(order)})
    result = state["result"]
    active = state.get("units") and next(
        (u for u in state["units"] if u["key"] == (battle.state or {}).get("active_unit")), None
    )
    return {
        "battle": battle,
        "state": state,
        "access": access,
        "groups": groups,
        "names": names,
        "turn_name": names.get(state["turn"]),
        "my_turn": state["turn"] in access.sides,
        "active_unit": active,
        "winner_name": names.get(result["winner"]) if result else None,
        "initiative_winner": names.get(initiative["winner"]) if initiative else None,
        "order_names": [names[s] for s in state["order"]],
        "order_choices": order_choices,
        "standing": [{"index": s, "name": names[s]} for s in standing],
        "log": selectors.battle_log(battle, limit=BOARD_LOG_LINES),
        "client": rules_bridge.client_data(battle, state),
        "undo_enabled": access.can_write,
        "covers": rules_bridge.COVER_LABELS.items(),
    }


@require_GET
def battle_detail(request, battle_id):
    access = selectors.battle_access(request, battle_id)
    context = _board_context(request, access)
    battle = context["battle"]
    if access.can_write:
        sides = selectors.battle_sides(battle)
        context["invitations"] = [
            {"side": s, "url": request.build_absolute_uri(reverse("battles:join", args=[s.invite_token]))}
            for s in sides
            if s.player_id is None
        ]
        context["spectator_url"] = request.build_absolute_uri(reverse("battles:watch", args=[battle.spectator_token]))
    return render(request, "battles/detail.html", context)


@require_GET
def battle_board(request, battle_id):
    """The board as an HTML fragment for polling: 304 while the battle's version (the ETag) is unchanged."""
    access = selectors.battle_access(request, battle_id)
    if request.headers.get("If-None-Match", "").strip() == access.etag:
        response = HttpResponseNotModified()
    else:
        context = _board_context(request, access)
        response = render(request, "battles/_board.html", context)
    response["ETag"] = access.etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie"
    return response


@require_GET
def battle_log_page(request, battle_id):
    access = selectors.battle_access(request, battle_id)
    battle = Battle.objects.get(pk=access.battle_id)
    return render(
        request, "battles/log.html", {"battle": battle, "log": selectors.battle_log(battle), "access": access}
    )


@login_required
@require_http_methods(["GET", "POST"])
def battle_join(request, token):
    side = selectors.side_for_invite(token)
    if request.method == "POST":
        try:
            services.battle_join(token=token, user=request.user)
        except services.BattleConflict as exc:
            return render(request, "battles/join.html", {"side": side, "error": exc.message}, status=409)
        messages.success(request, f"You play {side.name}.")
        return redirect("battles:detail", battle_id=side.battle_id)
    if side.player_id == request.user.id:
        return redirect("battles:detail", battle_id=side.battle_id)
    return render(request, "battles/join.html", {"side": side, "error": None})


@require_GET
def battle_watch(request, token):
    """A spectator link: remembered in the session, it opens the battle read-only."""
    battle = selectors.battle_for_watch_token(token)
    selectors.remember_watch(request, battle)
    return redirect("battles:detail", battle_id=battle.pk)
