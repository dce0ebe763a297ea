"""Battle test data: users, the official «Бронепехота» pack (from its data file), rosters and a started battle.

After every test that touched the database, every stored battle's log is replayed and compared with its stored
state (`replay_every_battle`): whatever a test did through the services or the API, the projection must hold.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from armies.models import DataPack, Faction, Roster, RosterEntry, UnitProfile
from battles import services
from battles.models import Battle

PACK_FILE = Path(__file__).resolve().parents[2] / "rules/systems/bronepekhota/data/tehnolog-classic.json"
PASSWORD = "a-long-test-password-1"


@pytest.fixture(autouse=True)
def replay_every_battle(request):
    """The log-replay check on every stored battle, after each test that used the database."""
    marker = request.node.get_closest_marker("django_db")
    names = set(request.fixturenames)
    if (marker and marker.kwargs.get("transaction")) or {"transactional_db", "live_server"} & names:
        request.getfixturevalue("transactional_db")
    elif marker or "db" in names:
        request.getfixturevalue("db")
    else:
        yield
        return
    yield
    for battle in Battle.objects.all():
        ok, why = services.replay_matches(battle)
        assert ok, f"battle {battle.pk}: {why}"


def make_user(username: str):
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


@pytest.fixture
def pack(db):
    data = json.loads(PACK_FILE.read_text())
    pack = DataPack.objects.create(
        system="bronepekhota", slug="tehnolog-classic-test", version=1, name="Test pack", published=True
    )
    factions = {
        f["slug"]: Faction.objects.create(
            pack=pack, slug=f["slug"], name=f["name"], joins_any=f.get("joins_any", False)
        )
        for f in data["factions"]
    }
    for i, p in enumerate(data["profiles"]):
        UnitProfile.objects.create(
            pack=pack,
            slug=p["slug"],
            name=p["name"],
            faction=factions[p["faction"]],
            kind=p["kind"],
            cost=p["cost"],
            data=p["data"],
            position=i,
        )
    return pack


def make_roster(owner, pack, faction: str, name: str, entries: list[dict]) -> Roster:
    roster = Roster.objects.create(owner=owner, system="bronepekhota", pack=pack, name=name, faction=faction)
    for i, e in enumerate(entries):
        RosterEntry.objects.create(
            roster=roster,
            key=e["key"],
            profile=UnitProfile.objects.get(pack=pack, slug=e["slug"]),
            count=e.get("count", 1),
            options={**e.get("loadout", {}), **({"pilot": e["pilot"]} if e.get("pilot") else {})},
            position=i,
        )
    return roster


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def outsider(db):
    return make_user("mallory")


@pytest.fixture
def rosters(pack, alice, bob):
    """Protectorate: a cyber-infantry squad, a SALAMANDER piloted by soldier 2, a mortar.
    Polaris: a line clone squad and a RAPTOR piloted by soldier 3."""
    blue = make_roster(
        alice,
        pack,
        "protectorate",
        "Blue army",
        [
            {"key": "e1", "slug": "protectorate_kiberpehota"},
            {"key": "e2", "slug": "salamander", "pilot": [{"entry": "e1", "soldier": 2, "copy": 1}]},
            {"key": "e3", "slug": "minomet"},
        ],
    )
    red = make_roster(
        bob,
        pack,
        "polaris",
        "Red army",
        [
            {"key": "e1", "slug": "polaris_lineynaya_klon_pehota"},
            {"key": "e2", "slug": "raptor", "pilot": [{"entry": "e1", "soldier": 3, "copy": 1}]},
        ],
    )
    return blue, red


@pytest.fixture
def battle(rosters, alice, bob):
    """A started battle: alice plays side 0 (blue), bob joined side 1 (red) by the invitation. The attacker rolls a
    hit pilot's survival test with the attack (setting pilot_tests "attacker"), as these tests type their dice; by
    default the pilot's own player is asked (rules/systems/bronepekhota/tests/test_questions.py)."""
    blue, red = rosters
    battle = services.battle_create(
        user=alice, name="Test battle", rosters=[blue, red], system_settings={"pilot_tests": "attacker"}
    )
    side = battle.sides.get(index=1)
    services.battle_join(token=side.invite_token, user=bob)
    battle.refresh_from_db()
    return battle
