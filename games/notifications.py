"""Writes to the per-player notification log that feeds `GET /players/me/stream/`.

Each player's notifications are numbered 1, 2, 3... without gaps, assigned under a lock on the player's
row, so they commit in number order: a stream that has read up to n never later finds an n' < n appear.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Max

from games import broadcast
from games.exceptions import BadRequest
from games.models import Notification, Player

#: The kinds the platform itself sends; other features add theirs (e.g. "tournament_round_paired").
YOUR_TURN = "your_turn"
GAME_STARTED = "game_started"
GAME_FINISHED = "game_finished"


def player_notify(player_ids: Iterable[int], kind: str, payload: dict[str, Any]) -> list[Notification]:
    """Send the same notification to each of `player_ids`; published to their streams after commit."""
    return notify_each([(player_id, kind, payload) for player_id in player_ids])


def notify_each(items: list[tuple[int, str, dict[str, Any]]]) -> list[Notification]:
    """Append `(player_id, kind, payload)` notifications in one batch (three statements, no savepoint).

    Joins the caller's transaction, so a notification exists exactly when the fact it announces does."""
    if not items:
        return []
    for _, kind, payload in items:
        if not isinstance(kind, str) or not 0 < len(kind) <= 40 or not isinstance(payload, dict):
            raise BadRequest("invalid_notification", "a notification has a kind (1 to 40 characters) and a dict")
    ids = sorted({player_id for player_id, _, _ in items})
    with transaction.atomic(savepoint=False):
        ids = list(Player.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
        items = [item for item in items if item[0] in ids]  # players that no longer exist hear nothing
        last = dict(
            Notification.objects.filter(player_id__in=ids).values("player_id").annotate(last=Max("seq"))
            .values_list("player_id", "last")
        )
        rows = []
        for player_id, kind, payload in items:
            last[player_id] = last.get(player_id, 0) + 1
            rows.append(Notification(player_id=player_id, seq=last[player_id], kind=kind,
                                     payload=json.loads(json.dumps(payload, default=str))))
        Notification.objects.bulk_create(rows)
        for player_id in ids:
            transaction.on_commit(partial(broadcast.publish, broadcast.player_channel(player_id), last[player_id]),
                                  robust=True)
    return rows
