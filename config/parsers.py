"""The API's body parsers (REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]): DRF's, plus the bounds of config/validation.

A body larger than DATA_UPLOAD_MAX_MEMORY_SIZE is 413; JSON nested deeper than MAX_JSON_DEPTH, or holding a NUL,
a lone surrogate, a number past ±2⁵³, NaN or infinity, is 400 before any view sees it. The depth is measured on
the text before parsing, so a few thousand levels never reach the (recursive) JSON decoder (issue #18).
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from config.validation import MAX_JSON_DEPTH, json_problem, text_problem
from rules.errors import TooLarge

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class RequestTooLarge(TooLarge):
    """A body past DATA_UPLOAD_MAX_MEMORY_SIZE (413), answered by config/api.exception_handler."""


def _body_limit() -> int:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440


def _read_bounded(stream) -> bytes:
    if stream is None:
        return b""
    limit = _body_limit()
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise RequestTooLarge(_("The request body is larger than {limit} bytes.").format(limit=limit))
    return raw


def nesting_exceeds(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether JSON text nests deeper than `limit` (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for ch in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        depth += 1 if ch in "[{" else -1
        if depth > limit:
            return True
    return False


def _refuse_constant(name):
    raise ValueError(_("{name} is not a JSON number.").format(name=name))


def parse_json(raw: bytes, *, encoding: str = "utf-8"):
    """Parsed JSON within the site's bounds; ParseError (400) naming what is wrong otherwise."""
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise ParseError(_("The body is not valid {encoding} text.").format(encoding=encoding)) from exc
    if nesting_exceeds(text):
        raise ParseError(_("The JSON is nested deeper than {limit} levels.").format(limit=MAX_JSON_DEPTH))
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError as exc:
        raise ParseError(_("The JSON is nested too deeply.")) from exc
    except ValueError as exc:
        raise ParseError(_("JSON parse error: {error}").format(error=exc)) from exc
    found = json_problem(data)
    if found is not None:
        path, problem = found
        raise ParseError(_("The JSON at {path!r}: {problem}").format(path=path or "/", problem=problem))
    return data


def _check_form(data, files=None) -> None:
    for key, values in data.lists():
        for text in [key, *values]:
            if isinstance(text, str) and text_problem(text):
                raise ParseError(_("The field {key!r}: {problem}").format(key=key[:40], problem=text_problem(text)))
    for key, upload in (files or {}).items():
        if text_problem(key) or text_problem(getattr(upload, "name", "") or ""):
            raise ParseError(_("A file's field or name contains a character that is not allowed."))


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        request = getattr((parser_context or {}).get("request"), "_request", None)
        if hasattr(request, "armlist_json"):  # read and checked already (config.guard.body_problem)
            return request.armlist_json
        encoding = parsers.get_encoding(parser_context or {})
        return parse_json(_read_bounded(stream), encoding=encoding)


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(_BoundedStream(stream), media_type, parser_context)
        _check_form(data)
        return data


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        result = super().parse(stream, media_type, parser_context)
        _check_form(result.data, result.files)
        return result


class _BoundedStream:
    """A stream whose read() refuses more than the body limit (413)."""

    def __init__(self, stream):
        self.stream = stream

    def read(self, *args):
        return _read_bounded(self.stream)
