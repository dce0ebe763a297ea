"""Balance jobs: long Monte-Carlo studies run by Celery workers, split into chunks any worker may take.

A job snapshots what it simulates (the rosters' rules dicts or the pack's profiles) so later edits to a roster
never change a stored study, and keeps its seed: the same seed and inputs give the same numbers. Each chunk's
result lives in its own row, unique per (job, index), so a chunk redone after a lost worker is counted once.
A running chunk refreshes its heartbeat; the workers' watchdog (rules/jobs/watchdog.py) sends a chunk whose heartbeat
went stale (its worker died) to the queue again, within a minute rather than the broker's ten.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class BalanceJob(models.Model):
    class Kind(models.TextChoices):
        ROSTERS = "rosters", _("Roster against roster")
        DUELS = "duels", _("Unit against unit")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Cancelled")

    FINISHED = (Status.DONE, Status.FAILED, Status.CANCELLED)

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="balance_jobs")
    system = models.CharField(max_length=40, help_text="Slug of the game system; its simulator part runs the job.")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    title = models.CharField(max_length=200)
    # Where the inputs came from; the simulation reads `inputs`, the snapshot taken at submission.
    roster_a = models.ForeignKey("armies.Roster", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    roster_b = models.ForeignKey("armies.Roster", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    pack = models.ForeignKey("armies.DataPack", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    params = models.JSONField(default=dict, help_text="Battle parameters: distance, cover, rounds, initiative …")
    settings = models.JSONField(default=dict, help_text="The system settings in force (all keys).")
    inputs = models.JSONField(default=dict, help_text="Snapshot: the two sides' entries, or the duel profiles.")
    seed = models.BigIntegerField()
    battles = models.PositiveIntegerField(help_text="Battles requested (duels: per pair of units).")
    total_battles = models.PositiveBigIntegerField(help_text="Battles over all chunks.")
    chunk_count = models.PositiveIntegerField()
    chunks_done = models.PositiveIntegerField(default=0)
    battles_done = models.PositiveBigIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True)
    warnings = models.JSONField(default=list, blank=True)
    result = models.JSONField(null=True, blank=True)
    model_version = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="balancejob_owner_recent")]
        constraints = [
            models.CheckConstraint(condition=models.Q(chunks_done__lte=models.F("chunk_count")), name="job_chunks_le"),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in self.FINISHED


class JobChunk(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DONE = "done", _("Done")

    job = models.ForeignKey(BalanceJob, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    battles = models.PositiveIntegerField(help_text="Battles this chunk simulates.")
    spec = models.JSONField(default=dict, blank=True, help_text="Duels: the pairs [i, j] of this chunk.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    result = models.JSONField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Times a worker started it (>1: redone).")
    worker = models.CharField(max_length=200, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="Refreshed every few seconds while a worker runs it; empty when not running."
    )
    requeues = models.PositiveSmallIntegerField(
        default=0, help_text="Times the watchdog sent it to the queue again after its worker went silent."
    )

    class Meta:
        ordering = ["job_id", "index"]
        constraints = [models.UniqueConstraint(fields=["job", "index"], name="jobchunk_unique_index")]
        # The watchdog's sweep reads only the chunks running now: a small partial index, whatever the history.
        indexes = [
            models.Index(
                fields=["heartbeat_at"],
                condition=models.Q(status="pending", heartbeat_at__isnull=False),
                name="jobchunk_running",
            )
        ]

    def __str__(self) -> str:
        return f"chunk {self.index} of job {self.job_id} ({self.status})"
