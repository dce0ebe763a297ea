"""The one place an error becomes an answer: every error of rules/errors.py (the services' and the rules'), with its
status, a readable `detail`, a language-neutral `code` and the bad `errors`; DRF's own errors keep the same shape."""

from django.http import JsonResponse
from django.utils.translation import gettext as _
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from rules.errors import ArmlistError


def error_response(exc: ArmlistError) -> Response:
    """One error of the rules/input hierarchy as its 4xx: a readable `detail`, a language-neutral `code`, and
    `errors` naming each bad field."""
    body = {**getattr(exc, "data", {}), "detail": exc.message, "code": exc.code}
    if exc.errors:
        body["errors"] = exc.errors
    retry = getattr(exc, "retry_after", None)  # a limit (config/ratelimit.py) says when to come back
    return Response(body, status=exc.status, headers={"Retry-After": str(retry)} if retry else None)


def exception_handler(exc, context):
    """The rules/input errors (rules.errors) as their 4xx; DRF's handler for the rest, plus a `detail` key on
    validation errors so every error has a readable message."""
    if isinstance(exc, ArmlistError):
        return error_response(exc)
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
