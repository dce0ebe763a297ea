"""Game data (versioned packs, factions, unit profiles), rosters, clubs and share links.

Invariants kept here are small: a published pack is never edited (services make a new version instead), a roster
pins one pack version, and every roster write bumps `Roster.version` (optimistic concurrency for the API).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership", related_name="clubs")

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        EDITOR = "editor", _("Editor")
        MEMBER = "member", _("Member")

    # Roles that may edit the club's rosters and packs; plain members read and copy.
    WRITE_ROLES = (Role.OWNER, Role.EDITOR)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "user_id"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user_per_club")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"

    @property
    def can_write(self) -> bool:
        return self.role in self.WRITE_ROLES


class ClubInvite(models.Model):
    """A link (and its QR code) that lets whoever opens it, signed in, join the club with `role`, until it expires
    or is revoked. Never OWNER: a club has owners only by the owner's own choice."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=10, choices=Membership.Role.choices, default=Membership.Role.MEMBER)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0, help_text="How many people joined through it.")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"invite to {self.club_id} as {self.role}"

    def is_live(self, now=None) -> bool:
        return self.revoked_at is None and (now or timezone.now()) < self.expires_at


class DataPack(models.Model):
    """One version of a set of unit profiles for one game system. Official packs have no owner and no club."""

    system = models.CharField(max_length=40, help_text="Game system slug, e.g. 'bronepekhota'.")
    slug = models.SlugField(max_length=80)
    version = models.PositiveIntegerField(default=1)
    name = models.CharField(max_length=120)
    source = models.TextField(blank=True, help_text="Where the data comes from (file, transcription, author).")
    checksum = models.CharField(max_length=64, blank=True, help_text="sha256 of the canonical pack content.")
    published = models.BooleanField(default=False)
    published_at = models.DateTimeField(null=True, blank=True)
    # Pack-level metadata: provenance, what was inferred, colours of factions, etc.
    meta = models.JSONField(default=dict, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="data_packs"
    )
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="data_packs")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["system", "slug", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["system", "slug", "version"], name="datapack_unique_version"),
            models.CheckConstraint(
                condition=Q(owner__isnull=True) | Q(club__isnull=True), name="datapack_owner_or_club_not_both"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} v{self.version}"

    @property
    def is_official(self) -> bool:
        return self.owner_id is None and self.club_id is None


class Faction(models.Model):
    pack = models.ForeignKey(DataPack, on_delete=models.CASCADE, related_name="factions")
    slug = models.SlugField(max_length=40)
    name = models.CharField(max_length=120)
    colour = models.CharField(max_length=20, blank=True)
    # Factions whose units may join an army of this faction besides its own (e.g. green joins either side).
    joins_any = models.BooleanField(default=False, help_text="Shared Armlists usable by every army (green).")

    class Meta:
        ordering = ["pack_id", "id"]
        constraints = [models.UniqueConstraint(fields=["pack", "slug"], name="faction_unique_per_pack")]

    def __str__(self) -> str:
        return self.name


class UnitProfile(models.Model):
    """A unit of a pack. `kind` is any short word the system's army part allows (`profile_kinds`, checked by the
    services); `data` follows the system's profile schema."""

    pack = models.ForeignKey(DataPack, on_delete=models.CASCADE, related_name="profiles")
    slug = models.SlugField(max_length=80)
    name = models.CharField(max_length=120)
    faction = models.ForeignKey(Faction, on_delete=models.PROTECT, related_name="profiles")
    kind = models.CharField(max_length=40)
    cost = models.PositiveIntegerField()
    data = models.JSONField(default=dict)
    notes = models.TextField(blank=True, help_text="What was inferred or is odd about this profile.")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["pack_id", "position", "id"]
        constraints = [models.UniqueConstraint(fields=["pack", "slug"], name="profile_unique_per_pack")]

    def __str__(self) -> str:
        return self.name

    def as_rules_dict(self) -> dict:
        """The profile as the rules engine reads it (rules/contract/army.py); needs `faction` loaded."""
        return {
            "slug": self.slug,
            "name": self.name,
            "faction": self.faction.slug,
            "kind": self.kind,
            "cost": self.cost,
            "data": self.data,
        }


class Roster(models.Model):
    class Visibility(models.TextChoices):
        PRIVATE = "private", _("Private")
        CLUB = "club", _("Club")
        LINK = "link", _("Shared by link")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rosters")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="rosters")
    system = models.CharField(max_length=40)
    pack = models.ForeignKey(DataPack, on_delete=models.PROTECT, related_name="rosters")
    # Custom packs (the player's, the club's) whose units may join too, each pinned to one published version; `pack`
    # stays the main one (the official pack for a new roster) that names the army's factions.
    extra_packs = models.ManyToManyField(DataPack, blank=True, related_name="extra_rosters")
    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=40, help_text="Faction slug of the army, e.g. 'protectorate'.")
    points_limit = models.PositiveIntegerField(null=True, blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE)
    notes = models.TextField(blank=True)
    # Bumped on every write to the roster or its entries; a write based on an older version is refused.
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.name


class RosterEntry(models.Model):
    """One line of a roster: a profile of the roster's pack, how many, and `options`, what the player chose for it
    (weapons, pilot, archetype…), shaped by the system's `army.options_schema(profile)`."""

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="entries")
    key = models.CharField(max_length=16)
    profile = models.ForeignKey(UnitProfile, on_delete=models.PROTECT, related_name="entries")
    count = models.PositiveIntegerField(default=1)
    options = models.JSONField(default=dict, blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["roster_id", "position", "id"]
        constraints = [models.UniqueConstraint(fields=["roster", "key"], name="entry_unique_key_per_roster")]

    def __str__(self) -> str:
        return f"{self.key}: {self.profile_id} x{self.count}"


class ShareLink(models.Model):
    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="share_links")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"link to {self.roster_id}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class ScenarioRecord(models.Model):
    """One scenario of a campaign roster (a crew): what the system's campaign part rolled after the battle
    (injuries, repairs, with their dice) and carried into the entries' options. Written once per battle and side;
    `options_before` keeps each entry's options as they were, so the history says what changed."""

    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="scenarios")
    number = models.PositiveIntegerField(help_text="1 for the crew's first scenario, and so on.")
    # The battle it came from (a plain id: armies keeps no foreign key into battles), its name and side.
    battle_id = models.PositiveIntegerField(null=True, blank=True)
    battle_name = models.CharField(max_length=120, blank=True)
    side_index = models.PositiveSmallIntegerField(default=0)
    played_at = models.DateTimeField(help_text="When the battle ended.")
    record = models.JSONField(default=dict, help_text="The campaign part's readable record (agents, repairs).")
    dice = models.JSONField(default=list, blank=True)
    options_before = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["roster_id", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["roster", "number"], name="scenario_unique_number"),
            models.UniqueConstraint(
                fields=["roster", "battle_id", "side_index"],
                condition=Q(battle_id__isnull=False),
                name="scenario_once_per_battle_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.roster_id} #{self.number}: {self.battle_name}"
