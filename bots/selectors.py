"""Reads for the bot machinery: which bot turns look lost."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from games.models import Event, Game, Seat


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
