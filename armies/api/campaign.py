"""A campaign roster's history of scenarios: read it (anyone who may read the roster), and carry a finished battle
into it (the roster's owner only: read-only viewers and club editors get 403, outsiders 404)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from armies import campaign, selectors, services
from armies.api.common import (
    IF_MATCH,
    ROSTER_ID,
    BaseAPIView,
    _error_response,
    _expected_version,
    _require_login,
    _valid,
)
from armies.services.campaign import scenario_carry


class ScenarioSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    battle = serializers.IntegerField(allow_null=True)
    battle_name = serializers.CharField()
    side = serializers.IntegerField()
    played_at = serializers.DateTimeField()
    carried_at = serializers.DateTimeField()
    carried_by = serializers.CharField(allow_null=True)
    agents = serializers.JSONField(help_text="Per entry and unit: injuries, days out, stats lost, the tests.")
    repairs = serializers.JSONField(help_text="Broken armour: who tried to repair it, and whether it worked.")
    lines = serializers.ListField(child=serializers.CharField(), help_text="What happened, as readable lines.")
    dice = serializers.JSONField(help_text="Every die rolled, in order, with its purpose.")

    class Meta:
        ref_name = "ArmiesScenario"


class ScenarioListApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        battle = serializers.IntegerField(help_text="A finished battle in which you played this roster.")
        dice = serializers.ListField(
            child=serializers.IntegerField(), required=False, allow_null=True, default=None, max_length=200,
            help_text="Dice rolled at the table, in order; without them the server rolls.",
        )  # fmt: skip
        version = serializers.IntegerField(required=False)

        class Meta:
            ref_name = "ArmiesScenarioCarryInput"

    @extend_schema(
        operation_id="rosters_scenarios_list", parameters=[ROSTER_ID], responses=ScenarioSerializer(many=True)
    )
    def get(self, request, roster_id):
        roster = selectors.roster_get_for_user(request.user, roster_id)
        return Response(ScenarioSerializer(campaign.roster_history(roster), many=True).data)

    @extend_schema(
        operation_id="rosters_scenarios_carry",
        parameters=[ROSTER_ID, IF_MATCH],
        request=InputSerializer,
        responses={201: ScenarioSerializer},
        summary="Carry a finished battle into the crew: the after-scenario rolls are made and saved in its history.",
    )
    def post(self, request, roster_id):
        _require_login(request)
        roster = selectors.roster_get_for_user(request.user, roster_id, write=True)
        if roster.owner_id != request.user.pk:
            raise PermissionDenied(_("Only the roster's owner may carry a scenario into it."))
        data = _valid(self.InputSerializer, request.data)
        battle = campaign.battle_for_carry(request.user, roster, data["battle"])
        try:
            record = scenario_carry(
                roster=roster,
                user=request.user,
                battle=battle,
                dice=data["dice"],
                expected_version=_expected_version(request),
            )
        except services.ServiceError as exc:  # ScenarioConflict is 409, any other 400 (config/api.py)
            return _error_response(exc)
        roster.refresh_from_db(fields=["version"])
        response = Response(ScenarioSerializer(campaign.scenario_dict(record)).data, status=status.HTTP_201_CREATED)
        response["ETag"] = f'"{roster.version}"'
        return response
