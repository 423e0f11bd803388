"""Celery interface onto bot services: load ids, call the service. Safe to deliver twice."""

from celery import shared_task

from config.celery import RELIABLE_TASK


@shared_task(**RELIABLE_TASK)
def play_bot_turn(game_id: str, version: int, tail: list | None = None, job: str | None = None) -> bool:
    """`tail` (optional: a resent job has none) saves a warm worker reading back the move it answers; `job`
    is the outbox job to mark done once the turn is played or found moot."""
    from bots.services import bot_play_turn
    from games.outbox import job_done

    played = bot_play_turn(game_id=game_id, version=version, tail=tail)
    job_done(job)
    return played
