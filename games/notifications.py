"""Writes to the per-player notification log that feeds `GET /players/me/stream/`.

Each player's notifications are numbered 1, 2, 3... without gaps, assigned under a lock on the player's
row, so they commit in number order: a stream that has read up to n never later finds an n' < n appear.
A batch with one notification per player (a turn passing, a tournament pairing) on PostgreSQL takes the
lock and inserts in one statement (see `_insert_one_each`); other batches lock, read the last numbers, insert.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from games import broadcast
from games.exceptions import BadRequest
from games.models import Notification, Player

#: The kinds the platform itself sends; other features add theirs (e.g. "tournament_round_paired").
YOUR_TURN = "your_turn"
GAME_STARTED = "game_started"
GAME_FINISHED = "game_finished"
GAME_INVITATION = "game_invitation"  # you are seated in a game that waits for your `accept`
GAME_CANCELLED = "game_cancelled"  # a pending game was declined by a seated player or expired


def player_notify(player_ids: Iterable[int], kind: str, payload: dict[str, Any]) -> list[Notification]:
    """Send the same notification to each of `player_ids`; published to their streams after commit."""
    return notify_each([(player_id, kind, payload) for player_id in player_ids])


def notify_each(items: list[tuple[int, str, dict[str, Any]]]) -> list[Notification]:
    """Append `(player_id, kind, payload)` notifications in one batch (one statement for one notification
    per player on PostgreSQL, else three; no savepoint). Players that do not exist are skipped.

    Joins the caller's transaction, so a notification exists exactly when the fact it announces does."""
    if not items:
        return []
    for _, kind, payload in items:
        if not isinstance(kind, str) or not 0 < len(kind) <= 40 or not isinstance(payload, dict):
            raise BadRequest("invalid_notification", "a notification has a kind (1 to 40 characters) and a dict")
    ids = sorted({player_id for player_id, _, _ in items})
    if connection.vendor == "postgresql" and len(ids) == len(items):
        return _insert_one_each(items)
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


_INSERT_ONE_EACH = """
    INSERT INTO games_notification (player_id, seq, kind, payload, created_at)
    SELECT v.player_id, 1 + COALESCE((SELECT MAX(n.seq) FROM games_notification n WHERE n.player_id = v.player_id), 0),
           v.kind, v.payload::jsonb, %s
    FROM (VALUES {values}) AS v (player_id, kind, payload) JOIN games_player p ON p.id = v.player_id
    ORDER BY v.player_id
    FOR UPDATE OF p
    ON CONFLICT (player_id, seq) DO NOTHING
    RETURNING id, player_id, seq"""


def _insert_one_each(items: list[tuple[int, str, dict[str, Any]]]) -> list[Notification]:
    """One notification for each of distinct players, in one statement that locks their rows (in player
    order, so batches cannot deadlock) and numbers each after their last. That number was read from the
    statement's snapshot, taken before a wait for the lock: if a transaction that held it added one meanwhile,
    the number is taken and the row is skipped (ON CONFLICT), then goes again in a fresh statement, which
    sees it. A number is thus given only once the one before it has committed."""
    pending = {player_id: (kind, json.loads(json.dumps(payload, default=str))) for player_id, kind, payload in items}
    created_at, rows = timezone.now(), []
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        while pending:
            params: list[Any] = [created_at]
            for player_id, (kind, payload) in sorted(pending.items()):
                params += [player_id, kind, json.dumps(payload)]
            values = ", ".join(["(%s::bigint, %s, %s)"] * len(pending))
            cursor.execute(_INSERT_ONE_EACH.format(values=values), params)
            for pk, player_id, seq in cursor.fetchall():
                kind, payload = pending.pop(player_id)
                rows.append(Notification(id=pk, player_id=player_id, seq=seq, kind=kind, payload=payload,
                                         created_at=created_at))
            if pending:  # skipped: another transaction held the number, or the player does not exist
                known = set(Player.objects.filter(pk__in=list(pending)).values_list("pk", flat=True))
                pending = {player_id: item for player_id, item in pending.items() if player_id in known}
        for row in rows:
            transaction.on_commit(partial(broadcast.publish, broadcast.player_channel(row.player_id), row.seq),
                                  robust=True)
    return rows
