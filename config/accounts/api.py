"""Account API for scripts: sign up, get a token, drop it, change the password."""

from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import AuthenticationFailed, Throttled, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from config.throttle import client_address, wait_message

from . import services
from .selectors import signup_wait

MAX_PASSWORD_CHARS = 256  # long enough for any passphrase; a megabyte of password is hashed by nobody (issue #18)


def _django_errors(exc: DjangoValidationError) -> ValidationError:
    if hasattr(exc, "message_dict"):
        return ValidationError(exc.message_dict)
    return ValidationError({"password": exc.messages})


class TokenOutput(serializers.Serializer):
    token = serializers.CharField()
    username = serializers.CharField()


class SignUpApi(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "SignUpInput"

        username = serializers.RegexField(r"^[\w.@+-]{1,150}$")
        password = serializers.CharField(write_only=True, max_length=MAX_PASSWORD_CHARS)
        email = serializers.EmailField(required=False, allow_blank=True)

    @extend_schema(request=InputSerializer, responses={201: TokenOutput})
    def post(self, request):
        if wait := signup_wait(request):
            raise Throttled(wait=wait, detail=wait_message(wait))
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = services.user_sign_up(**data.validated_data)
        except DjangoValidationError as exc:
            raise _django_errors(exc) from exc
        services.sign_up_record(address=client_address(request))
        return Response({"token": services.token_for(user=user), "username": user.username}, status=201)


class TokenApi(APIView):
    """POST username and password to get a token; DELETE to revoke it (log out)."""

    permission_classes = [permissions.AllowAny]

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TokenInput"

        username = serializers.CharField(max_length=150)
        password = serializers.CharField(write_only=True, max_length=MAX_PASSWORD_CHARS)

    @extend_schema(request=InputSerializer, responses={200: TokenOutput})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # The Django request, not DRF's wrapper: axes marks a locked-out attempt on it, and its middleware answers 429.
        user = authenticate(request._request, **data.validated_data)
        if user is None:
            raise AuthenticationFailed("Wrong username or password.")
        return Response({"token": services.token_for(user=user), "username": user.username})

    @extend_schema(request=None, responses={204: None})
    def delete(self, request):
        if not request.user.is_authenticated:
            raise AuthenticationFailed("Not logged in.")
        services.token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeApi(APIView):
    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "PasswordChangeInput"

        old_password = serializers.CharField(write_only=True, max_length=MAX_PASSWORD_CHARS)
        new_password = serializers.CharField(write_only=True, max_length=MAX_PASSWORD_CHARS)

    @extend_schema(request=InputSerializer, responses={200: TokenOutput})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            services.user_change_password(user=request.user, **data.validated_data)
        except DjangoValidationError as exc:
            raise _django_errors(exc) from exc
        return Response({"token": services.token_for(user=request.user), "username": request.user.username})


class MeOutput(serializers.Serializer):
    username = serializers.CharField()
    id = serializers.IntegerField()


class MeApi(APIView):
    @extend_schema(responses={200: MeOutput})
    def get(self, request):
        return Response({"username": request.user.username, "id": request.user.id})
