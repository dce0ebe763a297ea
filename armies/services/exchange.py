"""Rosters leaving and entering the site: the versioned export format, import, and upgrades to a newer version
of the roster's pack.

Format "armlist-roster": version 2 holds each entry's `options`; version 1 (before options existed) held `loadout`
and `pilot` beside each other and still imports, converted the way migration 0002 converted stored entries.
"""

from __future__ import annotations

import re

from django.db import transaction
from django.utils.translation import gettext as _

from armies import systems
from armies.models import DataPack, Roster, RosterEntry, UnitProfile
from armies.selectors import roster_entries, roster_for_rules
from armies.services.common import ServiceError, checksum_of, lock_and_bump, rule_errors
from armies.services.rosters import MAX_ENTRIES, clean_options, roster_create

ROSTER_FORMAT = "armlist-roster"
ROSTER_FORMAT_VERSION = 2
READABLE_FORMAT_VERSIONS = (1, 2)


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
        "entries": [{"key": e.key, "profile": e.profile.slug, "count": e.count, "options": e.options} for e in entries],
    }
    return {**body, "checksum": checksum_of(body)}


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
    profiles = {p.slug: p for p in UnitProfile.objects.filter(pack=pack).select_related("faction")}
    keys, rows = set(), []
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
        profile = profiles[e["profile"]]
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
        )
    except ServiceError as exc:
        _refuse(exc.message)
    RosterEntry.objects.bulk_create(
        RosterEntry(roster=roster, key=key, profile=profile, count=count, options=options, position=i + 1)
        for i, (key, profile, count, options) in enumerate(rows)
    )
    return roster


# Pack upgrade ------------------------------------------------------------------------------------------------
def roster_upgrade_plan(*, roster: Roster, target: DataPack, entries: list[RosterEntry] | None = None) -> dict:
    """What moving `roster` to `target` (a newer version of its pack) would change, entry by entry."""
    entries = roster_entries(roster) if entries is None else entries
    new_profiles = {p.slug: p for p in UnitProfile.objects.filter(pack=target).select_related("faction")}
    rules_roster = roster_for_rules(roster, entries=entries)
    with rule_errors("This roster cannot be upgraded:"):
        old_report = systems.cost_roster(roster.system, rules_roster)
        changes, new_entries, removed = [], [], []
        for rules_entry in rules_roster["entries"]:
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
        entry.profile = new_profiles[planned["profile"]["slug"]]
        entry.options = planned["options"]
        entry.save(update_fields=["profile", "options"])
    roster.pack = target
    roster.save(update_fields=["pack", "updated_at"])
    return plan
