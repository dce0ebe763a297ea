"""Site-wide views: home page, health check and error pages."""

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.api import json_error, wants_json
from config.busy import busy_response_for_current_exception
from config.health import check_broker, check_database


@require_GET
def home(request):
    """The front page names every registered game system (settings.RULES_SYSTEMS), so a sixth needs no edit here."""
    from rules.registry import all_systems

    names = [s.name if s.name.isdigit() else f"«{s.name}»" for s in all_systems()]
    return render(request, "home.html", {"systems": names})


@never_cache
@require_GET
def healthz(request):
    db_ok, db_detail = check_database()
    broker_ok, broker_detail = check_broker()
    healthy = db_ok and broker_ok
    body = {"status": "ok" if healthy else "degraded", "database": {"ok": db_ok}, "broker": {"ok": broker_ok}}
    # A driver's error names the database host, port and user: only staff see it; a probe reads the status alone.
    if _is_staff(request):
        body["database"]["detail"] = db_detail
        body["broker"]["detail"] = broker_detail
    return JsonResponse(body, status=200 if healthy else 503)


def _is_staff(request) -> bool:
    """Reading the user needs the session table: when the database is down the answer is "not staff", not a 500."""
    try:
        return bool(request.user.is_authenticated and request.user.is_staff)
    except Exception:  # any driver error: the database is the thing being reported down
        return False


def page_not_found(request, exception=None):
    if wants_json(request):
        return json_error(404, _("Not found."))
    return render(request, "404.html", status=404)


def server_error(request):
    busy = busy_response_for_current_exception(request)  # the database lock wait ran out: 503, not 500
    if busy is not None:
        return busy
    if wants_json(request):
        return json_error(500, _("Something went wrong on our side. The error was logged."))
    return render(request, "500.html", status=500)


def permission_denied(request, exception=None):
    if wants_json(request):
        return json_error(403, _("You do not have permission to do this."))
    return render(request, "403.html", status=403)


def bad_request(request, exception=None):
    if wants_json(request):
        return json_error(400, _("Bad request."))
    return render(request, "400.html", status=400)
