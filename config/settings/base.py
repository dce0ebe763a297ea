"""Settings shared by every environment. Everything that differs comes from the environment."""

from datetime import timedelta
from pathlib import Path

from csp.constants import NONCE, NONE, SELF

from config import serving
from config.env import (
    BASE_DIR,
    env,
    env_bool,
    env_database,
    env_hosts,
    env_redis_url,
    env_required,
    sqlite_options,
)

SECRET_KEY = env_required("SECRET_KEY")
DEBUG = env_bool("DEBUG", default=False)
ALLOWED_HOSTS = env_hosts("ALLOWED_HOSTS", default="localhost,127.0.0.1,testserver")
CSRF_TRUSTED_ORIGINS = [o for o in env.str("CSRF_TRUSTED_ORIGINS", default="").split(",") if o]
# The address phones open (printed by `make run`, config/lan.py): QR codes use it when the page was opened on the
# laptop itself as localhost, which a phone could not reach.
ARMLIST_URL = env.str("ARMLIST_URL", default="")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "csp",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Redoc's files for /api/docs/, served from here rather than a CDN
    "config.accounts",
    "rules",
    "armies",
    "battles",
    "battles.results",
]

# Every one is async-capable (tests/test_asgi_server.py): under config/asgi.py a sync-only middleware would make a
# waiting request's coroutine view run through a thread that waits for it.
MIDDLEWARE = [
    "config.busy.DatabaseBusyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.static.StaticFilesMiddleware",  # whitenoise's, also async-capable (config/asgi.py)
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.guard.ApiInputMiddleware",  # junk in an /api/ path, query or header: 400 (issue #18)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.accounts.middleware.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as axes asks: turns a locked-out login into its 429
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "libraries": {"qr": "config.qr"},
        },
    },
]

DATABASES = {"default": env_database("DATABASE_URL")}
# Persistent connections (a minute), checked at the start of each request: after a PostgreSQL restart a thread's
# old connection is dead, and without the check its first request would answer 500 (issue #18,
# tests/test_db_restart.py). On SQLite the check costs nothing.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=60))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", env_bool("DB_CONN_HEALTH_CHECKS", default=True))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and serving.pooled():
    # The server (config/gunicorn_conf.py sets DB_POOL): each process borrows its connections from one pool of
    # psycopg_pool, sized to its threads (config/serving.py), so the server opens no more than its workers' pools
    # however many phones it serves, and gunicorn_conf fits them under PostgreSQL's max_connections. A connection
    # goes back at the end of each request and before each wait (a waiting phone holds none); the health checks
    # become the pool's check of a connection before it is lent (after a restart of PostgreSQL). Above min_size,
    # a connection unused for max_idle seconds is closed: nothing idles for long after the club goes home.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # Django's pool requires it: the pool keeps the connections
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": env.int("DB_POOL_MIN_SIZE", default=1),
        "max_size": env.int("DB_POOL_MAX_SIZE", default=serving.connections_per_process()),
        "timeout": env.float("DB_POOL_TIMEOUT", default=30.0),  # never reached while max_size covers the threads
        "max_idle": env.float("DB_POOL_MAX_IDLE", default=60.0),
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a club's phones: see config/env.py, and config/sqlite/base.py for the writers of a
    # process queueing in turn. SQLITE_TIMEOUT is how long a write waits for the lock (seconds) before the request
    # answers 503 with Retry-After (config/busy.py).
    DATABASES["default"]["ENGINE"] = "config.sqlite"
    DATABASES["default"]["OPTIONS"] = {
        **sqlite_options(env.float("SQLITE_TIMEOUT", default=10.0)),
        **DATABASES["default"].get("OPTIONS", {}),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Guessing is throttled (config/throttle.py, issue #18): failed logins per account+address and per address, through
# django-axes; sign-ups per address. PROXY_COUNT: how many trusted proxies append to X-Forwarded-For (0: none).
AUTHENTICATION_BACKENDS = ["config.throttle.LoginThrottleBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_HANDLER = "config.throttle.LoginThrottleHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=30)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=15))
AXES_LOCKOUT_CALLABLE = "config.throttle.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.throttle.client_address"
AXES_DISABLE_ACCESS_LOG = True  # successful logins need no row each
PROXY_COUNT = env.int("PROXY_COUNT", default=0)
SIGNUP_LIMIT_PER_HOUR = env.int("SIGNUP_LIMIT_PER_HOUR", default=5)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Russian first (every book is in Russian), English second. The language comes from the account, then the
# switch in the header (a cookie), then the browser's Accept-Language. Catalogues: locale/<lang>/LC_MESSAGES.
LANGUAGE_CODE = env.str("ARMLIST_LANGUAGE_CODE", default="ru")  # the tests' workers speak the tests' English
LANGUAGES = [("ru", "Русский"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
# Numbers as each language writes them: «1 000», «0,25» in Russian (config/formats keeps English ungrouped).
USE_THOUSAND_SEPARATOR = True
FORMAT_MODULE_PATH = ["config.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "var" / "staticfiles")))  # collectstatic's
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns at every start when it is missing
# `{% static %}` addresses carry the static files' version, so a phone's service worker never keeps an old script
# under a new page (config/static.py). Production's manifest storage names each file by its digest instead.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.static.VersionedStaticFilesStorage"},
}

VAR_DIR = BASE_DIR / "var"

# Content-Security-Policy on every answer (django-csp, issue #18): scripts, styles, fonts and connections only from
# this site; no inline script or style="" anywhere (behaviours are in static/js/site.js, styles in the css files);
# images also as data: URLs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],  # the nonce is sent only by a page that uses it: Redoc's <style> elements
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Sessions and cache never depend on Redis, so pages keep working when it is down.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Limits on the open endpoints (config/ratelimit.py, issue #27): requests per window, per user and per address. A
# club's phones share the router's address, so the address limit is the larger. Counted in Redis when REDIS_URL is
# set (every process and machine alike), else in each server process's memory.
# The most dice outcomes one exact odds request may go through one by one (rules/dice.py enumeration_limit): a
# schema-maximum «5150» melee would otherwise hold a thread for seconds. Beyond it the answer is a 400 that says so.
ODDS_ENUMERATION_LIMIT = env.int("ODDS_ENUMERATION_LIMIT", default=1_000_000)
RATE_LIMITS_ENABLED = env.bool("RATE_LIMITS_ENABLED", default=True)
RATE_LIMITS = {
    # The odds and resolve API: a phone's odds form asks as the player changes an input.
    "odds": {"user": (env.int("ODDS_LIMIT_PER_MINUTE", default=120), 60), "address": (600, 60)},
    # Share links, club and battle invitations, spectator links: nobody opens dozens a minute but a guesser.
    "tokens": {"user": (30, 60), "address": (60, 60)},
}

REST_FRAMEWORK = {
    # Token first: DRF answers an anonymous or bad-token request with the first class's challenge, so it is a 401
    # with `WWW-Authenticate: Token` rather than a 403 (session auth has no challenge). Issue #18.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.api_auth.TokenAuthentication",  # DRF's, in one fixed statement
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",  # documents the shared error answers once
    # Bounded bodies: depth, NUL, sizes (config/parsers.py, issue #18).
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",
        "config.parsers.FormParser",
        "config.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Armlist API",
    "DESCRIPTION": "Army builder, battle tracker, rules engine and balance jobs for tabletop wargames.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "COMPONENT_SPLIT_REQUEST": True,
    "REDOC_DIST": "SIDECAR",
    # Two choice sets are named "role": a club member's (owner/editor/member) and an invitation's (member/editor).
    "ENUM_NAME_OVERRIDES": {
        "ClubRoleEnum": "armies.models.Membership.Role",
        "InviteRoleEnum": ["member", "editor"],
    },
}

# Celery: Redis when REDIS_URL is set, else kombu's filesystem transport under var/ (embedded default).
REDIS_URL = env_redis_url("REDIS_URL")
BROKER_DIR = VAR_DIR / "broker"
CACHES["ratelimit"] = (
    {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "armlist",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "ratelimit"}
)
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600, "socket_connect_timeout": 2, "socket_timeout": 5}
else:
    CELERY_BROKER_URL = "filesystem://"
    CELERY_RESULT_BACKEND = f"file://{VAR_DIR / 'results'}"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),  # kombu's default is ./control: every runtime file in var/
        "store_processed": False,
    }
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY = False
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_RESULT_EXPIRES = 3600

# The game systems, each a GameSystem instance (rules/contract). The generic apps know them only through the
# registry, so adding a system is one line here (docs/architecture.md).
RULES_SYSTEMS = [
    "rules.systems.bronepekhota.system.SYSTEM",
    "rules.systems.squads.system.SYSTEM",
    "rules.systems.enforcers.system.SYSTEM",
    "rules.systems.zvezdny_desant.system.SYSTEM",
    "rules.systems.thw5150.system.SYSTEM",
]

# A system keeps its own board sheets and scripts inside its package (<package>/templates, <package>/static).
for _path in RULES_SYSTEMS:
    _package = BASE_DIR.joinpath(*_path.split(".")[:-2])
    if (_package / "templates").is_dir():
        TEMPLATES[0]["DIRS"].append(_package / "templates")
    if (_package / "static").is_dir():
        STATICFILES_DIRS.append(_package / "static")
    if (_package / "locale").is_dir():  # its rule texts' translations (<package>/locale/ru/LC_MESSAGES/django.po)
        LOCALE_PATHS.append(_package / "locale")

# Balance jobs (rules/jobs): the most battles one job may ask for, and how many battles one chunk (task) runs.
BALANCE_MAX_BATTLES = env.int("BALANCE_MAX_BATTLES", default=2_000_000)
BALANCE_CHUNK_BATTLES = env.int("BALANCE_CHUNK_BATTLES", default=20_000)
# A running chunk beats every few seconds; every worker's watchdog resends a chunk silent for longer than the stale
# limit (its worker died), so a lost chunk costs well under a minute, not the broker's visibility timeout
# (rules/jobs/watchdog.py, issue #18).
BALANCE_CHUNK_HEARTBEAT_SECONDS = env.float("BALANCE_CHUNK_HEARTBEAT_SECONDS", default=5.0)
BALANCE_CHUNK_STALE_SECONDS = env.float("BALANCE_CHUNK_STALE_SECONDS", default=30.0)
BALANCE_WATCHDOG_SECONDS = env.float("BALANCE_WATCHDOG_SECONDS", default=5.0)
# Where balance jobs read rosters and packs (rules/jobs/sources.py): rules never imports armies itself.
BALANCE_SOURCE = "armies.jobs_source.SOURCE"
# The finished battles a campaign roster may carry (armies/campaign.py), so armies never imports battles.
CAMPAIGN_BATTLES = "battles.carry.SOURCE"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"axes": {"level": "WARNING"}},  # failed logins and lockouts, not every successful one
}
