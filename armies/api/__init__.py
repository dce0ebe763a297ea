"""REST API of the army builder under /api/v1/: packs and custom units, rosters and entries, export/import,
pack upgrades, share links, clubs and members. One APIView per operation, one module per topic; access through
armies.selectors (outsiders 404, read-only viewers 403 on writes); writes through armies.services.

Roster writes may carry the version they were based on (`If-Match: "<version>"` or a `version` field); a stale
one gets 412 with the current version and changes nothing. An entry's `options` are checked against its system's
options schema: a bad one is a 400 naming the field ("options.weapons.0").
"""

from armies.api.clubs import ClubDetailApi, ClubListApi, MemberDetailApi, MemberListApi
from armies.api.exchange import (
    LinkListApi,
    LinkRevokeApi,
    RosterExportApi,
    RosterImportApi,
    RosterUpgradeApi,
    SharedExportApi,
    SharedRosterApi,
    upgrade_preview,
)
from armies.api.invites import ClubJoinApi, InviteDetailApi, InviteListApi
from armies.api.packs import PackDetailApi, PackListApi, PackPublishApi, ProfileDetailApi, ProfileListApi
from armies.api.rosters import (
    BuilderToolApi,
    EntryAddApi,
    EntryDetailApi,
    EntryDuplicateApi,
    RosterCopyApi,
    RosterDetailApi,
    RosterListApi,
    RosterTextApi,
)

__all__ = [
    "ClubJoinApi",
    "InviteDetailApi",
    "InviteListApi",
    "BuilderToolApi",
    "ClubDetailApi",
    "ClubListApi",
    "EntryAddApi",
    "EntryDetailApi",
    "EntryDuplicateApi",
    "LinkListApi",
    "LinkRevokeApi",
    "MemberDetailApi",
    "MemberListApi",
    "PackDetailApi",
    "PackListApi",
    "PackPublishApi",
    "ProfileDetailApi",
    "ProfileListApi",
    "RosterCopyApi",
    "RosterDetailApi",
    "RosterExportApi",
    "RosterImportApi",
    "RosterListApi",
    "RosterTextApi",
    "RosterUpgradeApi",
    "SharedExportApi",
    "SharedRosterApi",
    "upgrade_preview",
]
