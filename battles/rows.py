# ruff: noqa: S608 - the statements hold only the models' own table and column names, quoted; every value is a parameter
"""The reads that run on every tap and on every board a phone fetches, and a tap's two updates, as fixed SQL
statements.

Building a statement through the ORM costs about 0.4 ms of Python on a club laptop's kind of machine, a
`select_related` of three relations 2.8 ms, while SQLite answers these in well under 0.1 ms. A write and a board each
ran about ten such reads: with forty phones that was a third of the server's time, and the GIL it held made every
other request wait (issue #11; benchmarks/bench_club_night.py). The statements here never change shape, so they are
written once, from the models' own table and column names, and work on SQLite and PostgreSQL alike. Everything
else stays on the ORM.
"""

from __future__ import annotations

import json
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection, models
from django.utils import timezone

from battles.models import Battle, BattleEvent, BattleSide, BattleUnit
from config.validation import InputRejected, json_problem


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _table(model) -> str:
    return _q(model._meta.db_table)


def _col(model, field: str) -> str:
    return _q(model._meta.get_field(field).column)


def _json(value):
    """A JSON column as Python: SQLite hands back text; a PostgreSQL driver may already have decoded it."""
    return json.loads(value) if isinstance(value, (str, bytes, bytearray)) else value


def _columns(model, alias: str = "") -> str:
    """Every stored column of the model, in the order of its fields (what `_instances` reads)."""
    prefix = f"{alias}." if alias else ""
    return ", ".join(prefix + _q(f.column) for f in model._meta.concrete_fields)


@cache
def _loader(model, vendor: str) -> tuple[list[str], list[tuple]]:
    """(attribute names, [(position, converters, column)]) to turn a row of `_columns(model)` into an instance: the
    converters the ORM's compiler applies (JSON decoding, SQLite's datetimes), found once per model."""
    converters = []
    for i, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if found:
            converters.append((i, found, column))
    return [f.attname for f in model._meta.concrete_fields], converters


def _instances(model, sql: str, params, *, extra: int = 0) -> list:
    """Model instances from a statement that selects `_columns(model)` first (what RawQuerySet does, for a fifth of
    its cost); with `extra`, (instance, the row's last `extra` values) pairs."""
    names, converters = _loader(model, connection.vendor)
    found = []
    for row in _fetch(sql, params):
        values = list(row[: len(names)])
        for i, steps, column in converters:
            for convert in steps:
                values[i] = convert(values[i], column, connection)
        instance = model.from_db(connection.alias, names, values)
        found.append((instance, row[len(names) :]) if extra else instance)
    return found


MAX_ID = 2**63 - 1  # the largest id a column can hold (SQLite refuses a bigger number outright, as an error)


def _id(value) -> int | None:
    """An id as a number the database can compare, or None for what no row can have (a path may carry any digits)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 0 < number <= MAX_ID else None


def _fetch(sql: str, params) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


@cache
def _sql() -> dict[str, str]:
    """The statements, built on first use (the models' tables and the connection's quoting are known by then)."""
    b, e, s, u = Battle, BattleEvent, BattleSide, BattleUnit
    user = get_user_model()
    username = _col(user, user.USERNAME_FIELD)
    return {
        "head": f"SELECT {_col(b, 'version')}, {_col(b, 'spectator_token')}, {_col(b, 'players')} "
        f"FROM {_table(b)} WHERE {_col(b, 'id')} = %s",
        "version": f"SELECT {_col(b, 'version')} FROM {_table(b)} WHERE {_col(b, 'id')} = %s",
        "battle": f"SELECT {_columns(b)} FROM {_table(b)} WHERE {_col(b, 'id')} = %s",
        "earlier_head": f"SELECT {_col(e, 'id')} FROM {_table(e)} WHERE {_col(e, 'battle')} = %s "
        f"AND {_col(e, 'actor')} = %s AND {_col(e, 'idempotency_key')} = %s",
        "units": f"SELECT u.{_col(u, 'key')}, s.{_col(s, 'index')}, u.{_col(u, 'profile')}, u.{_col(u, 'state')}, "
        f"u.{_col(u, 'name')}, u.{_col(u, 'kind')} FROM {_table(u)} u "
        f"JOIN {_table(s)} s ON s.{_col(s, 'id')} = u.{_col(u, 'side')} "
        f"WHERE u.{_col(u, 'battle')} = %s ORDER BY u.{_col(u, 'position')}, u.{_col(u, 'id')}",
        "sides": f"SELECT s.{_col(s, 'index')}, s.{_col(s, 'name')}, s.{_col(s, 'faction')}, p.{username} "
        f"FROM {_table(s)} s LEFT JOIN {_table(user)} p ON p.{_col(user, 'id')} = s.{_col(s, 'player')} "
        f"WHERE s.{_col(s, 'battle')} = %s ORDER BY s.{_col(s, 'index')}",
        "undos": f"SELECT {_col(e, 'seq')}, {_col(e, 'payload')} FROM {_table(e)} "
        f"WHERE {_col(e, 'battle')} = %s AND {_col(e, 'type')} = 'undo' ORDER BY {_col(e, 'seq')} DESC",
        "heads": f"SELECT {_col(e, 'id')}, {_col(e, 'created_at')}, {_col(e, 'visible_to')} FROM {_table(e)} "
        f"WHERE {_col(e, 'battle')} = %s ORDER BY {_col(e, 'seq')} DESC LIMIT %s OFFSET %s",
        # The log's lines: each event with its actor's name and the seqs it points to (what select_related gave).
        "log_events": f"SELECT {_columns(e, 'e')}, a.{username} AS actor_name, c.{_col(e, 'seq')} AS cause_seq, "
        f"d.{_col(e, 'seq')} AS undoes_seq FROM {_table(e)} e "
        f"LEFT JOIN {_table(user)} a ON a.{_col(user, 'id')} = e.{_col(e, 'actor')} "
        f"LEFT JOIN {_table(e)} c ON c.{_col(e, 'id')} = e.{_col(e, 'cause')} "
        f"LEFT JOIN {_table(e)} d ON d.{_col(e, 'id')} = e.{_col(e, 'undoes')} "
        f"WHERE e.{_col(e, 'battle')} = %s AND e.{_col(e, 'id')} IN ({{marks}})",
        "save_unit_state": f"UPDATE {_table(u)} SET {_col(u, 'state')} = %s "
        f"WHERE {_col(u, 'battle')} = %s AND {_col(u, 'key')} = %s",
        "save_progress": f"UPDATE {_table(b)} SET {_col(b, 'version')} = %s, {_col(b, 'state')} = %s, "
        f"{_col(b, 'status')} = %s, {_col(b, 'updated_at')} = %s WHERE {_col(b, 'id')} = %s",
    }


def battle_head(battle_id: int) -> tuple[int, str, dict] | None:
    """(version, spectator token, players) of a battle: what an access check needs. None for no such battle."""
    if _id(battle_id) is None:
        return None
    rows = _fetch(_sql()["head"], [battle_id])
    if not rows:
        return None
    version, token, players = rows[0]
    return version, token, _json(players)


def battle_version(battle_id: int) -> int | None:
    if _id(battle_id) is None:
        return None
    rows = _fetch(_sql()["version"], [battle_id])
    return rows[0][0] if rows else None


def battle(battle_id: int) -> Battle | None:
    if _id(battle_id) is None:
        return None
    return next(iter(_instances(Battle, _sql()["battle"], [battle_id])), None)


def locked_battle(battle_id: int) -> Battle | None:
    """The battle row, locked for the rest of the transaction where the database locks rows (PostgreSQL); SQLite's
    write transactions lock the whole database from their start (BEGIN IMMEDIATE, config/sqlite)."""
    if _id(battle_id) is None:
        return None
    sql = _sql()["battle"] + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    return next(iter(_instances(Battle, sql, [battle_id])), None)


def locked_version(battle_id: int) -> int | None:
    """The battle's version, its row locked as by `locked_battle`."""
    if _id(battle_id) is None:
        return None
    sql = _sql()["version"] + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    rows = _fetch(sql, [battle_id])
    return rows[0][0] if rows else None


def earlier_head(battle_id: int, user_id: int, idempotency_key: str) -> int | None:
    """The head event this user first sent an Idempotency-Key with, if any: keys belong to their sender, so another
    player's key is simply not found."""
    rows = _fetch(_sql()["earlier_head"], [battle_id, user_id, idempotency_key])
    return rows[0][0] if rows else None


def units(battle_id: int) -> list[tuple]:
    """(key, side index, profile, state, name, kind) of every unit, in roster order."""
    return [
        (key, side, _json(profile), _json(state), name, kind)
        for key, side, profile, state, name, kind in _fetch(_sql()["units"], [battle_id])
    ]


def sides(battle_id: int) -> list[tuple]:
    """(index, name, faction, player's username or None) of every side."""
    return _fetch(_sql()["sides"], [battle_id])


def undos(battle_id: int) -> list[tuple[int, dict]]:
    """(seq, payload) of the battle's undo events, newest first."""
    return [(seq, _json(payload)) for seq, payload in _fetch(_sql()["undos"], [battle_id])]


def event_heads(battle_id: int, *, limit: int, offset: int) -> list[tuple]:
    """(id, created_at, visible_to) of events, newest first. `created_at` as the driver gives it (a key, not a
    value to show)."""
    return [(pk, at, _json(to)) for pk, at, to in _fetch(_sql()["heads"], [battle_id, limit, offset])]


def log_events(battle_id: int, pks: list[int]) -> list[BattleEvent]:
    """Events with `actor_name`, `cause_seq` and `undoes_seq` set (see selectors.event_dict)."""
    if not pks:
        return []
    sql = _sql()["log_events"].replace("{marks}", ", ".join(["%s"] * len(pks)))
    events = []
    for event, (actor_name, cause_seq, undoes_seq) in _instances(BattleEvent, sql, [battle_id, *pks], extra=3):
        event.actor_name, event.cause_seq, event.undoes_seq = actor_name, cause_seq, undoes_seq
        events.append(event)
    return events


def _db_value(model, field: str, value):
    """A value as the model's field hands it to the database (JSON encoded or adapted, datetimes as stored). A JSON
    value gets the check every saved row gets (config/validation.py): these updates send no pre_save."""
    if isinstance(model._meta.get_field(field), models.JSONField):
        found = json_problem(value)
        if found is not None:
            raise InputRejected({f"{field}.{found[0]}" if found[0] else field: found[1]})
    return model._meta.get_field(field).get_db_prep_save(value, connection)


def save_unit_state(battle_id: int, key: str, state: dict) -> None:
    with connection.cursor() as cursor:
        cursor.execute(_sql()["save_unit_state"], [_db_value(BattleUnit, "state", state), battle_id, key])


def save_progress(battle: Battle) -> None:
    """Stores the battle's version, game state and status (what a command changes), stamping `updated_at`."""
    battle.updated_at = timezone.now()
    values = [
        battle.version,
        _db_value(Battle, "state", battle.state),
        battle.status,
        _db_value(Battle, "updated_at", battle.updated_at),
        battle.pk,
    ]
    with connection.cursor() as cursor:
        cursor.execute(_sql()["save_progress"], values)


# The board's undo marks and open proposal (battles/game.py) and its result panel's sides and clubs
# (battles/results/selectors.py): read on every board a phone fetches, so fixed statements too.
@cache
def _board_sql() -> dict[str, str]:
    from armies.models import Club, Membership

    e, s, c, m = BattleEvent, BattleSide, Club, Membership
    return {
        "closing": f"SELECT {_col(e, 'seq')}, {_col(e, 'type')}, {_col(e, 'side_index')}, {_col(e, 'visible_to')} "
        f"FROM {_table(e)} WHERE {_col(e, 'battle')} = %s AND {_col(e, 'seq')} >= %s "
        f"AND ({_col(e, 'closes')} = %s{{types}}) ORDER BY {_col(e, 'seq')}",
        # What the board's undo marks need, in one pass over the battle's events instead of three (battles/game.py
        # BoardMarks): the undos, the proposals to undo and the closing points.
        "marks": f"SELECT {_col(e, 'seq')}, {_col(e, 'type')}, {_col(e, 'side_index')}, {_col(e, 'visible_to')}, "
        f"{_col(e, 'closes')}, {_col(e, 'payload')} FROM {_table(e)} WHERE {_col(e, 'battle')} = %s "
        f"AND ({_col(e, 'type')} IN ('undo', 'undo.proposed') OR {_col(e, 'closes')} = %s{{types}}) "
        f"ORDER BY {_col(e, 'seq')}",
        "last_proposal": f"SELECT {_columns(e)} FROM {_table(e)} WHERE {_col(e, 'battle')} = %s "
        f"AND {_col(e, 'type')} = 'undo.proposed' ORDER BY {_col(e, 'seq')} DESC LIMIT 1",
        "after": f"SELECT {_col(e, 'type')}, {_col(e, 'payload')} FROM {_table(e)} "
        f"WHERE {_col(e, 'battle')} = %s AND {_col(e, 'seq')} > %s ORDER BY {_col(e, 'seq')}",
        "agreed": f"SELECT {_col(e, 'payload')} FROM {_table(e)} WHERE {_col(e, 'battle')} = %s "
        f"AND {_col(e, 'seq')} > %s AND {_col(e, 'type')} = 'undo.agreed'",
        # The fields in the order of the model's concrete fields (BattleSide.from_db defers the others).
        "side_heads": f"SELECT {_col(s, 'id')}, {_col(s, 'battle')}, {_col(s, 'index')}, {_col(s, 'name')}, "
        f"{_col(s, 'player')} FROM {_table(s)} WHERE {_col(s, 'battle')} = %s ORDER BY {_col(s, 'index')}",
        # The clubs every one of the players belongs to (one membership per club and user).
        "common_clubs": f"SELECT {_columns(c)} FROM {_table(c)} WHERE {_col(c, 'id')} IN "
        f"(SELECT {_col(m, 'club')} FROM {_table(m)} WHERE {_col(m, 'user')} IN ({{marks}}) "
        f"GROUP BY {_col(m, 'club')} HAVING COUNT(DISTINCT {_col(m, 'user')}) = %s) "
        f"ORDER BY {_col(c, 'name')}, {_col(c, 'id')}",
    }


def closing_rows(battle_id: int, types, *, since: int = 1) -> list[tuple]:
    """(seq, type, side index, visible_to) of the events from `since` on that are closing points (flagged, or of one
    of `types`), oldest first."""
    types = sorted(types)
    marks = f" OR {_col(BattleEvent, 'type')} IN ({', '.join(['%s'] * len(types))})" if types else ""
    sql = _board_sql()["closing"].replace("{types}", marks)
    return [(seq, kind, side, _json(to)) for seq, kind, side, to in _fetch(sql, [battle_id, since, True, *types])]


def mark_rows(battle_id: int, types) -> list[tuple]:
    """(seq, type, side index, visible_to, closes, payload) of the battle's undos, proposals to undo and closing
    points (flagged, or of one of `types`), oldest first. The payload is decoded for the undos only."""
    types = sorted(types)
    marks = f" OR {_col(BattleEvent, 'type')} IN ({', '.join(['%s'] * len(types))})" if types else ""
    sql = _board_sql()["marks"].replace("{types}", marks)
    return [
        (seq, kind, side, _json(to), bool(closes), _json(payload) if kind == "undo" else None)
        for seq, kind, side, to, closes, payload in _fetch(sql, [battle_id, True, *types])
    ]


def last_proposal(battle_id: int) -> BattleEvent | None:
    """The newest `undo.proposed` event of the battle."""
    return next(iter(_instances(BattleEvent, _board_sql()["last_proposal"], [battle_id])), None)


def events_after(battle_id: int, seq: int) -> list[tuple[str, object]]:
    """(type, payload) of the events after `seq`, oldest first."""
    return [(kind, _json(payload)) for kind, payload in _fetch(_board_sql()["after"], [battle_id, seq])]


def agreements_after(battle_id: int, seq: int) -> list:
    """The payloads of the `undo.agreed` events after `seq`."""
    return [_json(payload) for (payload,) in _fetch(_board_sql()["agreed"], [battle_id, seq])]


def side_heads(battle_id: int) -> list[BattleSide]:
    """The battle's sides by index, with only their id, index, name and player read (the rest loads if asked)."""
    names = ["id", "battle_id", "index", "name", "player_id"]
    return [BattleSide.from_db(connection.alias, names, row) for row in _fetch(_board_sql()["side_heads"], [battle_id])]


def common_clubs(user_ids) -> list:
    """The clubs each of these users belongs to, by name."""
    from armies.models import Club

    users = sorted(set(user_ids))
    if not users:
        return []
    sql = _board_sql()["common_clubs"].replace("{marks}", ", ".join(["%s"] * len(users)))
    return _instances(Club, sql, [*users, len(users)])
