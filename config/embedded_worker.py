"""The embedded default's task workers: Celery worker threads on the in-memory broker, one per queue.

Used only when CELERY_BROKER_URL is unset, so that one process serves the API and plays bot seats. One thread
serves the default queue and one the search bots' queue (BOT_SEARCH_QUEUE), so that a search bot thinking
never holds up the other games' bots, as with production's two workers. The beat schedule (the outbox
sweep) runs beside them in a daemon thread.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)
_contexts: list = []  # the workers' context managers: dropping them would stop the workers


def start_embedded_worker() -> None:
    """Start (once) a solo-pool worker thread per queue, consuming the in-memory broker of this process."""
    if _contexts:
        return
    from celery.contrib.testing.worker import start_worker
    from django.conf import settings

    from config.celery import app

    for queue in (settings.CELERY_TASK_DEFAULT_QUEUE, settings.BOT_SEARCH_QUEUE):
        # Started one after the other: each consumer binds to the queue selected for it before the next.
        context = start_worker(app, pool="solo", concurrency=1, perform_ping_check=False, loglevel="WARNING",
                               shutdown_timeout=5, queues=[queue], hostname=f"embedded-{queue}@localhost")
        context.__enter__()  # lives as long as the process; the thread is a daemon
        _contexts.append(context)
    _start_beat(app)
    log.info("embedded task worker started (in-memory broker)")


def _start_beat(app) -> None:
    """Celery beat in a daemon thread, and one sweep of every job not done at once: the in-memory broker
    starts empty, so each job handed to the previous process's broker but not done was lost with it."""
    from celery.beat import EmbeddedService

    from games.tasks import sweep_jobs

    EmbeddedService(app, thread=True).start()
    sweep_jobs.delay(everything=True)
