"""Results: summaries that add up across chunks, and one-call simulation."""

from __future__ import annotations

import random

import numpy as np

from rules.systems.bronepekhota.simulate.model.battle import Battle
from rules.systems.bronepekhota.simulate.model.params import OUTCOME_A, OUTCOME_B, OUTCOME_DRAW, BattleParams


# Results ----------------------------------------------------------------------------------------------------
def summarise(result: dict, *, rounds: int, cost: np.ndarray, bins: int = 10) -> dict:
    """Counts and sums that add up across chunks: outcomes, rounds histogram, surviving cost sums and histograms
    (share of the army's cost in `bins` bins)."""
    outcome, played = result["outcome"], result["rounds"]
    out = {
        "battles": int(outcome.size),
        "wins_a": int((outcome == OUTCOME_A).sum()),
        "wins_b": int((outcome == OUTCOME_B).sum()),
        "draws": int((outcome == OUTCOME_DRAW).sum()),
        "rounds_hist": np.bincount(played, minlength=rounds + 1)[1:].tolist(),
    }
    for k, key in enumerate(("a", "b")):
        surv = result[f"surviving_{key}"]
        out[f"surviving_{key}_sum"] = float(surv.sum())
        out[f"surviving_{key}_sumsq"] = float((surv**2).sum())
        share = surv / cost[k] if cost[k] else np.zeros_like(surv)
        out[f"surviving_{key}_hist"] = np.bincount(
            np.minimum((share * bins).astype(int), bins - 1), minlength=bins
        ).tolist()
    return out


def simulate(
    side_a: list[dict],
    side_b: list[dict],
    params: BattleParams,
    settings: dict | None,
    *,
    n: int,
    seed,
    batch: int = 32768,
    stand_ins: bool = False,
) -> dict:
    """Compiles the battle and simulates `n` battles from `seed` (an int or a numpy SeedSequence); summarised."""
    battle = Battle(side_a, side_b, params, settings, stand_ins=stand_ins)
    rng = np.random.default_rng(seed)
    return summarise(battle.run(n, rng, batch=batch), rounds=params.rounds, cost=battle.cost)


def python_rng(seed: int) -> random.Random:
    return random.Random(seed)
