"""Rosters leaving and entering the site: the versioned export format, import, and upgrades to a newer version
of the roster's pack.

Format "armlist-roster": version 3 adds `extra_packs` (the custom packs the roster draws on, each slug and version)
and an entry's `pack` slug when its unit comes from one of them; version 2 holds each entry's `options`; version 1
(before options existed) held `loadout` and `pilot` beside each other and still imports, converted the way
migration 0002 converted stored entries. Versions 1 and 2 read as rosters of their one pack.
"""

from __future__ import annotations

import hmac
import re

from django.core import signing
from django.db import transaction
from django.utils.translation import gettext as _

from armies import systems
from armies.models import DataPack, Roster, RosterEntry, UnitProfile
from armies.selectors import roster_entries, roster_for_rules, roster_packs
from armies.serializers import ImportEntrySerializer, ImportRosterSerializer, errors_of
from armies.services.common import ServiceError, checksum_of, lock_and_bump, rule_errors
from armies.services.rosters import MAX_ENTRIES, clean_options, roster_create
from config.validation import check_rows, json_problem

ROSTER_FORMAT = "armlist-roster"
ROSTER_FORMAT_VERSION = 3
READABLE_FORMAT_VERSIONS = (1, 2, 3)
EXPORT_SALT = "armies.roster-export"


# Export / import ---------------------------------------------------------------------------------------------
def roster_export(*, roster: Roster, entries: list[RosterEntry] | None = None) -> dict:
    entries = roster_entries(roster) if entries is None else entries
    main, *extras = roster_packs(roster, fresh=True)
    slug_of = {p.pk: p.slug for p in extras}

    def entry(e: RosterEntry) -> dict:
        row = {"key": e.key, "profile": e.profile.slug, "count": e.count, "options": e.options}
        return {**row, "pack": slug_of[e.profile.pack_id]} if e.profile.pack_id in slug_of else row

    body = {
        "format": ROSTER_FORMAT,
        "format_version": ROSTER_FORMAT_VERSION,
        "system": roster.system,
        "pack": {"slug": main.slug, "version": main.version, "checksum": main.checksum},
        "extra_packs": [{"slug": p.slug, "version": p.version, "checksum": p.checksum, "name": p.name} for p in extras],
        "roster": {
            "name": roster.name,
            "faction": roster.faction,
            "points_limit": roster.points_limit,
            "notes": roster.notes,
        },
        "entries": [entry(e) for e in entries],
    }
    checksum = checksum_of(body)
    return {**body, "checksum": checksum, "signature": export_signature(checksum)}


def export_signature(checksum: str) -> str:
    """HMAC of a file's checksum under a key derived from SECRET_KEY: only this site can make it, so a file that
    carries it is Armlist's own, unedited. The checksum alone is integrity only (anyone can recompute it)."""
    return signing.Signer(salt=EXPORT_SALT).signature(checksum)


def export_verified(data) -> bool:
    """Whether an export file carries this site's signature of its checksum (an unsigned, edited-and-rechecksummed
    or foreign file imports as "unverified", after the same validation as any other)."""
    if not isinstance(data, dict) or not isinstance(data.get("checksum"), str):
        return False
    signature = data.get("signature")
    return isinstance(signature, str) and hmac.compare_digest(signature, export_signature(data["checksum"]))


def options_from_columns(loadout, pilot) -> dict:
    """A version-1 entry's options: its loadout, plus its pilot references when it has any (one stored as an
    object is a list of one)."""
    options = dict(loadout) if isinstance(loadout, dict) else {}
    refs = [pilot] if isinstance(pilot, dict) and pilot else pilot if isinstance(pilot, list) else []
    if refs:
        options["pilot"] = refs
    return options


def _refuse(message: str):
    raise ServiceError(_("Import refused: {message} Nothing was created.").format(message=message))


def _entry_options(e: dict, version: int, i: int):
    if version == 1:
        if not isinstance(e.get("loadout", {}), dict) or not isinstance(e.get("pilot", []), list | dict):
            _refuse(f"entry {i + 1} has a bad loadout or pilot.")
        return options_from_columns(e.get("loadout"), e.get("pilot"))
    options = e.get("options", {})
    if not isinstance(options, dict):
        _refuse(f"entry {i + 1} has bad options.")
    return options


def import_notice(verified: bool) -> str:
    """What an import means, for the person who made it."""
    if verified:
        return _("Imported from a file this site signed: it is Armlist's own, unedited.")
    return _(
        "Imported, but unverified: the file does not carry this site's signature (made elsewhere, or edited). "
        "Every field was checked like any other input."
    )


def _validated_file(data: dict, roster_info: dict, entries: list) -> tuple[dict, list[dict]]:
    """The file's roster and entries through the bounds the API's inputs use (armies.serializers), before any
    pack or rules lookup: a huge loadout, `points_limit: true` or megabytes of notes are refused here."""
    found = json_problem(data)
    if found is not None:
        _refuse(f"{found[0] or 'the file'}: {found[1]}")
    fields = ImportRosterSerializer(data=roster_info)
    if not fields.is_valid():
        _refuse(" ".join(f"roster.{k}: {v}" for k, v in errors_of(fields).items()))
    cleaned = []
    for i, e in enumerate(entries):
        entry = ImportEntrySerializer(data=e) if isinstance(e, dict) else None
        if entry is None or not entry.is_valid():
            why = " ".join(f"{k}: {v}" for k, v in errors_of(entry).items()) if entry else "not an object."
            _refuse(f"entry {i + 1}: {why}")
        cleaned.append(dict(entry.validated_data))
    return dict(fields.validated_data), cleaned


@transaction.atomic
def roster_import(*, user, data, visible_packs) -> Roster:
    """Creates a roster from an export file. A malformed, foreign-version or altered file creates nothing."""
    if not isinstance(data, dict):
        _refuse("the file is not an Armlist roster (expected a JSON object).")
    if data.get("format") != ROSTER_FORMAT:
        _refuse("the file is not an Armlist roster export (format is not 'armlist-roster').")
    version = data.get("format_version")
    if isinstance(version, bool) or version not in READABLE_FORMAT_VERSIONS:
        readable = " and ".join(map(str, READABLE_FORMAT_VERSIONS))
        _refuse(f"format version {version!r} is not supported (this site reads versions {readable}).")
    body = {k: v for k, v in data.items() if k not in ("checksum", "signature")}
    if not isinstance(data.get("checksum"), str) or checksum_of(body) != data["checksum"]:
        _refuse("the checksum does not match: the file was altered or damaged after export.")
    signature = data.get("signature")
    if signature is not None and not (isinstance(signature, str) and len(signature) <= 100):
        _refuse("the signature is not one this site makes (a short text).")
    pack_info, roster_info, entries = data.get("pack"), data.get("roster"), data.get("entries")
    if not isinstance(pack_info, dict) or not isinstance(roster_info, dict) or not isinstance(entries, list):
        _refuse("the file lacks its pack, roster or entries.")
    if len(entries) > MAX_ENTRIES:
        _refuse(f"more than {MAX_ENTRIES} entries.")
    roster_info, entries = _validated_file(data, roster_info, entries)
    extra_info = data.get("extra_packs", []) if version >= 3 else []
    if not isinstance(extra_info, list) or not all(isinstance(p, dict) for p in extra_info):
        _refuse("the file's extra packs are not a list of packs.")
    packs = {}
    for info in [pack_info, *extra_info]:
        found = visible_packs.filter(
            system=data.get("system"), slug=info.get("slug"), version=info.get("version"), published=True
        ).first()
        if found is None:
            _refuse(f"the data pack {info.get('slug')!r} version {info.get('version')!r} is not available here.")
        if found.slug in packs:
            _refuse(f"the data pack {found.slug!r} is named twice.")
        packs[found.slug] = found
    pack, *extra_packs = packs.values()
    profiles = {
        (p.pack.slug, p.slug): p
        for p in UnitProfile.objects.filter(pack__in=packs.values()).select_related("faction", "pack")
    }
    keys, rows = set(), []
    for i, e in enumerate(entries):
        from_pack = e.get("pack", pack.slug) if isinstance(e, dict) else None
        if (from_pack, e.get("profile") if isinstance(e, dict) else None) not in profiles:
            _refuse(f"entry {i + 1} names a unit that is not in {packs.get(from_pack, pack)}.")
        key = e.get("key")
        if not isinstance(key, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,16}", key) or key in keys:
            _refuse(f"entry {i + 1} has a missing or repeated key.")
        keys.add(key)
        count = e.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 99:
            _refuse(f"entry {i + 1} has a bad count.")
        profile = profiles[(from_pack, e["profile"])]
        try:
            options = clean_options(
                system=pack.system, profile=profile.as_rules_dict(), options=_entry_options(e, version, i)
            )
        except ServiceError as exc:
            _refuse(f"entry {i + 1} ({profile.name}): {exc.message}")
        rows.append((key, profile, count, options))
    try:
        roster = roster_create(
            owner=user,
            pack=pack,
            name=str(roster_info.get("name") or "Imported roster"),
            faction=str(roster_info.get("faction") or ""),
            points_limit=roster_info.get("points_limit"),
            notes=str(roster_info.get("notes") or ""),
            extra_packs=extra_packs,
        )
    except ServiceError as exc:
        _refuse(exc.message)
    RosterEntry.objects.bulk_create(
        check_rows(  # bulk_create sends no pre_save: the row check by hand
            RosterEntry(roster=roster, key=key, profile=profile, count=count, options=options, position=i + 1)
            for i, (key, profile, count, options) in enumerate(rows)
        )
    )
    return roster


# Pack upgrade ------------------------------------------------------------------------------------------------
def upgraded_pack(roster: Roster, target: DataPack) -> DataPack | None:
    """The roster's pack (main or extra) that `target` is a newer version of, or None."""
    for pack in roster_packs(roster, fresh=True):
        if (pack.system, pack.slug, pack.owner_id, pack.club_id) == (
            target.system,
            target.slug,
            target.owner_id,
            target.club_id,
        ) and target.version > pack.version:
            return pack
    return None


def roster_upgrade_plan(*, roster: Roster, target: DataPack, entries: list[RosterEntry] | None = None) -> dict:
    """What moving `roster` to `target` (a newer version of its main pack or of one of its extra packs) would
    change, entry by entry; entries of the roster's other packs stay as they are."""
    entries = roster_entries(roster) if entries is None else entries
    current = upgraded_pack(roster, target) or roster.pack
    new_profiles = {p.slug: p for p in UnitProfile.objects.filter(pack=target).select_related("faction")}
    rules_roster = roster_for_rules(roster, entries=entries)
    from_current = {e.key for e in entries if e.profile.pack_id == current.pk}
    with rule_errors("This roster cannot be upgraded:"):
        old_report = systems.cost_roster(roster.system, rules_roster)
        changes, new_entries, removed = [], [], []
        for rules_entry in rules_roster["entries"]:
            if rules_entry["key"] not in from_current:
                new_entries.append(rules_entry)
                continue
            new_profile = new_profiles.get(rules_entry["profile"]["slug"])
            lines, options = systems.upgrade_changes(
                roster.system, rules_entry, new_profile.as_rules_dict() if new_profile else None
            )
            if new_profile is None:
                removed.append(rules_entry["key"])
            else:
                new_entries.append({**rules_entry, "profile": new_profile.as_rules_dict(), "options": options or {}})
            if lines:
                changes.append({"entry": rules_entry["key"], "changes": lines})
        if removed:
            for e in new_entries:
                e["options"] = systems.options_without(roster.system, e, set(removed))
        new_report = systems.cost_roster(roster.system, {**rules_roster, "entries": new_entries})
    return {
        "from": {"id": current.pk, "version": current.version},
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
    current = upgraded_pack(roster, target)
    if target.system != roster.system or current is None:
        raise ServiceError(_("That is not a newer version of this roster's pack."), {"pack": _("not newer")})
    if not target.published:
        raise ServiceError(_("That version is not published."), {"pack": "draft"})
    entries = roster_entries(roster)
    plan = roster_upgrade_plan(roster=roster, target=target, entries=entries)
    lock_and_bump(roster, expected_version)
    new_profiles = {p.slug: p for p in UnitProfile.objects.filter(pack=target)}
    by_key = {e["key"]: e for e in plan["new_entries"]}
    for entry in entries:
        if entry.key not in by_key:
            entry.delete()
            continue
        planned = by_key[entry.key]
        if entry.profile.pack_id == current.pk:
            entry.profile = new_profiles[planned["profile"]["slug"]]
        if entry.options != planned["options"]:  # an entry of another pack may lose pilots from removed entries
            entry.options = planned["options"]
        entry.save(update_fields=["profile", "options"])
    if current.pk == roster.pack_id:
        roster.pack = target
        roster.save(update_fields=["pack", "updated_at"])
    else:
        roster.extra_packs.remove(current)
        roster.extra_packs.add(target)
    roster._roster_packs = None  # selectors.roster_packs reads them again
    return plan
