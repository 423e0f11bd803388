"""What a game's head moving means for ratings and tournaments (subscribed to `games.hooks` in `ready()`)."""

from __future__ import annotations

from games import outbox
from games.hooks import HeadMoved
from tournaments.models import TournamentTable


def rate_finished_game(moved: HeadMoved) -> list[outbox.Work]:
    """A rated game that just finished is rated (once: `tournaments.tasks.rate_game` is idempotent)."""
    game = moved.game
    if moved.result is None or not game.rated:
        return []
    return [outbox.Work("tournaments.tasks.rate_game", [str(game.id)], f"rate:{game.id}")]


def advance_tournament_of_game(moved: HeadMoved) -> list[outbox.Work]:
    """A finished tournament game may end its round: the tournament is advanced (idempotent)."""
    if moved.result is None:
        return []
    game = moved.game
    tournament_id = (TournamentTable.objects.filter(game=game)
                     .values_list("round__tournament_id", flat=True).first())
    if tournament_id is None:
        return []
    return [outbox.Work("tournaments.tasks.advance_tournament", [str(tournament_id)],
                        f"advance:{tournament_id}:{game.id}")]
