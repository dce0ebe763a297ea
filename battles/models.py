"""Battles: the sides, each unit's live state and the append-only event log.

The log is the truth. `BattleUnit.state` and `Battle.state` are projections of it, kept up to date by
battles.services on every append, and `Battle.version` always equals the seq of the last event. Replaying the
log from `BattleUnit.initial_state` must give the stored states (battles.services.replay checks it).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Battle(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")

    system = models.CharField(max_length=40, help_text="Slug of the game system (rules.registry).")
    # The system's battle rules_version when the battle started; each event keeps its own (BattleEvent).
    rules_version = models.PositiveIntegerField(default=1)
    name = models.CharField(max_length=120)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="battles_created")
    # The system settings chosen for this game (all keys, defaults filled in) plus the battle's own:
    # {"system": {...}, "enforce_turns": bool}.
    settings = models.JSONField(default=dict)
    mission = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # == seq of the last event; the ETag of every read and the precondition of every write.
    version = models.PositiveIntegerField(default=0)
    # Game-level state, as the system's fold keeps it (round, turn, orders, result…). Secrets in it are removed
    # per viewer by the system's battle part before any response.
    state = models.JSONField(default=dict)
    spectator_token = models.CharField(max_length=64, unique=True)
    # {"<user id>": [side indexes]}: who plays, copied from BattleSide.player (set together, under the battle's lock)
    # so that every request checks access with the battle row alone.
    players = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def etag(self) -> str:
        return f'"v{self.version}"'

    def sides_of(self, user) -> set[int]:
        if user is None or not user.is_authenticated:
            return set()
        return set(self.players.get(str(user.pk), []))


class BattleSide(models.Model):
    """One player's army in a battle: a snapshot of a roster taken at the start, and who controls it."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="sides")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=40, blank=True)
    # Where the snapshot came from; later roster edits never reach the battle.
    roster = models.ForeignKey("armies.Roster", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    roster_version = models.PositiveIntegerField(default=0)
    snapshot = models.JSONField(default=dict)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="battle_sides"
    )
    # The invitation link that lets a player take this side; unguessable.
    invite_token = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["battle_id", "index"]
        constraints = [models.UniqueConstraint(fields=["battle", "index"], name="battleside_unique_index")]

    def __str__(self) -> str:
        return f"{self.battle_id}/{self.index}: {self.name}"


class BattleUnit(models.Model):
    """Something on the table with its own state (a squad, a vehicle, a figure, an agent): the system decides."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="units")
    side = models.ForeignKey(BattleSide, on_delete=models.CASCADE, related_name="units")
    key = models.CharField(max_length=60)
    name = models.CharField(max_length=160)
    kind = models.CharField(max_length=20)
    position = models.PositiveIntegerField(default=0)
    profile = models.JSONField(default=dict)
    entry = models.JSONField(default=dict)
    initial_state = models.JSONField(default=dict)
    state = models.JSONField(default=dict)

    class Meta:
        ordering = ["battle_id", "position", "id"]
        constraints = [models.UniqueConstraint(fields=["battle", "key"], name="battleunit_unique_key")]

    def __str__(self) -> str:
        return f"{self.key}: {self.name}"


class BattleEvent(models.Model):
    """One change, never edited or deleted. A command (a shot, an adjustment) writes a head event, which carries
    the client's idempotency key, followed by the events it caused (`cause` = the head)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    side_index = models.PositiveSmallIntegerField(null=True, blank=True)
    type = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    dice = models.JSONField(default=list, blank=True)
    # None: everyone sees it; else only these sides (a secret order until its reveal). Spectators see public ones.
    visible_to = models.JSONField(null=True, blank=True, default=None)
    # The system's battle rules_version the event was written under; older ones are upcast when read.
    rules_version = models.PositiveIntegerField(default=1)
    # The sender's key for this request: keys belong to their sender (`actor`), so one player's keys tell the other
    # nothing and never collide with theirs.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)
    # Fingerprint of the request that carried the idempotency key: a key reused for another request is refused.
    request_hash = models.CharField(max_length=64, blank=True)
    # A closing point: it revealed what was hidden or answered a question (rules/contract/battle.py), so an undo of
    # it or of anything before it needs the other players who saw it.
    closes = models.BooleanField(default=False)
    cause = models.ForeignKey("self", null=True, blank=True, on_delete=models.RESTRICT, related_name="effects")
    undoes = models.ForeignKey("self", null=True, blank=True, on_delete=models.RESTRICT, related_name="undone_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["battle_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "seq"], name="battleevent_unique_seq"),
            models.UniqueConstraint(
                fields=["battle", "actor", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="battleevent_unique_sender_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.battle_id}#{self.seq} {self.type}"
