"""Issue #18: an anonymous or bad-token API request is a 401 with a `WWW-Authenticate` challenge, not a 403.
(Read-only viewers still get 403 on writes and outsiders 404: armies/tests/test_access.py's matrix.)"""

import pytest
from django.test import Client

ANONYMOUS = [
    ("get", "/api/v1/auth/me/"),
    ("post", "/api/v1/auth/password/"),
    ("get", "/api/v1/battles/"),
    ("post", "/api/v1/battles/"),
    ("get", "/api/v1/jobs/"),
    ("get", "/api/v1/jobs/1/"),
    ("post", "/api/v1/jobs/rosters/"),
    ("post", "/api/v1/rosters/import/"),
]


def call(client, method, path, **headers):
    if method == "get":
        return client.get(path, **headers)
    return client.post(path, {}, content_type="application/json", **headers)


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path"), ANONYMOUS)
def test_anonymous_api_request_gets_401_with_a_challenge(method, path):
    response = call(Client(), method, path)
    assert response.status_code == 401, response.content[:200]
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [*ANONYMOUS, ("get", "/api/v1/rosters/"), ("get", "/api/v1/packs/"), ("get", "/api/v1/battles/1/")],
)
def test_a_bad_token_gets_401_even_where_anonymous_reads_are_allowed(method, path):
    response = call(Client(), method, path, HTTP_AUTHORIZATION="Token not-a-real-token")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.django_db
def test_a_signed_in_session_still_works_and_a_valid_token_too(django_user_model):
    from rest_framework.authtoken.models import Token

    user = django_user_model.objects.create_user("pat", password="long-enough-pass-1")
    session = Client()
    session.force_login(user)
    assert session.get("/api/v1/auth/me/").json()["username"] == "pat"
    token = Token.objects.create(user=user)
    assert Client().get("/api/v1/auth/me/", HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200
