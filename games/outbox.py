"""The transactional outbox: every task a commit implies is recorded as a `Job` row in that same transaction,
then handed to the broker after it commits. Handing over never fails the caller: a broker that is down
leaves the job in the table, and the periodic sweep (`jobs_resend`, run by beat) hands it again once its
`resend_at` passes. A task marks its job done when it has run (`job_done`); tasks are idempotent, so a job
handed twice (a slow task taken for a lost one) does its work once.

Jobs carry a key naming the work (`bot:<game>:<version>`, `clock:<game>:<version>`, `rate:<game>`,
`advance:<tournament>:<game>`): the same work is recorded once, whoever asks for it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from importlib import import_module
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Job

log = logging.getLogger(__name__)

#: A publish that fails is retried once at once: a broker that is down must not hold up the request that
#: committed (the sweep hands the job again later).
_PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.1, "interval_max": 0.1}


@dataclass(frozen=True)
class Work:
    """A job to record: task name, its stored positional arguments, its key; `due_at` (None: now) is the
    earliest it may run; `resend_after` (default JOB_RESEND_SECONDS) how long past `due_at` it may wait
    before the sweep takes it for lost; `extra` keyword arguments for the first hand-over only (not stored:
    a warm worker's shortcut, never needed for the work itself); `queue` the Celery queue (None: the
    default one)."""

    task: str
    args: list
    key: str
    due_at: datetime | None = None
    resend_after: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    queue: str | None = None


def schedule(works: list[Work]) -> None:
    """Record `works` in the current transaction (one INSERT; a key already recorded is left as it is) and
    hand them to the broker once it commits."""
    if not works:
        return
    now = timezone.now()
    rows = []
    for work in works:
        due = work.due_at or now
        delay = settings.JOB_RESEND_SECONDS if work.resend_after is None else work.resend_after
        rows.append(Job(key=work.key, task=work.task, args=work.args, queue=work.queue or "", due_at=due,
                        resend_at=due + timedelta(seconds=delay), created_at=now))
    Job.objects.bulk_create(rows, ignore_conflicts=True)
    transaction.on_commit(partial(dispatch, works), robust=True)


def dispatch(works: list[Work], *, expires: float | None = None) -> int:
    """Hand `works` to the broker (with an eta if due later); returns how many were sent. Never raises: a job
    not sent stays in the outbox and the sweep sends it. After the first failure the rest are not tried (the
    broker is down: each try would only add its wait to the caller's)."""
    now = timezone.now()
    for sent, work in enumerate(works):
        eta = work.due_at if work.due_at is not None and work.due_at > now else None
        try:
            _task(work.task).apply_async(work.args, {**work.extra, "job": work.key}, eta=eta, expires=expires,
                                             queue=work.queue or None, retry_policy=_PUBLISH_RETRY)
        except Exception as error:  # noqa: BLE001 - any broker error: the job waits in the outbox
            log.warning("could not hand %d job(s) to the broker (first %s: %r); the sweep will resend them",
                        len(works) - sent, work.key, error)
            return sent
    return len(works)


#: Tasks whose module moved, by the name jobs recorded before the move still carry.
MOVED_TASKS = {
    "games.tournaments.tasks.rate_game": "tournaments.tasks.rate_game",
    "games.tournaments.tasks.advance_tournament": "tournaments.tasks.advance_tournament",
}


def _task(name: str) -> Any:
    """The task named `name` (`module.function`, Celery's default name), its module imported if need be."""
    module, _, function = MOVED_TASKS.get(name, name).rpartition(".")
    return getattr(import_module(module), function)


def job_done(key: str | None) -> None:
    """Mark the job `key` done (its task ran to the end, whether or not it found work left to do)."""
    if key:
        Job.objects.filter(key=key, done_at__isnull=True).update(done_at=timezone.now())


def jobs_resend(*, now: datetime | None = None, everything: bool = False, limit: int = 1000) -> int:
    """Hand again each job not done by its `resend_at`, pushing `resend_at` one delay further so the next
    sweep leaves it alone meanwhile; with `everything`, each job not done (a broker that started empty: the
    embedded default's in-memory one). Deletes the jobs done more than JOB_KEEP_SECONDS ago. Returns how many
    were handed again."""
    now = now or timezone.now()
    with transaction.atomic():
        pending = Job.objects.select_for_update(skip_locked=True).filter(done_at__isnull=True)
        if not everything:
            pending = pending.filter(resend_at__lte=now)
        jobs = list(pending.order_by("resend_at")[:limit])
        works, overdue = [], []
        for job in jobs:
            delay = job.resend_at - job.due_at
            if job.due_at <= now:
                job.due_at, job.resend_at, job.attempts = now, now + delay, job.attempts + 1
                overdue.append(job)
            works.append(Work(job.task, job.args, job.key, due_at=job.due_at, queue=job.queue or None))
        Job.objects.bulk_update(overdue, ["due_at", "resend_at", "attempts"])
        # A copy still queued when the next resend is due is dropped: copies do not pile up while no worker runs.
        expires = max(settings.JOB_RESEND_SECONDS, settings.JOB_SWEEP_SECONDS) * 2
        transaction.on_commit(partial(_dispatch_resent, [w for w in works if w.due_at <= now], expires), robust=True)
        transaction.on_commit(partial(dispatch, [w for w in works if w.due_at > now]), robust=True)
    Job.objects.filter(done_at__lt=now - timedelta(seconds=settings.JOB_KEEP_SECONDS)).delete()
    if works:
        log.warning("resent %d job(s) not done in time: %s", len(works), [w.key for w in works[:10]])
    return len(works)


def _dispatch_resent(works: list[Work], expires: float) -> None:
    dispatch(works, expires=expires)
