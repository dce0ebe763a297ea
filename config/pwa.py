"""The app installed on a phone's home screen: its manifest, and the service worker that lets the battle board
open without the club's Wi-Fi (static/pwa/sw.js). The worker is served from the site's root so that it may
control every page."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from config.static import static_version

VERSION_MARK = "armlist-static-version"  # where static/pwa/sw.js takes the static files' version


@lru_cache(maxsize=1)
def _worker_source() -> str:
    source = (settings.BASE_DIR / "static" / "pwa" / "sw.js").read_text(encoding="utf-8")
    # Its bytes change with the version, so the browser installs it anew after an upgrade (it checks /sw.js on every
    # page load: Cache-Control no-cache below).
    return source.replace(f'"{VERSION_MARK}"', f'"{static_version()}"')


@require_GET
def service_worker(request):
    response = HttpResponse(_worker_source(), content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request):
    data = {
        "name": "Armlist",
        "short_name": "Armlist",
        "description": "Army builder and battle tracker for tabletop wargames.",
        "start_url": "/battles/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#101418",
        "theme_color": "#1f4e79",
        "icons": [
            {"src": static("pwa/icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            {"src": static("pwa/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("pwa/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response
