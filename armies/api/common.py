"""Pieces every view of the army builder's API shares: path parameters, the roster state serializer, the error
answers (a stale version is 412 with the current version), the If-Match version and the base view."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from armies import selectors, services
from armies.models import Roster
from config.api import error_response

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
    options = serializers.JSONField(help_text="What the player chose for this entry, shaped by the system.")
    position = serializers.IntegerField()
    cost = serializers.IntegerField()
    profile = ProfileSerializer()
    pack = serializers.JSONField(allow_null=True, help_text="The roster's pack the unit comes from.")
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
    packs = serializers.JSONField(help_text="Every pack the roster draws on (main first), each pinned to a version.")
    can_write = serializers.BooleanField()
    currency = serializers.CharField(help_text='The unit of cost as a person reads it ("pts"); empty: no price.')
    total = serializers.IntegerField()
    opponent = serializers.JSONField(allow_null=True)
    counts = serializers.JSONField()
    issues = IssueSerializer(many=True)
    entries = EntryStateSerializer(many=True)

    class Meta:
        ref_name = "ArmiesRosterState"


def _error_response(exc: services.ServiceError) -> Response:
    """The answer of a service's refusal, as every error of the one hierarchy is answered (config/api.py): a
    StaleVersion is 412 with the current version, NotAllowed 403, any other ServiceError 400 with its fields."""
    return error_response(exc)


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
        raise services.ServiceError(_("version must be a whole number."), {"version": _("whole number")})
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
    # Selectors decide access (anonymous users see nothing but official packs); writes call _require_login. A
    # service's refusal is answered by config/api.exception_handler, as every error of rules/errors.py.
    permission_classes = [AllowAny]


def _valid(serializer_class, data, **kwargs) -> dict:
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
