"""The static files' version in their addresses (config/static.py) and in the service worker (config/pwa.py): a
phone's worker serves static files from its cache first, so a new version must have new addresses."""

from __future__ import annotations

import re

from django.templatetags.static import static

from config.static import static_digest, static_version


def test_a_static_address_carries_the_version_of_the_static_files():
    version = static_version()
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    assert static("battles/battle.js") == f"/static/battles/battle.js?v={version}"


def test_the_version_changes_with_any_files_content_or_name_and_not_with_their_order():
    files = [("battles/battle.js", b"var a = 1;"), ("css/site.css", b"body {}")]
    same = static_digest(files)
    assert static_digest(list(reversed(files))) == same
    assert static_digest([("battles/battle.js", b"var a = 2;"), files[1]]) != same
    assert static_digest([("battles/board.js", b"var a = 1;"), files[1]]) != same
    assert static_digest(files + [("js/new.js", b"")]) != same


def test_the_service_worker_is_served_with_the_version_written_in(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    source = response.content.decode()
    assert f'var VERSION = "{static_version()}";' in source
    assert "armlist-static-version" not in source
    assert response["Cache-Control"] == "no-cache"  # the browser asks for it on every page load


def test_the_home_screen_icons_carry_the_version(client):
    icons = client.get("/manifest.webmanifest").json()["icons"]
    assert {icon["src"] for icon in icons} == {
        f"/static/pwa/{name}?v={static_version()}" for name in ("icon.svg", "icon-192.png", "icon-512.png")
    }
