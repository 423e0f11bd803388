"""The Celery app. Tasks are Django-aware (`delay_on_commit`) through Celery's DjangoTask."""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tavolo", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["bots", "games", "games.tournaments"])


@signals.task_prerun.connect
def _drop_broken_db_connections(**_) -> None:
    """Workers keep their database connection between tasks (CELERY_DB_REUSE_MAX): one that failed (database
    restart, idle timeout) is closed here, so the task's retry opens a fresh one."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if connection.connection is not None and connection.errors_occurred and not connection.in_atomic_block:
            connection.close()
