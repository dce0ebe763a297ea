"""Battle pages: the list, starting a battle, the phone board (polled as an HTML fragment with ETag), the log,
joining by invitation and watching by spectator link. Thin: reads in selectors, writes in services."""

from __future__ import annotations

import time

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import Http404, HttpResponse, HttpResponseNotModified, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from armies.selectors import roster_get_for_user, roster_list_for_user
from battles import board_widgets, game, selectors, services
from battles.memo import Memo
from battles.models import Battle
from battles.results.selectors import panel as result_panel
from config.qr import phone_url
from rules.errors import RuleInputError
from rules.registry import all_systems, get_system
from rules.sources import book_source

BOARD_LOG_LINES = 12


@login_required
@require_GET
def battle_list(request):
    battles = selectors.battles_for_user(request.user)
    return render(request, "battles/list.html", {"battles": battles})


def _settings_form(system: str, values: dict) -> list[dict]:
    """The settings a battle may change from the book, grouped, each with its label, help and readable choices
    (rules/contract/settings.py describe()); the readings the engine takes as given (one choice) are not asked."""
    groups = []
    for category, title, help_text in (
        ("option", _("Options of the book"), _("Rules the book leaves to the players to agree before play.")),
        ("house", _("House rules"), _("Changes to the book some clubs play with.")),
        (
            "ambiguity",
            _("Readings of unclear rules"),
            _("Where the book can be read two ways: the first reading is the one the rules pages recommend."),
        ),
    ):
        items = []
        for s in [st.describe() for st in get_system(system).settings]:
            if s["category"] != category:
                continue
            value = values.get(s["key"], s["default"])
            default_label = next((label for c, label in s["choice_labels"] if c == s["default"]), s["default"])
            if s["kind"] == "bool":
                default_label = _("yes") if s["default"] else _("no")
            source = book_source(s.get("source", ""))
            items.append(
                dict(s, value=value, changed=value != s["default"], default_label=default_label, source=source)
            )
        if items:
            groups.append({"title": title, "help": help_text, "items": items})
    return groups


def _parse_settings(system: str, post) -> dict:
    """Form values -> setting overrides; anything unreadable is reported by resolve_settings."""
    values = {}
    for setting in [st.describe() for st in get_system(system).settings]:
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
    playable = [s for s in all_systems() if s.battle is not None]
    wanted = request.POST.get("system") or request.GET.get("system") or (rosters[0].system if rosters else "")
    system = next((s.slug for s in playable if s.slug == wanted), playable[0].slug if playable else "")
    shown = [r for r in rosters if r.system == system]
    names = selectors.faction_names(shown)
    context = {
        "rosters": [
            {"roster": r, "faction": names.get((r.pack_id, r.faction), r.faction), "problems": []} for r in shown
        ],
        "systems": [{"slug": s.slug, "name": s.name} for s in playable],
        "system": system,
        "errors": {},
        "values": {},
        "chosen": [],
        "my_roster": None,
        "rules": "book",
        "problems": [],
    }
    if request.method == "POST":
        chosen = [r for r in request.POST.getlist("rosters") if r.isdigit()]
        my_roster = request.POST.get("my_roster", "")
        # "The book's rules" is one choice: the house rules below it are read only when the player chose them.
        rules = "house" if request.POST.get("rules") == "house" else "book"
        values = _parse_settings(system, request.POST) if rules == "house" else {}
        context.update(values=values, chosen=chosen, my_roster=my_roster, rules=rules)
        links = [line for line in request.POST.get("roster_links", "").splitlines() if line.strip()]
        context["roster_links"] = request.POST.get("roster_links", "")
        battle = None
        try:
            picked = [roster_get_for_user(request.user, rid) for rid in chosen]
            picked += [selectors.roster_from_share_link(link) for link in links[:6]]
            my_side = chosen.index(my_roster) if my_roster in chosen else 0
            problems = selectors.roster_problems(picked)
            if problems and request.POST.get("accept_problems") != "on":
                # Warn and let the player go on: the same form, with a tick to start anyway; nothing is started.
                context["problems"] = [{"name": r.name, "errors": problems[r.pk]} for r in picked if r.pk in problems]
            else:
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
                "rosters": _("One of the rosters does not exist or is not visible to you, or a share link was revoked.")
            }
        except RuleInputError as exc:
            context["errors"] = exc.errors
        if battle is not None:
            messages.success(request, _("Battle started. Send the invitation link to your opponent."))
            return redirect("battles:detail", battle_id=battle.pk)
    context["setting_groups"] = _settings_form(system, context["values"])
    context["setting_count"] = sum(len(g["items"]) for g in context["setting_groups"])
    status = 400 if context["errors"] else 200
    return render(request, "battles/new.html", context, status=status)


def _board_context(request, access: selectors.Access) -> dict:
    battle = selectors.battle_for(access)
    access.version = battle.version
    state = selectors.battle_state(battle, access)
    part = game.battle_part(battle.system)
    viewer = frozenset(access.sides)
    marks = game.BoardMarks(battle, part)  # the log's undo marks and the open proposal read the log once
    return {
        "battle": battle,
        "state": state,
        "access": access,
        "board": board_widgets.prepare_board(part.board(state, viewer, can_write=access.can_write)),
        "board_template": part.board_template,
        "board_script": part.board_script,
        "log": selectors.battle_log(battle, sides=access.sides, limit=BOARD_LOG_LINES, marks=marks),
        "client": part.client_data(state),
        "undo_enabled": access.can_write,
        "undo_proposal": selectors.undo_proposal(battle, access, request.user, marks),
        "result_panel": result_panel(battle, access, request.user, over=state["awaiting"]["kind"] == "over"),
    }


@require_GET
def battle_detail(request, battle_id):
    access = selectors.battle_access(request, battle_id)
    context = _board_context(request, access)
    battle = context["battle"]
    if access.can_write:
        sides = selectors.battle_sides(battle)
        # The addresses a phone on the club's Wi-Fi can open (not 127.0.0.1 when the laptop opened the page).
        context["invitations"] = [
            {"side": s, "url": phone_url(reverse("battles:join", args=[s.invite_token]), request)}
            for s in sides
            if s.player_id is None
        ]
        context["spectator_url"] = phone_url(reverse("battles:watch", args=[battle.spectator_token]), request)
    return render(request, "battles/detail.html", context)


BOARD_CACHE_SIZE = 256  # rendered boards kept per server process: a few versions of every battle being played
_boards: Memo[tuple[str, str]] = Memo(BOARD_CACHE_SIZE)


def _rendered_board(request, access: selectors.Access) -> tuple[str, str]:
    """(HTML, ETag) of the board fragment for this viewer, rendered once per (battle, version, what the viewer may
    see, language): both phones of a side and every spectator share one render. The key holds the viewer's role and
    sides because the board shows each side's secrets only to that side; the battle's spectator token stands for
    this very battle (ids may be reused by a test database)."""
    key = (access.battle_id, access.version, access.role, access.sides, access.salt, translation.get_language())
    hit = _boards.get(key)
    if hit is not None:
        return hit
    context = _board_context(request, access)  # may read a newer version than asked: cached under the one it drew
    html = render_to_string("battles/_board.html", context, request=request)
    _boards.put((access.battle_id, access.version, *key[2:]), (html, access.etag))
    return html, access.etag


@require_GET
def battle_board(request, battle_id):
    """The board as an HTML fragment for polling: 304 while the battle's version (the ETag) is unchanged.

    Long polling: with `?wait=N` (seconds, at most LONG_POLL_SECONDS) an unchanged board is held until the battle
    changes or the time runs out, so the other phone sees a change within a fraction of a second. With `&notify=1`
    a change is answered 204 with the new ETag and no board (nothing rendered on the wake): the phone fetches the
    board only when it does not hold that version yet (the phone that wrote it usually does).

    This is the view of a WSGI server (and of the tests' client), where the wait holds the request's thread. The
    server `make run` starts answers a long poll with `battle_board_wait` instead (config/asgi.py), which holds no
    thread while it waits."""
    access = selectors.battle_access(request, battle_id)
    given = request.headers.get("If-None-Match", "").strip()
    wait = _wait_seconds(request.GET.get("wait"))
    if wait and given == access.etag:
        selectors.release_connection()
        version = selectors.wait_for_change(access.battle_id, access.version, seconds=wait)
        if version != access.version:
            if request.GET.get("notify") == "1":
                return _changed(version)
            access = selectors.battle_access(request, battle_id)
    return _board_answer(request, access, given)


@require_GET
async def battle_board_wait(request, battle_id):
    """`battle_board` as a coroutine, for a long poll under config/asgi.py: the reads and the render run in a
    thread for a moment each, and the wait is an await on the process's watcher (battles/watch.py), so a waiting
    phone holds neither a thread nor a database connection."""
    access = await sync_to_async(selectors.battle_access)(request, battle_id)
    given = request.headers.get("If-None-Match", "").strip()
    wait = _wait_seconds(request.GET.get("wait"))
    if wait and given == access.etag:
        version = await selectors.wait_for_change_async(access.battle_id, access.version, seconds=wait)
        if version != access.version:
            if request.GET.get("notify") == "1":
                return _changed(version)
            access = await sync_to_async(selectors.battle_access)(request, battle_id)
    return await sync_to_async(_board_answer)(request, access, given)


def _changed(version: int) -> HttpResponse:
    """A long poll's "changed to this version": 204 with the new ETag, no board."""
    response = HttpResponse(status=204)
    response["ETag"] = f'"v{version}"'
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie"
    return response


def _board_answer(request, access: selectors.Access, given: str) -> HttpResponse:
    if given == access.etag:
        response = HttpResponseNotModified()
    else:
        html, etag = _rendered_board(request, access)  # a miss draws the newest version and moves access to it
        response = HttpResponse(html)
    response["ETag"] = access.etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie"
    return response


# config/asgi.py answers a board request that carries `wait` with the coroutine, every other one with the sync view.
battle_board.async_view = battle_board_wait
battle_board.async_if = lambda query: b"wait=" in query

STREAM_SECONDS = 120.0  # a stream ends after this long and the phone's EventSource opens a new one (access re-checked)
STREAM_PING_SECONDS = 15.0  # a comment line this often keeps the connection (and any proxy) from timing out


@require_GET
def battle_stream(request, battle_id):
    """Server-sent events: `event: version` with the battle's version at the start and on every change, so a phone
    learns of the other phone's change without a request per change (issue #11: a long poll costs a new request
    after every change, on both phones). The phone then fetches the board when it lacks that version. Carries no
    game content: only the version, which the board's ETag shows to the same viewers anyway.

    This is the view of a WSGI server (and of the tests' client), where the open stream holds a thread. The server
    `make run` starts answers with `battle_stream_async` instead (config/asgi.py)."""
    access = selectors.battle_access(request, battle_id)

    def events():
        if not connection.in_atomic_block:
            connection.close()  # waiting reads nothing: the process's one watcher reads for every stream
        version = access.version
        yield _first_event(version)
        end = time.monotonic() + STREAM_SECONDS
        while (left := end - time.monotonic()) > 0 and not selectors.watch_stopped():
            seen = selectors.wait_for_change(access.battle_id, version, seconds=min(STREAM_PING_SECONDS, left))
            yield _event(seen) if seen != version else _PING
            version = seen

    return _stream_response(events())


@require_GET
async def battle_stream_async(request, battle_id):
    """`battle_stream` as a coroutine (config/asgi.py): the access check runs in a thread for a moment; then the
    stream is an async generator awaiting the process's watcher, so an open stream holds no thread and no database
    connection, and a phone that goes away ends it at once (its task is cancelled)."""
    access = await sync_to_async(selectors.battle_access)(request, battle_id)

    async def events():
        version = access.version
        yield _first_event(version)
        end = time.monotonic() + STREAM_SECONDS
        while (left := end - time.monotonic()) > 0 and not selectors.watch_stopped():
            seen = await selectors.wait_for_change_async(
                access.battle_id, version, seconds=min(STREAM_PING_SECONDS, left)
            )
            yield _event(seen) if seen != version else _PING
            version = seen

    return _stream_response(events())


battle_stream.async_view = battle_stream_async
_PING = ": ping\n\n"  # nothing changed: a comment line keeps the connection (and any proxy) from timing out


def _first_event(version: int) -> str:
    return f"retry: 2000\n{_event(version)}"


def _event(version: int) -> str:
    return f"event: version\ndata: {version}\n\n"


def _stream_response(events) -> StreamingHttpResponse:
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # a reverse proxy must pass each event on at once
    return response


LONG_POLL_SECONDS = 20.0


def _wait_seconds(raw) -> float:
    try:
        value = float(raw or 0)
    except ValueError:
        return 0.0
    return min(max(value, 0.0), LONG_POLL_SECONDS) if value == value else 0.0  # NaN waits not at all


@require_GET
def battle_log_page(request, battle_id):
    access = selectors.battle_access(request, battle_id)
    battle = Battle.objects.get(pk=access.battle_id)
    log = selectors.battle_log(battle, sides=access.sides)
    return render(request, "battles/log.html", {"battle": battle, "log": log, "access": access})


@login_required
@require_http_methods(["GET", "POST"])
def battle_join(request, token):
    side = selectors.side_for_invite(token)
    if request.method == "POST":
        try:
            services.battle_join(token=token, user=request.user)
        except services.GameConflict as exc:
            context = {"side": side, "error": exc.message, "faction": _side_faction(side)}
            return render(request, "battles/join.html", context, status=409)
        messages.success(request, _("You play {name}.").format(name=side.name))
        return redirect("battles:detail", battle_id=side.battle_id)
    if side.player_id == request.user.id:
        return redirect("battles:detail", battle_id=side.battle_id)
    return render(request, "battles/join.html", {"side": side, "error": None, "faction": _side_faction(side)})


def _side_faction(side) -> str:
    """The side's faction as its pack names it (the roster's pack), not its code."""
    pack_id = side.roster.pack_id if side.roster_id and side.roster else None
    return selectors.faction_name(pack_id, side.faction) if pack_id else side.faction


@require_GET
def battle_watch(request, token):
    """A spectator link: remembered in the session, it opens the battle read-only."""
    battle = selectors.battle_for_watch_token(token)
    selectors.remember_watch(request, battle)
    return redirect("battles:detail", battle_id=battle.pk)


@require_GET
def rule_page(request, battle_id, key):
    """A command's or a status's rule at hand (issue #31): the book's words, the section and page, and the house rule
    this battle plays where the book is ambiguous. Players and spectators of the battle read it; others get 404."""
    from battles.odds import rule_at_hand

    access = selectors.battle_access(request, battle_id)
    battle = selectors.battle_for(access)
    rule = rule_at_hand(battle, key)
    if rule is None:
        raise Http404(_("There is no rule by that name in this game."))
    return render(request, "battles/rule.html", {"battle": battle, "rule": rule})
