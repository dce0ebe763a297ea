"""What a fresh board costs (issue #27: the board a phone fetches after every change was most of a club night's
server time): a bounded number of reads, and what the board draws from its memos (the result panel before any
result, the turn bar's widgets) follows the battle as a fresh render would."""

from __future__ import annotations

from armies.models import Club, Membership
from battles.tests import commands
from battles.tests.test_api import client_for

# The session, its user and their language; the battle's head and row; its sides and units; the log's undos,
# closing points and proposals to undo (one read), its newest events and their lines; whether a result exists, the
# sides and the common clubs of the result panel.
FRESH_BOARD_QUERIES = 13


def _change(battle, user, ammo: int) -> None:
    battle.refresh_from_db()
    commands.unit_adjust(
        battle_id=battle.pk, user=user, expected_version=battle.version, unit="0.e2.1", changes={"ammo": ammo}
    )


def test_a_fresh_board_reads_a_bounded_number_of_queries(battle, alice, django_assert_max_num_queries):
    c = client_for(alice)
    assert c.get(f"/battles/{battle.pk}/board").status_code == 200
    _change(battle, alice, 7)
    with django_assert_max_num_queries(FRESH_BOARD_QUERIES):
        response = c.get(f"/battles/{battle.pk}/board")
    assert response.status_code == 200
    assert response["ETag"] == f'"v{battle.version + 1}"'


def test_the_result_panel_names_a_club_both_players_joined_since_the_last_board(battle, alice, bob):
    c = client_for(alice)
    board = c.get(f"/battles/{battle.pk}/board").content.decode()
    assert 'data-result-status="none"' in board
    assert "Counts for the ladder of the club" not in board
    club = Club.objects.create(name="Club of the test")
    for user in (alice, bob):
        Membership.objects.create(club=club, user=user)
    _change(battle, alice, 6)
    board = c.get(f"/battles/{battle.pk}/board").content.decode()
    assert "Counts for the ladder of the club «Club of the test»" in board
    other = Club.objects.create(name="Another club")
    for user in (alice, bob):
        Membership.objects.create(club=other, user=user)
    _change(battle, alice, 5)
    board = c.get(f"/battles/{battle.pk}/board").content.decode()
    assert f'<option value="{club.pk}">Club of the test</option>' in board
    assert f'<option value="{other.pk}">Another club</option>' in board


def test_the_result_panel_follows_a_proposed_result(battle, alice, bob):
    c = client_for(alice)
    assert 'data-result-status="none"' in c.get(f"/battles/{battle.pk}/board").content.decode()
    assert c.post(f"/battles/{battle.pk}/result/propose/", {"outcome": "draw"}).status_code == 302
    board = c.get(f"/battles/{battle.pk}/board").content.decode()
    assert 'data-result-status="proposed"' in board
    assert 'data-result-status="none"' not in board
    assert 'data-result-status="none"' not in client_for(bob).get(f"/battles/{battle.pk}/board").content.decode()
