"""Fixtures of the tests that run the server `make run` starts (tests/club_server.py)."""

import shutil

import pytest

from tests.club_server import base_env, manage, postgres_database


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'club.sqlite3'}"


@pytest.fixture(scope="session")
def _migrated_sqlite_file(tmp_path_factory):
    """One SQLite file `manage.py migrate` set up, once a session (a migrate is a Django start and every
    migration: seconds apiece); each test gets a copy of it."""
    path = tmp_path_factory.mktemp("migrated") / "club.sqlite3"
    manage(base_env(f"sqlite:///{path}"), "migrate", "--noinput", "--verbosity", "0")
    return path


@pytest.fixture
def migrated_sqlite(sqlite_url, _migrated_sqlite_file):
    """A migrated SQLite file of the test's own: the session's migrated file copied (the migrate has exited, so the
    file is whole: WAL checkpointed on close, the journal mode kept in the file)."""
    for suffix in ("", "-wal", "-shm"):
        source = _migrated_sqlite_file.with_name(_migrated_sqlite_file.name + suffix)
        if source.exists():
            shutil.copyfile(source, sqlite_url.removeprefix("sqlite:///") + suffix)
    return sqlite_url


@pytest.fixture(scope="session")
def _migrated_postgres_template():
    """A PostgreSQL database `manage.py migrate` set up, once a session, that the tests' databases are copied from
    (CREATE DATABASE … TEMPLATE: a file copy on the server, no Django start and no migration)."""
    with postgres_database() as url:
        manage(base_env(url), "migrate", "--noinput", "--verbosity", "0")
        yield url


@pytest.fixture
def migrated_postgres(_migrated_postgres_template):
    """A fresh migrated PostgreSQL database of the test's own, dropped afterwards."""
    with postgres_database(template=_migrated_postgres_template) as url:
        yield url


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
