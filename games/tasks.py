"""Celery interface onto the turn clock: load ids, call the service. Safe to deliver twice or early."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from config.celery import RELIABLE_TASK


@shared_task(**RELIABLE_TASK)
def expire_turn(game_id: str, version: int) -> bool:
    from games.clocks import clock_expire

    return clock_expire(game_id=game_id, version=version)


@shared_task(**RELIABLE_TASK)
def expire_invitations() -> int:
    """The periodic sweep that aborts pending games whose invitations ran out of time."""
    from games.services import game_expire_invitations

    return game_expire_invitations()


def queue_turn_expiry(*, game_id: str, version: int, eta: datetime) -> None:
    """Check the clock of `game_id` at `version` when `eta` comes, once the current transaction commits."""
    expire_turn.apply_async_on_commit((game_id, version), eta=eta)
