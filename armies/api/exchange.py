"""Rosters leaving and entering: export and import files, pack upgrades, share links and shared rosters."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from armies import selectors, services
from armies.api.common import (
    IF_MATCH,
    ROSTER_ID,
    BaseAPIView,
    RosterStateSerializer,
    _expected_version,
    _require_login,
    _service_call,
    _state_response,
    _valid,
)
from armies.models import Roster, ShareLink


class ExportSerializer(serializers.Serializer):
    format = serializers.CharField()
    format_version = serializers.IntegerField()
    system = serializers.CharField()
    pack = serializers.JSONField()
    roster = serializers.JSONField()
    entries = serializers.JSONField()
    checksum = serializers.CharField(help_text="sha256 of the rest: integrity only, anyone can recompute it.")
    signature = serializers.CharField(
        required=False, help_text="This site's HMAC of the checksum: the file is Armlist's own (absent: unverified)."
    )

    class Meta:
        ref_name = "ArmiesRosterExport"


class RosterExportApi(BaseAPIView):
    @extend_schema(
        operation_id="rosters_export",
        parameters=[ROSTER_ID],
        responses=ExportSerializer,
        summary="The roster as a versioned, checksummed JSON file (format armlist-roster, version 2).",
    )
    def get(self, request, roster_id):
        roster = selectors.roster_get_for_user(request.user, roster_id)
        return Response(services.roster_export(roster=roster))


class ImportedSerializer(RosterStateSerializer):
    verified = serializers.BooleanField(help_text="The file carries this site's signature: Armlist's own, unedited.")
    notice = serializers.CharField(help_text="What the import means for the reader (an unverified file says so).")

    class Meta:
        ref_name = "ArmiesRosterImported"


class RosterImportApi(BaseAPIView):
    @extend_schema(
        operation_id="rosters_import",
        request=ExportSerializer,
        responses={201: ImportedSerializer},
        summary="Create a roster from an export file; a malformed, unknown or damaged file is refused, one without "
        "this site's signature is imported as unverified.",
    )
    def post(self, request):
        _require_login(request)
        roster, error = _service_call(
            services.roster_import,
            user=request.user,
            data=request.data,
            visible_packs=selectors.pack_visible_to(request.user),
        )
        if error:
            return error
        response = _state_response(request, roster, status_code=status.HTTP_201_CREATED)
        verified = services.export_verified(request.data)
        response.data = {**response.data, "verified": verified, "notice": services.import_notice(verified)}
        return response


class UpgradePlanSerializer(serializers.Serializer):
    current = serializers.JSONField()
    target = serializers.JSONField(allow_null=True)
    total_before = serializers.IntegerField(required=False)
    total_after = serializers.IntegerField(required=False)
    changes = serializers.JSONField(required=False)
    removed_entries = serializers.JSONField(required=False)
    errors_after = serializers.JSONField(required=False)

    class Meta:
        ref_name = "ArmiesUpgradePlan"


def upgrade_preview(roster: Roster) -> dict:
    target = selectors.pack_newer_version(roster.pack)
    body = {"current": {"id": roster.pack_id, "version": roster.pack.version}, "target": None}
    if target is None:
        return body
    plan = services.roster_upgrade_plan(roster=roster, target=target)
    plan.pop("new_entries")
    body.update(plan, current=plan.pop("from"), target=plan.pop("to"))
    return body


class RosterUpgradeApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        pack = serializers.IntegerField(help_text="Id of the newer pack version (from the preview).")
        version = serializers.IntegerField(required=False)

        class Meta:
            ref_name = "ArmiesRosterUpgradeInput"

    @extend_schema(
        operation_id="rosters_upgrade_preview",
        parameters=[ROSTER_ID],
        responses=UpgradePlanSerializer,
        summary="What upgrading to the newest pack version would change (costs, removed options and units).",
    )
    def get(self, request, roster_id):
        roster = selectors.roster_get_for_user(request.user, roster_id)
        return Response(UpgradePlanSerializer(upgrade_preview(roster)).data)

    @extend_schema(
        operation_id="rosters_upgrade_apply",
        parameters=[ROSTER_ID, IF_MATCH],
        request=InputSerializer,
        responses=RosterStateSerializer,
    )
    def post(self, request, roster_id):
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        data = _valid(self.InputSerializer, request.data)
        target = selectors.pack_visible_to(request.user).filter(pk=data["pack"]).first()
        if target is None:
            raise Http404(_("No such pack version."))
        _ignored, error = _service_call(
            services.roster_upgrade, roster=roster, target=target, expected_version=_expected_version(request)
        )
        return error or _state_response(request, roster)


# Share links -------------------------------------------------------------------------------------------------
class LinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    token = serializers.CharField()
    url = serializers.CharField()
    created_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "ArmiesShareLink"


def _link_data(request, link: ShareLink) -> dict:
    return {
        "id": link.pk,
        "token": link.token,
        "url": request.build_absolute_uri(f"/s/{link.token}/"),
        "created_at": link.created_at,
        "revoked_at": link.revoked_at,
    }


def _owned_roster(request, roster_id) -> Roster:
    roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
    if roster.owner_id != request.user.id:
        raise PermissionDenied(_("Only the roster's owner manages its share links."))
    return roster


class LinkListApi(BaseAPIView):
    @extend_schema(operation_id="rosters_links_list", parameters=[ROSTER_ID], responses=LinkSerializer(many=True))
    def get(self, request, roster_id):
        roster = _owned_roster(request, roster_id)
        return Response([_link_data(request, link) for link in selectors.roster_share_links(roster)])

    @extend_schema(
        operation_id="rosters_links_create",
        parameters=[ROSTER_ID],
        request=None,
        responses={201: LinkSerializer},
        summary="A read-only link with an unguessable token; the roster becomes link-visible.",
    )
    def post(self, request, roster_id):
        roster = _owned_roster(request, roster_id)
        link, error = _service_call(services.share_link_create, roster=roster, user=request.user)
        return error or Response(_link_data(request, link), status=status.HTTP_201_CREATED)


class LinkRevokeApi(BaseAPIView):
    @extend_schema(operation_id="rosters_links_revoke", parameters=[ROSTER_ID], responses=LinkSerializer)
    def delete(self, request, roster_id, link_id):
        roster = _owned_roster(request, roster_id)
        link = selectors.roster_share_links(roster).filter(pk=link_id).first()
        if link is None:
            raise Http404(_("No such link."))
        return Response(_link_data(request, services.share_link_revoke(link=link)))


class SharedRosterApi(BaseAPIView):
    """Read-only access by share token; every write method answers 403."""

    @extend_schema(operation_id="shared_roster", responses=RosterStateSerializer, summary="A roster shared by link.")
    def get(self, request, token):
        roster = selectors.roster_for_token(token)
        state = selectors.roster_state(roster, can_write=False)
        return Response(RosterStateSerializer(state).data)

    def _read_only(self, request, token):
        selectors.roster_for_token(token)
        raise PermissionDenied(_("Share links are read-only."))

    @extend_schema(exclude=True)
    def post(self, request, token):
        return self._read_only(request, token)

    @extend_schema(exclude=True)
    def patch(self, request, token):
        return self._read_only(request, token)

    @extend_schema(exclude=True)
    def put(self, request, token):
        return self._read_only(request, token)

    @extend_schema(exclude=True)
    def delete(self, request, token):
        return self._read_only(request, token)


class SharedExportApi(BaseAPIView):
    @extend_schema(operation_id="shared_roster_export", responses=ExportSerializer)
    def get(self, request, token):
        return Response(services.roster_export(roster=selectors.roster_for_token(token)))
