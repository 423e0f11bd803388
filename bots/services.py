"""Playing a bot seat: the bot sees its seat's view and legal actions, never the true state."""

from __future__ import annotations

import logging
import random

from bots.policies import POLICIES
from games import selectors, services
from games.exceptions import ApplicationError
from games.models import Game

log = logging.getLogger(__name__)


def bot_play_turn(*, game_id: str, version: int) -> bool:
    """Play one move for a bot to act at `version`. Idempotent: does nothing if the game moved on."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.version != version:
        return False
    position = selectors.game_position(game=game)
    engine = selectors.engine_for(game)
    bots = {seat.index: seat for seat in game.seats.all() if seat.bot}
    acting = sorted(seat for seat in engine.to_act(position.state) if seat in bots)
    if not acting:
        return False
    seat = acting[0]
    policy, _ = POLICIES[bots[seat].bot]
    rng = random.Random(f"{game.id}:{version}:{seat}")
    view = engine.view(position.state, seat)
    action = policy(view, engine.legal_actions(position.state, seat), rng)
    try:
        services.game_apply_seat_action(game=game, seat=seat, action=action, expected_version=version)
    except ApplicationError as refused:
        # Someone else moved first (a duplicate delivery, a human in a simultaneous phase): nothing to do.
        log.info("bot turn %s@%s not played: %s", game_id, version, refused.code)
        return False
    return True
