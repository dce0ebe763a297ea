"""The language of a signed-in player follows their account (chosen with the switch in the header); otherwise
LocaleMiddleware's choice stands: the switch's cookie, then the browser's Accept-Language."""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin


@cache
def _language_sql() -> str:
    """One fixed statement (this runs on every request of a signed-in phone, every board it fetches included): the
    ORM would build it anew each time, for several times the cost of the read itself."""
    from config.accounts.models import Preferences

    quote = connection.ops.quote_name
    table = quote(Preferences._meta.db_table)
    language, user = (quote(Preferences._meta.get_field(f).column) for f in ("language", "user"))
    return f"SELECT {language} FROM {table} WHERE {user} = %s"  # noqa: S608 - the model's own names, quoted


def account_language(user) -> str:
    """The language the account chose ("" when none)."""
    with connection.cursor() as cursor:
        cursor.execute(_language_sql(), [user.pk])
        row = cursor.fetchone()
    return (row[0] if row else "") or ""


class AccountLanguageMiddleware(MiddlewareMixin):  # the mixin makes it async-capable too (config/asgi.py)
    def process_request(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = account_language(user)
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
