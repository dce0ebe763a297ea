"""Data packs: official packs loaded from files, custom packs of units made in the browser, drafts and publishing.

A published version never changes: editing it makes the next draft version, so rosters pinned to it keep their
numbers. Every profile is checked against its system's profile schema and kinds (armies.systems)."""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from armies import systems
from armies.models import Club, DataPack, Faction, UnitProfile
from armies.serializers import profile_size_errors
from armies.services.common import ServiceError, checksum_of

PACK_FORMAT = "armlist-pack"


# Data packs --------------------------------------------------------------------------------------------------
def pack_files() -> list[Path]:
    """Official pack files: the data/*.json files beside each registered system (its package's `data/` folder)
    that declare the armlist-pack format."""
    found = []
    for path in systems.official_pack_paths():
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
        raise ServiceError(_("The pack file is missing required parts."), problems)
    if not systems.known_system(pack_data["system"]):
        raise ServiceError(
            _("Unknown game system {system!r}, or one without an army builder.").format(system=pack_data["system"])
        )
    factions = {f["slug"] for f in pack_data["factions"]}
    seen = set()
    for i, profile in enumerate(pack_data["profiles"]):
        errors = profile_size_errors(profile.get("data") if isinstance(profile, dict) else None)
        errors = errors or systems.profile_errors(pack_data["system"], profile)
        for path, message in errors.items():
            problems[f"profiles.{i}.{path}"] = message
        slug = profile.get("slug")
        if slug in seen:
            problems[f"profiles.{i}.slug"] = f"duplicate slug {slug!r}"
        seen.add(slug)
        if profile.get("faction") not in factions:
            problems[f"profiles.{i}.faction"] = f"faction {profile.get('faction')!r} is not declared in the pack"
    if problems:
        raise ServiceError(
            _("{problems} problem(s) in pack {slug!r}.").format(problems=len(problems), slug=pack_data["slug"]),
            problems,
        )


@transaction.atomic
def pack_load(*, pack_data: dict, source_label: str = "") -> tuple[DataPack, bool]:
    """Loads one official pack. Same content as the newest version: nothing changes. Different: a new, published
    version. Published versions are never edited."""
    if not isinstance(pack_data, dict) or not all(isinstance(pack_data.get(k), str) for k in ("system", "slug")):
        raise ServiceError(_("The pack file must be a JSON object with a system and a slug."))
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
        raise ServiceError(_("The pack slug {slug!r} is taken by a custom pack.").format(slug=slug))
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
            raise ServiceError(_("Cannot read pack file {path}: {exc}").format(path=path, exc=exc)) from exc
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
        raise ServiceError(
            _("Load the official packs of {system!r} first (manage.py load_packs).").format(system=system)
        )
    return list(official.factions.values("slug", "name", "colour", "joins_any"))


@transaction.atomic
def pack_create(*, user, system: str, name: str, club: Club | None = None, source: str = "") -> DataPack:
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("Give the pack a name."), {"name": "required"})
    if not systems.known_system(system):
        raise ServiceError(
            _("Unknown game system {system!r}, or one without an army builder.").format(system=system),
            {"system": "unknown"},
        )
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
        raise ServiceError(_("Official packs cannot be edited; make a pack of your own."))
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
    # The size first: the schema validator takes seconds on a unit of thousands of soldiers (issue #18).
    errors = profile_size_errors(profile.get("data")) or systems.profile_errors(pack.system, profile)
    if errors:
        raise ServiceError(_("The unit does not fit the profile format; see the fields."), errors)
    faction = draft.factions.filter(slug=profile["faction"]).first()
    if faction is None:
        raise ServiceError(_("Unknown faction for this pack."), {"faction": "unknown"})
    existing = draft.profiles.filter(slug=slug or profile["slug"]).first()
    if slug and existing is None:
        raise ServiceError(_("No unit {slug!r} in this pack.").format(slug=slug))
    if existing is None and draft.profiles.filter(slug=profile["slug"]).exists():
        raise ServiceError(_("A unit with this slug already exists in the pack."), {"slug": "taken"})
    if existing is not None and profile["slug"] != existing.slug and draft.profiles.filter(slug=profile["slug"]):
        raise ServiceError(_("A unit with this slug already exists in the pack."), {"slug": "taken"})
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
    deleted, _ignored = draft.profiles.filter(slug=slug).delete()
    if not deleted:
        raise ServiceError(_("No unit {slug!r} in this pack.").format(slug=slug))
    return draft


@transaction.atomic
def pack_publish(*, pack: DataPack) -> DataPack:
    pack = DataPack.objects.select_for_update().get(pk=pack.pk)
    if pack.published:
        raise ServiceError(_("This version is already published."))
    profiles = [p.as_rules_dict() for p in pack.profiles.select_related("faction").order_by("position", "id")]
    if not profiles:
        raise ServiceError(_("Add at least one unit before publishing."))
    pack.checksum = checksum_of({"name": pack.name, "profiles": profiles})
    pack.published = True
    pack.published_at = timezone.now()
    pack.save(update_fields=["checksum", "published", "published_at"])
    return pack


@transaction.atomic
def pack_delete_draft(*, pack: DataPack) -> None:
    if pack.published or pack.is_official:
        raise ServiceError(_("Only an unpublished draft can be deleted."))
    if pack.rosters.exists():
        raise ServiceError(_("Rosters use this draft; it cannot be deleted."))
    pack.profiles.all().delete()  # profiles protect their factions; drop them first
    pack.delete()
