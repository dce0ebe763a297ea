"""One error hierarchy for rule and input errors, used by the rules engine and by the generic apps.

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
