"""Results both players confirm, histories and club ladders (issue #29, battles/results).

The battle is the conftest's «Бронепехота» game: alice plays Blue (side 0), bob Red (side 1); a player declares the
mission completed, which ends the game with a winner (§1.7)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Club, Membership
from battles.models import Battle, BattleEvent
from battles.results import ratings, selectors, services
from battles.results.models import GameResult, ResultSide
from battles.tests import commands
from battles.tests.conftest import PASSWORD, make_user
from rules.errors import GameConflict, NotYours, RuleInputError

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(alice, bob):
    club = Club.objects.create(name="Клуб Пятница")
    Membership.objects.create(club=club, user=alice, role=Membership.Role.OWNER)
    Membership.objects.create(club=club, user=bob, role=Membership.Role.MEMBER)
    return club


def finish(battle, user, side: int):
    """A player declares that `side` completed the mission: the game is over with that side the winner."""
    battle.refresh_from_db()
    commands.mission_complete(side=side, battle_id=battle.pk, user=user, expected_version=battle.version)
    battle.refresh_from_db()
    return battle


def test_the_game_over_proposes_the_systems_result_and_both_players_confirm(battle, alice, bob, club):
    finish(battle, alice, 1)
    proposal = selectors.proposal(battle)
    assert proposal.over
    assert proposal.winner == 1
    assert not proposal.draw
    assert [s["units_total"] for s in proposal.sides] == [3, 2]  # a unit per roster entry
    result = services.result_propose(battle_id=battle.pk, user=alice, kind="final")
    assert result.status == "proposed"
    assert result.club == club  # the one club both players belong to
    assert {s.index: s.outcome for s in result.sides.all()} == {0: "loss", 1: "win"}
    version = Battle.objects.get(pk=battle.pk).version
    result = services.result_vote(battle_id=battle.pk, user=bob, choice="confirm")
    result.refresh_from_db()
    assert result.status == "confirmed"
    assert result.confirmed_at is not None
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FINISHED
    assert battle.version == version + 2  # bob's vote, then "result.confirmed"
    types = list(BattleEvent.objects.filter(battle=battle).order_by("seq").values_list("type", flat=True))
    assert types[-3:] == ["result.proposed", "result.voted", "result.confirmed"]
    # The battle is closed: no more moves.
    with pytest.raises(GameConflict):
        commands.round_start(battle_id=battle.pk, user=alice, expected_version=battle.version)


def test_a_confirmed_result_cannot_be_confirmed_twice_or_changed(battle, alice, bob, club):
    finish(battle, alice, 0)
    services.result_propose(battle_id=battle.pk, user=alice, kind="final")
    services.result_vote(battle_id=battle.pk, user=bob, choice="confirm")
    before = (Battle.objects.get(pk=battle.pk).version, list(GameResult.objects.values()))
    for attempt in (
        lambda: services.result_vote(battle_id=battle.pk, user=bob, choice="confirm"),
        lambda: services.result_vote(battle_id=battle.pk, user=alice, choice="dispute", reason="no"),
        lambda: services.result_propose(battle_id=battle.pk, user=bob, kind="unfinished"),
    ):
        with pytest.raises(GameConflict):
            attempt()
    assert (Battle.objects.get(pk=battle.pk).version, list(GameResult.objects.values())) == before


def test_confirming_twice_while_open_is_409_and_changes_nothing(battle, alice, club):
    finish(battle, alice, 0)
    services.result_propose(battle_id=battle.pk, user=alice, kind="final")
    version = Battle.objects.get(pk=battle.pk).version
    with pytest.raises(GameConflict):
        services.result_vote(battle_id=battle.pk, user=alice, choice="confirm")
    assert Battle.objects.get(pk=battle.pk).version == version


def test_a_player_not_in_the_battle_cannot_propose_or_confirm(battle, alice, outsider, club):
    finish(battle, alice, 0)
    with pytest.raises(NotYours):
        services.result_propose(battle_id=battle.pk, user=outsider, kind="final")
    services.result_propose(battle_id=battle.pk, user=alice, kind="final")
    with pytest.raises(NotYours):
        services.result_vote(battle_id=battle.pk, user=outsider, choice="confirm")
    assert GameResult.objects.get().status == "proposed"


def test_a_dispute_stays_open_until_the_clubs_owner_settles_it(battle, alice, bob, club):
    finish(battle, alice, 0)  # alice says Blue completed the mission
    services.result_propose(battle_id=battle.pk, user=alice, kind="final")
    with pytest.raises(RuleInputError):
        services.result_vote(battle_id=battle.pk, user=bob, choice="dispute", reason="  ")
    result = services.result_vote(battle_id=battle.pk, user=bob, choice="dispute", reason="Миссия не выполнена")
    assert result.status == "disputed"
    result = GameResult.objects.get()
    assert not result.counts
    # bob is a member, not the owner: he may not settle; nor may anyone outside the club
    with pytest.raises(NotYours):
        services.result_settle(result_id=result.pk, user=bob, kind="agreed", winner=1)
    settled = services.result_settle(result_id=result.pk, user=alice, kind="agreed", draw=True, note="Ничья")
    assert settled.status == "confirmed"
    assert settled.draw
    assert settled.settled_by == alice
    assert {s.outcome for s in settled.sides.all()} == {"draw"}
    with pytest.raises(GameConflict):
        services.result_settle(result_id=result.pk, user=alice, kind="agreed", winner=0)


def test_a_dispute_is_withdrawn_by_confirming(battle, alice, bob, club):
    finish(battle, alice, 1)
    services.result_propose(battle_id=battle.pk, user=alice, kind="final")
    services.result_vote(battle_id=battle.pk, user=bob, choice="dispute", reason="подождите")
    result = services.result_vote(battle_id=battle.pk, user=bob, choice="confirm")
    result.refresh_from_db()
    assert result.status == "confirmed"


def test_the_game_not_over_needs_an_agreed_end_and_an_unfinished_game_counts_for_nothing(battle, alice, bob, club):
    with pytest.raises(GameConflict):
        services.result_propose(battle_id=battle.pk, user=alice, kind="final")
    services.result_propose(battle_id=battle.pk, user=alice, kind="unfinished")
    services.result_vote(battle_id=battle.pk, user=bob, choice="confirm")
    result = GameResult.objects.get()
    assert result.status == "confirmed"
    assert not result.counts
    assert selectors.history_for_player(alice) == []
    assert selectors.club_ladder(club, "bronepekhota") == []


def test_a_proposal_the_game_moved_past_is_stale(battle, alice, bob, club):
    services.result_propose(battle_id=battle.pk, user=alice, kind="agreed", winner=0)
    battle.refresh_from_db()
    commands.round_start(battle_id=battle.pk, user=bob, expected_version=battle.version)
    with pytest.raises(GameConflict):
        services.result_vote(battle_id=battle.pk, user=bob, choice="confirm")
    assert GameResult.objects.get().status == "proposed"


def test_histories_exports_and_the_ladder(battle, rosters, alice, bob, club):
    finish(battle, alice, 0)
    services.result_propose(battle_id=battle.pk, user=alice, kind="final")
    services.result_vote(battle_id=battle.pk, user=bob, choice="confirm")
    blue, red = rosters
    assert [r.battle_id for r in selectors.history_for_player(alice)] == [battle.pk]
    assert [r.battle_id for r in selectors.history_for_roster(blue)] == [battle.pk]
    assert [r.battle_id for r in selectors.history_for_club(club)] == [battle.pk]
    side = ResultSide.objects.get(index=0)
    assert side.roster == blue
    assert side.roster_version == blue.version
    ladder = selectors.ladder_rows(club, "bronepekhota")
    assert [row["player"] for row in ladder] == [alice, bob]
    assert ladder[0]["provisional"]
    assert ladder[0]["wins"] == 1
    assert ladder[1]["losses"] == 1
    # Recomputed from the same results, the same ratings.
    assert selectors.ladder_rows(club, "bronepekhota")[0]["rating"] == ladder[0]["rating"]
    member = Client()
    assert member.login(username="bob", password=PASSWORD)
    page = member.get(reverse("results:club", args=[club.pk]) + "?system=bronepekhota", HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 200
    html = page.content.decode()
    assert "alice" in html
    assert "rating-chart" in html  # bob sees his rating history
    data = json.loads(member.get(reverse("results:club-export", args=[club.pk, "json"])).content)
    assert data["results"][0]["outcome_a"] == "win"
    assert data["results"][0]["player_b"] == "bob"
    rows = list(
        csv.DictReader(io.StringIO(member.get(reverse("results:club-export", args=[club.pk, "csv"])).content.decode()))
    )
    assert rows[0]["winner"] == "0"
    assert rows[0]["side_a"] == "Blue army"
    mine = member.get(reverse("results:mine"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert reverse("battles:log", args=[battle.pk]) in mine


def test_outsiders_get_404_members_read_and_only_players_confirm_over_the_pages(battle, alice, bob, club):
    finish(battle, alice, 0)
    stranger = make_user("stranger")
    spectator_of_club = make_user("carol")
    Membership.objects.create(club=club, user=spectator_of_club, role=Membership.Role.MEMBER)
    outsider = Client()
    assert outsider.login(username="stranger", password=PASSWORD)
    assert outsider.get(reverse("results:club", args=[club.pk])).status_code == 404
    assert outsider.get(reverse("results:club-export", args=[club.pk, "csv"])).status_code == 404
    assert outsider.post(reverse("results:propose", args=[battle.pk]), {"outcome": "final"}).status_code == 404
    assert stranger  # noqa: B018
    member = Client()
    assert member.login(username="carol", password=PASSWORD)
    assert member.get(reverse("results:club", args=[club.pk])).status_code == 200
    assert member.post(reverse("results:vote", args=[battle.pk]), {"choice": "confirm"}).status_code == 404
    player = Client()
    assert player.login(username="alice", password=PASSWORD)
    response = player.post(reverse("results:propose", args=[battle.pk]), {"outcome": "final"})
    assert response.status_code == 302
    assert GameResult.objects.get().status == "proposed"


def test_the_board_shows_the_proposal_and_the_votes_on_both_phones(battle, alice, bob, club):
    finish(battle, alice, 1)
    a, b = Client(), Client()
    assert a.login(username="alice", password=PASSWORD)
    assert b.login(username="bob", password=PASSWORD)
    board = b.get(reverse("battles:board", args=[battle.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'id="result-panel"' in board
    assert "Red army" in board
    a.post(reverse("results:propose", args=[battle.pk]), {"outcome": "final"})
    board = b.get(reverse("battles:board", args=[battle.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-result-status="proposed"' in board
    assert reverse("results:vote", args=[battle.pk]) in board
    log = b.get(reverse("battles:log", args=[battle.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "предлагает результат" in log


def test_ratings_match_the_librarys_published_example():
    """openskill's README: two teams of two fresh players, the first wins: each winner μ 26.9643, σ 8.17796."""
    m = ratings.model()
    r = m.rating
    [[a, b], [x, y]] = ratings.rate_teams([[r(), r()], [r(), r()]], using=m)
    assert a.mu == pytest.approx(26.964294621803063)
    assert a.sigma == pytest.approx(8.177962604389991)
    assert x.mu == pytest.approx(23.035705378196937)
    assert x.sigma == pytest.approx(8.177962604389991)
    assert (a.mu, a.sigma) == (b.mu, b.sigma)
    assert (x.mu, x.sigma) == (y.mu, y.sigma)


def test_a_ladder_is_the_same_when_recomputed_and_a_draw_ranks_both_equal():
    games = [
        ratings.Game(1, 1, ((10, 1), (20, 2))),
        ratings.Game(2, 2, ((20, 1), (30, 2))),
        ratings.Game(3, 3, ((10, 1), (30, 1))),  # a draw
    ]
    first = [(s.player, s.mu, s.sigma) for s in ratings.ladder(games)]
    again = [(s.player, s.mu, s.sigma) for s in ratings.ladder(list(games))]
    assert first == again
    standings = {s.player: s for s in ratings.ladder(games)}
    assert standings[10].wins == 1
    assert standings[10].draws == 1
    assert standings[30].draws == 1
    assert all(s.provisional for s in standings.values())
    assert [len(s.history) for s in (standings[10], standings[20], standings[30])] == [2, 2, 2]


def confirmed_game(rosters, alice, bob, winner: int):
    from battles import services as battle_services

    blue, red = rosters
    battle = battle_services.battle_create(user=alice, name="Again", rosters=[blue, red])
    battle_services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    finish(battle, alice, winner)
    services.result_propose(battle_id=battle.pk, user=alice, kind="final")
    services.result_vote(battle_id=battle.pk, user=bob, choice="confirm")
    return battle


def test_real_results_beside_the_simulated_odds_flag_a_disagreement(rosters, alice, bob, club):
    """Red beat Blue three times in the club; a study that gives Blue 90 % disagrees beyond both uncertainties,
    on the job page and on the roster page."""
    from rules.jobs import services as job_services
    from rules.tests.jobs_support import purge_queue

    for _ in range(3):
        confirmed_game(rosters, alice, bob, winner=1)
    blue, red = rosters
    red.club, red.visibility = club, "club"  # bob shares his army with the club: alice may study it
    red.save(update_fields=["club", "visibility"])
    try:
        job = job_services.balance_job_submit_rosters(user=alice, roster_a_id=blue.pk, roster_b_id=red.pk, battles=40)
        for i in range(job.chunk_count):
            job_services.balance_chunk_run(job_id=job.pk, index=i)
    finally:
        purge_queue()
    job.refresh_from_db()
    job.result = {**job.result, "score_a": {"p": 0.9, "low": 0.85, "high": 0.95}}
    job.save(update_fields=["result"])
    found = selectors.real_record_for_job(alice, job)
    assert found["basis"] == "same"
    assert (found["record"].wins, found["record"].losses) == (0, 3)
    assert found["disagree"]
    client = Client()
    assert client.login(username="alice", password=PASSWORD)
    html = client.get(reverse("jobs:job", args=[job.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="real-vs-simulated"' in html
    assert "В настоящих играх" in html
    roster_page = client.get(reverse("armies:roster", args=[blue.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'id="roster-record"' in roster_page
    assert "поражения: 3" in roster_page
    club_page = client.get(reverse("armies:club", args=[club.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'id="club-results"' in club_page
    assert "bob" in club_page  # the ladder's leader
    units = selectors.unit_rows(club, "bronepekhota", alice)
    raptor = next(u for u in units if u["slug"] == "raptor")
    assert (raptor["record"].wins, raptor["record"].losses) == (3, 0)
    assert raptor["cost"] is not None


def test_a_study_agreeing_with_the_real_games_is_not_flagged(rosters, alice, bob, club):
    confirmed_game(rosters, alice, bob, winner=0)
    confirmed_game(rosters, alice, bob, winner=1)
    from rules.models import BalanceJob

    blue, red = rosters
    job = BalanceJob.objects.create(
        owner=alice, system="bronepekhota", kind="rosters", roster_a_id=blue.pk, roster_b_id=red.pk, status="done",
        seed=1, battles=10, total_battles=10, chunk_count=1,
        result={"score_a": {"p": 0.5, "low": 0.4, "high": 0.6}},
    )  # fmt: skip
    found = selectors.real_record_for_job(alice, job)
    assert found["record"].games == 2
    assert not found["disagree"]
    assert selectors.real_record_for_job(make_user("nobody"), job)["record"].games == 0  # not their club's games
