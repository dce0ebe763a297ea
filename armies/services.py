"""Writes of armies data: packs, custom units, rosters and entries, share links, clubs, import and upgrade.

Plain functions with keyword-only arguments. Access checks happen before (selectors); these functions check the
data itself and raise `ServiceError` (a readable message, optionally per field) when it is wrong, changing nothing.
Every roster write bumps `Roster.version`; a write that names an older version raises `StaleVersion`.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from armies import systems
from armies.models import Club, DataPack, Faction, Membership, Roster, RosterEntry, ShareLink, UnitProfile
from armies.selectors import roster_entries, roster_for_rules

PACK_FORMAT = "armlist-pack"
ROSTER_FORMAT = "armlist-roster"
ROSTER_FORMAT_VERSION = 1
MAX_ENTRIES = 500


class ServiceError(Exception):
    """Bad input: `message` for people, `errors` per field where known."""

    def __init__(self, message: str, errors: dict | None = None):
        super().__init__(message)
        self.message = message
        self.errors = errors or {}


class StaleVersion(ServiceError):
    def __init__(self, current: int):
        super().__init__(
            f"This roster was changed elsewhere (now version {current}). Reload it and make your change again.",
            {"version": f"current version is {current}"},
        )
        self.current = current


def canonical_json(data) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def checksum_of(data) -> str:
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


# Data packs --------------------------------------------------------------------------------------------------
def pack_files() -> list[Path]:
    """Official pack files: rules/systems/<system>/data/*.json that declare the armlist-pack format."""
    root = Path(settings.BASE_DIR) / "rules" / "systems"
    found = []
    for path in sorted(root.glob("*/data/*.json")):
        try:
            head = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(head, dict) and head.get("format") == PACK_FORMAT:
            found.append(path)
    return found


def pack_content_checksum(pack_data: dict) -> str:
    """Checksum of what defines a pack version: its name, source, factions, provenance and profiles."""
    keys = ("system", "slug", "name", "source", "factions", "provenance", "profiles")
    return checksum_of({k: pack_data.get(k) for k in keys})


def validate_pack_data(pack_data: dict) -> None:
    problems = {}
    for key in ("system", "slug", "name", "factions", "profiles"):
        if not pack_data.get(key):
            problems[key] = "missing"
    if problems:
        raise ServiceError("The pack file is missing required parts.", problems)
    if not systems.known_system(pack_data["system"]):
        raise ServiceError(f"Unknown game system {pack_data['system']!r}.")
    factions = {f["slug"] for f in pack_data["factions"]}
    seen = set()
    for i, profile in enumerate(pack_data["profiles"]):
        errors = systems.profile_errors(pack_data["system"], profile)
        for path, message in errors.items():
            problems[f"profiles.{i}.{path}"] = message
        slug = profile.get("slug")
        if slug in seen:
            problems[f"profiles.{i}.slug"] = f"duplicate slug {slug!r}"
        seen.add(slug)
        if profile.get("faction") not in factions:
            problems[f"profiles.{i}.faction"] = f"faction {profile.get('faction')!r} is not declared in the pack"
    if problems:
        raise ServiceError(f"{len(problems)} problem(s) in pack {pack_data['slug']!r}.", problems)


@transaction.atomic
def pack_load(*, pack_data: dict, source_label: str = "") -> tuple[DataPack, bool]:
    """Loads one official pack. Same content as the newest version: nothing changes. Different: a new, published
    version. Published versions are never edited."""
    if not isinstance(pack_data, dict) or not all(isinstance(pack_data.get(k), str) for k in ("system", "slug")):
        raise ServiceError("The pack file must be a JSON object with a system and a slug.")
    checksum = pack_content_checksum(pack_data)
    system, slug = pack_data["system"], pack_data["slug"]
    latest = (
        DataPack.objects.select_for_update()
        .filter(system=system, slug=slug, owner__isnull=True, club__isnull=True)
        .order_by("-version")
        .first()
    )
    if latest is not None and latest.checksum == checksum:
        return latest, False  # same content as the newest version: nothing to do
    validate_pack_data(pack_data)
    if DataPack.objects.filter(system=system, slug=slug).exclude(owner__isnull=True, club__isnull=True).exists():
        raise ServiceError(f"The pack slug {slug!r} is taken by a custom pack.")
    pack = DataPack.objects.create(
        system=system,
        slug=slug,
        version=(latest.version + 1) if latest else 1,
        name=pack_data["name"],
        source=pack_data.get("source") or source_label,
        checksum=checksum,
        published=True,
        published_at=timezone.now(),
        meta={"provenance": pack_data.get("provenance") or {}, "file": source_label},
    )
    factions = {}
    for f in pack_data["factions"]:
        factions[f["slug"]] = Faction.objects.create(
            pack=pack,
            slug=f["slug"],
            name=f.get("name") or f["slug"],
            colour=f.get("colour", ""),
            joins_any=bool(f.get("joins_any")),
        )
    UnitProfile.objects.bulk_create(
        UnitProfile(
            pack=pack,
            slug=p["slug"],
            name=p["name"],
            faction=factions[p["faction"]],
            kind=p["kind"],
            cost=p["cost"],
            data=p["data"],
            notes=p.get("notes", ""),
            position=i,
        )
        for i, p in enumerate(pack_data["profiles"])
    )
    return pack, True


def load_packs(*, paths: list[Path] | None = None) -> list[tuple[DataPack, bool]]:
    results = []
    base = Path(settings.BASE_DIR)
    for path in paths if paths is not None else pack_files():
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ServiceError(f"Cannot read pack file {path}: {exc}") from exc
        label = str(Path(path).resolve().relative_to(base)) if Path(path).resolve().is_relative_to(base) else str(path)
        results.append(pack_load(pack_data=data, source_label=label))
    return results


# Custom packs ------------------------------------------------------------------------------------------------
_TRANSLIT = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        [
            "a",
            "b",
            "v",
            "g",
            "d",
            "e",
            "e",
            "zh",
            "z",
            "i",
            "y",
            "k",
            "l",
            "m",
            "n",
            "o",
            "p",
            "r",
            "s",
            "t",
            "u",
            "f",
            "kh",
            "ts",
            "ch",
            "sh",
            "shch",
            "-",
            "y",
            "-",
            "e",
            "yu",
            "ya",
        ],
        strict=True,
    )
)


def slug_from(text: str, *, limit: int = 60) -> str:
    """An ASCII slug (Cyrillic transliterated), e.g. «Ополчение клуба» -> "opolchenie-kluba"."""
    latin = "".join(_TRANSLIT.get(ch, ch) for ch in (text or "").lower())
    return re.sub(r"[^a-z0-9]+", "-", latin).strip("-")[:limit].strip("-")


def _custom_slug(name: str) -> str:
    return f"{slug_from(name, limit=40) or 'pack'}-{secrets.token_hex(3)}"


def _system_factions(system: str) -> list[dict]:
    """The factions custom packs of a system use: those of its newest official pack."""
    official = (
        DataPack.objects.filter(system=system, owner__isnull=True, club__isnull=True, published=True)
        .order_by("-published_at", "-version")
        .first()
    )
    if official is None:
        raise ServiceError(f"Load the official packs of {system!r} first (manage.py load_packs).")
    return list(official.factions.values("slug", "name", "colour", "joins_any"))


@transaction.atomic
def pack_create(*, user, system: str, name: str, club: Club | None = None, source: str = "") -> DataPack:
    name = (name or "").strip()
    if not name:
        raise ServiceError("Give the pack a name.", {"name": "required"})
    if not systems.known_system(system):
        raise ServiceError(f"Unknown game system {system!r}.", {"system": "unknown"})
    pack = DataPack.objects.create(
        system=system,
        slug=_custom_slug(name),
        version=1,
        name=name[:120],
        source=source or f"Custom units by {user.get_username()}",
        owner=None if club else user,
        club=club,
        published=False,
    )
    for f in _system_factions(system):
        Faction.objects.create(pack=pack, **f)
    return pack


@transaction.atomic
def pack_draft(*, pack: DataPack) -> DataPack:
    """The editable version of a custom pack: the pack itself while a draft, else a new draft copied from the
    newest version (published versions never change; rosters pinned to them keep their numbers)."""
    if pack.is_official:
        raise ServiceError("Official packs cannot be edited; make a pack of your own.")
    newest = (
        DataPack.objects.select_for_update().filter(system=pack.system, slug=pack.slug).order_by("-version").first()
    )
    if not newest.published:
        return newest
    draft = DataPack.objects.create(
        system=newest.system,
        slug=newest.slug,
        version=newest.version + 1,
        name=newest.name,
        source=newest.source,
        owner=newest.owner,
        club=newest.club,
        meta=newest.meta,
        published=False,
    )
    faction_map = {}
    for f in newest.factions.all():
        faction_map[f.id] = Faction.objects.create(
            pack=draft, slug=f.slug, name=f.name, colour=f.colour, joins_any=f.joins_any
        )
    UnitProfile.objects.bulk_create(
        UnitProfile(
            pack=draft,
            slug=p.slug,
            name=p.name,
            faction=faction_map[p.faction_id],
            kind=p.kind,
            cost=p.cost,
            data=p.data,
            notes=p.notes,
            position=p.position,
        )
        for p in newest.profiles.all()
    )
    return draft


def _profile_dict_from_input(data: dict) -> dict:
    profile = {k: data.get(k) for k in ("slug", "name", "faction", "kind", "cost", "data")}
    if data.get("notes"):
        profile["notes"] = data["notes"]
    return profile


@transaction.atomic
def profile_save(*, pack: DataPack, data: dict, slug: str | None = None) -> UnitProfile:
    """Creates or replaces (by `slug`) a custom unit in the pack's draft version; checked against the schema."""
    draft = pack_draft(pack=pack)
    profile = _profile_dict_from_input(data)
    if not profile.get("slug") and profile.get("name"):
        profile["slug"] = slug_from(str(profile["name"])) or f"unit-{secrets.token_hex(3)}"
    errors = systems.profile_errors(pack.system, profile)
    if errors:
        raise ServiceError("The unit does not fit the profile format; see the fields.", errors)
    faction = draft.factions.filter(slug=profile["faction"]).first()
    if faction is None:
        raise ServiceError("Unknown faction for this pack.", {"faction": "unknown"})
    existing = draft.profiles.filter(slug=slug or profile["slug"]).first()
    if slug and existing is None:
        raise ServiceError(f"No unit {slug!r} in this pack.")
    if existing is None and draft.profiles.filter(slug=profile["slug"]).exists():
        raise ServiceError("A unit with this slug already exists in the pack.", {"slug": "taken"})
    if existing is not None and profile["slug"] != existing.slug and draft.profiles.filter(slug=profile["slug"]):
        raise ServiceError("A unit with this slug already exists in the pack.", {"slug": "taken"})
    values = {
        "slug": profile["slug"],
        "name": profile["name"],
        "faction": faction,
        "kind": profile["kind"],
        "cost": profile["cost"],
        "data": profile["data"],
        "notes": profile.get("notes", ""),
    }
    if existing is None:
        position = (draft.profiles.aggregate(m=Max("position"))["m"] or 0) + 1
        return UnitProfile.objects.create(pack=draft, position=position, **values)
    for key, value in values.items():
        setattr(existing, key, value)
    existing.save()
    return existing


@transaction.atomic
def profile_delete(*, pack: DataPack, slug: str) -> DataPack:
    draft = pack_draft(pack=pack)
    deleted, _ = draft.profiles.filter(slug=slug).delete()
    if not deleted:
        raise ServiceError(f"No unit {slug!r} in this pack.")
    return draft


@transaction.atomic
def pack_publish(*, pack: DataPack) -> DataPack:
    pack = DataPack.objects.select_for_update().get(pk=pack.pk)
    if pack.published:
        raise ServiceError("This version is already published.")
    profiles = [p.as_rules_dict() for p in pack.profiles.select_related("faction").order_by("position", "id")]
    if not profiles:
        raise ServiceError("Add at least one unit before publishing.")
    pack.checksum = checksum_of({"name": pack.name, "profiles": profiles})
    pack.published = True
    pack.published_at = timezone.now()
    pack.save(update_fields=["checksum", "published", "published_at"])
    return pack


@transaction.atomic
def pack_delete_draft(*, pack: DataPack) -> None:
    if pack.published or pack.is_official:
        raise ServiceError("Only an unpublished draft can be deleted.")
    if pack.rosters.exists():
        raise ServiceError("Rosters use this draft; it cannot be deleted.")
    pack.profiles.all().delete()  # profiles protect their factions; drop them first
    pack.delete()


# Rosters -----------------------------------------------------------------------------------------------------
def _lock_and_bump(roster: Roster, expected_version: int | None) -> Roster:
    """Locks the roster row, refuses a stale write, and bumps the version."""
    current = Roster.objects.select_for_update().only("version").get(pk=roster.pk).version
    if expected_version is not None and int(expected_version) != current:
        raise StaleVersion(current)
    Roster.objects.filter(pk=roster.pk).update(version=F("version") + 1, updated_at=timezone.now())
    roster.version = current + 1
    return roster


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
        raise ServiceError("The roster cannot be saved: " + " ".join(errors.values()), errors)


def _check_club(*, user, club: Club | None) -> None:
    if club is not None and not Membership.objects.filter(club=club, user=user).exists():
        raise ServiceError("You are not a member of that club.", {"club": "not a member"})


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
        raise ServiceError("Give the roster a name.", {"name": "required"})
    _check_roster_fields(pack=pack, faction=faction, points_limit=points_limit)
    _check_club(user=owner, club=club)
    if visibility == Roster.Visibility.CLUB and club is None:
        raise ServiceError("Choose a club to share the roster with.", {"club": "required for club visibility"})
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
        raise ServiceError(f"Unknown fields: {', '.join(sorted(unknown))}.")
    if "name" in fields and not (fields["name"] or "").strip():
        raise ServiceError("Give the roster a name.", {"name": "required"})
    _check_roster_fields(
        pack=roster.pack,
        faction=fields.get("faction", roster.faction),
        points_limit=fields.get("points_limit", roster.points_limit),
    )
    if "club" in fields and fields["club"] != roster.club:
        if roster.owner_id != user.id:
            raise ServiceError("Only the roster's owner may move it to another club.", {"club": "owner only"})
        _check_club(user=user, club=fields["club"])
    club = fields.get("club", roster.club)
    if fields.get("visibility") == Roster.Visibility.CLUB and club is None:
        raise ServiceError("Choose a club to share the roster with.", {"club": "required for club visibility"})
    if "visibility" in fields and roster.owner_id != user.id and fields["visibility"] != roster.visibility:
        raise ServiceError("Only the roster's owner may change who sees it.", {"visibility": "owner only"})
    _lock_and_bump(roster, expected_version)
    for key, value in fields.items():
        setattr(roster, key, value.strip() if key == "name" else value)
    roster.save(update_fields=[*fields.keys(), "updated_at"])
    return roster


@transaction.atomic
def roster_delete(*, roster: Roster, expected_version: int | None = None) -> None:
    _lock_and_bump(roster, expected_version)
    roster.delete()


def _new_key(taken: set[str]) -> str:
    while True:
        key = secrets.token_hex(3)
        if key not in taken:
            return key


def _profile_in_pack(roster: Roster, profile: UnitProfile | str) -> UnitProfile:
    if isinstance(profile, UnitProfile):
        if profile.pack_id != roster.pack_id:
            raise ServiceError("That unit is not in this roster's pack version.", {"profile": "other pack"})
        return profile
    found = UnitProfile.objects.select_related("faction").filter(pack_id=roster.pack_id, slug=profile).first()
    if found is None:
        raise ServiceError(f"No unit {profile!r} in {roster.pack}.", {"profile": "unknown"})
    return found


def _clean_count(count) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 99:
        raise ServiceError("The count must be a whole number from 1 to 99.", {"count": "1–99"})
    return count


def _clean_json(value, name: str, kind: type):
    if value is None:
        return kind()
    if not isinstance(value, kind):
        raise ServiceError(f"The {name} must be a JSON {'object' if kind is dict else 'list'}.", {name: "wrong type"})
    if len(json.dumps(value)) > 5000:
        raise ServiceError(f"The {name} is too large.", {name: "too large"})
    return value


@transaction.atomic
def entry_add(
    *,
    roster: Roster,
    profile: UnitProfile | str,
    count: int = 1,
    loadout: dict | None = None,
    pilot: list | None = None,
    expected_version: int | None = None,
) -> RosterEntry:
    profile = _profile_in_pack(roster, profile)
    count = _clean_count(count)
    if isinstance(pilot, dict):
        pilot = [pilot]
    pilot = _clean_json(pilot, "pilot", list)
    if loadout is None:
        loadout = systems.default_loadout(roster.system, profile.as_rules_dict())
    loadout = _clean_json(loadout, "loadout", dict)
    _lock_and_bump(roster, expected_version)
    existing = list(RosterEntry.objects.filter(roster=roster).values_list("key", "position"))
    if len(existing) >= MAX_ENTRIES:
        raise ServiceError(f"A roster holds at most {MAX_ENTRIES} entries.")
    return RosterEntry.objects.create(
        roster=roster,
        key=_new_key({k for k, _ in existing}),
        profile=profile,
        count=count,
        loadout=loadout,
        pilot=pilot,
        position=max((p for _, p in existing), default=0) + 1,
    )


@transaction.atomic
def entry_update(*, entry: RosterEntry, expected_version: int | None = None, **fields) -> RosterEntry:
    allowed = {"count", "loadout", "pilot", "position"}
    unknown = set(fields) - allowed
    if unknown:
        raise ServiceError(f"Unknown fields: {', '.join(sorted(unknown))}.")
    if "count" in fields:
        fields["count"] = _clean_count(fields["count"])
    if "loadout" in fields:
        fields["loadout"] = _clean_json(fields["loadout"], "loadout", dict)
    if "pilot" in fields:
        pilot = fields["pilot"]
        fields["pilot"] = _clean_json([pilot] if isinstance(pilot, dict) else pilot, "pilot", list)
    if "position" in fields and (not isinstance(fields["position"], int) or fields["position"] < 0):
        raise ServiceError("The position must be a whole number.", {"position": "whole number"})
    _lock_and_bump(entry.roster, expected_version)
    for key, value in fields.items():
        setattr(entry, key, value)
    entry.save(update_fields=list(fields))
    return entry


@transaction.atomic
def entry_remove(*, entry: RosterEntry, expected_version: int | None = None) -> None:
    """Removes an entry; vehicles piloted by its soldiers lose those pilots (no dangling references)."""
    roster = entry.roster
    _lock_and_bump(roster, expected_version)
    for other in RosterEntry.objects.filter(roster=roster).exclude(pk=entry.pk).exclude(pilot=[]):
        kept = [p for p in (other.pilot or []) if not (isinstance(p, dict) and p.get("entry") == entry.key)]
        if kept != other.pilot:
            other.pilot = kept
            other.save(update_fields=["pilot"])
    entry.delete()


@transaction.atomic
def entry_duplicate(*, entry: RosterEntry, expected_version: int | None = None) -> RosterEntry:
    """A copy right after the original, with the same loadout and no pilot (a soldier drives one vehicle)."""
    roster = entry.roster
    _lock_and_bump(roster, expected_version)
    taken = set(RosterEntry.objects.filter(roster=roster).values_list("key", flat=True))
    RosterEntry.objects.filter(roster=roster, position__gt=entry.position).update(position=F("position") + 1)
    return RosterEntry.objects.create(
        roster=roster,
        key=_new_key(taken),
        profile=entry.profile,
        count=entry.count,
        loadout=entry.loadout,
        pilot=[],
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
        RosterEntry(
            roster=copy,
            key=e.key,
            profile=e.profile,
            count=e.count,
            loadout=e.loadout,
            pilot=e.pilot,
            position=e.position,
        )
        for e in entries
    )
    return copy


# Share links -------------------------------------------------------------------------------------------------
@transaction.atomic
def share_link_create(*, roster: Roster, user) -> ShareLink:
    """A read-only link; the roster becomes link-visible (club members keep seeing it)."""
    if roster.owner_id != user.id:
        raise ServiceError("Only the roster's owner may share it by link.")
    if roster.visibility != Roster.Visibility.LINK:
        _lock_and_bump(roster, None)
        roster.visibility = Roster.Visibility.LINK
        roster.save(update_fields=["visibility", "updated_at"])
    return ShareLink.objects.create(roster=roster, token=secrets.token_urlsafe(32), created_by=user)


@transaction.atomic
def share_link_revoke(*, link: ShareLink) -> ShareLink:
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link


# Clubs -------------------------------------------------------------------------------------------------------
@transaction.atomic
def club_create(*, user, name: str, description: str = "") -> Club:
    name = (name or "").strip()
    if not name:
        raise ServiceError("Give the club a name.", {"name": "required"})
    club = Club.objects.create(name=name[:100], description=description or "")
    Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    return club


@transaction.atomic
def member_add(*, club: Club, username: str, role: str = Membership.Role.MEMBER) -> Membership:
    from django.contrib.auth import get_user_model

    if role not in Membership.Role.values:
        raise ServiceError("The role must be owner, editor or member.", {"role": "unknown"})
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise ServiceError(f"No user named {username!r}.", {"username": "unknown"})
    membership, created = Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
    if not created:
        raise ServiceError(f"{user.get_username()} is already a member.", {"username": "already a member"})
    return membership


@transaction.atomic
def member_set_role(*, membership: Membership, role: str) -> Membership:
    if role not in Membership.Role.values:
        raise ServiceError("The role must be owner, editor or member.", {"role": "unknown"})
    if membership.role == Membership.Role.OWNER and role != Membership.Role.OWNER:
        _keep_an_owner(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


def _keep_an_owner(membership: Membership) -> None:
    owners = Membership.objects.filter(club=membership.club, role=Membership.Role.OWNER).exclude(pk=membership.pk)
    if not owners.exists():
        raise ServiceError("A club needs at least one owner; make someone else owner first.")


@transaction.atomic
def member_remove(*, membership: Membership) -> None:
    if membership.role == Membership.Role.OWNER:
        _keep_an_owner(membership)
    membership.delete()


# Export / import ---------------------------------------------------------------------------------------------
def roster_export(*, roster: Roster, entries: list[RosterEntry] | None = None) -> dict:
    entries = roster_entries(roster) if entries is None else entries
    body = {
        "format": ROSTER_FORMAT,
        "format_version": ROSTER_FORMAT_VERSION,
        "system": roster.system,
        "pack": {"slug": roster.pack.slug, "version": roster.pack.version, "checksum": roster.pack.checksum},
        "roster": {
            "name": roster.name,
            "faction": roster.faction,
            "points_limit": roster.points_limit,
            "notes": roster.notes,
        },
        "entries": [
            {"key": e.key, "profile": e.profile.slug, "count": e.count, "loadout": e.loadout, "pilot": e.pilot}
            for e in entries
        ],
    }
    return {**body, "checksum": checksum_of(body)}


def _refuse(message: str):
    raise ServiceError(f"Import refused: {message} Nothing was created.")


@transaction.atomic
def roster_import(*, user, data, visible_packs) -> Roster:
    """Creates a roster from an export file. A malformed, foreign-version or altered file creates nothing."""
    if not isinstance(data, dict):
        _refuse("the file is not an Armlist roster (expected a JSON object).")
    if data.get("format") != ROSTER_FORMAT:
        _refuse("the file is not an Armlist roster export (format is not 'armlist-roster').")
    if data.get("format_version") != ROSTER_FORMAT_VERSION:
        _refuse(f"format version {data.get('format_version')!r} is not supported (this site reads version 1).")
    body = {k: v for k, v in data.items() if k != "checksum"}
    if not isinstance(data.get("checksum"), str) or checksum_of(body) != data["checksum"]:
        _refuse("the checksum does not match: the file was altered or damaged after export.")
    pack_info, roster_info, entries = data.get("pack"), data.get("roster"), data.get("entries")
    if not isinstance(pack_info, dict) or not isinstance(roster_info, dict) or not isinstance(entries, list):
        _refuse("the file lacks its pack, roster or entries.")
    if len(entries) > MAX_ENTRIES:
        _refuse(f"more than {MAX_ENTRIES} entries.")
    pack = visible_packs.filter(
        system=data.get("system"), slug=pack_info.get("slug"), version=pack_info.get("version"), published=True
    ).first()
    if pack is None:
        _refuse(f"the data pack {pack_info.get('slug')!r} version {pack_info.get('version')!r} is not available here.")
    profiles = {p.slug: p for p in UnitProfile.objects.filter(pack=pack)}
    keys = set()
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or e.get("profile") not in profiles:
            _refuse(f"entry {i + 1} names a unit that is not in {pack}.")
        key = e.get("key")
        if not isinstance(key, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,16}", key) or key in keys:
            _refuse(f"entry {i + 1} has a missing or repeated key.")
        keys.add(key)
        count = e.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 99:
            _refuse(f"entry {i + 1} has a bad count.")
        if not isinstance(e.get("loadout", {}), dict) or not isinstance(e.get("pilot", []), list | dict):
            _refuse(f"entry {i + 1} has a bad loadout or pilot.")
    try:
        roster = roster_create(
            owner=user,
            pack=pack,
            name=str(roster_info.get("name") or "Imported roster"),
            faction=str(roster_info.get("faction") or ""),
            points_limit=roster_info.get("points_limit"),
            notes=str(roster_info.get("notes") or ""),
        )
    except ServiceError as exc:
        _refuse(exc.message)
    RosterEntry.objects.bulk_create(
        RosterEntry(
            roster=roster,
            key=e["key"],
            profile=profiles[e["profile"]],
            count=e.get("count", 1),
            loadout=e.get("loadout") or {},
            pilot=[e["pilot"]] if isinstance(e.get("pilot"), dict) else e.get("pilot") or [],
            position=i + 1,
        )
        for i, e in enumerate(entries)
    )
    return roster


# Pack upgrade ------------------------------------------------------------------------------------------------
def roster_upgrade_plan(*, roster: Roster, target: DataPack, entries: list[RosterEntry] | None = None) -> dict:
    """What moving `roster` to `target` (a newer version of its pack) would change, entry by entry."""
    entries = roster_entries(roster) if entries is None else entries
    new_profiles = {p.slug: p for p in UnitProfile.objects.filter(pack=target).select_related("faction")}
    rules_roster = roster_for_rules(roster, entries=entries)
    old_report = systems.cost_roster(roster.system, rules_roster)
    changes, new_entries, removed = [], [], []
    for rules_entry in rules_roster["entries"]:
        new_profile = new_profiles.get(rules_entry["profile"]["slug"])
        lines, loadout = systems.upgrade_changes(
            roster.system, rules_entry, new_profile.as_rules_dict() if new_profile else None
        )
        if new_profile is None:
            removed.append(rules_entry["key"])
        else:
            new_entries.append({**rules_entry, "profile": new_profile.as_rules_dict(), "loadout": loadout})
        if lines:
            changes.append({"entry": rules_entry["key"], "changes": lines})
    removed_set = set(removed)
    for e in new_entries:
        e["pilot"] = [p for p in e["pilot"] if not (isinstance(p, dict) and p.get("entry") in removed_set)]
    new_report = systems.cost_roster(roster.system, {**rules_roster, "entries": new_entries})
    return {
        "from": {"id": roster.pack_id, "version": roster.pack.version},
        "to": {"id": target.pk, "version": target.version},
        "total_before": old_report.total,
        "total_after": new_report.total,
        "changes": changes,
        "removed_entries": removed,
        "errors_after": [i.message for i in new_report.issues if i.severity == "error"],
        "new_entries": new_entries,
    }


@transaction.atomic
def roster_upgrade(*, roster: Roster, target: DataPack, expected_version: int | None = None) -> dict:
    if target.system != roster.system or target.slug != roster.pack.slug or target.version <= roster.pack.version:
        raise ServiceError("That is not a newer version of this roster's pack.", {"pack": "not newer"})
    if not target.published:
        raise ServiceError("That version is not published.", {"pack": "draft"})
    entries = roster_entries(roster)
    plan = roster_upgrade_plan(roster=roster, target=target, entries=entries)
    _lock_and_bump(roster, expected_version)
    new_profiles = {p.slug: p for p in UnitProfile.objects.filter(pack=target)}
    by_key = {e["key"]: e for e in plan["new_entries"]}
    for entry in entries:
        if entry.key not in by_key:
            entry.delete()
            continue
        planned = by_key[entry.key]
        entry.profile = new_profiles[planned["profile"]["slug"]]
        entry.loadout = planned["loadout"]
        entry.pilot = planned["pilot"]
        entry.save(update_fields=["profile", "loadout", "pilot"])
    roster.pack = target
    roster.save(update_fields=["pack", "updated_at"])
    return plan
