"""The OpenAPI schema's shared error answers (REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]).

Every operation may answer the errors of config/api.py, config/guard.py and config/parsers.py, whichever view it
is; they are documented here once, with the one error body they share ({"detail", "code", "errors", …}), instead
of on each view. A view that documents a code itself keeps its own.
"""

from __future__ import annotations

from drf_spectacular import openapi
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What went wrong, for a person, in the reader's language.")
    code = serializers.CharField(required=False, help_text="Language-neutral code, e.g. rule_input, stale.")
    errors = serializers.JSONField(required=False, help_text="{field path: message} of each bad field.")

    class Meta:
        ref_name = "Error"


ERROR_RESPONSES = {
    "400": "Bad input (a field, the JSON, the path, the query or a header); nothing changed.",
    "401": "Not logged in, or a bad token.",
    "403": "Logged in, but not allowed to do this.",
    "404": "No such thing, or not yours to see.",
    "405": "This method is not allowed here.",
    "409": "Not possible now (out of turn, the battle is over).",
    "412": "The write was based on an older version; nothing changed.",
    "413": "The request body is too large.",
    "415": "The body's content type is not supported (send JSON).",
    "422": "The idempotency key was used for another request.",
    "428": "The write must name the version it was based on (If-Match or `version`).",
    "429": "Too many requests: wait as long as Retry-After says.",
    "503": "Busy or a service is down: try again after Retry-After.",
}


class AutoSchema(openapi.AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code, description in ERROR_RESPONSES.items():
            if code not in responses:
                answer = OpenApiResponse(response=ErrorSerializer, description=description)
                responses[code] = self._get_response_for_code(answer, code, direction=direction)
        return responses
