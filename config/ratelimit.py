"""Limits on the open endpoints (issue #27): the odds and resolve API, and the token routes (club join, share links,
battle join and watch), per user and per address.

Each scope counts requests in fixed windows (RATE_LIMITS in settings: scope → {"user": (requests, seconds),
"address": (requests, seconds)}). A signed-in request counts against its user and its address; an anonymous one
against its address only. The address limit is the larger: a club's phones often share one address behind the club's
router. Past a limit the answer is 429 with Retry-After (the seconds until the window ends), as JSON on the API and
as a page elsewhere; the request does nothing.

The counts live in the "ratelimit" cache: Redis when REDIS_URL is set (one count for every process and machine), else
each server process's memory (`make run`: each of its gunicorn processes counts on its own, so the laptop's
effective limit is the number of processes times the setting). A cache that fails lets requests through: a limit is a
guard against abuse, not a reason to refuse a player.
"""

from __future__ import annotations

import functools
import logging
import math
import time

from django.conf import settings
from django.core.cache import caches
from django.shortcuts import render
from django.utils.translation import ngettext
from rest_framework.throttling import BaseThrottle

from config.throttle import client_address
from rules.errors import ArmlistError

log = logging.getLogger(__name__)


def wait_message(seconds: int) -> str:
    return ngettext(
        "Too many requests. Try again in {n} second.", "Too many requests. Try again in {n} seconds.", seconds
    ).format(n=seconds)


def _limits(scope: str) -> dict:
    if not getattr(settings, "RATE_LIMITS_ENABLED", True):
        return {}
    return (getattr(settings, "RATE_LIMITS", {}) or {}).get(scope, {})


def wait_seconds(request, scope: str) -> int:
    """Counts this request in `scope`; answers 0 when it may go on, else the seconds until it may."""
    limits = _limits(scope)
    if not limits:
        return 0
    user = getattr(request, "user", None)
    who = {"address": client_address(request) or "unknown"}
    if user is not None and user.is_authenticated:
        who["user"] = str(user.pk)
    now = time.time()
    wait = 0
    for kind, ident in who.items():
        if kind not in limits:
            continue
        allowed, seconds = limits[kind]
        window = int(now // seconds)
        key = f"rl:{scope}:{kind}:{ident}:{window}"
        try:
            cache = caches["ratelimit"]
            cache.add(key, 0, timeout=seconds + 1)
            count = cache.incr(key)
        except Exception:  # noqa: BLE001 (the cache is away: let the request through, say so in the log)
            log.warning("rate limit cache unavailable; %s not counted", scope, exc_info=True)
            continue
        if count > allowed:
            wait = max(wait, math.ceil((window + 1) * seconds - now))
    return wait


class RateLimited(ArmlistError):
    """Past a limit (429): `retry_after` seconds until the window ends; config/api.py answers it with Retry-After."""

    status = 429
    code = "throttled"

    def __init__(self, wait: int):
        self.retry_after = wait
        super().__init__(wait_message(wait))


class ScopedLimit(BaseThrottle):
    """The limit of `scope` on a DRF view: past it, RateLimited (429 with Retry-After, in the asker's language)."""

    scope = ""

    def allow_request(self, request, view):
        wait = wait_seconds(request, self.scope)
        if wait:
            raise RateLimited(wait)
        return True


class OddsLimit(ScopedLimit):
    scope = "odds"


class TokenLimit(ScopedLimit):
    scope = "tokens"


def limited(scope: str, *, template: str = "429.html"):
    """The limit of `scope` on a page view: past it, the page `template` with the wait, 429 and Retry-After."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            wait = wait_seconds(request, scope)
            if wait:
                response = render(request, template, {"throttle_message": wait_message(wait)}, status=429)
                response["Retry-After"] = str(wait)
                return response
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
