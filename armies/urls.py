"""Pages under /rosters/, /s/<token>/, /packs/, /clubs/ and the API under /api/v1/."""

from django.urls import path

from armies import api, views
from armies.api.campaign import ScenarioListApi
from armies.views.campaign import scenario_carry_page
from config.ratelimit import TokenLimit, limited

app_name = "armies"

api_patterns = [
    path("api/v1/packs/", api.PackListApi.as_view(), name="api-packs"),
    path("api/v1/packs/<int:pack_id>/", api.PackDetailApi.as_view(), name="api-pack"),
    path("api/v1/packs/<int:pack_id>/publish/", api.PackPublishApi.as_view(), name="api-pack-publish"),
    path("api/v1/packs/<int:pack_id>/profiles/", api.ProfileListApi.as_view(), name="api-profiles"),
    path("api/v1/packs/<int:pack_id>/profiles/<slug:slug>/", api.ProfileDetailApi.as_view(), name="api-profile"),
    path("api/v1/rosters/", api.RosterListApi.as_view(), name="api-rosters"),
    path("api/v1/rosters/import/", api.RosterImportApi.as_view(), name="api-roster-import"),
    path("api/v1/rosters/<int:roster_id>/", api.RosterDetailApi.as_view(), name="api-roster"),
    path("api/v1/rosters/<int:roster_id>/entries/", api.EntryAddApi.as_view(), name="api-entries"),
    path("api/v1/rosters/<int:roster_id>/entries/<str:key>/", api.EntryDetailApi.as_view(), name="api-entry"),
    path(
        "api/v1/rosters/<int:roster_id>/entries/<str:key>/duplicate/",
        api.EntryDuplicateApi.as_view(),
        name="api-entry-duplicate",
    ),
    path("api/v1/rosters/<int:roster_id>/tools/<slug:key>/", api.BuilderToolApi.as_view(), name="api-builder-tool"),
    path("api/v1/rosters/<int:roster_id>/copy/", api.RosterCopyApi.as_view(), name="api-roster-copy"),
    path("api/v1/rosters/<int:roster_id>/export/", api.RosterExportApi.as_view(), name="api-roster-export"),
    path("api/v1/rosters/<int:roster_id>/text/", api.RosterTextApi.as_view(), name="api-roster-text"),
    path("api/v1/rosters/<int:roster_id>/upgrade/", api.RosterUpgradeApi.as_view(), name="api-roster-upgrade"),
    path("api/v1/rosters/<int:roster_id>/scenarios/", ScenarioListApi.as_view(), name="api-scenarios"),
    path("api/v1/rosters/<int:roster_id>/links/", api.LinkListApi.as_view(), name="api-links"),
    path("api/v1/rosters/<int:roster_id>/links/<int:link_id>/", api.LinkRevokeApi.as_view(), name="api-link"),
    path("api/v1/shared/<str:token>/", api.SharedRosterApi.as_view(throttle_classes=[TokenLimit]), name="api-shared"),
    path(
        "api/v1/shared/<str:token>/export/",
        api.SharedExportApi.as_view(throttle_classes=[TokenLimit]),
        name="api-shared-export",
    ),
    path("api/v1/clubs/", api.ClubListApi.as_view(), name="api-clubs"),
    path("api/v1/clubs/<int:club_id>/", api.ClubDetailApi.as_view(), name="api-club"),
    path("api/v1/clubs/<int:club_id>/members/", api.MemberListApi.as_view(), name="api-members"),
    path("api/v1/clubs/<int:club_id>/invites/", api.InviteListApi.as_view(), name="api-invites"),
    path("api/v1/clubs/<int:club_id>/invites/<int:invite_id>/", api.InviteDetailApi.as_view(), name="api-invite"),
    path(
        "api/v1/clubs/join/<str:token>/", api.ClubJoinApi.as_view(throttle_classes=[TokenLimit]), name="api-club-join"
    ),
    path("api/v1/clubs/<int:club_id>/members/<int:user_id>/", api.MemberDetailApi.as_view(), name="api-member"),
]

page_patterns = [
    path("rosters/", views.roster_list, name="rosters"),
    path("rosters/import/", views.roster_import, name="roster-import"),
    path("rosters/<int:roster_id>/", views.roster_detail, name="roster"),
    path("rosters/<int:roster_id>/live/", views.roster_live, name="roster-live"),
    path("rosters/<int:roster_id>/settings/", views.roster_settings, name="roster-settings"),
    path("rosters/<int:roster_id>/tools/<slug:key>/", views.builder_tool, name="builder-tool"),
    path("rosters/<int:roster_id>/copy/", views.roster_copy, name="roster-copy"),
    path("rosters/<int:roster_id>/delete/", views.roster_delete, name="roster-delete"),
    path("rosters/<int:roster_id>/print/", views.roster_print, name="roster-print"),
    path("rosters/<int:roster_id>/text/", views.roster_text, name="roster-text"),
    path("rosters/<int:roster_id>/export/", views.roster_export, name="roster-export"),
    path("rosters/<int:roster_id>/upgrade/", views.roster_upgrade, name="roster-upgrade"),
    path("rosters/<int:roster_id>/scenarios/", scenario_carry_page, name="scenario-carry"),
    path("rosters/<int:roster_id>/links/", views.link_create, name="link-create"),
    path("rosters/<int:roster_id>/links/<int:link_id>/revoke/", views.link_revoke, name="link-revoke"),
    path("s/<str:token>/", limited("tokens")(views.shared_roster), name="shared"),
    path("s/<str:token>/print/", limited("tokens")(views.shared_print), name="shared-print"),
    path("s/<str:token>/text/", limited("tokens")(views.shared_text), name="shared-text"),
    path("s/<str:token>/export/", limited("tokens")(views.shared_export), name="shared-export"),
    path("s/<str:token>/copy/", limited("tokens")(views.shared_copy), name="shared-copy"),
    path("packs/", views.pack_list, name="packs"),
    path("packs/templates/<str:kind>/", views.profile_template, name="profile-template"),
    path("packs/<int:pack_id>/", views.pack_detail, name="pack"),
    path("packs/<int:pack_id>/publish/", views.pack_publish, name="pack-publish"),
    path("packs/<int:pack_id>/units/new/", views.profile_edit, name="profile-new"),
    path("packs/<int:pack_id>/units/<slug:slug>/", views.profile_edit, name="profile-edit"),
    path("packs/<int:pack_id>/units/<slug:slug>/delete/", views.profile_delete, name="profile-delete"),
    path("clubs/", views.club_list, name="clubs"),
    path("clubs/<int:club_id>/", views.club_detail, name="club"),
    path("clubs/join/<str:token>/", limited("tokens")(views.club_join), name="club-join"),
    path("clubs/<int:club_id>/invites/", views.invite_create, name="invite-create"),
    path("clubs/<int:club_id>/invites/<int:invite_id>/revoke/", views.invite_revoke, name="invite-revoke"),
    path("clubs/<int:club_id>/members/", views.member_add, name="member-add"),
    path("clubs/<int:club_id>/members/<int:user_id>/role/", views.member_role, name="member-role"),
    path("clubs/<int:club_id>/members/<int:user_id>/remove/", views.member_remove, name="member-remove"),
]

urlpatterns = api_patterns + page_patterns
