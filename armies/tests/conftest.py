"""Fixtures of the armies tests: the official pack loaded from its file, users, a club and rosters."""

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from armies import services
from armies.models import Membership, Roster

BRONEPEKHOTA_PACK = Path(__file__).resolve().parents[2] / "rules/systems/bronepekhota/data/tehnolog-classic.json"


@pytest.fixture
def official_pack(db):
    """«Бронепехота»'s official pack (only it: other registered systems' packs are not loaded)."""
    ((pack, _created),) = services.load_packs(paths=[BRONEPEKHOTA_PACK])
    return pack


@pytest.fixture
def make_user(db):
    def make(username):
        # No password: tests log in with force_login, and hashing one costs a quarter second each.
        return get_user_model().objects.create_user(username=username, password=None)

    return make


@pytest.fixture
def owner(make_user):
    return make_user("owner")


@pytest.fixture
def club_setup(owner, make_user):
    """A club where `owner` owns, `editor` edits and `member` reads; `outsider` is in no club."""
    club = services.club_create(user=owner, name="Test club")
    editor, member, outsider = make_user("editor"), make_user("member"), make_user("outsider")
    services.member_add(club=club, username="editor", role=Membership.Role.EDITOR)
    services.member_add(club=club, username="member", role=Membership.Role.MEMBER)
    return {"club": club, "owner": owner, "editor": editor, "member": member, "outsider": outsider}


@pytest.fixture
def roster(owner, official_pack):
    r = services.roster_create(owner=owner, pack=official_pack, name="Blue army", faction="protectorate")
    squad = services.entry_add(roster=r, profile="protectorate_kiberspetsnaz")
    services.entry_add(roster=r, profile="griffin", options={"pilot": [{"entry": squad.key, "soldier": 1}]})
    r.refresh_from_db()
    return r


@pytest.fixture
def club_roster(club_setup, official_pack):
    r = services.roster_create(
        owner=club_setup["owner"],
        pack=official_pack,
        name="Club army",
        faction="polaris",
        club=club_setup["club"],
        visibility=Roster.Visibility.CLUB,
    )
    services.entry_add(roster=r, profile="polaris_lyogkiy_shturmovoy_desant")
    r.refresh_from_db()
    return r
