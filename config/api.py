"""API-wide pieces: the JSON error format and the 503 raised when the job broker is down."""

import math

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from rest_framework import status
from rest_framework.exceptions import APIException, Throttled
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from rules.errors import ArmlistError


class BrokerUnavailable(APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = _lazy("The job queue is not reachable right now, so no job was created. Try again in a minute.")
    default_code = "broker_unavailable"


def error_response(exc: ArmlistError) -> Response:
    """One error of the rules/input hierarchy as its 4xx: a readable `detail`, a language-neutral `code`, and
    `errors` naming each bad field."""
    body = {**getattr(exc, "data", {}), "detail": exc.message, "code": exc.code}
    if exc.errors:
        body["errors"] = exc.errors
    return Response(body, status=exc.status)


def exception_handler(exc, context):
    """The rules/input errors (rules.errors) as their 4xx; DRF's handler for the rest, plus a `detail` key on
    validation errors so every error has a readable message."""
    if isinstance(exc, ArmlistError):
        return error_response(exc)
    if isinstance(exc, Throttled):  # config/ratelimit.py: the wait in the asker's language, as on the pages
        from config.ratelimit import wait_message

        wait = max(1, math.ceil(exc.wait or 1))
        return Response(
            {"detail": wait_message(wait), "code": "throttled"}, status=429, headers={"Retry-After": str(wait)}
        )
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        response.data = {"detail": _("The request has errors; see the fields."), "errors": response.data}
    elif response is not None and isinstance(response.data, list):
        response.data = {"detail": " ".join(str(x) for x in response.data), "errors": response.data}
    return response


def wants_json(request) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


def json_error(status_code: int, detail: str) -> JsonResponse:
    return JsonResponse({"detail": detail}, status=status_code)
