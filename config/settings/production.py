"""Production: HTTPS only, secure cookies, static files compressed. Must pass `check --deploy`."""

from config.env import env, env_bool

from .base import *  # noqa: F403
from .base import SECRET_KEY

if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("SECRET_KEY must be at least 50 random characters in production.")

# A debug page shows settings and source to anyone: production refuses it outright rather than quietly turning it off.
if env_bool("DEBUG", default=False):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        "DEBUG=true is refused by the production settings (config.settings.production): set DEBUG=false, "
        "or use config.settings.base on your own machine."
    )
DEBUG = False
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_SECURE = True
SESSION_COOKIE_NAME = "__Secure-sessionid"
CSRF_COOKIE_SECURE = True
CSRF_COOKIE_NAME = "__Secure-csrftoken"
X_FRAME_OPTIONS = "DENY"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
