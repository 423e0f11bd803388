"""Celery interface onto bot services: load ids, call the service. Safe to deliver twice.

Bot turns go to one of two queues: a bot that thinks by the clock (it takes `budget_ms`: the search bot)
holds a worker for its whole budget, so its turns go to BOT_SEARCH_QUEUE, served by workers of their own;
every other bot answers in milliseconds and stays on the default queue with the rest of the tasks. However
many search games run, the random and heuristic bots' replies never wait behind them.
"""

from __future__ import annotations

from celery import shared_task

from config.celery import RELIABLE_TASK


@shared_task(**RELIABLE_TASK)
def play_bot_turn(game_id: str, version: int, tail: list | None = None) -> bool:
    """`tail` (optional: the sweep sends none) saves a warm worker reading back the move it answers."""
    from bots.services import bot_play_turn

    return bot_play_turn(game_id=game_id, version=version, tail=tail)


def clock_bound_bots() -> list[str]:
    """The bots whose turns take their `budget_ms` of wall-clock time."""
    from bots.policies import POLICIES

    return sorted(name for name, bot in POLICIES.items() if "budget_ms" in (bot.options or {}))


def bot_turn_queue(bot: str) -> str:
    """The queue for a turn of `bot` (see above)."""
    from django.conf import settings

    return settings.BOT_SEARCH_QUEUE if bot in clock_bound_bots() else settings.CELERY_TASK_DEFAULT_QUEUE


def queue_bot_turn(*, game_id: str, version: int, bot: str, tail: list | None = None) -> None:
    """Queue the turn of `bot` at `version` once the current transaction commits, on that bot's queue."""
    play_bot_turn.apply_async_on_commit((game_id, version, tail), queue=bot_turn_queue(bot))


@shared_task
def sweep_stalled_bot_turns(older_than: float | None = None) -> int:
    """Queue again the bot turns nobody is playing (run by beat every BOT_SWEEP_SECONDS)."""
    from django.conf import settings

    from bots.services import bot_turns_resume

    return bot_turns_resume(older_than=settings.BOT_STALL_SECONDS if older_than is None else older_than,
                            expires=10 * settings.BOT_SWEEP_SECONDS)
