"""Writes of armies data: packs, custom units, rosters and entries, share links, clubs, import and upgrade.

Plain functions with keyword-only arguments, one module per topic; this package exposes them all
(`armies.services.entry_add`). Access checks happen before (selectors); these functions check the data itself and
raise `ServiceError` (a readable message, optionally per field) when it is wrong, changing nothing. Every roster
write bumps `Roster.version`; a write that names an older version raises `StaleVersion`. Whatever depends on the
game (profile schemas, entry options, costs) is asked of the system through armies.systems.
"""

from armies.services.clubs import club_create, member_add, member_remove, member_set_role
from armies.services.common import ServiceError, StaleVersion, canonical_json, checksum_of, lock_and_bump
from armies.services.exchange import (
    READABLE_FORMAT_VERSIONS,
    ROSTER_FORMAT,
    ROSTER_FORMAT_VERSION,
    options_from_columns,
    roster_export,
    roster_import,
    roster_upgrade,
    roster_upgrade_plan,
)
from armies.services.packs import (
    PACK_FORMAT,
    load_packs,
    pack_content_checksum,
    pack_create,
    pack_delete_draft,
    pack_draft,
    pack_files,
    pack_load,
    pack_publish,
    profile_delete,
    profile_save,
    slug_from,
    validate_pack_data,
)
from armies.services.rosters import (
    MAX_ENTRIES,
    clean_options,
    entry_add,
    entry_duplicate,
    entry_remove,
    entry_update,
    roster_copy,
    roster_create,
    roster_delete,
    roster_update,
    share_link_create,
    share_link_revoke,
)

__all__ = [
    "MAX_ENTRIES",
    "PACK_FORMAT",
    "READABLE_FORMAT_VERSIONS",
    "ROSTER_FORMAT",
    "ROSTER_FORMAT_VERSION",
    "ServiceError",
    "StaleVersion",
    "canonical_json",
    "checksum_of",
    "clean_options",
    "club_create",
    "entry_add",
    "entry_duplicate",
    "entry_remove",
    "entry_update",
    "load_packs",
    "lock_and_bump",
    "member_add",
    "member_remove",
    "member_set_role",
    "options_from_columns",
    "pack_content_checksum",
    "pack_create",
    "pack_delete_draft",
    "pack_draft",
    "pack_files",
    "pack_load",
    "pack_publish",
    "profile_delete",
    "profile_save",
    "roster_copy",
    "roster_create",
    "roster_delete",
    "roster_export",
    "roster_import",
    "roster_update",
    "roster_upgrade",
    "roster_upgrade_plan",
    "share_link_create",
    "share_link_revoke",
    "slug_from",
    "validate_pack_data",
]
