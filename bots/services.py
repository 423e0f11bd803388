"""Playing a bot seat: the bot sees its seat's view and legal actions, never the true state."""

from __future__ import annotations

import logging
import random

from django.conf import settings

from bots import policies
from bots.selectors import bot_turn, bot_turns_stalled, games_with_bots
from games import selectors, services
from games.exceptions import ApplicationError

log = logging.getLogger(__name__)


def bot_play_turn(*, game_id: str, version: int, tail: list[list] | None = None) -> bool:
    """Play one move for a bot to act at `version`. Idempotent: does nothing if the game moved on.
    `tail`: the rows of the move that made `version` the head, if the queuing write handed them over."""
    turn = bot_turn(game_id=game_id, version=version, tail=tail)
    if turn is None:
        return False
    game, seats, position = turn
    engine = selectors.engine_for(game)
    bots = {seat.index: seat for seat in seats if seat.bot}
    acting = sorted(seat for seat in engine.to_act(position.state) if seat in bots)
    if not acting:
        return False
    seat = acting[0]
    rng = random.Random(f"{game.id}:{version}:{seat}")
    action = policies.choose(bots[seat].bot, engine, position.state, seat, rng, _capped(bots[seat].bot_options))
    try:
        services.game_apply_seat_action(game=game, seat=seat, action=action, expected_version=version, seats=seats)
    except ApplicationError as refused:
        # Someone else moved first (a duplicate delivery, a human in a simultaneous phase): nothing to do.
        log.info("bot turn %s@%s not played: %s", game_id, version, refused.code)
        return False
    return True


def _capped(options: dict) -> dict:
    """The seat's options with `budget_ms` cut to MAX_BOT_BUDGET_MS: a game created before the limit was
    lowered does not hold a worker longer than the server now allows."""
    budget = options.get("budget_ms")
    if isinstance(budget, int) and budget > settings.MAX_BOT_BUDGET_MS:
        return {**options, "budget_ms": settings.MAX_BOT_BUDGET_MS}
    return options


def bot_turns_resume(*, older_than: float, expires: float | None = None) -> int:
    """Queue a turn for every game left waiting on a bot (see `bot_turns_stalled`); returns how many.

    A turn that was only slow gets a second task, which finds the game moved on. `expires` drops the copies
    that pile up while no worker runs: the next sweep queues a fresh one."""
    from bots.tasks import bot_turn_queue, clock_bound_bots, play_bot_turn

    stalled = bot_turns_stalled(older_than=older_than)
    clocked = games_with_bots(game_ids=[game_id for game_id, _ in stalled], bots=clock_bound_bots())
    for game_id, version in stalled:
        # The search queue for a game with a clock-bound bot at all: a rare resumed turn may wait there.
        queue = bot_turn_queue(clocked.get(game_id, ""))
        play_bot_turn.apply_async((game_id, version), expires=expires, queue=queue)
    if stalled:
        log.warning("queued %d stalled bot turns again: %s", len(stalled), stalled[:10])
    return len(stalled)
