"""What the API reads outside the body, checked before any view (issue #18): the path, the query and the headers.

A NUL or other control character in a path segment or a query parameter ("/entries/%00../", "?system=a%00b") would
reach a database lookup, which PostgreSQL answers with an error; a header the API reads (If-Match, If-None-Match,
Idempotency-Key, Accept-Language) must be short printable ASCII of its own grammar. Each is 400 with a readable
`detail`, a `code` and the `errors` naming the part. Pages are left alone: they have their own error pages.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponseBadRequest, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError

from config.parsers import parse_json
from config.validation import InputRejected, text_problem

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# RFC 9110 §13.1.1: "*" or a list of entity tags ("v12", W/"7"); the API also takes a bare version (7, v12).
_ETAG_LIST = re.compile(
    r'^\s*(\*|(W/)?"[\x21\x23-\x7e]*"|[\x21\x23-\x2b\x2d-\x7e]+)(\s*,\s*((W/)?"[\x21\x23-\x7e]*"))*\s*$'
)
_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,100}$")  # visible ASCII, as a UUID or any client token
# RFC 9110 §12.5.4: language ranges with optional weights ("ru-RU,ru;q=0.9,en;q=0.8", "*"); "_" as some send it.
_ACCEPT_LANGUAGE = re.compile(
    r"^\s*([A-Za-z]{1,8}([-_][A-Za-z0-9]{1,8})*|\*)(\s*;\s*q\s*=\s*[01](\.\d{0,3})?)?"
    r"(\s*,\s*([A-Za-z]{1,8}([-_][A-Za-z0-9]{1,8})*|\*)(\s*;\s*q\s*=\s*[01](\.\d{0,3})?)?)*\s*,?\s*$"
)
MAX_HEADER_CHARS = 200
MAX_ACCEPT_LANGUAGE_CHARS = 500
HEADERS = {
    "If-Match": _ETAG_LIST,
    "If-None-Match": _ETAG_LIST,
    "Idempotency-Key": _IDEMPOTENCY_KEY,
    "Accept-Language": _ACCEPT_LANGUAGE,
}


def _bad(code: str, part: str, detail: str) -> JsonResponse:
    body = {"detail": detail, "code": code, "errors": {part: detail}}
    return JsonResponse(body, status=400, json_dumps_params={"ensure_ascii": False})


def _text_refusal(value: str) -> str | None:
    return text_problem(value) or (_("contains a control character.") if _CONTROL.search(value) else None)


def header_problem(name: str, value: str) -> str | None:
    """Why a header the API reads is junk (None: it is well formed or absent)."""
    if value == "" and name != "Idempotency-Key":
        return None
    limit = MAX_ACCEPT_LANGUAGE_CHARS if name == "Accept-Language" else MAX_HEADER_CHARS
    if len(value) > limit:
        return _("{name} may be at most {limit} characters.").format(name=name, limit=limit)
    if not HEADERS[name].match(value):
        if name == "Idempotency-Key":
            return _("Idempotency-Key must be 1 to 100 visible ASCII characters, e.g. a UUID.")
        if name == "Accept-Language":
            return _('Accept-Language must be a list of languages, e.g. "ru, en;q=0.8".')
        return _('{name} must be an entity tag, e.g. "v12" or "7".').format(name=name)
    return None


def request_problem(request) -> JsonResponse | None:
    """The 400 answer for a request whose path, query or headers the API cannot read; None when they are fine."""
    problem = _text_refusal(request.path)
    if problem:
        return _bad("bad_path", "path", _("The address: {problem}").format(problem=problem))
    for key, values in request.GET.lists():
        for value in [key, *values]:
            problem = _text_refusal(value)
            if problem:
                name = key if not _text_refusal(key) else "?"
                return _bad(
                    "bad_query", name, _("The query parameter {name!r}: {problem}").format(name=name, problem=problem)
                )
    for name in HEADERS:
        value = request.headers.get(name)
        if value is not None:
            problem = header_problem(name, value)
            if problem:
                return _bad("bad_header", name, problem)
    return None


def body_problem(request) -> JsonResponse | None:
    """A JSON body is read and checked here, whether or not the view reads it, so a view that ignores its body
    cannot be reached with one the site refuses. The parsed value is kept for config.parsers.JSONParser."""
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return None
    if not (request.content_type == "application/json" or request.content_type.endswith("+json")):
        return None
    try:
        raw = request.body
    except RequestDataTooBig:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        detail = _("The request body is larger than {limit} bytes.").format(limit=limit)
        return JsonResponse({"detail": detail, "code": "too_large"}, status=413)
    if raw:
        try:
            request.armlist_json = parse_json(raw, encoding=request.encoding or "utf-8")
        except ParseError as exc:
            return _bad("parse_error", "body", str(exc.detail))
    return None


class ApiInputMiddleware(MiddlewareMixin):  # the mixin makes it async-capable too (config/asgi.py)
    """Answers 400 for an /api/ request whose path, query, headers or JSON body are junk (after LocaleMiddleware,
    so the answer is in the reader's language when Accept-Language can be read). A row a view would store past
    its columns' bounds (config.validation.InputRejected) is 400 on pages too."""

    def process_request(self, request):
        if request.path.startswith("/api/"):
            return request_problem(request) or body_problem(request)
        return None

    def process_exception(self, request, exception):
        if not isinstance(exception, InputRejected):
            return None
        if request.path.startswith("/api/"):
            return JsonResponse(
                {"detail": exception.message, "code": exception.code, "errors": exception.errors}, status=400
            )
        response = HttpResponseBadRequest(_("Not saved: {problem}").format(problem=exception.message))
        response["Content-Type"] = "text/plain; charset=utf-8"
        return response
