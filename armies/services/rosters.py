"""Rosters and their entries, copies and share links.

Every roster write bumps `Roster.version`; a write that names an older version raises StaleVersion. An entry's
options are checked against its system's options schema (armies.systems), and the roster rules are the system's
cost_roster, shown as issues: a roster with errors can still be saved.
"""

from __future__ import annotations

import json
import secrets

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from armies import systems
from armies.models import Club, DataPack, Membership, Roster, RosterEntry, ShareLink, UnitProfile
from armies.selectors import entry_for_rules, roster_entries
from armies.services.common import ServiceError, lock_and_bump, rule_errors

MAX_ENTRIES = 500
MAX_OPTIONS_CHARS = 5000


# Rosters -----------------------------------------------------------------------------------------------------
def _check_roster_fields(*, pack: DataPack, faction: str, points_limit) -> None:
    errors = {}
    if not pack.published:
        errors["pack"] = "Publish the pack before building rosters with it."
    sides = list(pack.factions.filter(joins_any=False).values_list("slug", flat=True))
    choices = sides or list(pack.factions.values_list("slug", flat=True))
    if faction not in choices:
        errors["faction"] = f"Choose the army's faction: {', '.join(choices)}."
    if points_limit is not None and (not isinstance(points_limit, int) or points_limit < 0):
        errors["points_limit"] = "A whole number of 0 or more, or empty for no limit."
    if errors:
        raise ServiceError(_("The roster cannot be saved: ") + " ".join(errors.values()), errors)


def _check_club(*, user, club: Club | None) -> None:
    if club is not None and not Membership.objects.filter(club=club, user=user).exists():
        raise ServiceError(_("You are not a member of that club."), {"club": _("not a member")})


@transaction.atomic
def roster_create(
    *,
    owner,
    pack: DataPack,
    name: str,
    faction: str,
    points_limit: int | None = None,
    club: Club | None = None,
    visibility: str = Roster.Visibility.PRIVATE,
    notes: str = "",
) -> Roster:
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("Give the roster a name."), {"name": "required"})
    _check_roster_fields(pack=pack, faction=faction, points_limit=points_limit)
    _check_club(user=owner, club=club)
    if visibility == Roster.Visibility.CLUB and club is None:
        raise ServiceError(_("Choose a club to share the roster with."), {"club": _("required for club visibility")})
    return Roster.objects.create(
        owner=owner,
        pack=pack,
        system=pack.system,
        name=name[:120],
        faction=faction,
        points_limit=points_limit,
        club=club,
        visibility=visibility,
        notes=notes or "",
    )


@transaction.atomic
def roster_update(*, roster: Roster, user, expected_version: int | None = None, **fields) -> Roster:
    allowed = {"name", "faction", "points_limit", "club", "visibility", "notes"}
    unknown = set(fields) - allowed
    if unknown:
        raise ServiceError(_("Unknown fields: {unknown}.").format(unknown=", ".join(sorted(unknown))))
    if "name" in fields and not (fields["name"] or "").strip():
        raise ServiceError(_("Give the roster a name."), {"name": "required"})
    _check_roster_fields(
        pack=roster.pack,
        faction=fields.get("faction", roster.faction),
        points_limit=fields.get("points_limit", roster.points_limit),
    )
    if "club" in fields and fields["club"] != roster.club:
        if roster.owner_id != user.id:
            raise ServiceError(_("Only the roster's owner may move it to another club."), {"club": _("owner only")})
        _check_club(user=user, club=fields["club"])
    club = fields.get("club", roster.club)
    if fields.get("visibility") == Roster.Visibility.CLUB and club is None:
        raise ServiceError(_("Choose a club to share the roster with."), {"club": _("required for club visibility")})
    if "visibility" in fields and roster.owner_id != user.id and fields["visibility"] != roster.visibility:
        raise ServiceError(_("Only the roster's owner may change who sees it."), {"visibility": _("owner only")})
    lock_and_bump(roster, expected_version)
    for key, value in fields.items():
        setattr(roster, key, value.strip() if key == "name" else value)
    roster.save(update_fields=[*fields.keys(), "updated_at"])
    return roster


@transaction.atomic
def roster_delete(*, roster: Roster, expected_version: int | None = None) -> None:
    lock_and_bump(roster, expected_version)
    roster.delete()


def _new_key(taken: set[str]) -> str:
    while True:
        key = secrets.token_hex(3)
        if key not in taken:
            return key


def _profile_in_pack(roster: Roster, profile: UnitProfile | str) -> UnitProfile:
    if isinstance(profile, UnitProfile):
        if profile.pack_id != roster.pack_id:
            raise ServiceError(_("That unit is not in this roster's pack version."), {"profile": _("other pack")})
        return profile
    found = UnitProfile.objects.select_related("faction").filter(pack_id=roster.pack_id, slug=profile).first()
    if found is None:
        raise ServiceError(
            _("No unit {profile!r} in {pack}.").format(profile=profile, pack=roster.pack), {"profile": "unknown"}
        )
    return found


def _clean_count(count) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 99:
        raise ServiceError(_("The count must be a whole number from 1 to 99."), {"count": "1–99"})
    return count


def clean_options(*, system: str, profile: dict, options) -> dict:
    """An entry's options as the system accepts them; ServiceError naming each bad field ("options.weapons.0")."""
    if not isinstance(options, dict):
        raise ServiceError(_("The options must be a JSON object."), {"options": _("must be a JSON object")})
    if len(json.dumps(options)) > MAX_OPTIONS_CHARS:
        raise ServiceError(_("The options are too large."), {"options": _("too large")})
    with rule_errors(f"The options do not fit {profile.get('name')}:"):
        return systems.validate_options(system, profile, options)


# Entries -----------------------------------------------------------------------------------------------------
@transaction.atomic
def entry_add(
    *,
    roster: Roster,
    profile: UnitProfile | str,
    count: int = 1,
    options: dict | None = None,
    expected_version: int | None = None,
) -> RosterEntry:
    """Adds an entry; the options given are laid over the unit's default options (its system's choice)."""
    profile = _profile_in_pack(roster, profile)
    count = _clean_count(count)
    rules_profile = profile.as_rules_dict()
    with rule_errors("This unit cannot be added:"):
        defaults = systems.default_options(roster.system, rules_profile)
    if options is not None and not isinstance(options, dict):
        raise ServiceError(_("The options must be a JSON object."), {"options": _("must be a JSON object")})
    options = clean_options(system=roster.system, profile=rules_profile, options={**defaults, **(options or {})})
    lock_and_bump(roster, expected_version)
    existing = list(RosterEntry.objects.filter(roster=roster).values_list("key", "position"))
    if len(existing) >= MAX_ENTRIES:
        raise ServiceError(_("A roster holds at most {MAX_ENTRIES} entries.").format(MAX_ENTRIES=MAX_ENTRIES))
    return RosterEntry.objects.create(
        roster=roster,
        key=_new_key({k for k, _ in existing}),
        profile=profile,
        count=count,
        options=options,
        position=max((p for _, p in existing), default=0) + 1,
    )


@transaction.atomic
def entry_update(*, entry: RosterEntry, expected_version: int | None = None, **fields) -> RosterEntry:
    """Changes count, options (replaced as a whole) or position of an entry."""
    allowed = {"count", "options", "position"}
    unknown = set(fields) - allowed
    if unknown:
        raise ServiceError(_("Unknown fields: {unknown}.").format(unknown=", ".join(sorted(unknown))))
    if "count" in fields:
        fields["count"] = _clean_count(fields["count"])
    if "options" in fields:
        profile = entry.profile.as_rules_dict()
        fields["options"] = clean_options(system=entry.roster.system, profile=profile, options=fields["options"])
    if "position" in fields and (
        isinstance(fields["position"], bool) or not isinstance(fields["position"], int) or fields["position"] < 0
    ):
        raise ServiceError(_("The position must be a whole number."), {"position": _("whole number")})
    lock_and_bump(entry.roster, expected_version)
    for key, value in fields.items():
        setattr(entry, key, value)
    entry.save(update_fields=list(fields))
    return entry


@transaction.atomic
def entry_remove(*, entry: RosterEntry, expected_version: int | None = None) -> None:
    """Removes an entry; the others drop what referred to it (e.g. a vehicle piloted by its soldiers loses them:
    the system's options_without)."""
    roster = entry.roster
    lock_and_bump(roster, expected_version)
    others = RosterEntry.objects.filter(roster=roster).exclude(pk=entry.pk).exclude(options={})
    for other in others.select_related("profile", "profile__faction"):
        kept = systems.options_without(roster.system, entry_for_rules(other), {entry.key})
        if kept != other.options:
            other.options = kept
            other.save(update_fields=["options"])
    entry.delete()


@transaction.atomic
def entry_duplicate(*, entry: RosterEntry, expected_version: int | None = None) -> RosterEntry:
    """A copy right after the original, with the options the system gives a copy (e.g. the same weapons but no
    pilot: a soldier drives one vehicle)."""
    roster = entry.roster
    lock_and_bump(roster, expected_version)
    taken = set(RosterEntry.objects.filter(roster=roster).values_list("key", flat=True))
    RosterEntry.objects.filter(roster=roster, position__gt=entry.position).update(position=F("position") + 1)
    return RosterEntry.objects.create(
        roster=roster,
        key=_new_key(taken),
        profile=entry.profile,
        count=entry.count,
        options=systems.copy_options(roster.system, entry_for_rules(entry)),
        position=entry.position + 1,
    )


@transaction.atomic
def roster_copy(*, roster: Roster, user, name: str | None = None) -> Roster:
    """A private copy for `user` (club members and link holders copy what they may only read)."""
    entries = roster_entries(roster)
    copy = Roster.objects.create(
        owner=user,
        pack=roster.pack,
        system=roster.system,
        name=(name or f"{roster.name} (copy)")[:120],
        faction=roster.faction,
        points_limit=roster.points_limit,
        notes=roster.notes,
        visibility=Roster.Visibility.PRIVATE,
    )
    RosterEntry.objects.bulk_create(
        RosterEntry(roster=copy, key=e.key, profile=e.profile, count=e.count, options=e.options, position=e.position)
        for e in entries
    )
    return copy


# Share links -------------------------------------------------------------------------------------------------
@transaction.atomic
def share_link_create(*, roster: Roster, user) -> ShareLink:
    """A read-only link; the roster becomes link-visible (club members keep seeing it)."""
    if roster.owner_id != user.id:
        raise ServiceError(_("Only the roster's owner may share it by link."))
    if roster.visibility != Roster.Visibility.LINK:
        lock_and_bump(roster, None)
        roster.visibility = Roster.Visibility.LINK
        roster.save(update_fields=["visibility", "updated_at"])
    return ShareLink.objects.create(roster=roster, token=secrets.token_urlsafe(32), created_by=user)


@transaction.atomic
def share_link_revoke(*, link: ShareLink) -> ShareLink:
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link
