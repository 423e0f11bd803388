"""Celery interface onto tournament and rating services: load ids, call the service. Safe to deliver twice:
both services lock a row and do nothing when the work is done already. `job` is the outbox job to mark done."""

from celery import shared_task
from django.db import DatabaseError

from games.outbox import job_done
from tournaments.services import rating_record_game, tournament_advance

_RETRY = {"acks_late": True, "reject_on_worker_lost": True, "autoretry_for": (DatabaseError,),
          "retry_backoff": True, "retry_backoff_max": 30, "max_retries": 8}


@shared_task(**_RETRY)
def advance_tournament(tournament_id: str, job: str | None = None) -> bool:
    """A game of the tournament ended: close the round and pair the next one if it was the last."""
    advanced = tournament_advance(tournament_id=tournament_id)
    job_done(job)
    return advanced


@shared_task(**_RETRY)
def rate_game(game_id: str, job: str | None = None) -> bool:
    """A rated game ended: update its players' ratings (once)."""
    rated = rating_record_game(game_id=game_id)
    job_done(job)
    return rated
