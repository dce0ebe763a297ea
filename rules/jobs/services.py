"""Writes of balance jobs: submission (rows and publishing in one transaction), running one chunk (idempotent),
aggregation by the last chunk in, and cancellation.

Why the pieces look as they do:
- Submission creates the job and its chunks in one transaction and publishes the Celery group once it commits
  (`on_commit`), so a worker always finds its chunk's row: nothing polls for it. If the broker is down the publish
  raises, the committed rows are deleted again and the caller gets BrokerUnavailable (503): nothing is
  half-created.
- A chunk's result goes into its own JobChunk row under select_for_update; a second completion of the same chunk
  (a message sent again after a lost worker, by the watchdog or the broker) finds it done and changes nothing.
  A running chunk keeps a heartbeat; rules/jobs/watchdog.py resends a chunk whose heartbeat went stale. The job
  row is locked first, so completions are serialised and the one that completes the last chunk aggregates, in
  chunk order.
- Seeds: chunk i of a roster job draws from SeedSequence(job seed, spawn_key=(i,)); the duel of units (i, j)
  from SeedSequence(job seed, spawn_key=(i, j)). The same seed and inputs give the same numbers whatever the
  number of workers or the order chunks finish in.
- No game here: a job's system is its rosters' (both of one system) or its pack's, and everything about the game
  goes through that system's simulator part (rules/contract/simulator.py: params, settings, prepare, run). A
  chunk's summary (outcomes, rounds and surviving-cost histograms) is computed here from the arrays `run` gives.
  Rosters and packs come from the roster source settings name (rules/jobs/sources.py), never from armies itself.
"""

from __future__ import annotations

import logging
import math
import secrets
from functools import partial

import numpy as np
from django.conf import settings as django_settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.contract.simulator import SimulatorPart
from rules.errors import GameConflict, RuleInputError
from rules.jobs import analysis, watchdog
from rules.jobs.broker import BrokerUnavailable, publish_chunks
from rules.jobs.sources import source
from rules.models import BalanceJob, JobChunk
from rules.registry import all_systems, get_system, known

logger = logging.getLogger(__name__)

DEFAULT_MAX_BATTLES = 2_000_000
DEFAULT_CHUNK_BATTLES = 20_000
SURVIVING_BINS = 10  # surviving cost as a share of the side's cost, in bins of 10 %
KIND_OF_JOB = {BalanceJob.Kind.ROSTERS: "rosters", BalanceJob.Kind.DUELS: "units"}  # job kind -> part's job_kinds


def max_battles() -> int:
    return int(getattr(django_settings, "BALANCE_MAX_BATTLES", DEFAULT_MAX_BATTLES))


def chunk_battles() -> int:
    return max(1, int(getattr(django_settings, "BALANCE_CHUNK_BATTLES", DEFAULT_CHUNK_BATTLES)))


# The system and its simulator ----------------------------------------------------------------------------------
def simulator_for(slug: str, *, kind: str | None = None, field: str = "system") -> SimulatorPart:
    """The simulator part of a system (and one that runs this kind of job); a clear RuleInputError otherwise."""
    if not known(slug):
        raise RuleInputError({field: _("«{slug}» is not a game system Armlist knows.").format(slug=slug)})
    system = get_system(slug)
    part = system.simulator
    if part is None:
        raise RuleInputError(
            {field: _("«{name}» has no simulator: balance jobs cannot run its battles.").format(name=system.name)}
        )
    wanted = KIND_OF_JOB.get(kind, kind)
    if wanted is not None and wanted not in part.job_kinds:
        message = (
            _("The simulator of «{name}» does not run roster against roster jobs.")
            if wanted == "rosters"
            else _("The simulator of «{name}» does not run unit against unit jobs.")
        )
        raise RuleInputError({field: message.format(name=system.name)})
    return part


def simulated_systems(kind: str | None = None) -> list:
    """The registered systems with a simulator part (that runs this kind of job), in settings order."""
    wanted = KIND_OF_JOB.get(kind, kind)
    return [s for s in all_systems() if s.simulator is not None and (wanted is None or wanted in s.simulator.job_kinds)]


# Input checks --------------------------------------------------------------------------------------------------
def _check_battles(battles, *, pairs: int = 1) -> int:
    limit = max_battles()
    if isinstance(battles, bool) or not isinstance(battles, int) or battles < 1:
        raise RuleInputError({"battles": _("The number of battles must be a whole number of 1 or more.")})
    if battles * pairs > limit:
        if pairs > 1:
            raise RuleInputError(
                {
                    "battles": _(
                        "{battles} battles for each of {pairs} pairs of units is {total}; the most one job may run "
                        "is {limit}."
                    ).format(battles=battles, pairs=pairs, total=battles * pairs, limit=limit)
                }
            )
        raise RuleInputError(
            {
                "battles": _("At most {limit} battles per job; {battles} were asked.").format(
                    limit=limit, battles=battles
                )
            }
        )
    return battles


def _params(part: SimulatorPart, params: dict | None) -> dict:
    """The parameters with defaults; unknown keys and bad values name `params.<key>`."""
    if params is not None and not isinstance(params, dict):
        raise RuleInputError({"params": _("must be an object of parameter: value")})
    params = dict(params or {})
    known_keys = set((part.params_schema.get("properties") or {}).keys())
    unknown = sorted(set(params) - known_keys)
    if unknown:
        raise RuleInputError({f"params.{k}": _("unknown parameter") for k in unknown})
    return part.check_params(params)


def _settings(part: SimulatorPart, system_slug: str, values: dict | None) -> dict:
    """Every setting of the system (defaults filled in, overrides checked), as the simulator runs them."""
    return part.check_settings(get_system(system_slug).resolve_settings(values))


def _system_name(slug: str) -> str:
    return get_system(slug).name if known(slug) else slug


def _seed(seed) -> int:
    if seed is None:
        return secrets.randbelow(2**53)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RuleInputError({"seed": _("The seed must be a whole number from 0 to 2^63 − 1.")})
    return seed


def _has_units(snapshot: dict) -> bool:
    return any(int(e.get("count") or 0) > 0 for e in snapshot.get("entries") or [])


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
    roster_b_link: str = "",
) -> BalanceJob:
    """Roster against roster. The system is the rosters' (both of one system, with a simulator). Rosters the user
    cannot see are a 404 (Http404 from the roster source). Side B may instead be the roster behind a share link
    (`roster_b_link`), as an opponent shares it for a battle."""
    src = source()
    fields = {"roster_a": roster_a_id, "roster_b": roster_b_id}
    sides = {}
    for field, roster_id in fields.items():
        if field == "roster_b" and roster_b_link:
            roster_b_id, name, system_slug, snapshot = src.roster_for_link(user, roster_b_link)
        else:
            name, system_slug, snapshot = src.roster_for_user(user, roster_id)
        sides[field] = {"name": name, "system": system_slug, "snapshot": snapshot}
    a, b = sides["roster_a"], sides["roster_b"]
    if a["system"] != b["system"]:
        message = _(
            "«{a}» is a roster of «{system_a}» and «{b}» one of «{system_b}»: both sides must be of one system."
        ).format(a=a["name"], system_a=_system_name(a["system"]), b=b["name"], system_b=_system_name(b["system"]))
        raise RuleInputError({"roster_a": message, "roster_b": message})
    slug = a["system"]
    part = simulator_for(slug, kind=BalanceJob.Kind.ROSTERS)
    errors = {}
    for field, side in sides.items():
        if not _has_units(side["snapshot"]):
            errors[field] = _("«{name}» has no units: add some before simulating it.").format(name=side["name"])
    if errors:
        raise RuleInputError(errors)
    battles = _check_battles(battles)
    checked_params = _params(part, params)
    checked_settings = _settings(part, slug, settings)
    prepared = part.prepare(a["snapshot"], b["snapshot"], checked_params, checked_settings)
    size = chunk_battles()
    count = math.ceil(battles / size)
    chunks = [(i, min(size, battles - i * size), {}) for i in range(count)]
    job = BalanceJob(
        owner=user,
        system=slug,
        kind=BalanceJob.Kind.ROSTERS,
        title=(title or f"{a['name']} vs {b['name']}")[:200],
        roster_a_id=int(roster_a_id),
        roster_b_id=int(roster_b_id),
        params=checked_params,
        settings=checked_settings,
        inputs={
            "side_a": {"name": a["name"], "cost": float(prepared.cost[0]), **a["snapshot"]},
            "side_b": {"name": b["name"], "cost": float(prepared.cost[1]), **b["snapshot"]},
            "forces": analysis.finite(_plain(prepared.forces)),
            "rounds": int(prepared.rounds or 0),
        },
        seed=_seed(seed),
        battles=battles,
        total_battles=battles,
        chunk_count=count,
        warnings=[str(w) for w in prepared.warnings],
        model_version=part.model_version,
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
    """Every pair of the pack's units (or the chosen ones) fights `battles` duels. The system is the pack's. Packs
    the user cannot see are a 404."""
    src = source()
    pack = src.pack_for_user(user, pack_id)
    part = simulator_for(pack.system, kind=BalanceJob.Kind.DUELS, field="pack")
    available = src.pack_profiles(user, pack.id)
    if profiles:
        if not isinstance(profiles, list) or not all(isinstance(s, str) for s in profiles):
            raise RuleInputError({"profiles": _("Give the units as a list of their slugs.")})
        wanted = set(profiles)
        slugs = {p["slug"] for p in available}
        missing = sorted(wanted - slugs)
        if missing:
            raise RuleInputError(
                {"profiles": _("Not in «{pack}»: {units}.").format(pack=pack.name, units=", ".join(missing))}
            )
        chosen = [p for p in available if p["slug"] in wanted]
    else:
        chosen = available
    if len(chosen) < 2:
        raise RuleInputError({"profiles": _("Choose at least two units: a duel needs two sides.")})
    pairs = [(i, j) for i in range(len(chosen)) for j in range(i + 1, len(chosen))]
    battles = _check_battles(battles, pairs=len(pairs))
    checked_params = _params(part, params)
    checked_settings = _settings(part, pack.system, settings)
    for p in chosen:  # fail here, not on a worker, when a profile cannot be simulated
        try:
            side = part.side_from_profile(p)
            part.prepare(side, part.side_from_profile(p), checked_params, checked_settings)
        except RuleInputError as exc:
            raise RuleInputError(
                {"profiles": _("{name} cannot be simulated: {reason}").format(name=p["name"], reason=exc)}
            ) from None
    per_chunk = max(1, chunk_battles() // battles)
    chunks = []
    for index, start in enumerate(range(0, len(pairs), per_chunk)):
        part_pairs = pairs[start : start + per_chunk]
        chunks.append((index, battles * len(part_pairs), {"pairs": [list(p) for p in part_pairs]}))
    job = BalanceJob(
        owner=user,
        system=pack.system,
        kind=BalanceJob.Kind.DUELS,
        title=(title or f"Duels: {pack.name} ({len(chosen)} units)")[:200],
        pack_id=pack.id,
        params=checked_params,
        settings=checked_settings,
        inputs={"pack": {"id": pack.id, "name": pack.name, "version": pack.version}, "profiles": chosen},
        seed=_seed(seed),
        battles=battles,
        total_battles=battles * len(pairs),
        chunk_count=len(chunks),
        warnings=[],
        model_version=part.model_version,
    )
    return _create_and_publish(job, chunks)


def _plain(value):
    """JSON-ready: numpy numbers and tuples as plain Python (the forces a part describes go into a JSONField)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    return value


def _create_and_publish(job: BalanceJob, chunks: list[tuple[int, int, dict]]) -> BalanceJob:
    with transaction.atomic():
        job.save()
        JobChunk.objects.bulk_create(
            [JobChunk(job=job, index=i, battles=n, spec=spec) for i, n, spec in chunks], batch_size=500
        )
        # Published once the rows are committed (robust=False: a broker that is down reaches the caller as 503).
        transaction.on_commit(partial(_publish_or_withdraw, job.pk, job.chunk_count), robust=False)
    return job


def _publish_or_withdraw(job_id: int, chunk_count: int) -> None:
    """Sends the committed job's chunks; if the broker is down, the job and its chunks go again and
    BrokerUnavailable says so: the user sees nothing half-created."""
    try:
        publish_chunks(job_id, range(chunk_count))
    except BrokerUnavailable:
        BalanceJob.objects.filter(pk=job_id).delete()  # its chunks cascade
        raise


# Cancellation ----------------------------------------------------------------------------------------------
class JobFinished(GameConflict):
    """The job already finished; nothing to cancel (409)."""


def balance_job_cancel(*, job: BalanceJob) -> BalanceJob:
    """Marks the job cancelled; queued chunks then skip and running ones are ignored when they end."""
    with transaction.atomic():
        job = BalanceJob.objects.select_for_update().get(pk=job.pk)
        if job.status == BalanceJob.Status.CANCELLED:
            return job
        if job.finished:
            raise JobFinished(
                _("This job is already {status}; there is nothing to cancel.").format(
                    status=str(job.get_status_display()).lower()
                )
            )
        job.status = BalanceJob.Status.CANCELLED
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "finished_at"])
    return job


# Running a chunk (called by the Celery task) ----------------------------------------------------------------
def balance_chunk_run(*, job_id: int, index: int, worker: str = "") -> str:
    """Simulates one chunk and records it. Idempotent: a chunk already done (or a finished job) is skipped.
    Returns what happened: "done", "finished" (this chunk completed the job), "duplicate", "skipped",
    "missing" or "failed"."""
    # Chunks are published after their rows commit: a missing row is a job deleted since (or never created).
    chunk = JobChunk.objects.select_related("job").filter(job_id=job_id, index=index).first()
    if chunk is None:
        return "missing"
    job = chunk.job
    if job.finished or chunk.status == JobChunk.Status.DONE:
        return "skipped"
    now = timezone.now()
    BalanceJob.objects.filter(pk=job_id, status=BalanceJob.Status.QUEUED).update(
        status=BalanceJob.Status.RUNNING, started_at=now
    )
    JobChunk.objects.filter(pk=chunk.pk).update(
        attempts=F("attempts") + 1, worker=worker[:200], started_at=now, heartbeat_at=now
    )
    try:
        with watchdog.heartbeat(chunk.pk):  # silent for too long: a live worker's watchdog sends it again
            result = compute_chunk(job, chunk)
    except Exception as exc:  # a bug or bad data: the job fails with a message instead of retrying forever
        logger.exception("balance job %s chunk %s failed", job_id, index)
        _fail(job_id, f"Chunk {index} failed: {type(exc).__name__}: {exc}")
        return "failed"
    return _record(job_id, index, result)


def compute_chunk(job: BalanceJob, chunk: JobChunk) -> dict:
    """The chunk's counts: a pure function of the job's snapshot, its seed and the chunk's index/spec, through the
    job's system's simulator part."""
    part = simulator_for(job.system)
    if job.kind == BalanceJob.Kind.ROSTERS:
        prepared = part.prepare(job.inputs["side_a"], job.inputs["side_b"], job.params, job.settings)
        rng = np.random.default_rng(np.random.SeedSequence(job.seed, spawn_key=(chunk.index,)))
        arrays = part.run(prepared, chunk.battles, rng)
        rounds = int(prepared.rounds or job.inputs.get("rounds") or 0)
        return summarise(arrays, rounds=rounds, cost=prepared.cost)
    profiles = job.inputs["profiles"]
    rows = []
    for i, j in chunk.spec["pairs"]:
        prepared = part.prepare(
            part.side_from_profile(profiles[i]), part.side_from_profile(profiles[j]), job.params, job.settings
        )
        rng = np.random.default_rng(np.random.SeedSequence(job.seed, spawn_key=(i, j)))
        winner = np.asarray(part.run(prepared, job.battles, rng)["winner"])
        rows.append([i, j, int((winner == 0).sum()), int((winner == 1).sum()), int((winner == -1).sum())])
    return {"pairs": rows, "battles": job.battles * len(rows)}


def summarise(arrays: dict, *, rounds: int, cost, bins: int = SURVIVING_BINS) -> dict:
    """Counts and sums of a chunk's battles that add up across chunks (analysis.add_summaries), from the arrays a
    simulator's `run` gives: outcomes, the rounds histogram (round 1 first; `rounds` long, or as long as the
    longest battle when 0), surviving cost sums, sums of squares, and histograms of the share of each side's cost
    still standing (`bins` bins)."""
    winner = np.asarray(arrays["winner"])
    played = np.asarray(arrays["rounds"]).astype(np.int64)
    length = max(int(rounds), int(played.max()) if played.size else 0)
    out = {
        "battles": int(winner.size),
        "wins_a": int((winner == 0).sum()),
        "wins_b": int((winner == 1).sum()),
        "draws": int((winner == -1).sum()),
        "rounds_hist": np.bincount(np.clip(played, 0, None), minlength=length + 1)[1:].tolist(),
    }
    for k, key in enumerate(("a", "b")):
        surv = np.asarray(arrays[f"left_{key}"], dtype=float)
        out[f"surviving_{key}_sum"] = float(surv.sum())
        out[f"surviving_{key}_sumsq"] = float((surv**2).sum())
        share = surv / cost[k] if cost[k] else np.zeros_like(surv)
        out[f"surviving_{key}_hist"] = np.bincount(
            np.clip((share * bins).astype(int), 0, bins - 1), minlength=bins
        ).tolist()
    return out


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
            **analysis.thresholds(job.settings),
        )
    rows = [row for r in results for row in r["pairs"]]
    return analysis.duel_result(job.inputs["profiles"], rows)


def _fail(job_id: int, message: str) -> None:
    BalanceJob.objects.filter(pk=job_id).exclude(status__in=BalanceJob.FINISHED).update(
        status=BalanceJob.Status.FAILED, error=message[:2000], finished_at=timezone.now()
    )
