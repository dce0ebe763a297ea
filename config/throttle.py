"""Guessing is throttled (issue #18): failed logins per account and address, and sign-ups per address.

Failed logins go through django-axes, whose records live in the database (so every gunicorn worker counts the same
attempts, and a test's rollback forgets them). Two counts, each with its own limit:
- one account from one address (LOGIN_FAILURE_LIMIT, 5): someone guessing a password;
- one address, whatever the accounts (LOGIN_ADDRESS_FAILURE_LIMIT, 30): someone trying one password on many
  accounts. It is larger, as a club's phones may share one address behind a router.
An account alone is not counted: a stranger could then lock any player out by naming them.

Sign-ups: SIGNUP_LIMIT_PER_HOUR accounts per address an hour (config/accounts/selectors.signup_wait).

Either way the answer is 429 with Retry-After, on the login page and on the API's token endpoint, until the lock
(LOGIN_LOCKOUT_MINUTES after the last failure) ends.
"""

from __future__ import annotations

import math
from datetime import timedelta

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off, get_failure_limit, get_lockout_parameters
from django.conf import settings
from django.db.models import Sum
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext


def client_address(request) -> str | None:
    """The client's address: REMOTE_ADDR, or, behind PROXY_COUNT trusted proxies, the address the first of them
    saw (X-Forwarded-For read from the right, as each proxy appends to it; what the client wrote itself is
    left of that and never trusted)."""
    proxies = getattr(settings, "PROXY_COUNT", 0)
    if proxies:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")


class LoginThrottleBackend(AxesStandaloneBackend):
    """Axes's check before any password is tried. A login with no request (the test client's `login()`, a shell)
    is nobody guessing over the network: it is let through to the next backend."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


class LoginThrottleHandler(AxesDatabaseHandler):
    """Axes counts one limit for every lockout parameter; here the address alone has its own, larger one. The
    address's count is scaled to the account+address limit, so each runs out at its own number of failures."""

    def get_failures(self, request, credentials=None) -> int:
        limit = get_failure_limit(request, credentials)
        address_limit = max(1, settings.LOGIN_ADDRESS_FAILURE_LIMIT)
        worst = 0
        for parameter, attempts in zip(
            get_lockout_parameters(request, credentials), self.get_user_attempts(request, credentials), strict=True
        ):
            failures = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
            if parameter == "ip_address":
                failures = failures * limit // address_limit
            worst = max(worst, failures)
        return worst


def _retry_after(request) -> int:
    # Every refused attempt counts as a failure too (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT), so the lock
    # ends one whole cool-off after this one.
    cool_off = get_cool_off(request) or timedelta(minutes=15)
    return max(1, math.ceil(cool_off.total_seconds()))


def wait_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many attempts. Try again in {n} minute.", "Too many attempts. Try again in {n} minutes.", minutes
    ).format(n=minutes)


def too_many(request, seconds: int, *, template: str, context: dict | None = None):
    """The 429 answer with Retry-After: JSON for the API, else the page `template` with the message."""
    message = wait_message(seconds)
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message, "code": "throttled"}, status=429)
    else:
        response = render(request, template, {**(context or {}), "throttle_message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def lockout_response(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: what a locked-out login attempt gets."""
    from django.contrib.auth.forms import AuthenticationForm

    form = AuthenticationForm(request, initial={"username": (credentials or {}).get("username", "")})
    return too_many(request, _retry_after(request), template="registration/login.html", context={"form": form})
