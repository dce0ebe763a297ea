"""The API's token check, in one fixed statement.

DRF's TokenAuthentication reads the token with `select_related("user")` through the ORM: building that statement cost
about 2 ms of Python per request on a club laptop's kind of machine, a fifth of a phone's tap (issue #11;
benchmarks/bench_club_night.py). Same answers, same messages: an unknown key or an inactive user is refused.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


@cache
def _statement() -> str:
    user, q = get_user_model(), connection.ops.quote_name
    token = Token._meta
    return (
        f"SELECT u.* FROM {q(user._meta.db_table)} u JOIN {q(token.db_table)} t "  # noqa: S608 - names from the models
        f"ON t.{q(token.get_field('user').column)} = u.{q(user._meta.pk.column)} "
        f"WHERE t.{q(token.get_field('key').column)} = %s"
    )


class TokenAuthentication(authentication.TokenAuthentication):
    """`Authorization: Token <key>`, as DRF's."""

    def authenticate_credentials(self, key):
        user = next(iter(get_user_model().objects.raw(_statement(), [key])), None)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, Token(key=key, user=user)
