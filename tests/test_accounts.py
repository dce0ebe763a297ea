import pytest
from django.contrib.auth import get_user_model
from django.test import Client

PASSWORD = "correct-horse-battery-9"


@pytest.mark.django_db
def test_browser_sign_up_log_out_log_in_and_change_password():
    client = Client(enforce_csrf_checks=False)
    response = client.post("/accounts/signup/", {"username": "alice", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "alice"

    client.post("/accounts/logout/")
    assert not client.get("/").context["user"].is_authenticated

    assert client.post("/accounts/login/", {"username": "alice", "password": "wrong"}).status_code == 200
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302

    new = "another-long-pass-42"
    response = client.post(
        "/accounts/password/", {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    assert get_user_model().objects.get(username="alice").check_password(new)


@pytest.mark.django_db
def test_sign_up_with_weak_password_is_refused_and_creates_nothing(client):
    response = client.post("/accounts/signup/", {"username": "bob", "password1": "123", "password2": "123"})
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="bob").exists()


@pytest.mark.django_db
def test_csrf_is_enforced_on_login():
    client = Client(enforce_csrf_checks=True)
    assert client.post("/accounts/login/", {"username": "x", "password": "y"}).status_code == 403


@pytest.mark.django_db
def test_api_sign_up_token_password_change_and_logout():
    client = Client()
    response = client.post(
        "/api/v1/auth/signup/", {"username": "carol", "password": PASSWORD}, content_type="application/json"
    )
    assert response.status_code == 201
    token = response.json()["token"]
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    assert client.get("/api/v1/auth/me/", **auth).json()["username"] == "carol"

    bad = client.post("/api/v1/auth/token/", {"username": "carol", "password": "nope"}, content_type="application/json")
    assert bad.status_code == 401
    assert "Wrong username or password" in bad.json()["detail"]

    new = "brand-new-password-77"
    changed = client.post(
        "/api/v1/auth/password/",
        {"old_password": PASSWORD, "new_password": new},
        content_type="application/json",
        **auth,
    )
    assert changed.status_code == 200
    # The old token was revoked with the password change.
    assert client.get("/api/v1/auth/me/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 401
    new_auth = {"HTTP_AUTHORIZATION": f"Token {changed.json()['token']}"}
    assert client.delete("/api/v1/auth/token/", **new_auth).status_code == 204
    assert client.get("/api/v1/auth/me/", **new_auth).status_code == 401


@pytest.mark.django_db
def test_api_sign_up_errors_name_the_field(client):
    get_user_model().objects.create_user("dave", password=PASSWORD)
    taken = client.post(
        "/api/v1/auth/signup/", {"username": "dave", "password": PASSWORD}, content_type="application/json"
    )
    assert taken.status_code == 400
    assert "username" in taken.json()["errors"]
    weak = client.post("/api/v1/auth/signup/", {"username": "erin", "password": "1"}, content_type="application/json")
    assert weak.status_code == 400
    assert "password" in weak.json()["errors"]
    assert not get_user_model().objects.filter(username="erin").exists()


@pytest.mark.django_db
def test_api_requires_authentication(client):
    response = client.get("/api/v1/auth/me/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
