"""Helpers shared by the balance-job tests (not a test module): data, rosters, the queue, waiting."""

from __future__ import annotations

import time

from django.contrib.auth import get_user_model

from armies import services as armies_services

ARMY_A = ["protectorate_kiberpehota", "trex", "protectorate_regulyary_planety_velian"]  # 240 points
ARMY_B = ["polaris_lineynaya_klon_pehota", "raptor", "polaris_lyogkiy_shturmovoy_desant"]  # 220 points
DUEL_UNITS = ["aborigeny", "protectorate_kosari", "salamander", "minomet"]


def make_user(username: str):
    return get_user_model().objects.create_user(username=username, password=None)


def official_pack():
    (pack, _created), *_ = armies_services.load_packs()
    return pack


def make_roster(owner, pack, name: str, faction: str, slugs: list[str]):
    roster = armies_services.roster_create(owner=owner, pack=pack, name=name, faction=faction)
    for slug in slugs:
        armies_services.entry_add(roster=roster, profile=slug)
    roster.refresh_from_db()
    return roster


def purge_queue() -> None:
    """Drops messages a test published but no worker should run later (they would wait for rows that are gone)."""
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("celery")


def wait_for(predicate, *, timeout: float = 120.0, every: float = 0.25, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
