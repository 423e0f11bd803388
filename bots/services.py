"""Playing a bot seat: the bot sees its seat's view and legal actions, never the true state."""

from __future__ import annotations

import logging
import random

from django.conf import settings

from bots import policies
from bots.selectors import bot_turn
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

