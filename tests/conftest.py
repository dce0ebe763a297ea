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
