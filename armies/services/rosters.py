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
from armies.selectors import entry_for_rules, pack_profiles, roster_entries, roster_for_rules, roster_packs
from armies.services.common import NotAllowed, ServiceError, lock_and_bump, rule_errors

MAX_ENTRIES = 500
MAX_OPTIONS_CHARS = 5000


# Rosters -----------------------------------------------------------------------------------------------------
def _check_roster_fields(*, pack: DataPack, faction: str, points_limit) -> str:
    """Checks a roster's pack, faction and limit; answers the faction to store. A pack with one faction only (the
    one every army joins, as in «Энфорсеры» and «Отряды») gives it to a roster that names none."""
    errors = {}
    if not pack.published:
        errors["pack"] = _("Publish the pack before building rosters with it.")
    factions = list(pack.factions.order_by("id"))
    sides = [f for f in factions if not f.joins_any] or factions
    if not faction and len(sides) == 1:
        faction = sides[0].slug
    if faction not in {f.slug for f in sides}:
        names = ", ".join(f"«{f.name}»" for f in sides)
        errors["faction"] = _("Choose the army's faction of this pack: {names}.").format(names=names)
    if points_limit is not None and (not isinstance(points_limit, int) or points_limit < 0):
        errors["points_limit"] = _("A whole number of 0 or more, or empty for no limit.")
    if errors:
        raise ServiceError(_("The roster cannot be saved: ") + " ".join(errors.values()), errors)
    return faction


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
    extra_packs=(),
) -> Roster:
    """A new roster on `pack` (the official pack by default, chosen by the caller), drawing also on `extra_packs`
    (custom packs of the same system, each a published version)."""
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("Give the roster a name."), {"name": "required"})
    faction = _check_roster_fields(pack=pack, faction=faction, points_limit=points_limit)
    _check_club(user=owner, club=club)
    if visibility == Roster.Visibility.CLUB and club is None:
        raise ServiceError(_("Choose a club to share the roster with."), {"club": _("required for club visibility")})
    _check_extra_packs(main=pack, packs=list(extra_packs))
    roster = Roster.objects.create(
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
    roster.extra_packs.set(extra_packs)
    return roster


def _check_extra_packs(*, main: DataPack, packs: list[DataPack]) -> None:
    """Extra packs: published custom packs of the main pack's system, one version of each pack."""
    slugs = [main.slug]
    for p in packs:
        message = None
        if p.system != main.system or not p.published or p.is_official:
            message = _("«{name}» cannot join this roster: only published custom packs of the same game.")
        elif p.slug in slugs:
            message = _("A roster draws on one version of «{name}».")
        if message:
            raise ServiceError(message.format(name=p.name), {"extra_packs": message.format(name=p.name)})
        slugs.append(p.slug)


@transaction.atomic
def roster_set_extra_packs(*, roster: Roster, packs, expected_version: int | None = None) -> Roster:
    """Pins the custom packs (DataPack versions) the roster draws on besides its main pack. A pack whose units the
    roster still holds cannot be dropped (remove those entries first); nothing changes when the set is the same."""
    packs = list(dict.fromkeys(packs))
    _check_extra_packs(main=roster.pack, packs=packs)
    keep = {p.pk for p in packs} | {roster.pack_id}
    in_use = (
        RosterEntry.objects.filter(roster=roster).exclude(profile__pack_id__in=keep).select_related("profile__pack")
    )
    if in_use:
        names = ", ".join(sorted({f"{e.profile.name} ({e.profile.pack.name})" for e in in_use}))
        message = _("The roster still holds units of that pack: {names}. Remove them first.").format(names=names)
        raise ServiceError(message, {"extra_packs": message})
    if {p.pk for p in packs} != set(roster.extra_packs.values_list("pk", flat=True)):
        lock_and_bump(roster, expected_version)
        roster.extra_packs.set(packs)
        roster._roster_packs = None  # selectors.roster_packs reads them again
    return roster


@transaction.atomic
def roster_update_with_packs(*, roster: Roster, user, extra_packs=None, expected_version=None, **fields) -> Roster:
    """roster_update and, when `extra_packs` is given, roster_set_extra_packs: both or neither."""
    if fields or extra_packs is None:
        roster_update(roster=roster, user=user, expected_version=expected_version, **fields)
        expected_version = None
    if extra_packs is not None:
        roster_set_extra_packs(roster=roster, packs=extra_packs, expected_version=expected_version)
    return roster


@transaction.atomic
def roster_update(*, roster: Roster, user, expected_version: int | None = None, **fields) -> Roster:
    allowed = {"name", "faction", "points_limit", "club", "visibility", "notes"}
    unknown = set(fields) - allowed
    if unknown:
        raise ServiceError(_("Unknown fields: {unknown}.").format(unknown=", ".join(sorted(unknown))))
    if "name" in fields and not (fields["name"] or "").strip():
        raise ServiceError(_("Give the roster a name."), {"name": "required"})
    faction = _check_roster_fields(
        pack=roster.pack,
        faction=fields.get("faction", roster.faction),
        points_limit=fields.get("points_limit", roster.points_limit),
    )
    if "faction" in fields:
        fields["faction"] = faction
    if "club" in fields and fields["club"] != roster.club:
        if roster.owner_id != user.id:
            raise ServiceError(_("Only the roster's owner may move it to another club."), {"club": _("owner only")})
        _check_club(user=user, club=fields["club"])
    club = fields.get("club", roster.club)
    if fields.get("visibility") == Roster.Visibility.CLUB and club is None:
        raise ServiceError(_("Choose a club to share the roster with."), {"club": _("required for club visibility")})
    if "visibility" in fields and roster.owner_id != user.id and fields["visibility"] != roster.visibility:
        raise NotAllowed(_("Only the roster's owner may change who sees it."), {"visibility": _("owner only")})
    lock_and_bump(roster, expected_version)
    if "visibility" in fields and fields["visibility"] != roster.visibility:
        _share_links_revoke_all(roster)
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


def _profile_in_pack(roster: Roster, profile: UnitProfile | str, pack=None) -> UnitProfile:
    """The unit from one of the roster's packs (the pinned versions): `pack` (a DataPack or id) names which, else
    the main pack is searched first, then the extra packs in order (roster_packs)."""
    packs = roster_packs(roster, fresh=True)
    if isinstance(profile, UnitProfile):
        if profile.pack_id not in {p.pk for p in packs}:
            raise ServiceError(_("That unit is not in this roster's pack versions."), {"profile": _("other pack")})
        return profile
    if pack is not None:
        pack_id = getattr(pack, "pk", pack)
        packs = [p for p in packs if str(p.pk) == str(pack_id)]
        if not packs:
            raise ServiceError(_("This roster does not draw on that pack."), {"pack": _("not one of the roster's")})
    found = {
        u.pack_id: u for u in UnitProfile.objects.select_related("faction").filter(pack__in=packs, slug=str(profile))
    }
    for p in packs:
        if p.pk in found:
            return found[p.pk]
    names = ", ".join(str(p) for p in packs)
    raise ServiceError(_("No unit {profile!r} in {pack}.").format(profile=profile, pack=names), {"profile": "unknown"})


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
    worded = systems.words_option_errors(system)
    with rule_errors(_("The options do not fit {name}:").format(name=profile.get("name")), worded=worded):
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
    pack=None,
    key: str | None = None,
) -> RosterEntry:
    """Adds an entry; the options given are laid over the unit's default options (its system's choice). `pack` (a
    DataPack or id) says which of the roster's packs a slug is in; without it the main pack comes first. `key`: the
    entry's key when the options of later entries name it (a demo army's pilots); a new one when taken or absent."""
    profile = _profile_in_pack(roster, profile, pack)
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
        key=key if key and key not in {k for k, _ in existing} else _new_key({k for k, _ in existing}),
        profile=profile,
        count=count,
        options=options,
        position=max((p for _, p in existing), default=0) + 1,
    )


@transaction.atomic
def builder_tool_run(*, roster: Roster, key: str, inputs, expected_version: int | None = None):
    """Runs the system's builder tool `key` (e.g. a random figure rolled on the book's tables) and adds the entries
    it made, all or none; answers (the tool's BuilderResult, the new entries)."""
    profiles = [p.as_rules_dict() for p in pack_profiles(roster.pack)]
    with rule_errors(_("This cannot be done:")):
        result = systems.run_builder_tool(roster.system, key, roster_for_rules(roster), profiles, inputs)
    added = [
        entry_add(roster=roster, profile=e["profile"], count=e.get("count", 1), options=e.get("options"),
                  expected_version=expected_version if i == 0 else None)
        for i, e in enumerate(result.entries)
    ]  # fmt: skip
    return result, added


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
    copy.extra_packs.set(roster.extra_packs.all())  # the same pinned versions, so the copy costs the same
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
        raise NotAllowed(_("Only the roster's owner may share it by link."))
    if roster.visibility != Roster.Visibility.LINK:
        lock_and_bump(roster, None)
        _share_links_revoke_all(roster)  # links hidden earlier stay dead: sharing again makes a new token only
        roster.visibility = Roster.Visibility.LINK
        roster.save(update_fields=["visibility", "updated_at"])
    return ShareLink.objects.create(roster=roster, token=secrets.token_urlsafe(32), created_by=user)


def _share_links_revoke_all(roster: Roster) -> None:
    """Who sees the roster changed: every link still open is revoked for good (issue #18), so that going back to
    "link" later never brings an old token back to life."""
    ShareLink.objects.filter(roster=roster, revoked_at__isnull=True).update(revoked_at=timezone.now())


@transaction.atomic
def share_link_revoke(*, link: ShareLink) -> ShareLink:
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link
