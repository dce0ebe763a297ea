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


def test_healthz_is_503_when_database_is_down(client, monkeypatch):
    from config import views

    monkeypatch.setattr(views, "check_database", lambda: (False, "OperationalError: connection refused"))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "detail": "OperationalError: connection refused"}
