"""REST API of the army builder under /api/v1/: packs and custom units, rosters and entries, export/import,
pack upgrades, share links, clubs and members. One APIView per operation; access through armies.selectors
(outsiders 404, read-only viewers 403 on writes); writes through armies.services.

Roster writes may carry the version they were based on (`If-Match: "<version>"` or a `version` field); a stale
one gets 412 with the current version and changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from armies import selectors, services
from armies.models import Club, Membership, Roster, RosterEntry, ShareLink

ROSTER_ID = OpenApiParameter("roster_id", OpenApiTypes.INT, OpenApiParameter.PATH)
PACK_ID = OpenApiParameter("pack_id", OpenApiTypes.INT, OpenApiParameter.PATH)
CLUB_ID = OpenApiParameter("club_id", OpenApiTypes.INT, OpenApiParameter.PATH)
AGAINST = OpenApiParameter(
    "against", OpenApiTypes.INT, description="Id of an opponent roster you may read: adds the 10–20 % balance advice."
)
IF_MATCH = OpenApiParameter(
    "If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, description='Roster version the write is based on, "7".'
)


# Shared pieces -----------------------------------------------------------------------------------------------
class IssueSerializer(serializers.Serializer):
    severity = serializers.ChoiceField(choices=["error", "warning", "info"])
    code = serializers.CharField()
    message = serializers.CharField()
    entry = serializers.CharField(allow_null=True)

    class Meta:
        ref_name = "ArmiesIssue"


class ProfileSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    faction = serializers.CharField()
    kind = serializers.CharField()
    cost = serializers.IntegerField()
    data = serializers.JSONField()
    notes = serializers.CharField(required=False)

    class Meta:
        ref_name = "ArmiesProfile"


class EntryStateSerializer(serializers.Serializer):
    key = serializers.CharField()
    count = serializers.IntegerField()
    loadout = serializers.JSONField()
    pilot = serializers.JSONField()
    position = serializers.IntegerField()
    cost = serializers.IntegerField()
    profile = ProfileSerializer()
    issues = IssueSerializer(many=True)

    class Meta:
        ref_name = "ArmiesEntryState"


class RosterStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    system = serializers.CharField()
    faction = serializers.CharField()
    points_limit = serializers.IntegerField(allow_null=True)
    visibility = serializers.CharField()
    notes = serializers.CharField()
    version = serializers.IntegerField()
    owner = serializers.CharField()
    club = serializers.JSONField(allow_null=True)
    pack = serializers.JSONField()
    newer_pack = serializers.JSONField(allow_null=True)
    can_write = serializers.BooleanField()
    total = serializers.IntegerField()
    opponent = serializers.JSONField(allow_null=True)
    counts = serializers.JSONField()
    issues = IssueSerializer(many=True)
    entries = EntryStateSerializer(many=True)

    class Meta:
        ref_name = "ArmiesRosterState"


def _error_response(exc: services.ServiceError) -> Response:
    """StaleVersion is 412 with the current version; any other ServiceError 400 with its message and fields."""
    if isinstance(exc, services.StaleVersion):
        return Response(
            {"detail": exc.message, "current_version": exc.current}, status=status.HTTP_412_PRECONDITION_FAILED
        )
    body = {"detail": exc.message}
    if exc.errors:
        body["errors"] = exc.errors
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def _service_call(fn, **kwargs):
    """Runs a service: (result, None), or (None, the error response) when it refuses the input."""
    try:
        return fn(**kwargs), None
    except services.ServiceError as exc:
        return None, _error_response(exc)


def _expected_version(request) -> int | None:
    header = request.headers.get("If-Match", "").strip()
    if header:
        value = header.removeprefix("W/").strip('"')
        if value.isdigit():
            return int(value)
        raise services.ServiceError('If-Match must be a roster version, e.g. "7".')
    value = request.data.get("version") if isinstance(request.data, dict) else None
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise services.ServiceError("version must be a whole number.", {"version": "whole number"})
    return value


def _require_login(request) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated("Log in to do this.")


def _opponent(request, roster: Roster) -> Roster | None:
    against = request.query_params.get("against")
    if not against:
        return None
    opponent = selectors.roster_get_for_user(request.user, against)
    return None if opponent.pk == roster.pk else opponent


def _state_response(request, roster: Roster, *, status_code=200, opponent=None) -> Response:
    roster.refresh_from_db(fields=["version", "pack", "name", "faction", "points_limit", "visibility", "notes"])
    state = selectors.roster_state(
        roster, can_write=selectors.roster_can_write(request.user, roster), opponent=opponent
    )
    response = Response(RosterStateSerializer(state).data, status=status_code)
    response["ETag"] = f'"{state["version"]}"'
    return response


class BaseAPIView(APIView):
    # Selectors decide access (anonymous users see nothing but official packs); writes call _require_login.
    permission_classes = [AllowAny]

    def handle_exception(self, exc):
        if isinstance(exc, services.ServiceError):
            return _error_response(exc)
        return super().handle_exception(exc)


# Packs and custom units -------------------------------------------------------------------------------------
class PackOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    system = serializers.CharField()
    slug = serializers.CharField()
    version = serializers.IntegerField()
    name = serializers.CharField()
    source = serializers.CharField()
    checksum = serializers.CharField()
    published = serializers.BooleanField()
    official = serializers.BooleanField(source="is_official")
    owner = serializers.CharField(source="owner.username", allow_null=True, default=None)
    club = serializers.IntegerField(source="club_id", allow_null=True)

    class Meta:
        ref_name = "ArmiesPack"


class PackListApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        system = serializers.CharField(default="bronepekhota")
        name = serializers.CharField(max_length=120)
        club = serializers.IntegerField(required=False, allow_null=True)
        source = serializers.CharField(required=False, allow_blank=True, default="")

        class Meta:
            ref_name = "ArmiesPackCreateInput"

    @extend_schema(
        operation_id="packs_list",
        parameters=[OpenApiParameter("system", OpenApiTypes.STR)],
        responses=PackOutputSerializer(many=True),
        summary="Data packs you may read (official, yours, your clubs').",
    )
    def get(self, request):
        packs = selectors.pack_visible_to(request.user).select_related("owner")
        if request.query_params.get("system"):
            packs = packs.filter(system=request.query_params["system"])
        return Response(PackOutputSerializer(packs.order_by("system", "slug", "-version"), many=True).data)

    @extend_schema(
        operation_id="packs_create",
        request=InputSerializer,
        responses={201: PackOutputSerializer},
        summary="Create a custom pack (a draft) owned by you or by a club you edit.",
    )
    def post(self, request):
        _require_login(request)
        data = _valid(self.InputSerializer, request.data)
        club = None
        if data.get("club"):
            club, _ = selectors.club_get_for_user(request.user, data["club"], write=True)
        pack, error = _service_call(
            services.pack_create,
            user=request.user,
            system=data["system"],
            name=data["name"],
            club=club,
            source=data["source"],
        )
        return error or Response(PackOutputSerializer(pack).data, status=status.HTTP_201_CREATED)


def _valid(serializer_class, data, **kwargs) -> dict:
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class PackDetailApi(BaseAPIView):
    class OutputSerializer(PackOutputSerializer):
        meta = serializers.JSONField()
        factions = serializers.JSONField()
        profiles = ProfileSerializer(many=True)
        can_write = serializers.BooleanField()
        newer_version = serializers.IntegerField(allow_null=True)

        class Meta:
            ref_name = "ArmiesPackDetail"

    @extend_schema(operation_id="packs_detail", parameters=[PACK_ID], responses=OutputSerializer)
    def get(self, request, pack_id):
        pack = selectors.pack_get_for_user(request.user, pack_id)
        newer = selectors.pack_newer_version(pack)
        body = PackOutputSerializer(pack).data
        body.update(
            meta=pack.meta,
            factions=list(selectors.pack_factions(pack).values("slug", "name", "colour", "joins_any")),
            profiles=[{**p.as_rules_dict(), "notes": p.notes} for p in selectors.pack_profiles(pack)],
            can_write=selectors.pack_can_write(request.user, pack),
            newer_version=newer.version if newer else None,
        )
        return Response(body)

    @extend_schema(operation_id="packs_delete", parameters=[PACK_ID], responses={204: None})
    def delete(self, request, pack_id):
        pack = selectors.pack_get_for_user(request.user, pack_id, write=True)
        _, error = _service_call(services.pack_delete_draft, pack=pack)
        return error or Response(status=status.HTTP_204_NO_CONTENT)


class PackPublishApi(BaseAPIView):
    @extend_schema(
        operation_id="packs_publish",
        parameters=[PACK_ID],
        request=None,
        responses=PackOutputSerializer,
        summary="Publish a draft version: it can no longer change and rosters may use it.",
    )
    def post(self, request, pack_id):
        pack = selectors.pack_get_for_user(request.user, pack_id, write=True)
        pack, error = _service_call(services.pack_publish, pack=pack)
        return error or Response(PackOutputSerializer(pack).data)


class ProfileInputSerializer(serializers.Serializer):
    slug = serializers.CharField(required=False, allow_blank=True, max_length=80)
    name = serializers.CharField(max_length=120)
    faction = serializers.CharField(max_length=40)
    kind = serializers.CharField(max_length=10)
    cost = serializers.IntegerField()
    data = serializers.JSONField()
    notes = serializers.CharField(required=False, allow_blank=True, default="")

    class Meta:
        ref_name = "ArmiesProfileInput"


class ProfileSavedSerializer(serializers.Serializer):
    pack = serializers.IntegerField(help_text="The draft version the unit was saved in (a published pack is copied).")
    version = serializers.IntegerField()
    profile = ProfileSerializer()

    class Meta:
        ref_name = "ArmiesProfileSaved"


def _saved(profile):
    return {
        "pack": profile.pack_id,
        "version": profile.pack.version,
        "profile": {**profile.as_rules_dict(), "notes": profile.notes},
    }


class ProfileListApi(BaseAPIView):
    @extend_schema(operation_id="packs_profiles_list", parameters=[PACK_ID], responses=ProfileSerializer(many=True))
    def get(self, request, pack_id):
        pack = selectors.pack_get_for_user(request.user, pack_id)
        profiles = [{**p.as_rules_dict(), "notes": p.notes} for p in selectors.pack_profiles(pack)]
        return Response(ProfileSerializer(profiles, many=True).data)

    @extend_schema(
        operation_id="packs_profiles_create",
        parameters=[PACK_ID],
        request=ProfileInputSerializer,
        responses={201: ProfileSavedSerializer},
        summary="Add a custom unit; checked against the system's profile schema. A published pack gets a new draft.",
    )
    def post(self, request, pack_id):
        pack = selectors.pack_get_for_user(request.user, pack_id, write=True)
        data = _valid(ProfileInputSerializer, request.data)
        profile, error = _service_call(services.profile_save, pack=pack, data=data)
        return error or Response(_saved(profile), status=status.HTTP_201_CREATED)


class ProfileDetailApi(BaseAPIView):
    @extend_schema(operation_id="packs_profiles_detail", parameters=[PACK_ID], responses=ProfileSerializer)
    def get(self, request, pack_id, slug):
        pack = selectors.pack_get_for_user(request.user, pack_id)
        profile = selectors.pack_profiles(pack).filter(slug=slug).first()
        if profile is None:
            raise Http404("No such unit in this pack.")
        return Response(ProfileSerializer({**profile.as_rules_dict(), "notes": profile.notes}).data)

    @extend_schema(
        operation_id="packs_profiles_update",
        parameters=[PACK_ID],
        request=ProfileInputSerializer,
        responses=ProfileSavedSerializer,
    )
    def put(self, request, pack_id, slug):
        pack = selectors.pack_get_for_user(request.user, pack_id, write=True)
        data = _valid(ProfileInputSerializer, request.data)
        profile, error = _service_call(services.profile_save, pack=pack, data=data, slug=slug)
        return error or Response(_saved(profile))

    @extend_schema(operation_id="packs_profiles_delete", parameters=[PACK_ID], responses={204: None})
    def delete(self, request, pack_id, slug):
        pack = selectors.pack_get_for_user(request.user, pack_id, write=True)
        _, error = _service_call(services.profile_delete, pack=pack, slug=slug)
        return error or Response(status=status.HTTP_204_NO_CONTENT)


# Rosters -----------------------------------------------------------------------------------------------------
class RosterSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    system = serializers.CharField()
    faction = serializers.CharField()
    points_limit = serializers.IntegerField(allow_null=True)
    visibility = serializers.CharField()
    version = serializers.IntegerField()
    owner = serializers.CharField(source="owner.username")
    club = serializers.IntegerField(source="club_id", allow_null=True)
    pack = serializers.IntegerField(source="pack_id")
    pack_version = serializers.IntegerField(source="pack.version")
    entry_count = serializers.IntegerField()
    updated_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ArmiesRosterSummary"


class RosterListApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        pack = serializers.IntegerField()
        name = serializers.CharField(max_length=120)
        faction = serializers.CharField(max_length=40)
        points_limit = serializers.IntegerField(required=False, allow_null=True, min_value=0, default=None)
        club = serializers.IntegerField(required=False, allow_null=True, default=None)
        visibility = serializers.ChoiceField(choices=Roster.Visibility.choices, default=Roster.Visibility.PRIVATE)
        notes = serializers.CharField(required=False, allow_blank=True, default="")

        class Meta:
            ref_name = "ArmiesRosterCreateInput"

    @extend_schema(operation_id="rosters_list", responses=RosterSummarySerializer(many=True))
    def get(self, request):
        return Response(RosterSummarySerializer(selectors.roster_list_for_user(request.user), many=True).data)

    @extend_schema(operation_id="rosters_create", request=InputSerializer, responses={201: RosterStateSerializer})
    def post(self, request):
        _require_login(request)
        data = _valid(self.InputSerializer, request.data)
        pack = selectors.pack_get_for_user(request.user, data["pack"])
        club = selectors.club_get_for_user(request.user, data["club"])[0] if data["club"] else None
        roster, error = _service_call(
            services.roster_create,
            owner=request.user,
            pack=pack,
            name=data["name"],
            faction=data["faction"],
            points_limit=data["points_limit"],
            club=club,
            visibility=data["visibility"],
            notes=data["notes"],
        )
        return error or _state_response(request, roster, status_code=status.HTTP_201_CREATED)


class RosterDetailApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120, required=False)
        faction = serializers.CharField(max_length=40, required=False)
        points_limit = serializers.IntegerField(required=False, allow_null=True, min_value=0)
        club = serializers.IntegerField(required=False, allow_null=True)
        visibility = serializers.ChoiceField(choices=Roster.Visibility.choices, required=False)
        notes = serializers.CharField(required=False, allow_blank=True)
        version = serializers.IntegerField(required=False)

        class Meta:
            ref_name = "ArmiesRosterUpdateInput"

    @extend_schema(operation_id="rosters_detail", parameters=[ROSTER_ID, AGAINST], responses=RosterStateSerializer)
    def get(self, request, roster_id):
        roster = selectors.roster_get_for_user(request.user, roster_id)
        return _state_response(request, roster, opponent=_opponent(request, roster))

    @extend_schema(
        operation_id="rosters_update",
        parameters=[ROSTER_ID, IF_MATCH],
        request=InputSerializer,
        responses=RosterStateSerializer,
    )
    def patch(self, request, roster_id):
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        data = dict(_valid(self.InputSerializer, request.data))
        data.pop("version", None)
        if "club" in data:
            data["club"] = selectors.club_get_for_user(request.user, data["club"])[0] if data["club"] else None
        _, error = _service_call(
            services.roster_update,
            roster=roster,
            user=request.user,
            expected_version=_expected_version(request),
            **data,
        )
        return error or _state_response(request, roster)

    @extend_schema(operation_id="rosters_delete", parameters=[ROSTER_ID, IF_MATCH], responses={204: None})
    def delete(self, request, roster_id):
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        if roster.owner_id != request.user.id:
            raise PermissionDenied("Only the roster's owner may delete it.")
        _, error = _service_call(services.roster_delete, roster=roster, expected_version=_expected_version(request))
        return error or Response(status=status.HTTP_204_NO_CONTENT)


class EntryAddApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        profile = serializers.CharField(max_length=80, help_text="Slug of a unit in the roster's pack version.")
        count = serializers.IntegerField(default=1)
        loadout = serializers.JSONField(required=False, default=None)
        pilot = serializers.JSONField(required=False, default=None)
        version = serializers.IntegerField(required=False)

        class Meta:
            ref_name = "ArmiesEntryAddInput"

    @extend_schema(
        operation_id="rosters_entries_create",
        parameters=[ROSTER_ID, IF_MATCH],
        request=InputSerializer,
        responses={201: RosterStateSerializer},
        summary="Add an entry; answers the whole roster with new totals and issues.",
    )
    def post(self, request, roster_id):
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        data = _valid(self.InputSerializer, request.data)
        _, error = _service_call(
            services.entry_add,
            roster=roster,
            profile=data["profile"],
            count=data["count"],
            loadout=data["loadout"],
            pilot=data["pilot"],
            expected_version=_expected_version(request),
        )
        return error or _state_response(request, roster, status_code=status.HTTP_201_CREATED)


def _entry(roster: Roster, key: str) -> RosterEntry:
    entry = RosterEntry.objects.select_related("profile", "roster").filter(roster=roster, key=key).first()
    if entry is None:
        raise Http404("No such entry in this roster.")
    entry.roster = roster
    return entry


class EntryDetailApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        count = serializers.IntegerField(required=False)
        loadout = serializers.JSONField(required=False)
        pilot = serializers.JSONField(required=False)
        position = serializers.IntegerField(required=False)
        version = serializers.IntegerField(required=False)

        class Meta:
            ref_name = "ArmiesEntryUpdateInput"

    @extend_schema(
        operation_id="rosters_entries_update",
        parameters=[ROSTER_ID, IF_MATCH],
        request=InputSerializer,
        responses=RosterStateSerializer,
        summary="Change count, loadout (weapons, variant), pilot or position of an entry.",
    )
    def patch(self, request, roster_id, key):
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        entry = _entry(roster, key)
        data = dict(_valid(self.InputSerializer, request.data))
        data.pop("version", None)
        _, error = _service_call(
            services.entry_update, entry=entry, expected_version=_expected_version(request), **data
        )
        return error or _state_response(request, roster)

    @extend_schema(
        operation_id="rosters_entries_delete", parameters=[ROSTER_ID, IF_MATCH], responses=RosterStateSerializer
    )
    def delete(self, request, roster_id, key):
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        entry = _entry(roster, key)
        _, error = _service_call(services.entry_remove, entry=entry, expected_version=_expected_version(request))
        return error or _state_response(request, roster)


class EntryDuplicateApi(BaseAPIView):
    @extend_schema(
        operation_id="rosters_entries_duplicate",
        parameters=[ROSTER_ID, IF_MATCH],
        request=None,
        responses={201: RosterStateSerializer},
    )
    def post(self, request, roster_id, key):
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        entry = _entry(roster, key)
        _, error = _service_call(services.entry_duplicate, entry=entry, expected_version=_expected_version(request))
        return error or _state_response(request, roster, status_code=status.HTTP_201_CREATED)


class RosterCopyApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120, required=False, allow_blank=True)

        class Meta:
            ref_name = "ArmiesRosterCopyInput"

    @extend_schema(
        operation_id="rosters_copy",
        parameters=[ROSTER_ID],
        request=InputSerializer,
        responses={201: RosterStateSerializer},
        summary="Copy a roster you may read into a private roster of your own.",
    )
    def post(self, request, roster_id):
        roster = selectors.roster_get_for_user(request.user, roster_id)
        data = _valid(self.InputSerializer, request.data)
        copy = services.roster_copy(roster=roster, user=request.user, name=data.get("name") or None)
        return _state_response(request, copy, status_code=status.HTTP_201_CREATED)


class ExportSerializer(serializers.Serializer):
    format = serializers.CharField()
    format_version = serializers.IntegerField()
    system = serializers.CharField()
    pack = serializers.JSONField()
    roster = serializers.JSONField()
    entries = serializers.JSONField()
    checksum = serializers.CharField()

    class Meta:
        ref_name = "ArmiesRosterExport"


class RosterExportApi(BaseAPIView):
    @extend_schema(
        operation_id="rosters_export",
        parameters=[ROSTER_ID],
        responses=ExportSerializer,
        summary="The roster as a versioned, checksummed JSON file (format armlist-roster, version 1).",
    )
    def get(self, request, roster_id):
        roster = selectors.roster_get_for_user(request.user, roster_id)
        return Response(services.roster_export(roster=roster))


class RosterImportApi(BaseAPIView):
    @extend_schema(
        operation_id="rosters_import",
        request=ExportSerializer,
        responses={201: RosterStateSerializer},
        summary="Create a roster from an export file; a malformed, foreign-version or altered file is refused.",
    )
    def post(self, request):
        _require_login(request)
        roster, error = _service_call(
            services.roster_import,
            user=request.user,
            data=request.data,
            visible_packs=selectors.pack_visible_to(request.user),
        )
        return error or _state_response(request, roster, status_code=status.HTTP_201_CREATED)


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
            raise Http404("No such pack version.")
        _, error = _service_call(
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
        raise PermissionDenied("Only the roster's owner manages its share links.")
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
            raise Http404("No such link.")
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
        raise PermissionDenied("Share links are read-only.")

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


# Clubs -------------------------------------------------------------------------------------------------------
class ClubSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    role = serializers.CharField()

    class Meta:
        ref_name = "ArmiesClub"


class MemberSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    role = serializers.CharField()

    class Meta:
        ref_name = "ArmiesMember"


def _club_data(club: Club, role: str) -> dict:
    return {"id": club.pk, "name": club.name, "description": club.description, "role": role}


class ClubListApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100)
        description = serializers.CharField(required=False, allow_blank=True, default="")

        class Meta:
            ref_name = "ArmiesClubCreateInput"

    @extend_schema(operation_id="clubs_list", responses=ClubSerializer(many=True))
    def get(self, request):
        if not request.user.is_authenticated:
            return Response([])
        memberships = Membership.objects.filter(user=request.user).select_related("club").order_by("club__name")
        return Response([_club_data(m.club, m.role) for m in memberships])

    @extend_schema(operation_id="clubs_create", request=InputSerializer, responses={201: ClubSerializer})
    def post(self, request):
        _require_login(request)
        data = _valid(self.InputSerializer, request.data)
        club, error = _service_call(
            services.club_create, user=request.user, name=data["name"], description=data["description"]
        )
        return error or Response(_club_data(club, Membership.Role.OWNER), status=status.HTTP_201_CREATED)


class ClubDetailApi(BaseAPIView):
    class OutputSerializer(ClubSerializer):
        members = MemberSerializer(many=True)
        rosters = RosterSummarySerializer(many=True)
        packs = PackOutputSerializer(many=True)

        class Meta:
            ref_name = "ArmiesClubDetail"

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100, required=False)
        description = serializers.CharField(required=False, allow_blank=True)

        class Meta:
            ref_name = "ArmiesClubUpdateInput"

    @extend_schema(operation_id="clubs_detail", parameters=[CLUB_ID], responses=OutputSerializer)
    def get(self, request, club_id):
        club, role = selectors.club_get_for_user(request.user, club_id)
        body = _club_data(club, role)
        body["members"] = MemberSerializer(selectors.club_members(club), many=True).data
        rosters = selectors.roster_list_for_user(request.user).filter(club=club, visibility__in=selectors.CLUB_VISIBLE)
        body["rosters"] = RosterSummarySerializer(rosters, many=True).data
        body["packs"] = PackOutputSerializer(club.data_packs.select_related("owner"), many=True).data
        return Response(body)

    @extend_schema(operation_id="clubs_update", parameters=[CLUB_ID], request=InputSerializer, responses=ClubSerializer)
    def patch(self, request, club_id):
        club, role = selectors.club_get_for_user(request.user, club_id, owner_only=True)
        data = _valid(self.InputSerializer, request.data)
        if "name" in data and not data["name"].strip():
            return Response({"detail": "Give the club a name."}, status=status.HTTP_400_BAD_REQUEST)
        for key, value in data.items():
            setattr(club, key, value)
        club.save()
        return Response(_club_data(club, role))


class MemberListApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        role = serializers.ChoiceField(choices=Membership.Role.choices, default=Membership.Role.MEMBER)

        class Meta:
            ref_name = "ArmiesMemberAddInput"

    @extend_schema(operation_id="clubs_members_list", parameters=[CLUB_ID], responses=MemberSerializer(many=True))
    def get(self, request, club_id):
        club, _ = selectors.club_get_for_user(request.user, club_id)
        return Response(MemberSerializer(selectors.club_members(club), many=True).data)

    @extend_schema(
        operation_id="clubs_members_add",
        parameters=[CLUB_ID],
        request=InputSerializer,
        responses={201: MemberSerializer},
        summary="Add a user to the club (club owners only).",
    )
    def post(self, request, club_id):
        club, _ = selectors.club_get_for_user(request.user, club_id, owner_only=True)
        data = _valid(self.InputSerializer, request.data)
        membership, error = _service_call(services.member_add, club=club, username=data["username"], role=data["role"])
        return error or Response(MemberSerializer(membership).data, status=status.HTTP_201_CREATED)


class MemberDetailApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        role = serializers.ChoiceField(choices=Membership.Role.choices)

        class Meta:
            ref_name = "ArmiesMemberRoleInput"

    def _membership(self, request, club_id, user_id, *, owner_only=True):
        club, _ = selectors.club_get_for_user(request.user, club_id, owner_only=owner_only)
        membership = selectors.club_members(club).filter(user_id=user_id).first()
        if membership is None:
            raise Http404("No such member.")
        return membership

    @extend_schema(
        operation_id="clubs_members_update", parameters=[CLUB_ID], request=InputSerializer, responses=MemberSerializer
    )
    def patch(self, request, club_id, user_id):
        membership = self._membership(request, club_id, user_id)
        data = _valid(self.InputSerializer, request.data)
        membership, error = _service_call(services.member_set_role, membership=membership, role=data["role"])
        return error or Response(MemberSerializer(membership).data)

    @extend_schema(
        operation_id="clubs_members_remove",
        parameters=[CLUB_ID],
        responses={204: None},
        summary="Remove a member (owners), or leave the club yourself.",
    )
    def delete(self, request, club_id, user_id):
        leaving = request.user.is_authenticated and str(request.user.pk) == str(user_id)
        membership = self._membership(request, club_id, user_id, owner_only=not leaving)
        with transaction.atomic():
            _, error = _service_call(services.member_remove, membership=membership)
        return error or HttpResponse(status=status.HTTP_204_NO_CONTENT)


# Roster text (chat) ------------------------------------------------------------------------------------------
class RosterTextApi(BaseAPIView):
    @extend_schema(
        operation_id="rosters_text",
        parameters=[ROSTER_ID],
        responses={(200, "text/plain"): OpenApiTypes.STR},
        summary="The roster as plain text for chat.",
    )
    def get(self, request, roster_id):
        from armies.exports import roster_text

        roster = selectors.roster_get_for_user(request.user, roster_id)
        return HttpResponse(roster_text(selectors.roster_state(roster)), content_type="text/plain; charset=utf-8")
