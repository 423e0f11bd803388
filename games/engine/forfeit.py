"""The result of a game ended by a forfeit (a seat's turn clock ran out under the `forfeit` policy).

A platform fact, not a rule of any game: the log records `game.forfeited {"seat"}`, and anyone
re-checking a finished game derives the same result from it.
"""

from __future__ import annotations

from games.engine.protocol import Result


def forfeit_result(*, seats: int, seat: int) -> Result:
    """Every other seat wins; no scores, since the game was not played out."""
    return {
        "winners": [other for other in range(seats) if other != seat],
        "scores": None,
        "reason": "forfeit",
        "forfeited": seat,
    }
