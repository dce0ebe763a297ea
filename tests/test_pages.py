import pytest


@pytest.mark.django_db
def test_home_page_leads_to_builder_battles_and_odds(client):
    html = client.get("/").content.decode()
    assert "Armlist" in html
    for link in ('href="/rosters/"', 'href="/battles/"', 'href="/odds/"'):
        assert link in html
    assert 'name="viewport"' in html


@pytest.mark.django_db
def test_404_is_a_styled_page(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert b"Page not found" in response.content
    assert b"site.css" in response.content


@pytest.mark.django_db
def test_api_404_is_json(client):
    response = client.get("/api/v1/no-such-endpoint/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


def test_500_page_in_site_style(rf):
    from config.views import server_error

    response = server_error(rf.get("/boom/"))
    assert response.status_code == 500
    assert b"Something broke" in response.content


def test_api_500_is_json(rf):
    from config.views import server_error

    response = server_error(rf.get("/api/v1/boom/"))
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"


@pytest.mark.django_db
def test_openapi_schema_and_docs(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert "/api/v1/auth/token/" in schema.json()["paths"]
    assert client.get("/api/docs/").status_code == 200
