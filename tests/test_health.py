import pytest
from django.test import override_settings


@pytest.mark.django_db
def test_healthz_reports_database_and_broker_up(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["status"] == "ok"


@pytest.mark.django_db
def test_healthz_is_503_when_redis_is_down(client):
    # Port 1 has nothing listening: the broker check must fail fast, not hang.
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["broker"]["ok"] is False
    assert body["database"]["ok"] is True


@pytest.mark.django_db
def test_pages_keep_working_when_redis_is_down(client):
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0", CELERY_BROKER_URL="redis://127.0.0.1:1/0"):
        assert client.get("/").status_code == 200
        assert client.get("/api/schema/").status_code == 200


DRIVER_ERROR = 'OperationalError: connection to server at "db.internal" (10.0.0.5), port 5432 failed'


@pytest.mark.django_db
def test_healthz_is_503_when_database_is_down_and_shows_no_internals_to_the_public(client, monkeypatch):
    from config import views

    monkeypatch.setattr(views, "check_database", lambda: (False, DRIVER_ERROR))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "degraded", "database": {"ok": False}, "broker": {"ok": True}}
    assert b"db.internal" not in response.content
    assert b"5432" not in response.content


@pytest.mark.django_db
def test_healthz_shows_no_internals_to_a_signed_in_player(client, monkeypatch, django_user_model):
    from config import views

    monkeypatch.setattr(views, "check_database", lambda: (False, DRIVER_ERROR))
    client.force_login(django_user_model.objects.create_user("player"))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "detail" not in response.json()["database"]


@pytest.mark.django_db
def test_healthz_shows_the_driver_error_to_staff(client, monkeypatch, django_user_model):
    from config import views

    monkeypatch.setattr(views, "check_database", lambda: (False, DRIVER_ERROR))
    client.force_login(django_user_model.objects.create_user("ops", is_staff=True))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "detail": DRIVER_ERROR}
    assert "detail" in response.json()["broker"]


def test_healthz_answers_when_the_session_cannot_be_read(rf, monkeypatch):
    """With the database down, reading request.user fails too: the probe still gets its bare 503, not a 500."""
    from config import views

    class Broken:
        @property
        def is_authenticated(self):
            raise RuntimeError("connection refused")

    monkeypatch.setattr(views, "check_database", lambda: (False, DRIVER_ERROR))
    monkeypatch.setattr(views, "check_broker", lambda: (True, "ok"))
    request = rf.get("/healthz")
    request.user = Broken()
    response = views.healthz(request)
    assert response.status_code == 503
    assert b"db.internal" not in response.content
