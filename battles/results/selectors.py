"""Reads of results: what the system proposes for a battle, the result panel of a board, histories, club ladders,
and real records beside the simulated odds (issue #29)."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from django.db import connection
from django.db.models import Prefetch, Q, QuerySet

from battles import game, rows
from battles import selectors as battle_selectors
from battles.models import Battle, BattleSide, BattleUnit
from battles.results import ratings
from battles.results.models import GameResult, ResultSide, ResultVote
from rules.contract import GameState, UnitRecord
from rules.registry import get_system

Z95 = 1.959963984540054


# What the system proposes -------------------------------------------------------------------------------------
@dataclass
class Proposal:
    """The result the system computes for a battle now: over or not, the winner (None: a draw or none yet), why,
    victory points where the book keeps them, and each side's losses."""

    over: bool
    winner: int | None
    draw: bool
    reason: str
    sides: list[dict]  # [{"index", "name", "points", "points_lost", "units_total", "units_lost", "vp"}]
    margin: float | None
    margin_of: str  # "vp" or "points"


def game_state(battle: Battle) -> GameState:
    """The stored state as the system's battle part reads it (plain rows, as battles.selectors.battle_state)."""
    units = rows.units(battle.pk)
    return GameState(
        game=battle.state or {},
        units={key: UnitRecord(key, side, profile, st, name, kind) for key, side, profile, st, name, kind in units},
        settings=battle.settings,
    )


def game_over(battle: Battle) -> bool:
    part = get_system(battle.system).battle
    return part.awaiting(game_state(battle)).kind == "over"


def proposal(battle: Battle) -> Proposal:
    """The system's own result (its `result_summary`) and, for every side, what it lost: the units the system's
    board draws as destroyed, and their share of their roster entry's points (the army part's pricing)."""
    system = get_system(battle.system)
    part = system.battle
    state = game_state(battle)
    over = part.awaiting(state).kind == "over"
    summary = part.result_summary(state) or {}
    sides = list(BattleSide.objects.filter(battle=battle).order_by("index"))
    everyone = battle_selectors.Access(
        battle.pk, battle_selectors.PLAYER, battle.version, tuple(s.index for s in sides)
    )
    view = battle_selectors.battle_state(battle, everyone)
    board = part.board(view, frozenset(everyone.sides), can_write=False)
    dead = {card["key"] for group in board.get("groups", []) for card in group.get("units", []) if card.get("dead")}
    units = list(BattleUnit.objects.filter(battle=battle).select_related("side").order_by("position"))
    per_entry: dict[tuple[int, str], int] = defaultdict(int)
    for u in units:
        per_entry[(u.side.index, str((u.entry or {}).get("key", u.key)))] += 1
    vp = summary.get("vp") if isinstance(summary.get("vp"), dict) else None
    rows = []
    for side in sides:
        costs = _entry_costs(system, side.snapshot)
        mine = [u for u in units if u.side_id == side.pk]
        lost_points = 0.0
        for u in mine:
            entry_key = str((u.entry or {}).get("key", u.key))
            if u.key in dead:
                lost_points += costs.get(entry_key, 0) / max(1, per_entry[(side.index, entry_key)])
        side_vp = None
        if vp is not None:
            side_vp = vp.get(str(side.index), vp.get(side.index))
        rows.append(
            {
                "index": side.index,
                "name": side.name,
                "points": float(sum(costs.values())),
                "points_lost": round(lost_points, 2),
                "units_total": len(mine),
                "units_lost": sum(1 for u in mine if u.key in dead),
                "vp": float(side_vp) if isinstance(side_vp, (int, float)) else None,
            }
        )
    winner = summary.get("winner")
    winner = winner if isinstance(winner, int) and any(r["index"] == winner for r in rows) else None
    draw = over and winner is None
    margin, margin_of = _margin(rows, winner)
    reason = summary.get("reason") or summary.get("why") or summary.get("note") or ""
    return Proposal(over, winner, draw, str(reason), rows, margin, margin_of)


def _entry_costs(system, snapshot: dict) -> dict[str, float]:
    if system.army is None or not snapshot:
        return {}
    try:
        report = system.army.cost_roster(snapshot)
    except Exception:  # noqa: BLE001 (a roster the system can no longer price costs nothing here, never a 500)
        return {}
    return {str(k): float(v or 0) for k, v in report.entry_costs.items()}


def _margin(rows: list[dict], winner: int | None) -> tuple[float | None, str]:
    """By how much: the victory points apart where the book keeps them, else the points destroyed apart."""
    if len(rows) != 2:
        return None, ""
    a, b = rows
    if a["vp"] is not None and b["vp"] is not None:
        return abs(a["vp"] - b["vp"]), "vp"
    return abs(a["points_lost"] - b["points_lost"]), "points"


# A battle's result --------------------------------------------------------------------------------------------
@cache
def _has_result_sql() -> str:
    quote = connection.ops.quote_name
    table, battle = quote(GameResult._meta.db_table), quote(GameResult._meta.get_field("battle").column)
    return f"SELECT 1 FROM {table} WHERE {battle} = %s"  # noqa: S608 - the model's own names, quoted


def has_result(battle: Battle) -> bool:
    """Whether the battle has a result (proposed or more), in one fixed statement (battles/rows.py tells why): asked
    on every board, where most battles have none yet."""
    with connection.cursor() as cursor:
        cursor.execute(_has_result_sql(), [battle.pk])
        return cursor.fetchone() is not None


def result_of(battle: Battle) -> GameResult | None:
    return (
        GameResult.objects.filter(battle=battle)
        .prefetch_related(
            Prefetch("sides", queryset=ResultSide.objects.select_related("player", "roster")),
            Prefetch("votes", queryset=ResultVote.objects.select_related("user")),
        )
        .select_related("club", "settled_by", "proposed_by")
        .first()
    )


def stale(result: GameResult, battle: Battle) -> bool:
    """A proposal the game has moved past: an event of play came after it (an undo, another shot)."""
    return (
        result.status != GameResult.Status.CONFIRMED
        and battle.events.filter(seq__gt=result.battle_version).exclude(type__in=game.RESULT_EVENTS).exists()
    )


def common_clubs(battle: Battle, sides: list[BattleSide] | None = None) -> list:
    """The clubs every player of the battle belongs to: where its result may count (`sides`: the battle's sides,
    when the caller has them already)."""
    if sides is None:
        sides = rows.side_heads(battle.pk)
    return rows.common_clubs(s.player_id for s in sides if s.player_id)


def panel(battle: Battle, access, user, *, over: bool | None = None) -> dict | None:
    """What the board shows of the result: the proposal or the system's, the votes, and what this viewer may do.
    `over`: whether the game is over, when the caller has read the state already (the board, on every change)."""
    result = result_of(battle) if has_result(battle) else None
    if over is None:
        over = game_over(battle)
    sides = rows.side_heads(battle.pk)
    if result is None and not over:
        return {
            "result": None,
            "over": False,
            "can_end": access.can_write,
            "clubs": common_clubs(battle, sides),
            "sides": sides,
        }
    mine = set(access.sides)
    players = {s.player_id for s in sides if s.player_id}
    votes = list(result.votes.all()) if result else []
    voted = next((v for v in votes if user.is_authenticated and v.user_id == user.pk), None)
    is_stale = bool(result and stale(result, battle))
    return {
        "result": result,
        "over": over,
        "stale": is_stale,
        "proposal": proposal(battle) if (result is None or is_stale) else None,
        "votes": votes,
        "waiting": sorted(players - {v.user_id for v in votes if v.choice == ResultVote.Choice.CONFIRM}),
        "my_vote": voted,
        "can_vote": access.can_write and bool(mine) and result is not None and not is_stale
        and result.status != GameResult.Status.CONFIRMED,
        "can_end": access.can_write and (result is None or is_stale or result.status != GameResult.Status.CONFIRMED),
        "clubs": common_clubs(battle, sides),
        "sides": sides,
    }  # fmt: skip


def can_settle(user, result: GameResult) -> bool:
    """The club's owner settles a disputed result of its ladder."""
    from armies.models import Membership

    return bool(
        user.is_authenticated
        and result.club_id
        and Membership.objects.filter(club_id=result.club_id, user=user, role=Membership.Role.OWNER).exists()
    )


# Histories ----------------------------------------------------------------------------------------------------
def _counted() -> QuerySet[GameResult]:
    return (
        GameResult.objects.filter(status=GameResult.Status.CONFIRMED)
        .exclude(kind=GameResult.Kind.UNFINISHED)
        .select_related("battle", "club")
        .prefetch_related(Prefetch("sides", queryset=ResultSide.objects.select_related("player", "roster")))
        .order_by("-confirmed_at", "-id")
    )


def history_for_player(user) -> list[GameResult]:
    return list(_counted().filter(sides__player=user).distinct())


def history_for_roster(roster) -> list[GameResult]:
    return list(_counted().filter(sides__roster=roster).distinct())


def history_for_club(club, system: str | None = None) -> list[GameResult]:
    found = _counted().filter(club=club)
    return list(found.filter(system=system) if system else found)


def club_systems(club) -> list[str]:
    return sorted(set(_counted().filter(club=club).values_list("system", flat=True)))


# Ladders ------------------------------------------------------------------------------------------------------
def games_of(results: list[GameResult]) -> list[ratings.Game]:
    """Confirmed results as the rating library reads them, oldest first (the order they were confirmed)."""
    games = []
    for r in sorted(results, key=lambda r: (r.confirmed_at, r.pk)):
        places = []
        for s in r.sides.all():
            if s.player_id is None:
                places = []
                break
            places.append((s.player_id, 1 if s.outcome in ("win", "draw") else 2))
        if places:
            games.append(ratings.Game(r.pk, r.confirmed_at, tuple(places)))
    return games


def club_ladder(club, system: str) -> list[ratings.Standing]:
    return ratings.ladder(games_of(history_for_club(club, system)))


# Real results beside the simulation --------------------------------------------------------------------------
@dataclass
class Record:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float | None:
        return (self.wins + self.draws / 2) / self.games if self.games else None

    def interval(self) -> tuple[float, float] | None:
        """95 % Wilson interval of the score (a draw counts ½)."""
        n = self.games
        if not n:
            return None
        p = self.score
        centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def add(self, outcome: str) -> None:
        if outcome == "win":
            self.wins += 1
        elif outcome == "draw":
            self.draws += 1
        elif outcome == "loss":
            self.losses += 1


def record_between(results: list[GameResult], mine, theirs) -> Record:
    """How side `mine` fared against side `theirs` in these results; each is a predicate on a ResultSide."""
    rec = Record()
    for r in results:
        sides = list(r.sides.all())
        if len(sides) != 2:
            continue
        for a, b in (sides, sides[::-1]):
            if mine(a) and theirs(b):
                rec.add(a.outcome)
                break
    return rec


def real_record_for_job(user, job) -> dict | None:
    """How the job's two armies fared in real games the user may see: the same rosters first, else armies of the
    same factions of the system ("similar"), from side A's view; with the simulated score beside it and whether
    the two disagree beyond their uncertainty (their 95 % intervals do not overlap)."""
    from armies.selectors import roster_visible_to

    if job.kind != "rosters" or not job.result:
        return None
    visible = _counted().filter(system=job.system).filter(
        Q(sides__player=user) | Q(club__memberships__user=user)
    ).distinct()  # fmt: skip
    results = list(visible)
    roster_a, roster_b = job.roster_a_id, job.roster_b_id
    same = record_between(results, lambda s: s.roster_id == roster_a, lambda s: s.roster_id == roster_b)
    basis = "same"
    record = same
    if not same.games:
        from armies.models import Roster

        factions = dict(
            roster_visible_to(user).filter(pk__in=[roster_a, roster_b]).values_list("pk", "faction")
        ) or dict(Roster.objects.filter(pk__in=[roster_a, roster_b]).values_list("pk", "faction"))
        fa, fb = factions.get(roster_a), factions.get(roster_b)
        record = (
            record_between(results, lambda s: s.faction == fa, lambda s: s.faction == fb) if fa and fb else Record()
        )
        basis = "similar"
    simulated = job.result.get("score_a") or {}
    real_interval = record.interval()
    disagree = bool(
        real_interval
        and simulated
        and (real_interval[1] < simulated.get("low", 0) or real_interval[0] > simulated.get("high", 1))
    )
    return {
        "basis": basis,
        "record": record,
        "interval": real_interval,
        "simulated": simulated,
        "disagree": disagree,
    }


def roster_record(user, roster) -> dict:
    """A roster's record in the real games the user may see, against each opponent army."""
    results = history_for_roster(roster)
    overall = Record()
    by_opponent: dict[str, Record] = defaultdict(Record)
    for r in results:
        sides = list(r.sides.all())
        mine = next((s for s in sides if s.roster_id == roster.pk), None)
        if mine is None:
            continue
        overall.add(mine.outcome)
        for other in sides:
            if other.index != mine.index:
                by_opponent[other.name].add(mine.outcome)
    return {"overall": overall, "by_opponent": dict(by_opponent), "games": results}


def unit_records(club, system: str) -> dict[str, Record]:
    """Per unit profile (slug): the record of the sides that took it, in the club's confirmed games."""
    records: dict[str, Record] = defaultdict(Record)
    for r in history_for_club(club, system):
        for s in r.sides.all():
            for slug in {u.get("slug") for u in s.units if u.get("slug")}:
                records[slug].add(s.outcome)
    return dict(records)


def ladder_rows(club, system: str) -> list[dict]:
    """The club's ladder for a system, each player with their rating (openskill's ordinal), record and history."""
    from django.contrib.auth import get_user_model

    standings = club_ladder(club, system)
    users = get_user_model().objects.in_bulk([s.player for s in standings])
    rows = []
    for place, s in enumerate(standings, start=1):
        rows.append(
            {
                "place": place,
                "player": users.get(s.player),
                "rating": round(s.ordinal, 1),
                "mu": round(s.mu, 2),
                "sigma": round(s.sigma, 2),
                "games": s.games,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "provisional": s.provisional,
                "history": s.history,
            }
        )
    return [r for r in rows if r["player"] is not None]


def unit_rows(club, system: str, user) -> list[dict]:
    """Per unit profile that took part in the club's confirmed games: its points, its value in the viewer's latest
    finished unit-against-unit study of the system (Bradley–Terry fitted points), and its record in real games."""
    from rules.models import BalanceJob

    records = unit_records(club, system)
    names, costs = {}, {}
    for r in history_for_club(club, system):
        for s in r.sides.all():
            for u in s.units:
                if u.get("slug"):
                    names.setdefault(u["slug"], u.get("name") or u["slug"])
                    if isinstance(u.get("cost"), (int, float)):
                        costs.setdefault(u["slug"], u["cost"])
    fitted = {}
    job = (
        BalanceJob.objects.filter(owner=user, system=system, kind="duels", status="done")
        .order_by("-finished_at", "-id")
        .first()
    )
    if job is not None and job.result:
        fitted = {u.get("slug"): u.get("fitted_cost") for u in job.result.get("units", [])}
    rows = []
    for slug, rec in sorted(records.items(), key=lambda kv: names.get(kv[0], kv[0])):
        interval = rec.interval()
        rows.append(
            {
                "slug": slug,
                "name": names.get(slug, slug),
                "cost": costs.get(slug),
                "fitted": fitted.get(slug),
                "record": rec,
                "score": rec.score,
                "interval": interval,
                "job": job if slug in fitted else None,
            }
        )
    return rows
