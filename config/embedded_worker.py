"""The embedded default's task worker: a Celery worker thread on the in-memory broker.

Used only when CELERY_BROKER_URL is unset, so that one process serves the API and plays bot seats. The beat
schedule (the outbox sweep) runs beside it in a daemon thread.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)
_context = None  # the worker's context manager: dropping it would stop the worker


def start_embedded_worker() -> None:
    """Start (once) a solo-pool worker thread consuming the in-memory broker of this process."""
    global _context
    if _context is not None:
        return
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    context = start_worker(app, pool="solo", concurrency=1, perform_ping_check=False, loglevel="WARNING",
                           shutdown_timeout=5)
    context.__enter__()  # lives as long as the process; the thread is a daemon
    _context = context
    _start_beat(app)
    log.info("embedded task worker started (in-memory broker)")


def _start_beat(app) -> None:
    """Celery beat in a daemon thread, and one sweep of every job not done at once: the in-memory broker
    starts empty, so each job handed to the previous process's broker but not done was lost with it."""
    from celery.beat import EmbeddedService

    from games.tasks import sweep_jobs

    EmbeddedService(app, thread=True).start()
    sweep_jobs.delay(everything=True)
