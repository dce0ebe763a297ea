"""API-wide pieces: the JSON error format and the 503 raised when the job broker is down."""

from django.http import JsonResponse
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.views import exception_handler as drf_exception_handler


class BrokerUnavailable(APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = "The job queue is not reachable right now, so no job was created. Try again in a minute."
    default_code = "broker_unavailable"


def exception_handler(exc, context):
    """DRF's handler, plus a `detail` key on validation errors so every error has a readable message."""
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        response.data = {"detail": "The request has errors; see the fields.", "errors": response.data}
    elif response is not None and isinstance(response.data, list):
        response.data = {"detail": " ".join(str(x) for x in response.data), "errors": response.data}
    return response


def wants_json(request) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", "")


def json_error(status_code: int, detail: str) -> JsonResponse:
    return JsonResponse({"detail": detail}, status=status_code)
