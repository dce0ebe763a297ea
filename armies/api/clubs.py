"""Clubs and their members: list, create, read and rename clubs; add members, change their roles, remove them."""

from __future__ import annotations

from django.db import transaction
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from armies import selectors, services
from armies.api.common import CLUB_ID, BaseAPIView, _require_login, _service_call, _valid
from armies.api.packs import PackOutputSerializer
from armies.api.rosters import RosterSummarySerializer
from armies.models import Club, Membership
from armies.serializers import notes_field


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
        description = notes_field(required=False, default="")

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
        description = notes_field(required=False)

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
            return Response({"detail": _("Give the club a name.")}, status=status.HTTP_400_BAD_REQUEST)
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
        club, _ignored = selectors.club_get_for_user(request.user, club_id)
        return Response(MemberSerializer(selectors.club_members(club), many=True).data)

    @extend_schema(
        operation_id="clubs_members_add",
        parameters=[CLUB_ID],
        request=InputSerializer,
        responses={201: MemberSerializer},
        summary="Add a user to the club (club owners only).",
    )
    def post(self, request, club_id):
        club, _ignored = selectors.club_get_for_user(request.user, club_id, owner_only=True)
        data = _valid(self.InputSerializer, request.data)
        membership, error = _service_call(services.member_add, club=club, username=data["username"], role=data["role"])
        return error or Response(MemberSerializer(membership).data, status=status.HTTP_201_CREATED)


class MemberDetailApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        role = serializers.ChoiceField(choices=Membership.Role.choices)

        class Meta:
            ref_name = "ArmiesMemberRoleInput"

    def _membership(self, request, club_id, user_id, *, owner_only=True):
        club, _ignored = selectors.club_get_for_user(request.user, club_id, owner_only=owner_only)
        membership = selectors.club_members(club).filter(user_id=user_id).first()
        if membership is None:
            raise Http404(_("No such member."))
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
            _ignored, error = _service_call(services.member_remove, membership=membership)
        return error or HttpResponse(status=status.HTTP_204_NO_CONTENT)
