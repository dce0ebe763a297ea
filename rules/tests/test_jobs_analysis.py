"""The statistics of the balance jobs: Wilson intervals, the verdict against the book's 10–20 % advice, and the
Bradley–Terry fit of the costs that would balance a pack."""

import math

import numpy as np
import pytest

from rules.jobs import analysis, reading


def test_wilson_interval_known_values():
    lo, hi = analysis.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = analysis.wilson(0, 20)
    assert lo == 0.0
    assert hi == pytest.approx(0.1611, abs=1e-4)
    assert analysis.wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("score", "cost_a", "cost_b", "level", "favoured"),
    [
        (0.5, 300, 300, "balanced", None),
        (0.52, 300, 300, "balanced", "a"),  # strength ratio 1.083: within 10 %
        (0.535, 300, 300, "acceptable", "a"),  # 1.151: within 20 %
        (0.6, 300, 300, "unbalanced", "a"),  # 1.5
        (0.6, 450, 300, "balanced", "b"),  # A wins 60 % but has 1.5 times the points: fair
        (0.3, 300, 300, "unbalanced", "b"),
    ],
)
def test_verdict_levels(score, cost_a, cost_b, level, favoured):
    v = analysis.verdict(score=score, low=score, high=score, cost_a=cost_a, cost_b=cost_b)
    assert v["level"] == level
    assert v["favoured"] == favoured
    assert v["k"] == pytest.approx(score / (1 - score) / (cost_a / cost_b))


def test_verdict_says_when_the_interval_crosses_a_threshold():
    sure = analysis.verdict(score=0.5, low=0.495, high=0.505, cost_a=300, cost_b=300)
    unsure = analysis.verdict(score=0.5, low=0.45, high=0.55, cost_a=300, cost_b=300)
    assert sure["certain"]
    assert "More battles" not in reading.verdict_text(sure)
    assert not unsure["certain"]
    assert "More battles" in reading.verdict_text(unsure)


def test_verdict_reports_the_points_gap_like_the_roster_advice():
    assert analysis.verdict(score=0.5, low=0.5, high=0.5, cost_a=300, cost_b=280)["points_gap_level"] == "ok"
    assert analysis.verdict(score=0.5, low=0.5, high=0.5, cost_a=300, cost_b=255)["points_gap_level"] == "info"
    assert analysis.verdict(score=0.5, low=0.5, high=0.5, cost_a=300, cost_b=200)["points_gap_level"] == "warning"


def test_roster_result_from_counts():
    total = {
        "battles": 100,
        "wins_a": 60,
        "wins_b": 30,
        "draws": 10,
        "rounds_hist": [0, 50, 30, 20],
        "surviving_a_sum": 10000.0,
        "surviving_a_sumsq": 1_100_000.0,
        "surviving_a_hist": [0] * 10,
        "surviving_b_sum": 5000.0,
        "surviving_b_sumsq": 300_000.0,
        "surviving_b_hist": [0] * 10,
    }
    r = analysis.roster_result(total, cost_a=200, cost_b=200)
    assert r["score_a"]["p"] == pytest.approx(0.65)
    assert r["score_a"]["low"] < 0.65 < r["score_a"]["high"]
    assert r["surviving"]["a"]["mean"] == 100
    assert r["surviving"]["a"]["share"] == 0.5
    assert r["surviving"]["a"]["se"] == pytest.approx(math.sqrt((11000 - 10000) / 100))
    assert r["mean_rounds"] == pytest.approx(2.7)
    assert r["verdict"]["level"] == "unbalanced"


def test_non_finite_numbers_never_reach_the_json():
    v = analysis.finite(analysis.verdict(score=0.5, low=0.4, high=0.6, cost_a=100, cost_b=0))
    assert v["points_ratio"] is None
    assert v["k"] is None


def test_bradley_terry_recovers_known_strengths():
    rng = np.random.default_rng(0)
    true = np.array([4.0, 2.0, 1.0, 0.5])
    n = 20_000
    wins = np.zeros((4, 4))
    for i in range(4):
        for j in range(i + 1, 4):
            k = rng.binomial(n, true[i] / (true[i] + true[j]))
            wins[i, j], wins[j, i] = k, n - k
    pi = analysis.bradley_terry(wins)
    assert np.allclose(pi / pi[3], true / true[3], rtol=0.05)
    assert math.exp(np.log(pi).mean()) == pytest.approx(1.0)


def test_bradley_terry_stays_finite_for_a_unit_that_never_loses():
    wins = np.array([[0, 10, 10], [0, 0, 5], [0, 5, 0]], dtype=float)
    pi = analysis.bradley_terry(wins)
    assert np.all(np.isfinite(pi))
    assert pi[0] > pi[1]
    assert pi[1] == pytest.approx(pi[2])


def test_duel_result_fits_costs_to_strength():
    profiles = [
        {"slug": s, "name": s.upper(), "kind": "squad", "faction": "green", "cost": c}
        for s, c in (("strong", 40), ("weak", 40), ("mid", 40))
    ]
    # strong beats weak 90 %, mid 70 %; mid beats weak 70 %
    pairs = [[0, 1, 900, 100, 0], [0, 2, 700, 300, 0], [2, 1, 700, 300, 0]]
    r = analysis.duel_result(profiles, pairs)
    by = {u["slug"]: u for u in r["units"]}
    assert by["strong"]["fitted_cost"] > by["mid"]["fitted_cost"] > by["weak"]["fitted_cost"]
    assert sum(u["fitted_cost"] for u in r["units"]) == pytest.approx(120)
    assert np.mean([u["strength_per_point"] for u in r["units"]]) == pytest.approx(1.0)
    assert r["matrix"][0][1] == pytest.approx(0.9)
    assert r["matrix"][1][0] == pytest.approx(0.1)
    assert r["games"] == 3000


def test_summaries_of_different_lengths_add_up_with_zeros():
    total = analysis.add_summaries([{"battles": 3, "rounds_hist": [1, 2]}, {"battles": 4, "rounds_hist": [1, 2, 1]}])
    assert total == {"battles": 7, "rounds_hist": [2, 4, 1]}


def test_thresholds_come_from_the_settings_when_the_system_states_them():
    assert analysis.thresholds({}) == {"info": 10, "warning": 20, "advice": False}
    stated = analysis.thresholds({"balance_info_percent": 5, "balance_warning_percent": 15})
    assert stated == {"info": 5, "warning": 15, "advice": True}
    v = analysis.verdict(score=0.5, low=0.5, high=0.5, cost_a=100, cost_b=100, **analysis.thresholds({}))
    assert "Armlist advises" in reading.verdict_text(v)


def test_the_verdict_is_said_in_the_viewers_language_when_shown():
    """The verdict is worked out in a worker, in no one's language: the page words it for the viewer."""
    from django.utils import translation

    v = analysis.finite(analysis.verdict(score=0.6, low=0.5, high=0.7, cost_a=300, cost_b=300, info=5, warning=15))
    with translation.override("en"):
        english = reading.verdict_text(v)
    with translation.override("ru"):
        russian = reading.verdict_text(v)
    assert english.startswith("Unbalanced: side A's odds of winning are 1.50×")
    assert "outside the book's 5–15 %" in english
    assert "More battles would settle it" in english
    assert russian.startswith("Несбалансировано: шансы стороны A на победу в 1,50× раз")
    assert "5–15 %" in russian
    assert "Больше боёв" in russian
    assert reading.verdict_text(analysis.finite(analysis.verdict(score=0.5, low=0.4, high=0.6, cost_a=100, cost_b=0)))
