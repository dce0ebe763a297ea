"""The language of a signed-in player follows their account (chosen with the switch in the header); otherwise
LocaleMiddleware's choice stands: the switch's cookie, then the browser's Accept-Language."""

from __future__ import annotations

from django.utils import translation


class AccountLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = getattr(getattr(user, "preferences", None), "language", "")
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
