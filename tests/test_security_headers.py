"""Headers and pages of issue #18: the API reference served from here, the Content-Security-Policy on every page."""

import re

import pytest
from django.contrib.staticfiles import finders

from config.static import static_version


@pytest.mark.django_db
def test_api_docs_load_redoc_from_our_static_files_and_no_external_url(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", html, re.IGNORECASE), html
    scripts = re.findall(r'<script src="([^"]+)"', html)
    version = f"?v={static_version()}"  # as every static address (config/static.py)
    assert scripts == [
        f"/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js{version}",
        f"/static/api/redoc-init.js{version}",
    ]
    assert all(finders.find(s.removeprefix("/static/").removesuffix(version)) for s in scripts)
    assert 'data-spec-url="/api/schema/"' in html
    # Redoc's own <style> elements carry this answer's nonce; no other page sends one.
    nonce = re.search(r'data-style-nonce="([^"]+)"', html).group(1)
    assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]
    assert "nonce-" not in client.get("/").headers["Content-Security-Policy"]
