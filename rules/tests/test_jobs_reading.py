"""Balance results in a player's words (issue #19): the win chances first, who is stronger by about how many points
and what would even it (rules/jobs/reading.py), the statistics folded under <details>, and "How the numbers are read"
written for players, in Russian first."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from rules.jobs import analysis, reading, services
from rules.tests.jobs_support import ARMY_A, ARMY_B, make_roster, make_user, official_pack, purge_queue


def result_of(wins_a: int, draws: int, wins_b: int, cost_a: float, cost_b: float) -> dict:
    """A roster job's result as analysis.roster_result makes it, from plain counts."""
    n = wins_a + draws + wins_b
    total = {
        "battles": n,
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": draws,
        "rounds_hist": [n],
        **{f"surviving_{s}_{k}": 0 for s in "ab" for k in ("sum", "sumsq")},
        "surviving_a_hist": [],
        "surviving_b_hist": [],
    }
    return analysis.roster_result(total, cost_a=cost_a, cost_b=cost_b)


def words(result: dict, language: str = "en") -> dict:
    with translation.override(language):
        return reading.roster_reading(result, name_a="Blue", name_b="Red")


def test_an_even_battle_says_so_and_offers_no_change():
    w = words(result_of(490, 20, 490, 200, 200))
    assert [c["percent"] for c in w["chances"]] == [49, 2, 49]
    assert w["headline"].startswith("An even battle")
    assert w["even_it"] == ""
    assert w["fair"] == "For what each army costs, the points are fair."


def test_the_stronger_side_is_named_with_the_points_that_would_even_it():
    # Blue scores 0.6 at equal points: odds 1.5, so Red needs about 200 × 0.5 = 100 more points, or Blue gives up
    # 200 × (1 − 1/1.5) ≈ 67 → 65 (to the nearest 5).
    w = words(result_of(600, 0, 400, 200, 200))
    assert w["headline"] == "Blue is stronger by about 100 points."
    assert w["even_it"] == "To even it, give Red about 100 more points of units, or take about 65 points from Blue."
    assert "points are off" in w["fair"]
    assert "enough to be fairly sure" in w["sure"]
    # the other way round: Red is the stronger side
    w = words(result_of(400, 0, 600, 200, 200))
    assert w["headline"] == "Red is stronger by about 100 points."


def test_a_lopsided_battle_gives_no_absurd_number_and_few_battles_ask_for_more():
    w = words(result_of(99, 0, 1, 240, 220))
    assert "wins almost every battle" in w["headline"]
    assert not re.search(r"\d", w["headline"])
    w = words(result_of(6, 0, 4, 200, 200))
    assert "more battles would make this surer" in w["sure"]


def test_russian_first():
    w = words(result_of(600, 0, 400, 200, 200), "ru")
    assert w["headline"] == "Blue сильнее примерно на 100 очков."
    assert w["chances"][0]["label"] == "Blue: победа"
    assert w["even_it"].startswith("Чтобы уравнять силы")


@pytest.mark.django_db
def test_the_job_page_leads_with_the_chances_and_folds_the_statistics(client):
    try:
        user = make_user("reader")
        pack = official_pack()
        blue = make_roster(user, pack, "Blue", "protectorate", ARMY_A)
        red = make_roster(user, pack, "Red", "polaris", ARMY_B)
        job = services.balance_job_submit_rosters(user=user, roster_a_id=blue.pk, roster_b_id=red.pk, battles=60)
        for i in range(job.chunk_count):
            services.balance_chunk_run(job_id=job.pk, index=i)
    finally:
        purge_queue()
    client.force_login(user)
    html = client.get(reverse("jobs:job", args=[job.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    answer = html.index('id="reading"')
    fold = html.index('<details class="statistics"')
    assert answer < fold < html.index("Expected surviving cost") < html.index('id="chart-rounds"')
    assert html.index('class="verdict') > fold  # the "k× the points ratio" sentence is a statistic now
    assert re.search(r"<strong>\d+ %</strong> Blue wins", html)
    assert "battles were played" in html
    # "How the numbers are read" speaks to players, not in a docstring's terms
    how = html[html.index('id="how-to-read"') :]
    assert "played the two armies against each other" in how
    assert "Bradley" not in how
    assert "Wilson" not in how
    ru = client.get(reverse("jobs:job", args=[job.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Статистика" in ru
    assert "Как читать числа" in ru
    assert "Armlist много раз сыграл армии" in ru


@pytest.mark.django_db
def test_the_job_page_names_the_battle_parameters_in_the_readers_language(client):
    """The job's parameters are listed with the system's titles, which are msgids (as on the job form)."""
    from rules.models import BalanceJob

    user = make_user("params-reader")
    job = BalanceJob.objects.create(
        owner=user,
        system="5150",
        kind=BalanceJob.Kind.ROSTERS,
        title="Blue vs Red",
        params={"max_turns": 12, "max_exchanges": 3},
        settings={},
        inputs={"forces": []},
        seed=1,
        battles=10,
        total_battles=10,
        chunk_count=1,
    )
    client.force_login(user)
    url = reverse("jobs:job", args=[job.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Turns at most" in english
    assert "Volleys per firefight" in english
    assert "Turns at most" not in russian
    assert "Volleys per firefight" not in russian
    assert "ходов" in russian


@pytest.mark.django_db
def test_a_study_whose_armies_never_harm_each_other_says_so_not_balanced(client):
    """Two rosters of vehicles without pilots (the book: a vehicle needs a pilot of its rank) never fight: every
    battle is a draw with both armies whole. The page says the armies never harmed each other and why (the job's
    warnings), never "balanced" (issue #25)."""
    try:
        user = make_user("pilotless")
        pack = official_pack()
        blue = make_roster(user, pack, "Blue", "protectorate", ["trex"])
        red = make_roster(user, pack, "Red", "polaris", ["raptor"])
        job = services.balance_job_submit_rosters(user=user, roster_a_id=blue.pk, roster_b_id=red.pk, battles=60)
        for i in range(job.chunk_count):
            services.balance_chunk_run(job_id=job.pk, index=i)
    finally:
        purge_queue()
    job.refresh_from_db()
    assert job.result["draw"]["p"] == 1
    assert job.result["verdict"]["level"] == "no_contact"
    assert job.warnings, "the simulator says why the armies could not fight"
    client.force_login(user)
    for language, never, balanced in (("en", "never harmed each other", "Balanced"), ("ru", "не нанесли", "Сбаланс")):
        html = client.get(reverse("jobs:job", args=[job.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        reading_part = html[html.index('id="reading"') : html.index('<details class="statistics"')]
        assert never in reading_part
        assert 'data-testid="no-contact-why"' in reading_part
        assert balanced not in html


def test_a_study_of_drawn_battles_with_real_casualties_is_never_read_as_no_contact():
    total = {
        "battles": 4,
        "wins_a": 0,
        "wins_b": 0,
        "draws": 4,
        "rounds_hist": [0, 4],
        "surviving_a_sum": 200.0,  # 80, 20, 60, 40: the armies hurt each other, differently each time
        "surviving_a_sumsq": 12000.0,
        "surviving_a_hist": [],
        "surviving_b_sum": 200.0,
        "surviving_b_sumsq": 12000.0,
        "surviving_b_hist": [],
    }
    result = analysis.roster_result(total, cost_a=100, cost_b=100)
    assert result["verdict"]["level"] != "no_contact"
    assert "never harmed" not in words(result)["headline"]
