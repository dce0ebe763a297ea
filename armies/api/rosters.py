"""Rosters and their entries: list, create, read (with live totals and issues), change, copy and delete; add,
change, duplicate and remove entries. Every write answers the whole roster state."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from armies import selectors, services
from armies.api.common import (
    AGAINST,
    IF_MATCH,
    ROSTER_ID,
    BaseAPIView,
    RosterStateSerializer,
    _expected_version,
    _opponent,
    _require_login,
    _service_call,
    _state_response,
    _valid,
)
from armies.models import Roster, RosterEntry
from armies.serializers import COLUMN_MAX, OptionsField, notes_field, points_limit_field


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
        points_limit = points_limit_field(required=False, default=None)
        club = serializers.IntegerField(required=False, allow_null=True, default=None)
        visibility = serializers.ChoiceField(choices=Roster.Visibility.choices, default=Roster.Visibility.PRIVATE)
        notes = notes_field(required=False, default="")

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
        points_limit = points_limit_field(required=False)
        club = serializers.IntegerField(required=False, allow_null=True)
        visibility = serializers.ChoiceField(choices=Roster.Visibility.choices, required=False)
        notes = notes_field(required=False)
        extra_packs = serializers.ListField(
            child=serializers.IntegerField(),
            required=False,
            max_length=20,
            help_text="Ids of the custom pack versions the roster draws on besides its main pack (the whole set).",
        )
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
        if "extra_packs" in data:  # pinned packs stay choosable; others must be readable (404 otherwise)
            choices = {p.pk: p for p in selectors.extra_pack_choices(request.user, roster)}
            data["extra_packs"] = [
                choices.get(i) or selectors.pack_get_for_user(request.user, i) for i in data["extra_packs"]
            ]
        _ignored, error = _service_call(
            services.roster_update_with_packs,
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
            raise PermissionDenied(_("Only the roster's owner may delete it."))
        _ignored, error = _service_call(
            services.roster_delete, roster=roster, expected_version=_expected_version(request)
        )
        return error or Response(status=status.HTTP_204_NO_CONTENT)


class EntryAddApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        profile = serializers.CharField(max_length=80, help_text="Slug of a unit in one of the roster's packs.")
        pack = serializers.IntegerField(
            required=False,
            default=None,
            help_text="Id of the roster's pack the unit is in; default: the main pack first.",
        )
        count = serializers.IntegerField(default=1, min_value=1, max_value=99)
        options = OptionsField(
            required=False, default=None, help_text="Laid over the unit's default options; checked against the system."
        )
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
        _ignored, error = _service_call(
            services.entry_add,
            roster=roster,
            profile=data["profile"],
            pack=data["pack"],
            count=data["count"],
            options=data["options"],
            expected_version=_expected_version(request),
        )
        return error or _state_response(request, roster, status_code=status.HTTP_201_CREATED)


class BuilderToolApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        inputs = serializers.JSONField(required=False, default=dict, help_text="Checked against the tool's schema.")
        version = serializers.IntegerField(required=False)

        class Meta:
            ref_name = "ArmiesBuilderToolInput"

    @extend_schema(
        operation_id="rosters_builder_tool",
        parameters=[ROSTER_ID, IF_MATCH],
        request=InputSerializer,
        responses={201: OpenApiTypes.OBJECT},
        summary="Run one of the system's builder tools (e.g. a random figure from the book's tables); answers what it "
        "made (lines, result, the new entries' keys) and the whole roster.",
    )
    def post(self, request, roster_id, key):
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        data = _valid(self.InputSerializer, request.data)
        made, error = _service_call(
            services.builder_tool_run,
            roster=roster,
            key=key,
            inputs=data["inputs"],
            expected_version=_expected_version(request),
        )
        if error:
            return error
        result, entries = made
        state = _state_response(request, roster, status_code=status.HTTP_201_CREATED)
        state.data = {"lines": result.lines, "result": result.result, "entries": [e.key for e in entries],
                      "roster": state.data}  # fmt: skip
        return state


def _entry(roster: Roster, key: str) -> RosterEntry:
    entry = (
        RosterEntry.objects.select_related("profile", "profile__faction", "roster")
        .filter(roster=roster, key=key)
        .first()
    )
    if entry is None:
        raise Http404(_("No such entry in this roster."))
    entry.roster = roster
    return entry


class EntryDetailApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        count = serializers.IntegerField(required=False, min_value=1, max_value=99)
        options = OptionsField(required=False, help_text="Replaces the entry's options as a whole.")
        position = serializers.IntegerField(required=False, min_value=0, max_value=COLUMN_MAX)
        version = serializers.IntegerField(required=False)

        class Meta:
            ref_name = "ArmiesEntryUpdateInput"

    @extend_schema(
        operation_id="rosters_entries_update",
        parameters=[ROSTER_ID, IF_MATCH],
        request=InputSerializer,
        responses=RosterStateSerializer,
        summary="Change count, options (as the system shapes them) or position of an entry.",
    )
    def patch(self, request, roster_id, key):
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        entry = _entry(roster, key)
        data = dict(_valid(self.InputSerializer, request.data))
        data.pop("version", None)
        _ignored, error = _service_call(
            services.entry_update, entry=entry, expected_version=_expected_version(request), **data
        )
        return error or _state_response(request, roster)

    @extend_schema(
        operation_id="rosters_entries_delete", parameters=[ROSTER_ID, IF_MATCH], responses=RosterStateSerializer
    )
    def delete(self, request, roster_id, key):
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        entry = _entry(roster, key)
        _ignored, error = _service_call(services.entry_remove, entry=entry, expected_version=_expected_version(request))
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
        _ignored, error = _service_call(
            services.entry_duplicate, entry=entry, expected_version=_expected_version(request)
        )
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
