"""A search bot's thinking happens in the worker, never in the web request: creating a game whose first
turn is the bot's returns before the bot has moved, and the move arrives later from the worker."""

from __future__ import annotations

import time

import pytest

from games.models import Event
from tests.conftest import create_game
from tests.integration.test_worker import worker  # noqa: F401  (the real Celery worker fixture)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_request_returns_while_the_worker_thinks(ann, worker):  # noqa: F811
    budget_ms = 1500
    game = create_game(ann, [{"bot": "search", "budget_ms": budget_ms}, {"bot": "search", "budget_ms": budget_ms}],
                       seed="3c" * 32)  # the first turn offers 20 moves
    created = game["version"]
    seat = game["to_act"][0]
    assert game["seats"][seat]["bot_options"] == {"budget_ms": budget_ms}
    # the response came back with the bot still to move: nothing it might compute was waited for
    assert Event.objects.filter(game_id=game["id"]).count() == created
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        moved = ann.get(f"/api/v1/games/{game['id']}/").json()["version"] > created
        if moved:
            break
        assert worker.poll() is None, worker.stdout.read().decode()
        time.sleep(0.05)
    assert moved, "the worker never played the bot's turn"
    first = Event.objects.filter(game_id=game["id"], seq=created + 1).values("actor", "recorded_at").get()
    head = Event.objects.filter(game_id=game["id"], seq=created).values_list("recorded_at", flat=True).get()
    assert first["actor"] == seat
    # the bot's move was recorded only after it had thought (in the worker) for about its budget
    assert (first["recorded_at"] - head).total_seconds() >= budget_ms / 1000 * 0.9
