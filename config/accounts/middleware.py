"""The language of a signed-in player follows their account (chosen with the switch in the header); otherwise
LocaleMiddleware's choice stands: the switch's cookie, then the browser's Accept-Language."""

from __future__ import annotations

from django.utils import translation
from django.utils.deprecation import MiddlewareMixin


class AccountLanguageMiddleware(MiddlewareMixin):  # the mixin makes it async-capable too (config/asgi.py)
    def process_request(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = getattr(getattr(user, "preferences", None), "language", "")
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
