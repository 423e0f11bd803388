"""Celery interface onto tournament and rating services: load ids, call the service. Safe to deliver twice:
both services lock a row and do nothing when the work is done already."""

from celery import shared_task
from django.db import DatabaseError

_RETRY = {"acks_late": True, "reject_on_worker_lost": True, "autoretry_for": (DatabaseError,),
          "retry_backoff": True, "retry_backoff_max": 30, "max_retries": 8}


@shared_task(**_RETRY)
def advance_tournament(tournament_id: str) -> bool:
    """A game of the tournament ended: close the round and pair the next one if it was the last."""
    from games.tournaments.services import tournament_advance

    return tournament_advance(tournament_id=tournament_id)


@shared_task(**_RETRY)
def rate_game(game_id: str) -> bool:
    """A rated game ended: update its players' ratings (once)."""
    from games.tournaments.services import rating_record_game

    return rating_record_game(game_id=game_id)
