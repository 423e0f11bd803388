"""What a game's head moving means for bots: the next bot turn (subscribed to `games.hooks` in `ready()`)."""

from __future__ import annotations

from django.conf import settings

from bots.policies import bot_budget_seconds
from bots.tasks import bot_turn_queue
from games import outbox
from games.hooks import HeadMoved


def bot_turn(moved: HeadMoved) -> list[outbox.Work]:
    """The bot turn, if a bot seat is to act: taken for lost BOT_STALL_SECONDS plus that bot's budget after;
    on that bot's queue (see bots.tasks). It carries `tail`, the rows just appended, so that a worker holding
    the position before them need not read them back."""
    game = moved.game
    acting = [seat for seat in moved.seats if seat.bot and seat.index in moved.to_act]
    if moved.result is not None or not acting:
        return []
    budget = max(bot_budget_seconds(seat.bot_options) for seat in acting)
    first = min(acting, key=lambda seat: seat.index).bot  # the one a worker plays, on its bot's queue
    return [outbox.Work("bots.tasks.play_bot_turn", [str(game.id), game.version], f"bot:{game.id}:{game.version}",
                        resend_after=settings.BOT_STALL_SECONDS + budget, extra={"tail": moved.tail},
                        queue=bot_turn_queue(first))]
