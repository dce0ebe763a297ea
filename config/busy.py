"""A database too busy to answer in time is "try again shortly" (503 + Retry-After), never a 500.

On SQLite a write waits for the lock up to SQLITE_TIMEOUT seconds (config/env.py); when that runs out, sqlite3
raises OperationalError("database is locked"). PostgreSQL's lock and statement timeouts
(lock_timeout, statement_timeout) are mapped the same way, and so is a PostgreSQL that is restarting. The
middleware catches it from views (DRF re-raises what it does not handle, so the API is covered too);
`config.views.server_error` catches it from other middleware (a session saved on the way out)."""

from __future__ import annotations

import sys

from django.db import OperationalError
from django.http import HttpResponse, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.html import escape
from django.utils.translation import gettext as _

RETRY_AFTER_S = 2
_BUSY_MESSAGES = ("database is locked", "database table is locked", "database is busy")
_PG_BUSY_SQLSTATES = {"55P03", "57014", "40P01"}  # lock_not_available, query_canceled (timeout), deadlock


# PostgreSQL going away or coming back (a restart): 503 while it is down. Once it is back, CONN_HEALTH_CHECKS
# (config/settings/base.py) replaces each thread's dead connection before a request uses it (tests/test_db_restart.py).
_PG_UNAVAILABLE_SQLSTATES = {"57P01", "57P02", "57P03", "53300"}  # admin/crash shutdown, starting up, too many


def is_database_busy(exc: BaseException | None) -> bool:
    if not isinstance(exc, OperationalError):
        return False
    if any(m in str(exc).lower() for m in _BUSY_MESSAGES):
        return True
    cause = exc.__cause__
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate in _PG_BUSY_SQLSTATES or sqlstate in _PG_UNAVAILABLE_SQLSTATES:
        return True
    # No SQLSTATE from psycopg: no server answered (refused, or the connection closed under the request).
    return (sqlstate is None and type(cause).__module__.startswith("psycopg")) or str(sqlstate).startswith("08")


def busy_response(request) -> HttpResponse:
    detail = _("The server is busy for a moment. Nothing was recorded: try again shortly.")
    if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
        response = JsonResponse({"detail": detail, "code": "busy"}, status=503)
    else:
        # A bare page: the database may be what is missing, so no template tags that query it.
        response = HttpResponse(
            "<!doctype html><meta charset='utf-8'><meta name='viewport' content='width=device-width'>"
            f"<meta http-equiv='refresh' content='{RETRY_AFTER_S}'><title>{escape(_('One moment'))} · Armlist</title>"
            f"<h1>{escape(_('One moment'))}</h1><p>{escape(detail)} {escape(_('This page reloads by itself.'))}</p>",
            status=503,
        )
    response["Retry-After"] = str(RETRY_AFTER_S)
    response["Cache-Control"] = "no-store"
    return response


def busy_response_for_current_exception(request) -> HttpResponse | None:
    """For an error handler called while an exception is being handled (handler500)."""
    return busy_response(request) if is_database_busy(sys.exc_info()[1]) else None


class DatabaseBusyMiddleware(MiddlewareMixin):  # the mixin makes it async-capable too (config/asgi.py)
    def process_exception(self, request, exception):
        if is_database_busy(exception):
            return busy_response(request)
        return None
