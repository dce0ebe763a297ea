"""Writes of balance jobs: submission (rows and publishing in one transaction), running one chunk (idempotent),
aggregation by the last chunk in, and cancellation.

Why the pieces look as they do:
- Submission creates the job and its chunks and publishes the Celery group inside one transaction. If the broker
  is down the publish raises, the transaction rolls back and the caller gets BrokerUnavailable (503): nothing is
  half-created. A worker may see a task before the commit, so a chunk waits briefly for its row to appear.
- A chunk's result goes into its own JobChunk row under select_for_update; a second completion of the same chunk
  (a redelivered message after a lost worker) finds it done and changes nothing. The job row is locked first, so
  completions are serialised and the one that completes the last chunk aggregates, in chunk order.
- Seeds: chunk i of a roster job draws from SeedSequence(job seed, spawn_key=(i,)); the duel of units (i, j)
  from SeedSequence(job seed, spawn_key=(i, j)). The same seed and inputs give the same numbers whatever the
  number of workers or the order chunks finish in.
"""

from __future__ import annotations

import logging
import math
import secrets
import time

import numpy as np
from django.conf import settings as django_settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from armies.selectors import pack_get_for_user, pack_profiles, roster_for_rules, roster_get_for_user
from config.api import BrokerUnavailable
from rules.jobs import analysis
from rules.models import BalanceJob, JobChunk
from rules.systems.base import RuleInputError

logger = logging.getLogger(__name__)

SYSTEM = "bronepekhota"
DEFAULT_MAX_BATTLES = 2_000_000
DEFAULT_CHUNK_BATTLES = 20_000
PARAM_KEYS = ("distance", "cover_a", "cover_b", "rounds", "initiative", "approach")
CHUNK_ROW_WAIT_SECONDS = 10.0


def max_battles() -> int:
    return int(getattr(django_settings, "BALANCE_MAX_BATTLES", DEFAULT_MAX_BATTLES))


def chunk_battles() -> int:
    return max(1, int(getattr(django_settings, "BALANCE_CHUNK_BATTLES", DEFAULT_CHUNK_BATTLES)))


# Input checks --------------------------------------------------------------------------------------------------
def _check_battles(battles, *, pairs: int = 1) -> int:
    limit = max_battles()
    if isinstance(battles, bool) or not isinstance(battles, int) or battles < 1:
        raise RuleInputError({"battles": "The number of battles must be a whole number of 1 or more."})
    if battles * pairs > limit:
        if pairs > 1:
            raise RuleInputError(
                {
                    "battles": f"{battles} battles for each of {pairs} pairs of units is {battles * pairs}; "
                    f"the most one job may run is {limit}."
                }
            )
        raise RuleInputError({"battles": f"At most {limit} battles per job; {battles} were asked."})
    return battles


def _params(params: dict | None):
    from rules.systems.bronepekhota.simulate import BattleParams

    params = dict(params or {})
    unknown = sorted(set(params) - set(PARAM_KEYS))
    if unknown:
        raise RuleInputError({f"params.{k}": "unknown parameter" for k in unknown})
    try:
        return BattleParams(**params).check()
    except RuleInputError as exc:
        raise RuleInputError({f"params.{k}": v for k, v in exc.errors.items()}) from None


def _settings(values: dict | None) -> dict:
    from rules.systems.bronepekhota.simulate import resolve_settings

    return resolve_settings(values)


def _seed(seed) -> int:
    if seed is None:
        return secrets.randbelow(2**53)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RuleInputError({"seed": "The seed must be a whole number from 0 to 2^63 − 1."})
    return seed


# Submission --------------------------------------------------------------------------------------------------
def balance_job_submit_rosters(
    *,
    user,
    roster_a_id,
    roster_b_id,
    battles: int,
    params: dict | None = None,
    settings: dict | None = None,
    seed: int | None = None,
    title: str = "",
) -> BalanceJob:
    """Roster against roster. Rosters the user cannot see are a 404 (Http404 from armies.selectors)."""
    from rules.registry import get_system
    from rules.systems.bronepekhota.simulate import MODEL_VERSION, Battle

    rosters = {"roster_a": roster_get_for_user(user, roster_a_id), "roster_b": roster_get_for_user(user, roster_b_id)}
    errors = {}
    for field, roster in rosters.items():
        if roster.system != SYSTEM:
            errors[field] = f"«{roster.name}» is a {roster.system} roster; balance jobs simulate «Бронепехота» only."
    if errors:
        raise RuleInputError(errors)
    sides = {field: roster_for_rules(roster) for field, roster in rosters.items()}
    for field, side in sides.items():
        if not any(int(e.get("count") or 0) > 0 for e in side["entries"]):
            errors[field] = f"«{rosters[field].name}» has no units: add some before simulating it."
    if errors:
        raise RuleInputError(errors)
    battles = _check_battles(battles)
    bp = _params(params)
    st = _settings(settings)
    battle = Battle(sides["roster_a"]["entries"], sides["roster_b"]["entries"], bp, st)
    warnings = list(battle.warnings)
    system = get_system(SYSTEM)
    for label, field in (("A", "roster_a"), ("B", "roster_b")):
        report = system.cost_roster(sides[field])
        # Missing pilots are chosen by the simulator (and listed with the forces); other errors are worth a note.
        warnings += [
            f"Side {label}: {i.message}" for i in report.issues if i.severity == "error" and i.code != "no_pilot"
        ]
    size = chunk_battles()
    count = math.ceil(battles / size)
    chunks = [(i, min(size, battles - i * size), {}) for i in range(count)]
    job = BalanceJob(
        owner=user,
        system=SYSTEM,
        kind=BalanceJob.Kind.ROSTERS,
        title=(title or f"{rosters['roster_a'].name} vs {rosters['roster_b'].name}")[:200],
        roster_a=rosters["roster_a"],
        roster_b=rosters["roster_b"],
        params=bp.as_dict(),
        settings=st,
        inputs={
            "side_a": {"name": rosters["roster_a"].name, "cost": float(battle.cost[0]), **sides["roster_a"]},
            "side_b": {"name": rosters["roster_b"].name, "cost": float(battle.cost[1]), **sides["roster_b"]},
            "forces": battle.describe(),
        },
        seed=_seed(seed),
        battles=battles,
        total_battles=battles,
        chunk_count=count,
        warnings=warnings,
        model_version=MODEL_VERSION,
    )
    return _create_and_publish(job, chunks)


def balance_job_submit_duels(
    *,
    user,
    pack_id,
    battles: int,
    profiles: list[str] | None = None,
    params: dict | None = None,
    settings: dict | None = None,
    seed: int | None = None,
    title: str = "",
) -> BalanceJob:
    """Every pair of the pack's units (or the chosen ones) fights `battles` duels. Packs the user cannot see are
    a 404."""
    from rules.systems.bronepekhota.simulate import MODEL_VERSION, Battle, entries_from_profile

    pack = pack_get_for_user(user, pack_id)
    if pack.system != SYSTEM:
        raise RuleInputError({"pack": f"«{pack.name}» is a {pack.system} pack; balance jobs simulate «Бронепехота»."})
    available = [p.as_rules_dict() for p in pack_profiles(pack)]
    if profiles:
        if not isinstance(profiles, list) or not all(isinstance(s, str) for s in profiles):
            raise RuleInputError({"profiles": "Give the units as a list of their slugs."})
        wanted = set(profiles)
        known = {p["slug"] for p in available}
        missing = sorted(wanted - known)
        if missing:
            raise RuleInputError({"profiles": f"Not in «{pack.name}»: {', '.join(missing)}."})
        chosen = [p for p in available if p["slug"] in wanted]
    else:
        chosen = available
    if len(chosen) < 2:
        raise RuleInputError({"profiles": "Choose at least two units: a duel needs two sides."})
    pairs = [(i, j) for i in range(len(chosen)) for j in range(i + 1, len(chosen))]
    battles = _check_battles(battles, pairs=len(pairs))
    bp = _params(params)
    st = _settings(settings)
    for p in chosen:  # fail here, not on a worker, when a profile cannot be simulated
        try:
            Battle(entries_from_profile(p), entries_from_profile(p), bp, st, stand_ins=True)
        except RuleInputError as exc:
            raise RuleInputError({"profiles": f"{p['name']} cannot be simulated: {exc}"}) from None
    per_chunk = max(1, chunk_battles() // battles)
    chunks = []
    for index, start in enumerate(range(0, len(pairs), per_chunk)):
        part = pairs[start : start + per_chunk]
        chunks.append((index, battles * len(part), {"pairs": [list(p) for p in part]}))
    job = BalanceJob(
        owner=user,
        system=SYSTEM,
        kind=BalanceJob.Kind.DUELS,
        title=(title or f"Duels: {pack.name} ({len(chosen)} units)")[:200],
        pack=pack,
        params=bp.as_dict(),
        settings=st,
        inputs={"pack": {"id": pack.pk, "name": pack.name, "version": pack.version}, "profiles": chosen},
        seed=_seed(seed),
        battles=battles,
        total_battles=battles * len(pairs),
        chunk_count=len(chunks),
        warnings=[],
        model_version=MODEL_VERSION,
    )
    return _create_and_publish(job, chunks)


def _create_and_publish(job: BalanceJob, chunks: list[tuple[int, int, dict]]) -> BalanceJob:
    with transaction.atomic():
        job.save()
        JobChunk.objects.bulk_create(
            [JobChunk(job=job, index=i, battles=n, spec=spec) for i, n, spec in chunks], batch_size=500
        )
        publish_chunks(job)  # raises BrokerUnavailable: the rows above roll back
    return job


def publish_chunks(job: BalanceJob) -> None:
    """Sends every chunk of the job as one Celery group, on a fresh connection so a broker that went away is seen
    at once (no retries: the user is told to try again)."""
    from celery import group
    from kombu.exceptions import KombuError, OperationalError

    from config.celery import app
    from rules.tasks import balance_chunk

    signatures = group(balance_chunk.si(job.pk, i) for i in range(job.chunk_count))
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=0)
            signatures.apply_async(producer=app.amqp.Producer(conn))
    except (OperationalError, KombuError, OSError) as exc:
        logger.warning("balance job %s: broker unreachable: %s", job.pk, exc)
        raise BrokerUnavailable() from exc
    except Exception as exc:  # redis-py errors that kombu did not wrap
        if type(exc).__module__.startswith(("redis", "kombu", "amqp")):
            logger.warning("balance job %s: broker error: %s", job.pk, exc)
            raise BrokerUnavailable() from exc
        raise


# Cancellation ----------------------------------------------------------------------------------------------
class JobFinished(Exception):
    """The job already finished; nothing to cancel."""


def balance_job_cancel(*, job: BalanceJob) -> BalanceJob:
    """Marks the job cancelled; queued chunks then skip and running ones are ignored when they end."""
    with transaction.atomic():
        job = BalanceJob.objects.select_for_update().get(pk=job.pk)
        if job.status == BalanceJob.Status.CANCELLED:
            return job
        if job.finished:
            raise JobFinished(f"This job already {job.status}; there is nothing to cancel.")
        job.status = BalanceJob.Status.CANCELLED
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "finished_at"])
    return job


# Running a chunk (called by the Celery task) ----------------------------------------------------------------
def balance_chunk_run(*, job_id: int, index: int, worker: str = "") -> str:
    """Simulates one chunk and records it. Idempotent: a chunk already done (or a finished job) is skipped.
    Returns what happened: "done", "finished" (this chunk completed the job), "duplicate", "skipped",
    "missing" or "failed"."""
    chunk = _wait_for_chunk(job_id, index)
    if chunk is None:
        return "missing"
    job = chunk.job
    if job.finished or chunk.status == JobChunk.Status.DONE:
        return "skipped"
    now = timezone.now()
    BalanceJob.objects.filter(pk=job_id, status=BalanceJob.Status.QUEUED).update(
        status=BalanceJob.Status.RUNNING, started_at=now
    )
    JobChunk.objects.filter(pk=chunk.pk).update(attempts=F("attempts") + 1, worker=worker[:200], started_at=now)
    try:
        if not _test_pause(job_id):
            return "skipped"
        result = compute_chunk(job, chunk)
    except Exception as exc:  # a bug or bad data: the job fails with a message instead of retrying forever
        logger.exception("balance job %s chunk %s failed", job_id, index)
        _fail(job_id, f"Chunk {index} failed: {type(exc).__name__}: {exc}")
        return "failed"
    return _record(job_id, index, result)


def _wait_for_chunk(job_id: int, index: int) -> JobChunk | None:
    deadline = time.monotonic() + CHUNK_ROW_WAIT_SECONDS
    while True:
        chunk = JobChunk.objects.select_related("job").filter(job_id=job_id, index=index).first()
        if chunk is not None or time.monotonic() > deadline:
            return chunk
        time.sleep(0.2)


def _test_pause(job_id: int) -> bool:
    """Test-only slowness (BALANCE_TEST_CHUNK_SLEEP seconds), checking for cancellation. False if cancelled."""
    pause = float(getattr(django_settings, "BALANCE_TEST_CHUNK_SLEEP", 0) or 0)
    end = time.monotonic() + pause
    while time.monotonic() < end:
        time.sleep(min(0.1, end - time.monotonic()))
        if not BalanceJob.objects.filter(pk=job_id).exclude(status__in=BalanceJob.FINISHED).exists():
            return False
    return True


def compute_chunk(job: BalanceJob, chunk: JobChunk) -> dict:
    """The chunk's counts: a pure function of the job's snapshot, its seed and the chunk's index/spec."""
    from rules.systems.bronepekhota.simulate import Battle, BattleParams, entries_from_profile, simulate

    params = BattleParams(**job.params)
    if job.kind == BalanceJob.Kind.ROSTERS:
        seed = np.random.SeedSequence(job.seed, spawn_key=(chunk.index,))
        return simulate(
            job.inputs["side_a"]["entries"],
            job.inputs["side_b"]["entries"],
            params,
            job.settings,
            n=chunk.battles,
            seed=seed,
        )
    profiles = job.inputs["profiles"]
    rows = []
    for i, j in chunk.spec["pairs"]:
        battle = Battle(
            entries_from_profile(profiles[i]), entries_from_profile(profiles[j]), params, job.settings, stand_ins=True
        )
        rng = np.random.default_rng(np.random.SeedSequence(job.seed, spawn_key=(i, j)))
        outcome = battle.run(job.battles, rng)["outcome"]
        rows.append([i, j, int((outcome == 1).sum()), int((outcome == 2).sum()), int((outcome == 0).sum())])
    return {"pairs": rows, "battles": job.battles * len(rows)}


def _record(job_id: int, index: int, result: dict) -> str:
    with transaction.atomic():
        job = BalanceJob.objects.select_for_update().get(pk=job_id)
        chunk = JobChunk.objects.select_for_update().get(job_id=job_id, index=index)
        if chunk.status == JobChunk.Status.DONE:
            return "duplicate"
        if job.finished:
            return "skipped"
        chunk.status = JobChunk.Status.DONE
        chunk.result = result
        chunk.finished_at = timezone.now()
        chunk.save(update_fields=["status", "result", "finished_at"])
        job.chunks_done += 1
        job.battles_done += chunk.battles
        fields = ["chunks_done", "battles_done"]
        outcome = "done"
        if job.chunks_done == job.chunk_count:
            job.result = aggregate(job)
            job.status = BalanceJob.Status.DONE
            job.finished_at = timezone.now()
            fields += ["result", "status", "finished_at"]
            outcome = "finished"
        job.save(update_fields=fields)
    return outcome


def aggregate(job: BalanceJob) -> dict:
    """The job's answer from every chunk's counts, read in chunk order."""
    results = list(
        JobChunk.objects.filter(job=job, status=JobChunk.Status.DONE).order_by("index").values_list("result", flat=True)
    )
    if len(results) != job.chunk_count:
        raise RuntimeError(f"job {job.pk}: {len(results)} of {job.chunk_count} chunks are in")
    if job.kind == BalanceJob.Kind.ROSTERS:
        total = analysis.add_summaries(results)
        return analysis.roster_result(
            total,
            cost_a=job.inputs["side_a"]["cost"],
            cost_b=job.inputs["side_b"]["cost"],
            info=int(job.settings.get("balance_info_percent", 10)),
            warning=int(job.settings.get("balance_warning_percent", 20)),
        )
    rows = [row for r in results for row in r["pairs"]]
    return analysis.duel_result(job.inputs["profiles"], rows)


def _fail(job_id: int, message: str) -> None:
    BalanceJob.objects.filter(pk=job_id).exclude(status__in=BalanceJob.FINISHED).update(
        status=BalanceJob.Status.FAILED, error=message[:2000], finished_at=timezone.now()
    )
