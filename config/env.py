"""Settings read from the environment, each checked so a bad value names its variable."""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = env.str(name, default=None)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false (got {raw!r}).")


def env_required(name: str) -> str:
    value = env.str(name, default="").strip()
    if not value:
        raise ImproperlyConfigured(f"Set the {name} environment variable.")
    return value


def env_database(name: str = "DATABASE_URL") -> dict:
    raw = env_required(name)
    try:
        config = environ.Env.db_url_config(raw)
    except Exception as exc:  # django-environ raises several kinds here
        raise ImproperlyConfigured(f"{name} is not a valid database URL: {exc}") from exc
    if "." not in config.get("ENGINE", ""):
        raise ImproperlyConfigured(f"{name} names an unknown database scheme: {raw.split(':', 1)[0]!r}.")
    return config


def sqlite_options(timeout: float) -> dict:
    """SQLite set up for several phones writing at once: WAL (readers never block the writer), a busy wait instead of
    an immediate "database is locked", and write transactions that take the lock when they begin (BEGIN IMMEDIATE),
    so two writers queue up rather than deadlock on upgrading their read locks."""
    return {
        "timeout": timeout,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON",
    }


def env_redis_url(name: str = "REDIS_URL") -> str:
    """An empty REDIS_URL means the embedded default (filesystem broker)."""
    raw = env.str(name, default="").strip()
    if raw and not raw.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"{name} must start with redis://, rediss:// or unix:// (got {raw!r}).")
    return raw


def env_hosts(name: str = "ALLOWED_HOSTS", default: str = "") -> list[str]:
    raw = env.str(name, default=default)
    hosts = [h.strip() for h in raw.split(",") if h.strip()]
    if not hosts:
        raise ImproperlyConfigured(f"Set the {name} environment variable (comma-separated host names).")
    return hosts
