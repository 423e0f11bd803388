"""Celery interface onto the turn clock and the outbox: load ids, call the service. Safe to deliver twice or
early."""

from __future__ import annotations

from celery import shared_task

from config.celery import RELIABLE_TASK
from games.clocks import clock_expire
from games.outbox import job_done, jobs_resend
from games.services import game_expire_invitations


@shared_task(**RELIABLE_TASK)
def expire_turn(game_id: str, version: int, job: str | None = None) -> bool:
    acted = clock_expire(game_id=game_id, version=version, job=job)
    if acted is not None:  # None: delivered before the deadline, sent again for it
        job_done(job)
    return bool(acted)


@shared_task(**RELIABLE_TASK)
def expire_invitations() -> int:
    """The periodic sweep that aborts pending games whose invitations ran out of time."""
    return game_expire_invitations()


@shared_task
def sweep_jobs(everything: bool = False) -> int:
    """Hand again the outbox jobs not done in time (run by beat every JOB_SWEEP_SECONDS)."""
    return jobs_resend(everything=everything)

