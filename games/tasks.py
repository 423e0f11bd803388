"""Celery interface onto the turn clock: load ids, call the service. Safe to deliver twice or early."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.db import DatabaseError


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=8,
)
def expire_turn(game_id: str, version: int) -> bool:
    from games.clocks import clock_expire

    return clock_expire(game_id=game_id, version=version)


def queue_turn_expiry(*, game_id: str, version: int, eta: datetime) -> None:
    """Check the clock of `game_id` at `version` when `eta` comes, once the current transaction commits."""
    expire_turn.apply_async_on_commit((game_id, version), eta=eta)
