"""Data packs and custom units: list, create, read, publish and delete packs; add, change and remove units."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from armies import selectors, services, systems
from armies.api.common import PACK_ID, BaseAPIView, ProfileSerializer, _require_login, _service_call, _valid
from armies.serializers import COLUMN_MAX, notes_field, profile_size_errors


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
        system = serializers.CharField(required=False, help_text="Game system slug (default: the first one).")
        name = serializers.CharField(max_length=120)
        club = serializers.IntegerField(required=False, allow_null=True)
        source = notes_field(required=False, default="")

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
            club, _ignored = selectors.club_get_for_user(request.user, data["club"], write=True)
        pack, error = _service_call(
            services.pack_create,
            user=request.user,
            system=data.get("system") or next(iter(systems.army_systems()), ("", ""))[0],
            name=data["name"],
            club=club,
            source=data["source"],
        )
        return error or Response(PackOutputSerializer(pack).data, status=status.HTTP_201_CREATED)


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
        _ignored, error = _service_call(services.pack_delete_draft, pack=pack)
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
    cost = serializers.IntegerField(min_value=0, max_value=COLUMN_MAX)
    data = serializers.JSONField()
    notes = notes_field(required=False, default="")

    class Meta:
        ref_name = "ArmiesProfileInput"

    def validate_data(self, value):
        # Measured before the system's schema, which takes seconds on a unit of thousands of soldiers.
        errors = profile_size_errors(value)
        if errors:
            raise serializers.ValidationError(next(iter(errors.values())))
        return value


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
            raise Http404(_("No such unit in this pack."))
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
        _ignored, error = _service_call(services.profile_delete, pack=pack, slug=slug)
        return error or Response(status=status.HTTP_204_NO_CONTENT)
