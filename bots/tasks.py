"""Celery interface onto bot services: load ids, call the service. Safe to deliver twice.

Bot turns go to one of two queues: a bot that thinks by the clock (it takes `budget_ms`: the search bot)
holds a worker for its whole budget, so its turns go to BOT_SEARCH_QUEUE, served by workers of their own;
every other bot answers in milliseconds and stays on the default queue with the rest of the tasks. However
many search games run, the random and heuristic bots' replies never wait behind them.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from bots.policies import POLICIES
from bots.services import bot_play_turn
from config.celery import RELIABLE_TASK
from games.outbox import job_done


@shared_task(**RELIABLE_TASK)
def play_bot_turn(game_id: str, version: int, tail: list | None = None, job: str | None = None) -> bool:
    """`tail` (optional: a resent job has none) saves a warm worker reading back the move it answers; `job`
    is the outbox job to mark done once the turn is played or found moot."""
    played = bot_play_turn(game_id=game_id, version=version, tail=tail)
    job_done(job)
    return played


def clock_bound_bots() -> list[str]:
    """The bots whose turns take their `budget_ms` of wall-clock time."""
    return sorted(name for name, bot in POLICIES.items() if "budget_ms" in (bot.options or {}))


def bot_turn_queue(bot: str) -> str:
    """The queue for a turn of `bot` (see above)."""
    return settings.BOT_SEARCH_QUEUE if bot in clock_bound_bots() else settings.CELERY_TASK_DEFAULT_QUEUE

