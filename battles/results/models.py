"""The result of a battle as its players agreed it: the system's proposal, each player's vote, and the sides with
their rosters at the version they played (issue #29).

A result is a projection of the battle's log, like every other state of a battle: each proposal, vote and settlement
is a runner event of the battle (battles.results.services), so both phones see it at once and the history keeps it.
Once confirmed it is final and read-only; the ladders are computed from confirmed results only, on demand, never
stored or edited by hand (battles.results.ratings).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class GameResult(models.Model):
    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposed")
        DISPUTED = "disputed", _("Disputed")
        CONFIRMED = "confirmed", _("Confirmed")

    class Kind(models.TextChoices):
        FINAL = "final", _("Played to the end")  # the system says the game is over: its result
        AGREED = "agreed", _("Ended by the players")  # the players stop and name the winner (a concession)
        UNFINISHED = "unfinished", _("Unfinished")  # abandoned half-way: counts for nothing

    battle = models.OneToOneField("battles.Battle", on_delete=models.CASCADE, related_name="result")
    system = models.CharField(max_length=40)
    club = models.ForeignKey(
        "armies.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="results",
        help_text="The club whose ladder the result counts for (none: it counts for nobody's).",
    )  # fmt: skip
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.FINAL)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    # The winning side's index; None with draw=True is a draw, None with kind=unfinished is no result.
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    draw = models.BooleanField(default=False)
    # What the system computed, as numbers and codes (worded when shown): {"reason": msgid or "", "vp": {side: n},
    # "margin": n, "margin_of": "vp" | "points"}.
    summary = models.JSONField(default=dict)
    battle_version = models.PositiveIntegerField(help_text="The battle's version the proposal was made on.")
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    proposed_at = models.DateTimeField()
    confirmed_at = models.DateTimeField(null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    settle_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-confirmed_at", "-proposed_at", "-id"]
        indexes = [models.Index(fields=["club", "system", "status", "confirmed_at"])]

    def __str__(self) -> str:
        return f"{self.battle_id}: {self.status}"

    @property
    def counts(self) -> bool:
        """Whether the result counts for histories and ladders."""
        return self.status == self.Status.CONFIRMED and self.kind != self.Kind.UNFINISHED


class ResultSide(models.Model):
    """One side of a result: who played it, with which roster at which version, and how it fared."""

    class Outcome(models.TextChoices):
        WIN = "win", _("Win")
        DRAW = "draw", _("Draw")
        LOSS = "loss", _("Loss")
        NONE = "none", _("No result")

    result = models.ForeignKey(GameResult, on_delete=models.CASCADE, related_name="sides")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="result_sides"
    )
    roster = models.ForeignKey("armies.Roster", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    roster_version = models.PositiveIntegerField(default=0)
    faction = models.CharField(max_length=40, blank=True)
    # The units of the roster as played: [{"slug", "name", "count"}], for the records per unit profile.
    units = models.JSONField(default=list)
    outcome = models.CharField(max_length=5, choices=Outcome.choices, default=Outcome.NONE)
    points = models.FloatField(default=0, help_text="The army's points as played.")
    points_lost = models.FloatField(default=0, help_text="Points of its units destroyed.")
    units_total = models.PositiveIntegerField(default=0)
    units_lost = models.PositiveIntegerField(default=0)
    vp = models.FloatField(null=True, blank=True, help_text="Victory points, where the book keeps them.")

    class Meta:
        ordering = ["result_id", "index"]
        constraints = [models.UniqueConstraint(fields=["result", "index"], name="resultside_unique_index")]

    def __str__(self) -> str:
        return f"{self.result_id}/{self.index}: {self.name} ({self.outcome})"


class ResultVote(models.Model):
    """A player's answer to the proposal: confirm, or dispute with a reason."""

    class Choice(models.TextChoices):
        CONFIRM = "confirm", _("Confirmed")
        DISPUTE = "dispute", _("Disputed")

    result = models.ForeignKey(GameResult, on_delete=models.CASCADE, related_name="votes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    choice = models.CharField(max_length=8, choices=Choice.choices)
    reason = models.TextField(blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["result_id", "at", "id"]
        constraints = [models.UniqueConstraint(fields=["result", "user"], name="resultvote_one_per_player")]

    def __str__(self) -> str:
        return f"{self.result_id}: {self.user_id} {self.choice}"
