"""Reads for the bot machinery: what a bot turn needs."""

from __future__ import annotations

import copy

from games import selectors
from games.caches import read_caches
from games.engine.runner import Position
from games.models import Game, Seat

# `read_caches().bot_games`: game id -> its row and seats, as this worker last read them. An unclocked
# game's seats never change and its row changes only in the head fields (version, status, to_act, result),
# which the log gives.


def bot_turn(*, game_id: str, version: int, tail: list[list] | None = None
             ) -> tuple[Game, list[Seat], Position] | None:
    """The game, its seats and its position for the bot turn at `version`; None if that is no longer the
    head of an active game. A worker that played the game's last bot move needs no read when the task
    carries `tail` (the rows of the move that handed it the turn, `games.selectors.game_position_from_tail`),
    else one (the events since its move, `game_position_at_head`); a cold worker two or three (seats with
    the game, then the position). The head update of the move stays the check that nobody moved meanwhile."""
    kept = read_caches().bot_games.get(game_id)
    if kept is not None:
        game, seats = copy.copy(kept[0]), list(kept[1])  # the head fields are the caller's to change
        position = (tail and selectors.game_position_from_tail(game=game, version=version, tail=tail)
                    or selectors.game_position_at_head(game=game, version=version))
        if position is not None:
            return (game, seats, position) if game.status == Game.Status.ACTIVE and game.version == version else None
    seats = list(Seat.objects.select_related("game").filter(game_id=game_id).order_by("index"))
    game = seats[0].game if seats else None
    if game is None or game.status != Game.Status.ACTIVE or game.version != version:
        return None
    if not game.turn_seconds:  # a clocked game's seats carry deadlines that move with every head
        read_caches().bot_games.put(game_id, (copy.copy(game), seats))
    return game, seats, selectors.game_position(game=game)
