"""The turn clock: what happens when a player seat lets its deadline pass.

Each head of a clocked game queues one check at its earliest deadline, carrying (game id, version). The
check is idempotent: if the game moved on it does nothing, so a move made in time cancels it, and a
duplicate delivery finds the version already moved by the first. An expiry plays exactly one move (or
ends the game by forfeit); the new head then gives the next seat to act its own deadline.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime

from django.utils import timezone

from bots import policies
from bots.policies import unknown_bot_reason
from games import outbox, selectors, services
from games.exceptions import ApplicationError
from games.hooks import HeadMoved
from games.models import ClockPolicy, Game

log = logging.getLogger(__name__)


def turn_expiry_job(*, game_id: str, version: int, eta: datetime) -> outbox.Work:
    """The outbox job that checks the clock of `game_id` at `version` when `eta` comes."""
    return outbox.Work("games.tasks.expire_turn", [game_id, version], f"clock:{game_id}:{version}", due_at=eta)


def clock_check(moved: HeadMoved) -> list[outbox.Work]:
    """The clock check of a new head of a running clocked game, due at its earliest deadline (subscribed to
    `games.hooks` by the games app: the deadlines themselves are set by the write, `games.services`)."""
    game = moved.game
    if moved.result is not None or not game.turn_seconds:
        return []
    deadlines = [seat.deadline for seat in moved.seats if seat.deadline is not None]
    return [turn_expiry_job(game_id=str(game.id), version=game.version, eta=min(deadlines))] if deadlines else []


def clock_expire(*, game_id: str, version: int, job: str | None = None) -> bool | None:
    """Act for the seat whose deadline passed at `version`; True if a move (or the forfeit) was recorded,
    None if it came before the deadline (it is then sent again for the deadline, as outbox `job`)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.version != version or not game.turn_seconds:
        return False
    seats = selectors.seats_of(game=game)
    running = [seat for seat in seats if seat.deadline is not None and seat.index in game.to_act]
    expired = sorted((seat for seat in running if seat.deadline <= timezone.now()),
                     key=lambda seat: (seat.deadline, seat.index))
    if not expired:
        if running:  # delivered early (clock skew between machines): look again at the deadline
            work = turn_expiry_job(game_id=str(game.id), version=version, eta=min(s.deadline for s in running))
            outbox.dispatch([outbox.Work(work.task, work.args, job or work.key, due_at=work.due_at)])
            return None
        return False
    seat = expired[0].index
    try:
        if game.clock_policy == ClockPolicy.FORFEIT:
            services.game_forfeit(game=game, seat=seat, expected_version=version)
        else:
            action = _choose(game, seat)
            services.game_apply_seat_action(game=game, seat=seat, action=action, expected_version=version)
    except ApplicationError as refused:
        log.info("clock of %s@%s seat %s not applied: %s", game_id, version, seat, refused.code)
        return False
    return True


def _choose(game: Game, seat: int) -> dict:
    """The policy's move, chosen from the seat's own view like any bot (never the hidden state)."""
    wanted = "heuristic" if game.clock_policy == ClockPolicy.HEURISTIC else "random"
    name = wanted if unknown_bot_reason(wanted, game.kind) is None else "random"
    engine = selectors.engine_for(game)
    state = selectors.game_position(game=game).state
    rng = random.Random(f"clock:{game.id}:{game.version}:{seat}")
    return policies.choose(name, engine, state, seat, rng)
