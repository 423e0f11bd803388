"""Celery interface onto bot services: load ids, call the service. Safe to deliver twice."""

from celery import shared_task

from config.celery import RELIABLE_TASK


@shared_task(**RELIABLE_TASK)
def play_bot_turn(game_id: str, version: int, tail: list | None = None) -> bool:
    """`tail` (optional: the sweep sends none) saves a warm worker reading back the move it answers."""
    from bots.services import bot_play_turn

    return bot_play_turn(game_id=game_id, version=version, tail=tail)


@shared_task
def sweep_stalled_bot_turns(older_than: float | None = None) -> int:
    """Queue again the bot turns nobody is playing (run by beat every BOT_SWEEP_SECONDS)."""
    from django.conf import settings

    from bots.services import bot_turns_resume

    return bot_turns_resume(older_than=settings.BOT_STALL_SECONDS if older_than is None else older_than,
                            expires=10 * settings.BOT_SWEEP_SECONDS)
