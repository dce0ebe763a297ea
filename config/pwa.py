"""The app installed on a phone's home screen: its manifest, and the service worker that lets the battle board
open without the club's Wi-Fi (static/pwa/sw.js). The worker is served from the site's root so that it may
control every page."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.views.decorators.http import require_GET


@lru_cache(maxsize=1)
def _worker_source() -> str:
    return (settings.BASE_DIR / "static" / "pwa" / "sw.js").read_text(encoding="utf-8")


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
            {"src": settings.STATIC_URL + "pwa/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            {"src": settings.STATIC_URL + "pwa/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": settings.STATIC_URL + "pwa/icon-512.png", "sizes": "512x512", "type": "image/png"},
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response
