"""Account reads: how long an address must wait before it may sign up again."""

from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from config.accounts.models import SignUpRecord
from config.throttle import client_address

SIGNUP_WINDOW = timedelta(hours=1)


def signup_wait(request) -> int:
    """Seconds until this address may sign up again (0: now): SIGNUP_LIMIT_PER_HOUR accounts per address an hour."""
    address = client_address(request) or ""
    since = timezone.now() - SIGNUP_WINDOW
    recent = list(
        SignUpRecord.objects.filter(address=address, created_at__gte=since)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[: settings.SIGNUP_LIMIT_PER_HOUR]
    )
    if len(recent) < settings.SIGNUP_LIMIT_PER_HOUR:
        return 0
    frees_at = recent[-1] + SIGNUP_WINDOW  # the oldest of the last LIMIT sign-ups leaves the window
    return max(1, math.ceil((frees_at - timezone.now()).total_seconds()))
