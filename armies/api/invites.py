"""Club invitation links: the owner lists, makes and revokes them; a signed-in user joins through one. Only the
club's owners see its links: an outsider gets 404 and a member 403, as for every club write."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from armies import selectors, services
from armies.api.common import CLUB_ID, BaseAPIView, _require_login, _service_call, _valid

INVITE_ID = OpenApiParameter("invite_id", OpenApiTypes.INT, OpenApiParameter.PATH)
TOKEN = OpenApiParameter("token", OpenApiTypes.STR, OpenApiParameter.PATH)


class InviteSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    role = serializers.CharField()
    state = serializers.CharField(help_text='"live", "expired" or "revoked".')
    url = serializers.CharField()
    expires_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)
    uses = serializers.IntegerField()

    class Meta:
        ref_name = "ArmiesClubInvite"


def _invite_data(request, invite) -> dict:
    return {
        "id": invite.pk,
        "role": invite.role,
        "state": services.invite_state(invite),
        "url": request.build_absolute_uri(f"/clubs/join/{invite.token}/"),
        "expires_at": invite.expires_at,
        "revoked_at": invite.revoked_at,
        "uses": invite.uses,
    }


class InviteListApi(BaseAPIView):
    class InputSerializer(serializers.Serializer):
        role = serializers.ChoiceField(choices=[r.value for r in services.INVITE_ROLES], default="member")
        days = serializers.ChoiceField(choices=list(services.INVITE_DAYS), default=7)

        class Meta:
            ref_name = "ArmiesClubInviteInput"

    @extend_schema(operation_id="clubs_invites_list", parameters=[CLUB_ID], responses=InviteSerializer(many=True))
    def get(self, request, club_id):
        club, _role = selectors.club_get_for_user(request.user, club_id, owner_only=True)
        return Response([_invite_data(request, i) for i in selectors.club_invites(club)[:200]])

    @extend_schema(
        operation_id="clubs_invites_create",
        parameters=[CLUB_ID],
        request=InputSerializer,
        responses={201: InviteSerializer},
    )
    def post(self, request, club_id):
        _require_login(request)
        club, _role = selectors.club_get_for_user(request.user, club_id, owner_only=True)
        data = _valid(self.InputSerializer, request.data)
        invite, error = _service_call(
            services.club_invite_create, club=club, user=request.user, role=data["role"], days=int(data["days"])
        )
        return error or Response(_invite_data(request, invite), status=status.HTTP_201_CREATED)


class InviteDetailApi(BaseAPIView):
    @extend_schema(operation_id="clubs_invites_revoke", parameters=[CLUB_ID, INVITE_ID], responses=InviteSerializer)
    def delete(self, request, club_id, invite_id):
        club, _role = selectors.club_get_for_user(request.user, club_id, owner_only=True)
        invite = selectors.club_invites(club).filter(pk=invite_id).first()
        if invite is None:
            raise Http404(_("No such invitation."))
        return Response(_invite_data(request, services.club_invite_revoke(invite=invite)))


class ClubJoinApi(BaseAPIView):
    @extend_schema(
        operation_id="clubs_join",
        parameters=[TOKEN],
        request=None,
        responses={201: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT, 404: None, 410: OpenApiTypes.OBJECT},
        summary="Join a club through an invitation link (201; 200 if already a member; 410 expired or revoked).",
    )
    def post(self, request, token):
        _require_login(request)
        invite = selectors.invite_for_token(token)
        membership, joined = services.club_join(invite=invite, user=request.user)  # InviteDead: 410 with its state
        body = {"club": invite.club_id, "name": invite.club.name, "role": membership.role, "joined": joined}
        return Response(body, status=status.HTTP_201_CREATED if joined else status.HTTP_200_OK)
