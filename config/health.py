"""Health of the parts the app depends on. Each check answers quickly, even when a part is down."""

from pathlib import Path

from django.conf import settings
from django.db import connection


def check_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"
        return False, f"{type(exc).__name__}: {exc}".strip()[:200]
    return True, "ok"


def check_broker() -> tuple[bool, str]:
    """Redis answers PING within two seconds, or the filesystem queue folder is writable."""
    if settings.REDIS_URL:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
        try:
            client.ping()
        except Exception as exc:
            client.close()
            return False, f"{type(exc).__name__}: {exc}"[:200]
        client.close()
        return True, "ok"
    folder = Path(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"])
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".healthz"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        return False, f"filesystem broker folder not writable: {exc}"
    return True, "ok (filesystem)"
