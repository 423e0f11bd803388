"""Reads for the bot machinery: what a bot turn needs, which bot turns look lost."""

from __future__ import annotations

import copy
from collections import OrderedDict
from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from games import selectors
from games.engine.runner import Position
from games.models import Event, Game, Seat

_KEPT = 512
#: game id -> its row and seats, as this worker last read them: an unclocked game's seats never change and
#: its row changes only in the head fields (version, status, to_act, result), which the log gives.
_kept: OrderedDict[str, tuple[Game, list[Seat]]] = OrderedDict()


def bot_turn(*, game_id: str, version: int, tail: list[list] | None = None
             ) -> tuple[Game, list[Seat], Position] | None:
    """The game, its seats and its position for the bot turn at `version`; None if that is no longer the
    head of an active game. A worker that played the game's last bot move needs no read when the task
    carries `tail` (the rows of the move that handed it the turn, `games.selectors.game_position_from_tail`),
    else one (the events since its move, `game_position_at_head`); a cold worker two or three (seats with
    the game, then the position). The head update of the move stays the check that nobody moved meanwhile."""
    kept = _kept.get(game_id)
    if kept is not None:
        game, seats = copy.copy(kept[0]), list(kept[1])  # the head fields are the caller's to change
        position = (tail and selectors.game_position_from_tail(game=game, version=version, tail=tail)
                    or selectors.game_position_at_head(game=game, version=version))
        if position is not None:
            _kept.move_to_end(game_id)
            return (game, seats, position) if game.status == Game.Status.ACTIVE and game.version == version else None
    seats = list(Seat.objects.select_related("game").filter(game_id=game_id).order_by("index"))
    game = seats[0].game if seats else None
    if game is None or game.status != Game.Status.ACTIVE or game.version != version:
        return None
    if not game.turn_seconds:  # a clocked game's seats carry deadlines that move with every head
        _kept[game_id] = (copy.copy(game), seats)
        while len(_kept) > _KEPT:
            _kept.popitem(last=False)
    return game, seats, selectors.game_position(game=game)


def bot_turns_stalled(*, older_than: float, now: datetime | None = None, limit: int = 1000) -> list[tuple[str, int]]:
    """(game id, version) of the active games where a bot seat is to act and the head has waited more than
    `older_than` seconds plus that bot's own `budget_ms`: turns whose task was lost (a broker restart, a
    worker killed mid-turn whose message is not back yet). Oldest first, at most `limit`."""
    now = now or timezone.now()
    head_at = Event.objects.filter(game=OuterRef("pk"), seq=OuterRef("version")).values("recorded_at")[:1]
    has_bot = Exists(Seat.objects.filter(game=OuterRef("pk")).exclude(bot=""))
    rows = list(
        Game.objects.filter(has_bot, status=Game.Status.ACTIVE)
        .annotate(head_at=Subquery(head_at))
        .filter(head_at__lte=now - timedelta(seconds=older_than))
        .order_by("head_at")
        .values_list("id", "version", "to_act", "head_at")[:limit]
    )
    bots: dict = {}
    for game_id, index, options in (Seat.objects.filter(game_id__in=[row[0] for row in rows]).exclude(bot="")
                                    .values_list("game_id", "index", "bot_options")):
        bots.setdefault(game_id, {})[index] = options or {}
    stalled = []
    for game_id, version, to_act, head_at in rows:
        acting = [bots[game_id][seat] for seat in to_act if seat in bots.get(game_id, {})]
        if not acting:
            continue
        budget = max(_budget_seconds(options) for options in acting)
        if head_at + timedelta(seconds=older_than + budget) <= now:
            stalled.append((str(game_id), version))
    return stalled


def _budget_seconds(options: dict) -> float:
    budget = options.get("budget_ms", 0)
    return budget / 1000 if isinstance(budget, int | float) and not isinstance(budget, bool) else 0.0


def games_with_bots(*, game_ids: list[str], bots: list[str]) -> dict[str, str]:
    """Of `game_ids`, those with a seat played by one of `bots`: game id -> that bot (one query, none if empty)."""
    if not game_ids or not bots:
        return {}
    rows = Seat.objects.filter(game_id__in=game_ids, bot__in=bots).values_list("game_id", "bot")
    return {str(game_id): bot for game_id, bot in rows}
