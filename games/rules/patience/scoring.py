"""The end of a game (goal pile emptied, blocked, turn limit), match totals and the final result.

The winner of a game scores one point per card left in the loser's goal pile; a blocked game (or one
stopped by `max_turns`) goes to the player with fewer goal cards, for the difference. With a `target`
the next game is dealt at once until someone's total reaches it.
"""

from __future__ import annotations

from games.engine.protocol import Event, Result, Rng
from games.rules.patience.evolve import evolve
from games.rules.patience.setup import deal_game
from games.rules.patience.state import Table
from games.rules.patience.variant import Variant


def game_points(table: Table, reason: str, winner: int | None) -> tuple[int | None, list[int]]:
    """(winner, points per seat) of the game now ending."""
    left = [len(table.goals[0]), len(table.goals[1])]
    if winner is None and left[0] != left[1]:
        winner = 0 if left[0] < left[1] else 1
    points = [0, 0]
    if winner is not None:
        points[winner] = left[1 - winner] - left[winner]
    return winner, points


def finish_game(variant: Variant, table: Table, rng: Rng, reason: str, winner: int | None = None) -> list[Event]:
    """Score the game ending on `table`; deal the next one when a match goes on."""
    match = table.match
    winner, points = game_points(table, reason, winner)
    totals = [match.totals[0] + points[0], match.totals[1] + points[1]]
    match_over = match.target is None or max(totals) >= match.target
    over = Event("game_over", {
        "game": match.game, "winner": winner, "reason": reason,
        "points": {"0": points[0], "1": points[1]},
        "totals": {"0": totals[0], "1": totals[1]},
        "match_over": match_over,
    })
    if match_over:
        return [over]
    return [over, *deal_game(variant, evolve(table, over), rng, match.game + 1)]


def result(table: Table) -> Result | None:
    """None while the match runs; then the winner, the last game's points and the match totals."""
    match = table.match
    if not match.over:
        return None
    last = match.history[-1]
    totals = {"0": match.totals[0], "1": match.totals[1]}
    if match.target is None:
        winner = last.winner
    else:
        winner = None if match.totals[0] == match.totals[1] else int(match.totals[1] > match.totals[0])
    return {
        "winners": [] if winner is None else [winner],
        "scores": totals,
        "reason": last.reason,
        "winner": winner,
        "points": {"0": last.points[0], "1": last.points[1]},
        "totals": totals,
        "target": match.target,
        "games": [game.as_json() for game in match.history],
    }
