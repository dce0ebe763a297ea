"""Issue #18: guessing is throttled. Failed logins per account+address and per address (django-axes, counted in the
database: each test's rollback forgets them), sign-ups per address; 429 with Retry-After on pages and the API."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.db.models import F
from django.test import Client, override_settings

from config.accounts.models import SignUpRecord

PASSWORD = "correct-horse-battery-9"


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", password=PASSWORD)


def login(client, password, username="alice"):
    return client.post("/accounts/login/", {"username": username, "password": password})


def token(client, password, username="alice"):
    return client.post(
        "/api/v1/auth/token/", {"username": username, "password": password}, content_type="application/json"
    )


def time_passes(minutes):
    """The lock runs from the last failure: moving every recorded attempt back is the clock moving forward."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=minutes))


def test_twenty_wrong_passwords_then_the_right_one_does_not_log_in(alice):
    client = Client()
    answers = [login(client, f"wrong-{i}").status_code for i in range(20)]
    assert answers[:4] == [200] * 4  # the form again, with its error
    assert set(answers[4:]) == {429}  # the fifth failure locks
    right = login(client, PASSWORD)
    assert right.status_code == 429
    assert int(right["Retry-After"]) == 15 * 60
    assert "Too many attempts. Try again in 15 minutes." in right.content.decode()
    assert "_auth_user_id" not in client.session
    assert not client.get("/").context["user"].is_authenticated


def test_the_lock_ends_after_its_time(alice):
    client = Client()
    for i in range(5):
        login(client, f"wrong-{i}")
    assert login(client, PASSWORD).status_code == 429
    time_passes(14)
    assert login(client, PASSWORD).status_code == 429  # the refused try counted too: a fresh 15 minutes
    time_passes(16)
    assert login(client, PASSWORD).status_code == 302
    assert client.get("/").context["user"].username == "alice"


@override_settings(AXES_COOLOFF_TIME=timedelta(seconds=30))
def test_a_short_lock_in_settings_gives_its_own_retry_after(alice):
    client = Client()
    for i in range(5):
        login(client, f"wrong-{i}")
    response = login(client, PASSWORD)
    assert response.status_code == 429
    assert response["Retry-After"] == "30"
    assert "1 minute" in response.content.decode()
    time_passes(1)
    assert login(client, PASSWORD).status_code == 302


def test_the_lock_is_per_account_and_address(alice):
    get_user_model().objects.create_user("bob", password=PASSWORD)
    for i in range(5):
        login(Client(), f"wrong-{i}")
    assert login(Client(), PASSWORD).status_code == 429
    # Another player at the same address logs in; alice from another address does too (no one can lock her out).
    assert login(Client(), PASSWORD, username="bob").status_code == 302
    assert login(Client(REMOTE_ADDR="10.0.0.8"), PASSWORD).status_code == 302


@override_settings(LOGIN_ADDRESS_FAILURE_LIMIT=12)
def test_one_address_trying_many_accounts_is_locked_too(alice):
    client = Client()
    for i in range(12):
        assert login(client, "guess", username=f"player{i}").status_code in (200, 429)
    assert login(client, PASSWORD).status_code == 429  # a right password from that address, any account
    assert login(Client(REMOTE_ADDR="10.0.0.8"), PASSWORD).status_code == 302


def test_the_token_api_is_throttled_with_json_and_retry_after(alice):
    client = Client()
    answers = [token(client, f"wrong-{i}").status_code for i in range(20)]
    assert answers[:4] == [401] * 4
    assert set(answers[4:]) == {429}
    right = token(client, PASSWORD)
    assert right.status_code == 429
    assert right["Retry-After"] == str(15 * 60)
    assert right.json()["code"] == "throttled"
    assert "token" not in right.json()
    time_passes(16)
    assert token(client, PASSWORD).status_code == 200


def test_page_and_api_failures_count_together(alice):
    client = Client()
    for i in range(3):
        login(client, f"wrong-{i}")
    for i in range(2):
        token(client, f"wrong-api-{i}")
    assert login(client, PASSWORD).status_code == 429


def test_test_client_login_without_a_request_still_works(alice):
    assert Client().login(username="alice", password=PASSWORD)
    assert not Client().login(username="alice", password="wrong")


# Sign-ups ----------------------------------------------------------------------------------------------------------
def sign_up_page(client, name):
    return client.post("/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD})


def sign_up_api(client, name):
    return client.post(
        "/api/v1/auth/signup/", {"username": name, "password": PASSWORD}, content_type="application/json"
    )


@pytest.mark.django_db
@override_settings(SIGNUP_LIMIT_PER_HOUR=3)
def test_sign_ups_over_the_limit_get_429_and_create_nothing():
    assert sign_up_page(Client(), "u1").status_code == 302
    assert sign_up_api(Client(), "u2").status_code == 201
    assert sign_up_page(Client(), "u3").status_code == 302
    page = sign_up_page(Client(), "u4")
    assert page.status_code == 429
    assert 0 < int(page["Retry-After"]) <= 3600
    assert "Too many attempts" in page.content.decode()
    api = sign_up_api(Client(), "u5")
    assert api.status_code == 429
    assert 0 < int(api["Retry-After"]) <= 3600
    assert "Too many attempts" in api.json()["detail"]
    assert not get_user_model().objects.filter(username__in=["u4", "u5"]).exists()
    # Another address may still sign up; and an hour later this one may again.
    assert sign_up_api(Client(REMOTE_ADDR="10.0.0.9"), "u6").status_code == 201
    SignUpRecord.objects.update(created_at=F("created_at") - timedelta(minutes=61))
    assert sign_up_api(Client(), "u7").status_code == 201


@pytest.mark.django_db
@override_settings(SIGNUP_LIMIT_PER_HOUR=1)
def test_failed_sign_ups_do_not_use_up_the_allowance():
    weak = Client().post("/api/v1/auth/signup/", {"username": "w", "password": "1"}, content_type="application/json")
    assert weak.status_code == 400
    assert sign_up_api(Client(), "ok").status_code == 201


@pytest.mark.django_db
@override_settings(SIGNUP_LIMIT_PER_HOUR=1, PROXY_COUNT=1)
def test_behind_a_trusted_proxy_the_forwarded_address_counts():
    assert sign_up_api(Client(HTTP_X_FORWARDED_FOR="198.51.100.1"), "p1").status_code == 201
    assert sign_up_api(Client(HTTP_X_FORWARDED_FOR="198.51.100.2"), "p2").status_code == 201
    # A client writing its own X-Forwarded-For cannot pick its address: the proxy appends the real one.
    again = Client(HTTP_X_FORWARDED_FOR="203.0.113.5, 198.51.100.2")
    assert sign_up_api(again, "p3").status_code == 429
