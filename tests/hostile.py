"""A small world for the hostile-input tests (test_input_bounds, test_abuse_corpus, test_schemathesis): a user
with a token, the official «Бронепехота» pack, a roster with entries, a custom pack with a unit, a club, a share
link, a battle and a balance job; and a snapshot of every row of every model, to prove a refused request changed
nothing."""

from __future__ import annotations

from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from armies import services as armies
from armies.services.invites import club_invite_create
from battles import services as battles
from rules import registry
from rules.models import BalanceJob

PACK_FILE = Path(__file__).resolve().parents[1] / "rules/systems/bronepekhota/data/tehnolog-classic.json"
PASSWORD = "a-long-test-password-1"


def build_world() -> dict:
    user = get_user_model().objects.create_user(username="hostile", password=PASSWORD)
    ((pack, _created),) = armies.load_packs(paths=[PACK_FILE])
    roster = armies.roster_create(owner=user, pack=pack, name="Blue army", faction="protectorate", notes="n")
    squad = armies.entry_add(roster=roster, profile="protectorate_kiberspetsnaz")
    armies.entry_add(roster=roster, profile="griffin", options={"pilot": [{"entry": squad.key, "soldier": 1}]})
    other = armies.roster_create(owner=user, pack=pack, name="Red army", faction="polaris")
    armies.entry_add(roster=other, profile="polaris_lyogkiy_shturmovoy_desant")
    custom = armies.pack_create(user=user, system="bronepekhota", name="My units")
    profile = pack.profiles.select_related("faction").get(slug="protectorate_kiberspetsnaz")
    unit = armies.profile_save(
        pack=custom,
        data={**profile.as_rules_dict(), "slug": "my-squad", "faction": profile.faction.slug, "notes": ""},
    )
    club = armies.club_create(user=user, name="Club")
    friend = get_user_model().objects.create_user(username="friend", password=None)
    armies.member_add(club=club, username="friend", role="member")
    link = armies.share_link_create(roster=other, user=user)
    invite = club_invite_create(club=club, user=user)
    roster.refresh_from_db()
    battle = battles.battle_create(user=user, name="Fight", rosters=[roster, other])
    system = registry.get_system("bronepekhota")
    job = BalanceJob.objects.create(
        owner=user, system="bronepekhota", kind="rosters", title="t", seed=1, battles=1, total_battles=1, chunk_count=1
    )
    return {
        "user": user,
        "token": Token.objects.create(user=user).key,
        "pack": pack,
        "roster": roster,
        "entry": squad,
        "custom": custom,
        "unit": unit,
        "club": club,
        "friend": friend,
        "link": link,
        "invite": invite,
        "battle": battle,
        "command": next(iter(system.battle.commands)),
        "action": next(iter(system.actions)),
        "job": job,
    }


def path_values(world: dict) -> dict:
    """A value for every path parameter of the API: a new parameter name must be added here."""
    return {
        "roster_id": world["roster"].pk,
        "key": world["entry"].key,
        "pack_id": world["custom"].pk,
        "slug": world["unit"].slug,
        "club_id": world["club"].pk,
        "user_id": world["friend"].pk,
        "link_id": world["link"].pk,
        "invite_id": world["invite"].pk,
        "token": world["link"].token,
        "battle_id": world["battle"].pk,
        "name": world["command"],
        "system": "bronepekhota",
        "action": world["action"],
        "job_id": world["job"].pk,
    }


def client_for(world: dict) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {world['token']}")
    return client


def snapshot() -> dict:
    """Every row of every model, as one fingerprint per table: equal snapshots mean nothing was stored, changed or
    removed. PostgreSQL hashes each table's rows itself; elsewhere the rows are read."""
    rows = {}
    for model in apps.get_models():
        if model._meta.label in ("sessions.Session", "admin.LogEntry") or model._meta.proxy:
            continue
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                table = connection.ops.quote_name(model._meta.db_table)
                cursor.execute(
                    f"SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {table} t"
                )
                rows[model._meta.label] = cursor.fetchone()
        else:
            rows[model._meta.label] = list(model.objects.order_by("pk").values_list())
    return rows


def row_counts() -> tuple:
    """The row count of every model's table, in one query: the cheap check after each hostile request."""
    tables = sorted({m._meta.db_table for m in apps.get_models() if not m._meta.proxy})
    counts = ", ".join(f"(SELECT count(*) FROM {connection.ops.quote_name(t)})" for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        return tuple(zip(tables, cursor.fetchone(), strict=True))


def changed_tables(before: dict, after: dict) -> list[str]:
    return sorted(label for label in before if before[label] != after.get(label))
