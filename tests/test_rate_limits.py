"""Limits on the open endpoints (issue #27, config/ratelimit.py): the odds and resolve API and the token routes are
throttled per user and per address; past a limit the answer is 429 with Retry-After in the asker's language, and
the request does nothing."""

from __future__ import annotations

import secrets
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.utils import timezone

from armies.models import Club, ClubInvite, Membership

pytestmark = [pytest.mark.django_db, pytest.mark.rate_limited]

ODDS = "/api/v1/systems/bronepekhota/actions/survival_test/odds/"
BODY = {"inputs": {"subject": {"armour": 3}}}


def address() -> str:
    """An address of this test's own: the counts live in Redis for the whole run."""
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def limits(odds_user=5, odds_address=8, tokens_user=3, tokens_address=4):
    return override_settings(
        RATE_LIMITS={
            "odds": {"user": (odds_user, 60), "address": (odds_address, 60)},
            "tokens": {"user": (tokens_user, 60), "address": (tokens_address, 60)},
        }
    )


def test_odds_past_the_address_limit_answer_429_with_retry_after_in_the_askers_language():
    client = Client(REMOTE_ADDR=address())
    with limits():
        answers = [client.post(ODDS, BODY, content_type="application/json") for _ in range(8)]
        assert {a.status_code for a in answers} == {200}
        refused = client.post(ODDS, BODY, content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 60
    body = refused.json()
    assert body["code"] == "throttled"
    assert "Слишком много запросов" in body["detail"]
    assert str(wait) in body["detail"]


def test_a_signed_in_user_has_a_smaller_limit_of_their_own_and_resolve_counts_too():
    user = get_user_model().objects.create_user("odds-fan", password="x-long-password-1")
    mine, theirs = Client(REMOTE_ADDR=address()), Client(REMOTE_ADDR=address())
    mine.force_login(user)
    theirs.force_login(user)  # the same player on a second phone, elsewhere
    resolve = ODDS.replace("/odds/", "/resolve/")
    with limits():
        for i in range(5):
            client = mine if i % 2 else theirs
            url = resolve if i == 0 else ODDS
            assert client.post(url, {**BODY, "seed": 1}, content_type="application/json").status_code == 200
        assert mine.post(ODDS, BODY, content_type="application/json").status_code == 429
        # another player behind the first phone's address is still served
        assert Client(REMOTE_ADDR=address()).post(ODDS, BODY, content_type="application/json").status_code == 200


def test_token_routes_refuse_a_guesser_and_change_nothing():
    owner = get_user_model().objects.create_user("owner", password="x-long-password-1")
    guesser = get_user_model().objects.create_user("guesser", password="x-long-password-1")
    club = Club.objects.create(name="Клуб")
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    invite = ClubInvite.objects.create(
        club=club, token=secrets.token_urlsafe(16), created_by=owner, expires_at=timezone.now() + timedelta(days=1)
    )
    client = Client(REMOTE_ADDR=address(), HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(guesser)
    with limits():
        for i in range(3):
            assert client.get(f"/s/guess{i}/").status_code == 404
        page = client.get(f"/clubs/join/{invite.token}/")
        assert page.status_code == 429
        assert page["Retry-After"]
        assert "Слишком много запросов" in page.content.decode()
        assert client.post(f"/clubs/join/{invite.token}/").status_code == 429
        api = client.post(f"/api/v1/clubs/join/{invite.token}/")
        assert api.status_code == 429
        assert api.json()["code"] == "throttled"
        for route in ("/battles/join/x/", "/battles/watch/x/", "/api/v1/shared/x/"):
            assert client.get(route).status_code == 429, route
    assert not Membership.objects.filter(club=club, user=guesser).exists()


def test_limits_off_serve_everyone():
    client = Client(REMOTE_ADDR=address())
    with limits(odds_address=1), override_settings(RATE_LIMITS_ENABLED=False):
        assert {client.post(ODDS, BODY, content_type="application/json").status_code for _ in range(4)} == {200}


def test_exact_odds_past_the_enumeration_limit_are_a_clear_400_and_within_it_answered():
    """The work of one exact odds request is bounded (rules/dice.py enumeration_limit): the dice outcomes it would go
    through are counted before the work starts; past ODDS_ENUMERATION_LIMIT the answer is 400 saying so, with the
    limit as data."""
    from rules.systems.thw5150.tests.test_api import BASE, SHOT

    client = Client(REMOTE_ADDR=address())
    url = f"{BASE}/shooting/odds/"
    assert client.post(url, {"inputs": SHOT}, content_type="application/json").status_code == 200
    with override_settings(ODDS_ENUMERATION_LIMIT=10):
        refused = client.post(url, {"inputs": SHOT}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 400
    body = refused.json()
    assert body["code"] == "odds_too_large"
    assert "слишком" in body["detail"]
    assert "10" in body["detail"]
