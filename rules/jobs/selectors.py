"""Reads of balance jobs, always filtered by owner: another user's job is a 404, never a 403."""

from __future__ import annotations

import csv
import io

from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone

from rules.models import BalanceJob, JobChunk


def job_list_for_user(user) -> QuerySet[BalanceJob]:
    if not user.is_authenticated:
        return BalanceJob.objects.none()
    return BalanceJob.objects.filter(owner=user).defer("inputs", "result").order_by("-created_at", "-id")


def job_get_for_user(user, job_id) -> BalanceJob:
    job = None
    if user.is_authenticated and str(job_id).isdigit():
        job = BalanceJob.objects.filter(owner=user, pk=job_id).first()
    if job is None:
        raise Http404("No such balance job.")
    return job


def job_chunks(job: BalanceJob) -> QuerySet[JobChunk]:
    return JobChunk.objects.filter(job=job).order_by("index")


def job_progress(job: BalanceJob, *, now=None) -> dict:
    """Status, share done and the estimated seconds left (from the pace so far; None until a chunk is in)."""
    now = now or timezone.now()
    total = job.total_battles or 1
    done = min(job.battles_done, total)
    elapsed = (now - job.started_at).total_seconds() if job.started_at else 0.0
    if job.finished_at and job.started_at:
        elapsed = (job.finished_at - job.started_at).total_seconds()
    eta = None
    if job.status == BalanceJob.Status.RUNNING and done > 0 and elapsed > 0:
        eta = elapsed * (total - done) / done
    elif job.status == BalanceJob.Status.DONE:
        eta = 0.0
    return {
        "status": job.status,
        "progress": done / total,
        "battles_done": done,
        "total_battles": job.total_battles,
        "chunks_done": job.chunks_done,
        "chunk_count": job.chunk_count,
        "elapsed_seconds": round(elapsed, 1),
        "eta_seconds": None if eta is None else round(eta, 1),
        "finished": job.finished,
        "error": job.error,
    }


def job_result_csv(job: BalanceJob, table: str = "") -> str:
    """The stored result as CSV. Rosters: one long table. Duels: `units` (default) or `matrix`."""
    out = io.StringIO()
    w = csv.writer(out)
    r = job.result or {}
    if job.kind == BalanceJob.Kind.ROSTERS:
        w.writerow(["section", "key", "value", "low", "high"])
        w.writerow(["battles", "count", r.get("battles"), "", ""])
        for key, label in (("win_a", "side A wins"), ("win_b", "side B wins"), ("draw", "draw")):
            p = r.get(key) or {}
            w.writerow(["outcome", label, p.get("p"), p.get("low"), p.get("high")])
        s = r.get("score_a") or {}
        w.writerow(["outcome", "side A score", s.get("p"), s.get("low"), s.get("high")])
        for side in ("a", "b"):
            sv = (r.get("surviving") or {}).get(side) or {}
            mean, se = sv.get("mean"), sv.get("se") or 0
            low = None if mean is None else mean - 1.96 * se
            high = None if mean is None else mean + 1.96 * se
            w.writerow(["surviving cost", f"side {side.upper()}", mean, low, high])
            for i, count in enumerate(sv.get("hist") or []):
                w.writerow(["surviving share", f"side {side.upper()} {i * 10}-{i * 10 + 10} %", count, "", ""])
        for i, count in enumerate(r.get("rounds_hist") or [], start=1):
            w.writerow(["rounds", f"ended in round {i}", count, "", ""])
        v = r.get("verdict") or {}
        w.writerow(["verdict", v.get("level"), v.get("k"), v.get("k_low"), v.get("k_high")])
    elif table == "matrix":
        units = r.get("units") or []
        w.writerow(["unit", "opponent", "score"])
        for i, row in enumerate(r.get("matrix") or []):
            for j, value in enumerate(row):
                if i != j:
                    w.writerow([units[i]["slug"], units[j]["slug"], value])
    else:
        w.writerow(
            ["slug", "name", "kind", "faction", "cost", "fitted_cost", "strength", "strength_per_point", "mean_score"]
        )
        for u in r.get("units") or []:
            w.writerow(
                [
                    u["slug"],
                    u["name"],
                    u["kind"],
                    u["faction"],
                    u["cost"],
                    round(u["fitted_cost"], 2),
                    u["strength"],
                    u["strength_per_point"],
                    u["mean_score"],
                ]
            )
    return out.getvalue()
