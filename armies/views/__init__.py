"""Pages of the army builder: rosters (/rosters/), shared rosters (/s/<token>/), custom packs (/packs/) and clubs
(/clubs/). Thin, one module per topic: access through armies.selectors, writes through armies.services; whatever
depends on the game is drawn from what the roster's or pack's system declares (armies.systems)."""

from armies.views.clubs import club_detail, club_list, member_add, member_remove, member_role
from armies.views.invites import club_join, invite_create, invite_revoke
from armies.views.packs import pack_detail, pack_list, pack_publish, profile_delete, profile_edit, profile_template
from armies.views.rosters import (
    builder_tool,
    link_create,
    link_revoke,
    roster_copy,
    roster_delete,
    roster_detail,
    roster_export,
    roster_import,
    roster_list,
    roster_live,
    roster_print,
    roster_settings,
    roster_text,
    roster_upgrade,
    shared_copy,
    shared_export,
    shared_print,
    shared_roster,
    shared_text,
)

__all__ = [
    "builder_tool",
    "club_detail",
    "club_join",
    "club_list",
    "invite_create",
    "invite_revoke",
    "link_create",
    "link_revoke",
    "member_add",
    "member_remove",
    "member_role",
    "pack_detail",
    "pack_list",
    "pack_publish",
    "profile_delete",
    "profile_edit",
    "profile_template",
    "roster_copy",
    "roster_delete",
    "roster_detail",
    "roster_export",
    "roster_import",
    "roster_list",
    "roster_live",
    "roster_print",
    "roster_settings",
    "roster_text",
    "roster_upgrade",
    "shared_copy",
    "shared_export",
    "shared_print",
    "shared_roster",
    "shared_text",
]
