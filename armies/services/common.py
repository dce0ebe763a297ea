"""What every writer shares: the error a person can fix, stale versions, checksums and the roster version lock."""

from __future__ import annotations

import hashlib
import json
from contextlib import contextmanager

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from armies.models import Roster
from rules import errors
from rules.errors import RuleInputError


class ServiceError(errors.ArmlistError):
    """Bad input to a builder's write (400): `message` for people, `errors` per field where known. Of the one error
    hierarchy (rules/errors.py), so config/api.exception_handler answers it like every other."""

    def __init__(self, message: str, errors: dict | None = None, *, data: dict | None = None):
        super().__init__(message, errors=errors, data=data)
        self.message = message


class NotAllowed(ServiceError):
    """A write the user may not make on a roster they may otherwise change (403, not 400): an editor changing who
    sees it, for one."""

    status = 403
    code = "not_allowed"


class StaleVersion(errors.StaleVersion, ServiceError):
    """A roster write based on an older version (412, with the current version)."""

    def __init__(self, current: int):
        errors.StaleVersion.__init__(
            self,
            current,
            message=_(
                "This roster was changed elsewhere (now version {current}). Reload it and make your change again."
            ).format(current=current),
            errors={"version": _("current version is {current}").format(current=current)},
        )


@contextmanager
def rule_errors(message: str, *, worded: bool = False):
    """A RuleInputError of the rules engine (bad options, an unknown system) as a ServiceError with its fields.
    `worded`: each message names its field in words (a system that words its option errors), so the fields' paths
    ("options.stats.BS") are left out of the message a player reads."""
    try:
        yield
    except RuleInputError as exc:
        said = " ".join(dict.fromkeys(str(m) for m in exc.errors.values())) if worded and exc.errors else str(exc)
        raise ServiceError(f"{message} {said}".strip(), dict(exc.errors)) from None


def canonical_json(data) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def checksum_of(data) -> str:
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def lock_and_bump(roster: Roster, expected_version: int | None) -> Roster:
    """Locks the roster row, refuses a stale write, and bumps the version."""
    current = Roster.objects.select_for_update().only("version").get(pk=roster.pk).version
    if expected_version is not None and int(expected_version) != current:
        raise StaleVersion(current)
    Roster.objects.filter(pk=roster.pk).update(version=F("version") + 1, updated_at=timezone.now())
    roster.version = current + 1
    return roster
