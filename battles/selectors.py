"""Reads of battles, always filtered by who asks.

Who sees a battle:
- its players (a user holding one of its sides) read and write (each acts with their own units);
- a spectator, who opened the battle's spectator link (the token is kept in their session, or sent as `?watch=`),
  reads only: writes get 403;
- anyone else gets 404, so nothing is revealed.
"""

from __future__ import annotations

import copy
import re
import secrets
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Prefetch, QuerySet, Subquery
from django.http import Http404
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from battles import game, rows
from battles.memo import Memo, digest
from battles.models import Battle, BattleEvent, BattleSide, BattleUnit
from rules import dice as dicelib
from rules.contract import GameState, UnitRecord

SESSION_KEY = "battle_watch"
PLAYER = "player"
SPECTATOR = "spectator"
EVENTS_PAGE = 200


@dataclass
class Access:
    battle_id: int
    role: str  # PLAYER | SPECTATOR
    version: int
    sides: tuple[int, ...] = ()
    salt: str = field(default="", repr=False)  # the battle's spectator token: tells this battle from a reused id

    @property
    def can_write(self) -> bool:
        return self.role == PLAYER

    @property
    def etag(self) -> str:
        return f'"v{self.version}"'


def watch_tokens(request) -> dict:
    session = getattr(request, "session", None)
    return dict(session.get(SESSION_KEY, {})) if session is not None else {}


def remember_watch(request, battle: Battle) -> None:
    tokens = watch_tokens(request)
    tokens[str(battle.pk)] = battle.spectator_token
    request.session[SESSION_KEY] = tokens


def battle_access(request, battle_id) -> Access:
    """Who the requester is for this battle, in one query on the battle row (cheap enough for every conditional
    poll). Raises Http404 for outsiders."""
    if not str(battle_id).isdigit():
        raise Http404(_("No such battle."))
    row = rows.battle_head(int(battle_id))
    if row is None:
        raise Http404(_("No such battle."))
    version, spectator_token, players = row
    user = request.user
    if user.is_authenticated and players.get(str(user.pk)):
        return Access(int(battle_id), PLAYER, version, tuple(sorted(players[str(user.pk)])), spectator_token)
    token = request.GET.get("watch") or watch_tokens(request).get(str(battle_id))
    if token and secrets.compare_digest(str(token), spectator_token):
        return Access(int(battle_id), SPECTATOR, version, salt=spectator_token)
    raise Http404(_("No such battle."))


def battle_for(access: Access) -> Battle:
    """The battle an Access was granted for (404 if it went away since)."""
    battle = rows.battle(access.battle_id)
    if battle is None:
        raise Http404(_("No such battle."))
    return battle


def unchanged_etag(request, battle_id) -> str | None:
    """The ETag of a battle whose state the caller already holds (If-None-Match), or None.

    The fast path of conditional polling, taken before DRF runs: with an API token, one query joins the token, its
    user and the battle row. None means "not provably unchanged for a player or spectator" (stale ETag, unknown
    token, outsider…): the caller then answers through the full view, which gives 200, 401 or 404 as usual."""
    given = request.headers.get("If-None-Match", "").strip()
    if request.method != "GET" or not given or not str(battle_id).isdigit():
        return None
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Token "):
        from rest_framework.authtoken.models import Token

        holder = Token.objects.filter(key=auth[6:].strip(), user__is_active=True).values("user_id")[:1]
        rows = (
            Battle.objects.filter(pk=battle_id)
            .order_by()
            .annotate(token_user=Subquery(holder))
            .values_list("version", "players", "token_user")[:1]
        )
        row = next(iter(rows), None)
        if row is None or row[2] is None:
            return None
        version, players, user_id = row
        if not players.get(str(user_id)):
            return None
    else:
        try:
            version = battle_access(request, battle_id).version  # session user or spectator token
        except Http404:
            return None
    etag = f'"v{version}"'
    return etag if given == etag else None


def wait_for_change(battle_id: int, version: int, *, seconds: float) -> int:
    """The battle's version once it differs from `version`, or `version` after `seconds` (long polling, through the
    process's one watcher thread: battles/watch.py)."""
    from battles.watch import WATCH

    return WATCH.wait(battle_id, version, seconds=seconds)


async def wait_for_change_async(battle_id: int, version: int, *, seconds: float) -> int:
    """`wait_for_change` for the async views (config/asgi.py): awaits the same watcher, holding no thread."""
    from battles.watch import WATCH

    return await WATCH.wait_async(battle_id, version, seconds=seconds)


def release_connection() -> None:
    """Before a wait: gives this thread's pooled (PostgreSQL) connection back to the pool, so a waiting phone holds
    none. An unpooled one (SQLite: a file, no server's limit, and slow to open again) stays with its thread, which
    serves others meanwhile under config/asgi.py. A transaction (a test's) keeps it."""
    from django.db import connection

    if connection.settings_dict.get("OPTIONS", {}).get("pool") and not connection.in_atomic_block:
        connection.close()


def watch_stopped() -> bool:
    """True once the process's watcher was stopped (the server or the test session is ending)."""
    from battles.watch import WATCH

    return WATCH.stopped


def battle_for_watch_token(token: str) -> Battle:
    battle = Battle.objects.filter(spectator_token=token).first() if token else None
    if battle is None:
        raise Http404(_("This spectator link does not exist."))
    return battle


def side_for_invite(token: str) -> BattleSide:
    side = BattleSide.objects.select_related("battle", "player").filter(invite_token=token).first() if token else None
    if side is None:
        raise Http404("This invitation link does not exist.")
    return side


def roster_from_share_link(link: str):
    """A roster behind an armies share link ("https://…/s/<token>/" or the bare token); Http404 if none."""
    from armies.selectors import roster_from_share_link as by_link

    return by_link(link)


def battles_for_user(user) -> QuerySet[Battle]:
    if not user.is_authenticated:
        return Battle.objects.none()
    mine = BattleSide.objects.filter(battle=OuterRef("pk"), player=user)
    return (
        Battle.objects.filter(Exists(mine))
        .prefetch_related(Prefetch("sides", queryset=BattleSide.objects.defer("snapshot").select_related("player")))
        .order_by("-updated_at", "-id")
    )


def battle_sides(battle: Battle) -> list[BattleSide]:
    return list(BattleSide.objects.filter(battle=battle).select_related("player").defer("snapshot").order_by("index"))


def battle_units(battle: Battle) -> list[BattleUnit]:
    # Not the side's roster snapshot nor the initial states: the board needs the current state only.
    return list(
        BattleUnit.objects.filter(battle=battle)
        .select_related("side")
        .only("key", "name", "kind", "position", "profile", "state", "side__index")
        .order_by("position", "id")
    )


def battle_state(battle: Battle, access: Access) -> dict:
    """Everything a phone shows, as this viewer may see it: the game (secrets of other sides removed by the
    system), whom the game awaits, the sides and every unit with the system's view of it.

    Read as plain rows (battles/rows.py), not model instances: this runs on every poll that finds a change."""
    part = game.battle_part(battle.system)
    viewer = frozenset(access.sides)
    sides = rows.sides(battle.pk)
    units = rows.units(battle.pk)
    state = GameState(
        game=battle.state or {},
        units={key: UnitRecord(key, side, profile, st, name, kind) for key, side, profile, st, name, kind in units},
        settings=battle.settings,
    )
    side_names = {index: name for index, name, _, _ in sides}
    unit_rows = []
    for key, side, _profile, _state, name, kind in units:
        owner = part.owner(state, key)
        unit_rows.append(
            {
                "key": key,
                "name": name,
                "kind": kind,
                "side": side,
                "owner": owner,
                "owner_name": side_names.get(owner, ""),
                "mine": owner in viewer,
                "view": part.unit_view(state, state.units[key], viewer),
            }
        )
    awaiting = part.awaiting(state)
    return {
        "id": battle.pk,
        "name": battle.name,
        "system": battle.system,
        "rules_version": battle.rules_version,
        "version": battle.version,
        "status": battle.status,
        "mission": battle.mission,
        "settings": battle.settings,
        "game": part.redact_game(copy.deepcopy(state.game), viewer),
        "awaiting": awaiting.as_dict(),
        "your_move": awaiting.kind in ("sides", "all", "question") and bool(set(awaiting.sides) & viewer),
        "sides": [
            {"index": index, "name": name, "faction": faction, "player": player, "mine": index in viewer}
            for index, name, faction, player in sides
        ],
        "viewer": {"role": access.role, "sides": list(access.sides)},
        "units": unit_rows,
    }


def can_see(event: BattleEvent, sides) -> bool:
    """Public events, and the secret ones of the viewer's own sides (spectators hold no side)."""
    return event.visible_to is None or bool(set(event.visible_to) & set(sides))


def battle_events(battle: Battle, *, sides=(), after: int = 0, limit: int = EVENTS_PAGE) -> tuple[list[dict], bool]:
    """Events after `after` that this viewer may see (for a phone catching up), with a readable line each.
    Returns (events, has_more)."""
    rows = list(
        BattleEvent.objects.filter(battle=battle, seq__gt=after)
        .select_related("actor", "undoes", "cause")
        .order_by("seq")[: limit + 1]
    )
    has_more = len(rows) > limit
    names = name_maps(battle)
    undone = undone_seqs(battle)
    part = game.battle_part(battle.system)
    names_key = digest(names)
    page = [
        event_dict(e, names=names, undone=undone, part=part, names_key=names_key)
        for e in rows[:limit]
        if can_see(e, sides)
    ]
    return page, has_more


def name_maps(battle: Battle) -> dict:
    return game.name_maps(battle)


def undone_seqs(battle: Battle, marks: game.BoardMarks | None = None) -> set[int]:
    """Seqs of commands whose effect is currently cancelled (for the log's strike-through; their caused events
    are marked through `cause`)."""
    return game.undone_heads(battle, marks)


# A log line's text, once per event, language and set of names (names may change in play): the board shows the
# last lines on every render, and a system's describer is not free.
_EVENT_TEXTS: Memo[str] = Memo(8192)


def event_text(part, event: BattleEvent, names: dict, names_key: bytes | None = None) -> str:
    key = (event.pk, event.battle_id, event.seq, event.created_at, get_language(), names_key or digest(names))
    return _EVENT_TEXTS.get_or_make(key, lambda: game.describe_event(part, event, names))


def event_dict(
    event: BattleEvent, *, names: dict, part, undone: set[int] | None = None, names_key: bytes | None = None
) -> dict:
    """Needs `actor`, `undoes` and `cause` loaded (select_related), or read by rows.log_events."""
    if hasattr(event, "cause_seq"):  # rows.log_events: the related names and seqs came with the row
        actor, cause_seq, undoes_seq = event.actor_name, event.cause_seq, event.undoes_seq
    else:
        actor = event.actor.get_username() if event.actor_id and event.actor else None
        cause_seq = event.cause.seq if event.cause_id else None
        undoes_seq = event.undoes.seq if event.undoes_id and event.undoes else None
    undone = undone or set()
    return {
        "seq": event.seq,
        "type": event.type,
        "actor": actor,
        "side": event.side_index,
        "payload": event.payload,
        "dice": [
            dict(d, label=event_die_label(d, names), name=_("D{faces}").format(faces=d.get("faces")))
            for d in event.dice or ()
            if isinstance(d, dict)
        ],
        "cause": cause_seq,
        "undoes": undoes_seq,
        "undone": event.seq in undone or (cause_seq is not None and cause_seq in undone),
        "text": event_text(part, event, names, names_key),
        "created_at": event.created_at.isoformat(),
    }


_EVENT_LINES: Memo[dict] = Memo(8192)  # a log line as event_dict draws it, but for `undone` (which can change)


def battle_log(
    battle: Battle, *, sides=(), limit: int | None = None, marks: game.BoardMarks | None = None
) -> list[dict]:
    """The history this viewer may see, newest first, with undone commands marked (`marks`: the board's read of
    the undos and closing points, shared with its undo proposal)."""
    names = name_maps(battle)
    undone = undone_seqs(battle, marks)
    part = game.battle_part(battle.system)
    names_key = digest(names)
    if limit is None:
        qs = BattleEvent.objects.filter(battle=battle).select_related("actor", "undoes", "cause").order_by("-seq")
        seen = [e for e in qs.iterator() if can_see(e, sides)]
        lines = [event_dict(e, names=names, undone=undone, part=part, names_key=names_key) for e in seen]
        return _with_undo_marks(battle, part, sides, lines, undone)
    # The board's last lines: read only the keys of the newest events, and draw only those not drawn before (on a
    # board that changes one event at a time, that is the newest one).
    visible, offset = [], 0
    while len(visible) < limit:  # read in pages until `limit` visible events are found (secrets are few)
        page = rows.event_heads(battle.pk, limit=limit * 2, offset=offset)
        visible += [(pk, created) for pk, created, to in page if to is None or set(to) & set(sides)]
        offset += len(page)
        if len(page) < limit * 2:
            break
    visible = dict(visible[:limit])  # id -> created_at, as the driver gave it (part of the memo's key)
    language = get_language()
    lines = {pk: _EVENT_LINES.get((pk, created, language, names_key)) for pk, created in visible.items()}
    missing = [pk for pk, line in lines.items() if line is None]
    for event in rows.log_events(battle.pk, missing):
        line = event_dict(event, names=names, part=part, names_key=names_key)
        lines[event.pk] = _EVENT_LINES.put((event.pk, visible[event.pk], language, names_key), line)
    return _with_undo_marks(battle, part, sides, [lines[pk] for pk in visible], undone, marks)


def _with_undo_marks(
    battle: Battle, part, sides, lines: list[dict], undone: set[int], marks: game.BoardMarks | None = None
) -> list[dict]:
    """The lines with what may change since they were drawn: `undone`, and for this viewer whether undoing one needs
    the other players' agreement (`needs_agreement`: a reveal or an answered question they saw came at or after it)
    and whether it is a step of a two-player undo (`undo_step`: withdrawn or declined, never undone)."""
    needs = game.agreement_needed(battle, part, sides, marks)
    return [
        {
            **line,
            "undone": line["seq"] in undone or (line["cause"] is not None and line["cause"] in undone),
            "needs_agreement": needs(line["seq"]),
            "undo_step": line["type"] in game.UNDO_STEPS,
        }
        for line in lines
    ]


def undo_proposal(battle: Battle, access: Access, user, marks: game.BoardMarks | None = None) -> dict | None:
    """The open proposal to undo, as this viewer's board shows it: what it would undo, who proposed it, whose
    agreement it still waits for, and whether this viewer confirms (or declines) or withdraws it."""
    row = game.open_proposal(battle, marks)
    if row is None:
        return None
    part = game.battle_part(battle.system)
    names = name_maps(battle)
    waiting = set(row.payload.get("needs", [])) - game.agreed_sides(battle, row)
    mine = access.can_write and user is not None and row.actor_id == getattr(user, "pk", None)
    sides = names["sides"]
    actor = row.actor.get_username() if row.actor_id and row.actor else ""
    return {
        "seq": row.seq,
        "undoes": row.payload.get("undoes"),
        "text": event_text(part, row, names),
        "proposer": sides.get(row.side_index, actor) if row.side_index is not None else actor,
        "waiting_for": ", ".join(str(sides.get(s, s)) for s in sorted(waiting)),
        "can_answer": access.can_write and not mine and bool(set(access.sides) & waiting),
        "can_withdraw": bool(mine),
    }


# Typed-in dice ------------------------------------------------------------------------------------------------
PROBE_SEEDS = 8  # dry runs that continue past the typed dice: the longest shows every die the test may still need


class _ProbeDice(dicelib.SeededDice):
    """The dice a command asks for, in order: the typed-in ones first, then seeded ones standing for the dice still
    to be rolled at the table."""

    def __init__(self, typed: list, seed: int):
        super().__init__(seed)
        self.typed = typed

    def roll(self, faces: int, purpose: str) -> int:
        position = len(self.rolls)
        value = self.typed[position] if position < len(self.typed) else None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
            return super().roll(faces, purpose)
        return self._record(faces, value, purpose)


_WHO = re.compile(r"^(?P<what>[^:]+): (?P<who>.+?)(?: \(re-roll (?P<n>\d+)\))?$")


def event_die_label(die: dict, names: dict) -> str:
    """A die of the log as the table says it, its purpose in the reader's language; a roll-off's "initiative: 0"
    names the side by its name («Д12 инициатива: Синие»), never by its index."""
    faces = die.get("faces") or 0
    match = _WHO.match(str(die.get("purpose") or ""))
    if not match or not match["who"].isdigit():
        return die_label(faces, die.get("purpose") or "")
    who = match["who"]
    sides = (names or {}).get("sides") or {}
    if who.isdigit():
        who = sides.get(int(who)) or sides.get(who) or who
    text = _("{what}: {who}").format(what=_(match["what"]), who=who)
    if match["n"]:
        text += " " + _("(re-roll {n})").format(n=match["n"])
    return f"{_('D{faces}').format(faces=faces)} {text}"


def die_label(faces: int, purpose: str) -> str:
    """A die as the table says it: «Д12 дальность», «Д20 мощь 2 из 3» (the purpose in the reader's language)."""
    return f"{_('D{faces}').format(faces=faces)} {dicelib.purpose_words(purpose or '')}".strip()


def command_dice(battle: Battle, access: Access, name: str, inputs: dict, typed: list) -> dict:
    """Which dice a command would use with these inputs, one labelled box each, in the order it uses them: a dry
    run through the system's own handler (nothing is stored). Past the dice already typed in, the longest of a few
    seeded runs shows what may still be asked (a hit asks for its power dice). A rule error is answered too, so
    the form can say it before anything is rolled."""
    from rules.contract.battle import run_command
    from rules.errors import ArmlistError

    part = game.battle_part(battle.system)
    base = game.load_state(battle)
    runs, error = [], ""
    for seed in range(PROBE_SEEDS):
        probe = _ProbeDice(typed, seed)
        try:
            run_command(
                part,
                copy.deepcopy(base),
                name,
                copy.deepcopy(inputs),
                sides=frozenset(access.sides),
                next_seq=battle.version + 1,
                dice_source=lambda probe=probe: probe,
            )
        except ArmlistError as exc:
            error = exc.message
        runs.append(probe.rolls)
        if not probe.rolls:
            break
    longest = max(runs, key=len) if runs else []
    return {
        "dice": [
            {"faces": r.faces, "purpose": r.purpose, "label": die_label(r.faces, r.purpose), "typed": i < len(typed)}
            for i, r in enumerate(longest)
        ],
        "error": error if not longest else "",
    }


# Starting a battle -------------------------------------------------------------------------------------------
def faction_names(rosters) -> dict:
    """{(pack id, faction slug): its name in the pack}, to show «Протекторат», never the code `protectorate`."""
    from armies.models import Faction

    wanted = {(r.pack_id, r.faction) for r in rosters if r.faction}
    if not wanted:
        return {}
    rows = Faction.objects.filter(pack_id__in={p for p, _ in wanted}).values_list("pack_id", "slug", "name")
    return {(pack, slug): name for pack, slug, name in rows if (pack, slug) in wanted}


def faction_name(pack_id, slug: str) -> str:
    from armies.models import Faction

    if not slug:
        return ""
    return Faction.objects.filter(pack_id=pack_id, slug=slug).values_list("name", flat=True).first() or slug


def roster_problems(rosters) -> dict:
    """{roster id: [the errors its game system finds («380 of 300 points»)]}: shown before a battle starts from it;
    the players may still go on (a friendly game over the limit)."""
    from armies.selectors import roster_report

    found = {}
    for roster in rosters:
        errors = [i.message for i in roster_report(roster).issues if i.severity == "error"]
        if errors:
            found[roster.pk] = errors
    return found
