"""The base endpoint for one game: resolves the URL's game and the caller's seat once (Sentry's pattern)."""

from __future__ import annotations

from rest_framework.views import APIView

from games import rows, selectors
from games.exceptions import BadRequest, Forbidden, NotFound
from games.models import Game, Player


def caller(request) -> Player | None:
    user = request.user
    return getattr(user, "player", None) if user is not None and user.is_authenticated else None


# The largest integer a query parameter may carry: PostgreSQL's `integer`, far below bigint, so that no
# parameter reaches a query as a value the database refuses.
MAX_INT_PARAM = 2**31 - 1


def int_param(request, name: str, default: int | None = None, minimum: int = 0) -> int | None:
    return parse_int(request.query_params.get(name), name, default, minimum)


def parse_int(raw: str | None, name: str, default: int | None = None, minimum: int = 0,
              maximum: int = MAX_INT_PARAM) -> int | None:
    """An integer parameter from `minimum` to `maximum`, or a 400 that names it."""
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest("invalid_parameter", f"{name} must be an integer") from None
    if value < minimum:
        raise BadRequest("invalid_parameter", f"{name} must be at least {minimum}")
    if value > maximum:
        raise BadRequest("invalid_parameter", f"{name} must be at most {maximum}")
    return value


class GameEndpoint(APIView):
    """Turns `game_id` into the Game, and the caller into a seat (None = spectator). Endpoints that show cards
    (`shows_cards`) refuse a sealed game to anyone not seated at it (`game_sealed`)."""

    shows_cards = True

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        game = rows.game_by_id(kwargs["game_id"])  # the head row, read without compiling a queryset
        if game is None:
            raise NotFound("not_found", "no such game")
        self.game = game
        self.seats = selectors.seats_at_head(game=game)
        self.player = caller(request)
        requested = int_param(request, "seat")
        self.seat = selectors.viewer_seat(seats=self.seats, player=self.player, requested=requested)
        if requested is not None and self.seat != requested and selectors.log_is_public(game):
            # Once a game is over its whole log is public: anyone may look through any seat's eyes.
            if requested >= game.seat_count:
                raise BadRequest("invalid_parameter", f"seat must be below {game.seat_count}")
            self.seat = requested
        if self.shows_cards:
            refuse_sealed(game, self.seat)


def refuse_sealed(game: Game, seat: int | None) -> None:
    """A duplicate round's tables share their deal: while the round runs, a table shows nothing to anyone
    not seated at it (a spectator, or a player of another table who would learn their own opponents' cards)."""
    if seat is None and game.sealed:
        raise Forbidden("game_sealed", "this table's deal is in play at other tables of its tournament round: "
                                       "only its own players can see it until the round is over")
