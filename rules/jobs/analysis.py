"""Turning chunk counts into answers: Wilson intervals, the balance verdict, and a Bradley–Terry fit of the costs
that would balance a pack. Pure functions of plain numbers (no Django), so they are tested directly.

Verdict (roster against roster). A battle scores 1 for a win, ½ for a draw. Side A's expected score s has a
95 % interval (normal approximation of the score's mean; Wilson intervals are given for win, loss and draw).
Read through Bradley–Terry, a score s means odds r = s / (1 − s) that A beats B, i.e. A is r times as strong. If
points measured strength, r would equal the points ratio cost_A / cost_B, so k = r / (cost_A / cost_B) says how
far this match-up's points are off: A's odds are k times what its points predict. The verdict is "balanced" when k
is within 10 % of 1, "acceptable" within 20 %, otherwise "unbalanced", and names the interval; a system whose book
advises how close armies should be states it through its settings (balance_info_percent, balance_warning_percent),
and those thresholds are used instead.

Bradley–Terry (unit against unit). Every unordered pair of units fights duels; a draw counts as half a win to
each. P(i beats j) = π_i / (π_i + π_j). The strengths π are the maximum-likelihood fit by the MM algorithm
(Hunter 2004): π_i ← W_i / Σ_j n_ij / (π_i + π_j), normalised to a geometric mean of 1 each step. One virtual
draw is added to every pair so that a unit that never loses (or never wins) still gets a finite strength.
Costs that would balance the pack are taken proportional to π, scaled so the fitted costs add up to the printed
ones; strength per point is π / cost, normalised to a mean of 1.
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def finite(value):
    """JSON-safe numbers: NaN and infinities become None (PostgreSQL's jsonb refuses them)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion k/n."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"count": k, "p": k / n if n else 0.0, "low": lo, "high": hi}


def add_summaries(summaries: list[dict]) -> dict:
    """Adds the chunk summaries of a roster-against-roster job (in chunk order: floats add up the same way). Lists
    (histograms) add up element by element; a shorter one counts zeros where it ends."""
    total: dict = {}
    for s in summaries:
        for key, value in s.items():
            if isinstance(value, list):
                cur = total.get(key, [])
                width = max(len(cur), len(value))
                cur = cur + [0] * (width - len(cur))
                value = value + [0] * (width - len(value))
                total[key] = [a + b for a, b in zip(cur, value, strict=True)]
            else:
                total[key] = total.get(key, 0) + value
    return total


#: Settings through which a system states its book's balance advice (in percent); without them 10 and 20.
INFO_SETTING, WARNING_SETTING = "balance_info_percent", "balance_warning_percent"


def thresholds(settings: dict) -> dict:
    """The verdict's thresholds for a job run under `settings`: the book's advice when the system states one
    (INFO_SETTING / WARNING_SETTING), else 10 and 20 %."""
    return {
        "info": int(settings.get(INFO_SETTING, 10)),
        "warning": int(settings.get(WARNING_SETTING, 20)),
        "advice": INFO_SETTING in settings or WARNING_SETTING in settings,
    }


def _ratio(s: float) -> float:
    s = min(max(s, 1e-9), 1 - 1e-9)
    return s / (1 - s)


def verdict(
    *,
    score: float,
    low: float,
    high: float,
    cost_a: float,
    cost_b: float,
    info: int = 10,
    warning: int = 20,
    advice: bool = True,
) -> dict:
    """How far the points are off for this match-up, against the book's 10–20 % advice (see module doc)."""
    larger = max(cost_a, cost_b)
    gap = abs(cost_a - cost_b) / larger if larger else 0.0
    points_ratio = cost_a / cost_b if cost_b else float("inf")
    if not math.isfinite(points_ratio) or points_ratio == 0:
        k = k_low = k_high = float("nan")
    else:
        k = _ratio(score) / points_ratio
        k_low, k_high = _ratio(low) / points_ratio, _ratio(high) / points_ratio
    off = abs(math.log(k)) if math.isfinite(k) and k > 0 else float("inf")
    tight, loose = math.log(1 + info / 100), math.log(1 + warning / 100)
    if off <= tight:
        level = "balanced"
    elif off <= loose:
        level = "acceptable"
    else:
        level = "unbalanced"
    favoured = "a" if k > 1 else "b" if k < 1 else None
    certain = True
    if math.isfinite(k_low) and math.isfinite(k_high):
        lo_off, hi_off = abs(math.log(max(k_low, 1e-12))), abs(math.log(max(k_high, 1e-12)))
        spans_one = k_low <= 1 <= k_high
        inner = 0 if spans_one else min(lo_off, hi_off)
        outer = max(lo_off, hi_off)
        bounds = [0, tight, loose, float("inf")]
        band = next(i for i in range(3) if off <= bounds[i + 1])
        certain = bounds[band] <= inner and outer <= bounds[band + 1]
    return {
        "level": level,
        "favoured": favoured,
        "points_gap": gap,
        "points_gap_level": "ok" if gap <= info / 100 else "info" if gap <= warning / 100 else "warning",
        "points_ratio": points_ratio,
        "strength_ratio": _ratio(score),
        "k": k,
        "k_low": k_low,
        "k_high": k_high,
        "certain": certain,
        # the thresholds it was read against, so the page can say it in the viewer's language (reading.verdict_text)
        "info": info,
        "warning": warning,
        "advice": advice,
    }


def roster_result(
    total: dict, *, cost_a: float, cost_b: float, info: int = 10, warning: int = 20, advice: bool = True
) -> dict:
    """The answer of a roster-against-roster job from its summed counts."""
    n = int(total["battles"])
    wins_a, wins_b, draws = int(total["wins_a"]), int(total["wins_b"]), int(total["draws"])
    score = (wins_a + 0.5 * draws) / n
    # variance of one battle's score (1, ½ or 0)
    second = (wins_a + 0.25 * draws) / n
    se = math.sqrt(max(second - score * score, 0.0) / n)
    low, high = max(0.0, score - Z95 * se), min(1.0, score + Z95 * se)
    surviving = {}
    for side, cost in (("a", cost_a), ("b", cost_b)):
        mean = total[f"surviving_{side}_sum"] / n
        var = max(total[f"surviving_{side}_sumsq"] / n - mean * mean, 0.0)
        surviving[side] = {
            "mean": mean,
            "se": math.sqrt(var / n),
            "share": mean / cost if cost else 0.0,
            "hist": total[f"surviving_{side}_hist"],
        }
    rounds_hist = total["rounds_hist"]
    mean_rounds = sum((i + 1) * c for i, c in enumerate(rounds_hist)) / n
    judged = verdict(
        score=score, low=low, high=high, cost_a=cost_a, cost_b=cost_b, info=info, warning=warning, advice=advice
    )
    if never_fought(draws=draws, battles=n, surviving=surviving):
        # Every battle a draw with both armies whole: the battles say nothing of the points (issue #25: two rosters
        # of vehicles without pilots "balanced, certain"). The job's warnings say why they could not fight.
        judged.update(level="no_contact", certain=False)
    return finite(
        {
            "battles": n,
            "cost_a": cost_a,
            "cost_b": cost_b,
            "win_a": proportion(wins_a, n),
            "win_b": proportion(wins_b, n),
            "draw": proportion(draws, n),
            "score_a": {"p": score, "low": low, "high": high},
            "surviving": surviving,
            "rounds_hist": rounds_hist,
            "mean_rounds": mean_rounds,
            "verdict": judged,
        }
    )


def never_fought(*, draws: int, battles: int, surviving: dict) -> bool:
    """True when no battle was decided and every one ended alike: all draws, and each side's surviving cost the same
    in every battle. Armies that can harm each other vary from battle to battle; these never did (a simulator counts a
    unit that can never act, such as a vehicle without a pilot, as surviving nothing, so the level itself says
    nothing)."""
    if battles <= 0 or draws != battles:
        return False
    return all(surviving[side]["se"] <= 1e-9 for side in ("a", "b"))


def bradley_terry(wins: np.ndarray, *, prior: float = 1.0, tol: float = 1e-10, max_iter: int = 20_000) -> np.ndarray:
    """MM fit of Bradley–Terry strengths. wins[i, j] = games i won against j (draws split in halves); `prior`
    virtual draws are added to each pair played. Returns π with geometric mean 1."""
    wins = np.asarray(wins, dtype=float)
    n = wins.shape[0]
    played = wins + wins.T
    mask = played > 0
    w = wins + np.where(mask, prior / 2, 0.0)
    games = played + np.where(mask, prior, 0.0)
    np.fill_diagonal(games, 0.0)
    np.fill_diagonal(w, 0.0)
    won = w.sum(1)
    pi = np.ones(n)
    for _ in range(max_iter):
        denom = (games / (pi[:, None] + pi[None, :])).sum(1)
        new = np.where(denom > 0, won / np.where(denom > 0, denom, 1), 1.0)
        new = np.where(new > 0, new, 1e-12)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(new - pi) / pi) < tol:
            pi = new
            break
        pi = new
    return pi


def duel_result(profiles: list[dict], pair_counts: list[list]) -> dict:
    """Heat map, Bradley–Terry strengths, strength per point and fitted costs of a unit-against-unit job.
    pair_counts rows: [i, j, wins_i, wins_j, draws]."""
    n = len(profiles)
    wins = np.zeros((n, n))
    games = np.zeros((n, n))
    score = np.full((n, n), np.nan)
    for i, j, wi, wj, dr in pair_counts:
        wins[i, j] += wi + dr / 2
        wins[j, i] += wj + dr / 2
        games[i, j] += wi + wj + dr
        games[j, i] += wi + wj + dr
    played = games > 0
    score[played] = wins[played] / games[played]
    np.fill_diagonal(score, 0.5)
    pi = bradley_terry(wins) if n > 1 else np.ones(n)
    costs = np.array([float(p["cost"]) for p in profiles])
    per_point = np.where(costs > 0, pi / np.where(costs > 0, costs, 1), np.nan)
    known = np.isfinite(per_point)
    if known.any():
        per_point = per_point / per_point[known].mean()
    fitted = pi * (costs.sum() / pi.sum()) if pi.sum() > 0 else costs
    units = []
    for k, p in enumerate(profiles):
        units.append(
            {
                "slug": p["slug"],
                "name": p["name"],
                "kind": p["kind"],
                "faction": p["faction"],
                "cost": float(costs[k]),
                "strength": float(pi[k]),
                "strength_per_point": None if not math.isfinite(per_point[k]) else float(per_point[k]),
                "fitted_cost": float(fitted[k]),
                "mean_score": float(np.nanmean(np.where(np.eye(n, dtype=bool), np.nan, score[k]))) if n > 1 else 0.5,
            }
        )
    return finite(
        {
            "units": units,
            "matrix": [[None if not math.isfinite(v) else float(v) for v in row] for row in score],
            "games": int(games.sum() / 2),
            "method": "Bradley–Terry, MM algorithm (Hunter 2004), one virtual draw per pair; costs ∝ strength.",
        }
    )
