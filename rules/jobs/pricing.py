"""Suggested points for a pack whose book gives none (army pricing "simulated", rules/contract/army.py).

Every pair of the pack's profiles fights `battles` duels: exactly the unit-against-unit balance job a user would
submit for that pack (same profiles in the pack's order, battles, seed, parameters and settings), computed here in
one process by the jobs' own chunk code, so a job re-run from the builder's link gives the same numbers. Each
profile's points are its Bradley–Terry strength times `mean`, the points of a unit of the pack's average strength
(the strengths' geometric mean is 1; equal points then mean even odds, analysis.py); the 95 % interval comes from a parametric bootstrap: each pair's outcomes are drawn
again from their observed shares and the strengths refitted. The answer is written into the pack: each profile's
`cost` and `data.suggested` = {"points", "low", "high", "strength", "job"}, and the job under provenance.job.
"""

from __future__ import annotations

import copy

import numpy as np
from django.utils.translation import gettext as _

from rules.errors import RuleInputError
from rules.jobs import analysis, services
from rules.models import BalanceJob, JobChunk

DEFAULT_MEAN = 100
DEFAULT_BOOTSTRAP = 200


def job_spec(part, system: str, *, battles: int, seed: int, params: dict | None, settings: dict | None) -> dict:
    """The duel job as recorded in the pack: enough to submit it again (params with their defaults filled in;
    settings as given, the others at their defaults)."""
    services._check_battles(battles)
    checked = services._params(part, params)
    services._settings(part, system, settings)  # a bad setting fails here, not in the pack
    return {
        "kind": "duels",
        "battles": int(battles),
        "seed": services._seed(seed),
        "params": checked,
        "settings": dict(settings or {}),
        "model_version": part.model_version,
    }


def run_duels(system: str, profiles: list[dict], spec: dict) -> list[list[int]]:
    """[i, j, wins_i, wins_j, draws] for every pair, through the jobs' chunk code (rules/jobs/services.py)."""
    part = services.simulator_for(system, kind=BalanceJob.Kind.DUELS)
    job = BalanceJob(
        system=system,
        kind=BalanceJob.Kind.DUELS,
        params=spec["params"],
        settings=services._settings(part, system, spec["settings"]),
        inputs={"profiles": profiles},
        seed=spec["seed"],
        battles=spec["battles"],
    )
    pairs = [[i, j] for i in range(len(profiles)) for j in range(i + 1, len(profiles))]
    chunk = JobChunk(job=job, index=0, battles=spec["battles"] * len(pairs), spec={"pairs": pairs})
    return services.compute_chunk(job, chunk)["pairs"]


def _points(rows: list[list[int]], n: int, mean: float) -> tuple[np.ndarray, np.ndarray]:
    wins = np.zeros((n, n))
    for i, j, wi, wj, dr in rows:
        wins[i, j] += wi + dr / 2
        wins[j, i] += wj + dr / 2
    pi = analysis.bradley_terry(wins)
    return pi, pi * mean


def bootstrap(rows: list[list[int]], n: int, mean: float, *, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """95 % percentile interval of each profile's points: every pair's outcomes drawn again from their shares."""
    # spawn key (n, n) is no duel's (pairs have i < j): the bootstrap's draws never repeat a duel's
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(n, n)))
    draws = np.empty((rounds, n))
    for r in range(rounds):
        again = []
        for i, j, wi, wj, dr in rows:
            total = wi + wj + dr
            a, b, d = rng.multinomial(total, [wi / total, wj / total, dr / total]) if total else (0, 0, 0)
            again.append([i, j, a, b, d])
        draws[r] = _points(again, n, mean)[1]
    return np.percentile(draws, 2.5, axis=0), np.percentile(draws, 97.5, axis=0)


def suggest_points(
    pack: dict,
    *,
    battles: int,
    seed: int,
    params: dict | None = None,
    settings: dict | None = None,
    mean: float = DEFAULT_MEAN,
    rounds: int = DEFAULT_BOOTSTRAP,
) -> dict:
    """A copy of `pack` (an armlist-pack dict) with every profile priced (see the module doc)."""
    system = pack["system"]
    part = services.simulator_for(system, kind=BalanceJob.Kind.DUELS, field="system")
    profiles = [
        {k: p.get(k) for k in ("slug", "name", "faction", "kind", "cost", "data")} for p in pack.get("profiles") or []
    ]
    if len(profiles) < 2:
        raise RuleInputError({"profiles": _("A pack needs at least two units to price them by duels.")})
    spec = job_spec(part, system, battles=battles, seed=seed, params=params, settings=settings)
    rows = run_duels(system, profiles, spec)
    n = len(profiles)
    strength, points = _points(rows, n, mean)
    low, high = bootstrap(rows, n, mean, rounds=rounds, seed=spec["seed"])
    out = copy.deepcopy(pack)
    out["provenance"] = {**(out.get("provenance") or {}), "job": {**spec, "profiles": n, "mean": mean}}
    for k, profile in enumerate(out["profiles"]):
        profile["cost"] = max(1, int(round(points[k])))
        profile["data"]["suggested"] = {
            "points": profile["cost"],
            "low": round(float(low[k]), 1),
            "high": round(float(high[k]), 1),
            "strength": round(float(strength[k]), 6),
            "job": spec,
        }
    return out
