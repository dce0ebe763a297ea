"""Publishing chunk tasks: by submission (every chunk) and by the watchdog (a chunk whose worker went silent)."""

from __future__ import annotations

import logging

from rules.errors import Unavailable
from rules.i18n import _

logger = logging.getLogger(__name__)


class BrokerUnavailable(Unavailable):
    """The job queue is down (503): nothing was created, the rows of the submission roll back."""

    code = "broker_unavailable"

    def __init__(self, message: str = ""):
        super().__init__(
            message or _("The job queue is not reachable right now, so no job was created. Try again in a minute.")
        )


CHUNK_TASK = "rules.balance_chunk"  # the Celery task of one chunk (rules/tasks.py)


def publish_chunks(job_id: int, indexes) -> None:
    """Sends these chunks of the job as one Celery group, on a fresh connection so a broker that went away is seen
    at once (no retries: the user is told to try again; the watchdog sweeps again later)."""
    from celery import group
    from kombu.exceptions import KombuError, OperationalError

    from config.celery import app

    # by name (rules/tasks.py registers it), so rules.jobs does not import rules.tasks, which imports it
    signatures = group(app.signature(CHUNK_TASK, args=(job_id, i), immutable=True) for i in indexes)
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=0)
            signatures.apply_async(producer=app.amqp.Producer(conn))
    except (OperationalError, KombuError, OSError) as exc:
        logger.warning("balance job %s: broker unreachable: %s", job_id, exc)
        raise BrokerUnavailable() from exc
    except Exception as exc:  # redis-py errors that kombu did not wrap
        if type(exc).__module__.startswith(("redis", "kombu", "amqp")):
            logger.warning("balance job %s: broker error: %s", job_id, exc)
            raise BrokerUnavailable() from exc
        raise
