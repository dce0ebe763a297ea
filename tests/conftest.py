"""Fixtures of the tests that run the server `make run` starts (tests/club_server.py)."""

import pytest

from tests.club_server import base_env, manage


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'club.sqlite3'}"


@pytest.fixture
def migrated_sqlite(sqlite_url):
    manage(base_env(sqlite_url), "migrate", "--noinput", "--verbosity", "0")
    return sqlite_url


@pytest.fixture
def orders_battle(db, django_user_model):
    """A started battle of the test-only system «Secret orders» (tests/contract_system): alice plays side 0, bob
    joined side 1 by the invitation."""
    from armies.models import DataPack, Faction, Roster, RosterEntry, UnitProfile
    from battles import services
    from rules import registry
    from tests.contract_system.system import SYSTEM

    registry.register(SYSTEM)
    alice = django_user_model.objects.create_user("alice", password="pw-alice-123")
    bob = django_user_model.objects.create_user("bob", password="pw-bob-123")
    pack = DataPack.objects.create(system=SYSTEM.slug, slug="orders", name="Orders", published=True)
    faction = Faction.objects.create(pack=pack, slug="f", name="F")
    profile = UnitProfile.objects.create(
        pack=pack, slug="alpha", name="Alpha", faction=faction, kind="squad", cost=5, data={"strength": 3}
    )
    rosters = []
    for owner in (alice, bob):
        roster = Roster.objects.create(owner=owner, system=SYSTEM.slug, pack=pack, name=f"{owner}'s", faction="f")
        RosterEntry.objects.create(roster=roster, key="e1", profile=profile, count=1)
        rosters.append(roster)
    battle = services.battle_create(user=alice, name="Orders", rosters=rosters)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    battle.refresh_from_db()
    yield battle, alice, bob
    registry.unregister(SYSTEM.slug)
