from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from config import pwa, views

# Redoc's bundle (drf-spectacular-sidecar, pinned) writes two <style> elements as it loads, before it can be given the
# page's nonce (templates/api/redoc.html passes it for the rest): the scrollbar's rules and an empty one. Allowed by
# their hashes on this page alone; battles/tests/test_csp_browser.py fails if an upgrade changes them. Its search
# runs in a worker it makes from a blob (made by that same-origin script).
REDOC_POLICY = {
    "style-src": [
        "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='",  # .ps{overflow:hidden!important;…}
        "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",  # the empty string
    ],
    "worker-src": ["blob:"],
}

urlpatterns = [
    # First: a phone's board polls and taps are most of the traffic on a club night, and Django builds the list of
    # every pattern it tried before the one that matches (issue #11). No pattern of battles/ overlaps another app's.
    path("", include("battles.urls")),
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("admin/", admin.site.urls),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("config.accounts.urls")),
    path("api/v1/auth/", include("config.accounts.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "api/docs/",
        csp_update(REDOC_POLICY)(SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html")),
        name="api-docs",
    ),
    path("", include("battles.results.urls")),
    path("", include("rules.urls")),
    path("", include("armies.urls")),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
