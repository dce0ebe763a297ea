"""One error hierarchy: every error a person caused or can wait out, raised by the rules engine and by the
generic apps' services alike, and mapped to its HTTP answer in one place (config/api.exception_handler).

Pure Python. The API's exception handler (config/api.py) turns each into a 4xx whose body names the field:
{"detail": "...", "code": "...", "errors": {"field.path": "message"}}.
"""

from __future__ import annotations

from rules.i18n import _


class ArmlistError(Exception):
    """Base of every error a person caused and can fix. `status` is the HTTP answer; `code` is language-neutral."""

    status = 400
    code = "invalid"

    def __init__(self, message: str = "", *, errors: dict[str, str] | None = None, data: dict | None = None):
        self.errors = dict(errors or {})
        # What a program reads beside the words (the dice a test needs, a rule's limit): extra keys of the body.
        self.data = dict(data or {})
        self.message = message or next(iter(self.errors.values()), _("The request has errors."))
        super().__init__(self.message)


class RuleInputError(ArmlistError, ValueError):
    """Inputs that break a rule or a schema (400). `errors` maps a field path (dots) to a readable message."""

    code = "rule_input"

    def __init__(self, errors: dict[str, str] | str, *, data: dict | None = None):
        if isinstance(errors, str):
            errors = {"non_field_errors": errors}
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()), errors=errors, data=data)
        self.message = next(iter(self.errors.values()), _("The request has errors."))

    def __str__(self) -> str:
        return "; ".join(f"{k}: {v}" for k, v in self.errors.items())


class GameConflict(ArmlistError):
    """A command that does not fit the game's state now (409): out of turn, waiting for the other side, over."""

    status = 409
    code = "conflict"


class NotYours(ArmlistError):
    """An act on something that belongs to another player (403): their unit, their question, their orders."""

    status = 403
    code = "not_yours"


class NotFound(ArmlistError):
    """Nothing by that name here, or not yours to see (404)."""

    status = 404
    code = "not_found"


class StaleVersion(ArmlistError):
    """A write based on an older version of what it changes (412): carries the current version, and nothing was
    changed."""

    status = 412
    code = "stale_version"

    def __init__(self, current: int, given: int | None = None, *, message: str = "", errors=None):
        self.current = current
        self.given = given
        text = message or _("It is at version {current}; this change was based on version {given}.").format(
            current=current, given=given
        )
        super().__init__(text, errors=errors, data={"current_version": current})


class PreconditionRequired(ArmlistError):
    """A write that does not say which version it was based on (428)."""

    status = 428
    code = "version_required"


class IdempotencyKeyReused(ArmlistError):
    """The same idempotency key sent with a different request (422)."""

    status = 422
    code = "idempotency_key_reused"


class TooLarge(ArmlistError):
    """A request body past what the server reads (413)."""

    status = 413
    code = "too_large"


class Unavailable(ArmlistError):
    """A service the request needs is down for a moment (503); nothing was changed."""

    status = 503
    code = "unavailable"
