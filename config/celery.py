"""The Celery app. Tasks are Django-aware (`delay_on_commit`) through Celery's DjangoTask."""

import logging
import os

from celery import Celery, signals
from django.db import DatabaseError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

#: Options of every task that plays a move: acknowledged after it ran, redelivered if the worker dies, retried
#: when the database hiccups. They are safe because each such task is idempotent by (game, version).
RELIABLE_TASK = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (DatabaseError,),
    "retry_backoff": True,
    "retry_backoff_max": 30,
    "max_retries": 8,
}

log = logging.getLogger(__name__)


def _survive_a_lost_redis_connection() -> None:
    """kombu 5.7's Redis transport: when a worker loses the broker, closing its channel restores the messages
    it holds through a new client built from the transport, which the connection has already detached; that
    raises `AttributeError: 'NoneType' object has no attribute 'hostname'` and the worker dies (seen in about
    1 in 8 of the fault suite's outages). Skip that restore instead, as when Redis cannot be reached: the
    messages stay in Redis's unacked set until the visibility timeout, and the outbox resends their jobs."""
    try:
        from kombu.transport.redis import QoS
    except ImportError:  # no Redis transport installed
        return
    restore = QoS.restore_unacked

    def restore_unacked(self, client=None):
        if client is None and getattr(self.channel.connection, "client", None) is None:
            log.warning("not restoring %d unacknowledged message(s): the broker connection is closed",
                        len(self._delivered))
            self._delivered.clear()
            return None
        return restore(self, client)

    QoS.restore_unacked = restore_unacked


_survive_a_lost_redis_connection()

app = Celery("tavolo", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["bots", "games", "tournaments"])


@signals.task_prerun.connect
def _drop_broken_db_connections(**_) -> None:
    """Workers keep their database connection between tasks (CELERY_DB_REUSE_MAX): one that failed (database
    restart, idle timeout) is closed here, so the task's retry opens a fresh one."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if connection.connection is not None and connection.errors_occurred and not connection.in_atomic_block:
            connection.close()
