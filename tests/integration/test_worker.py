"""A human plays a whole game against a random bot whose turns a real Celery worker plays, on a real
broker, sharing the test database."""

import random
import time

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app
from tests.conftest import create_game
from tests.integration import live

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker():
    app.control.purge()
    process = live.celery_worker({"DATABASE_URL": live.database_url(connection.settings_dict),
                                  "CELERY_BROKER_URL": settings.CELERY_BROKER_URL})
    yield process
    live.stop(process)


def _wait_for_turn(player, game_id: str, seat: int, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        summary = player.get(f"/api/v1/games/{game_id}/").json()
        if summary["status"] != "active" or seat in summary["to_act"]:
            return summary
        time.sleep(0.02)
    raise AssertionError(f"the bot did not move within {timeout}s")


def test_human_against_a_bot_played_by_a_real_worker(ann, worker):
    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="9a" * 32)
    rng = random.Random(5)
    human_moves = 0
    while True:
        summary = _wait_for_turn(ann, game["id"], 0)
        if summary["status"] != "active":
            break
        state = ann.get(f"/api/v1/games/{game['id']}/state/").json()
        response = ann.post(f"/api/v1/games/{game['id']}/actions/",
                            {"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]})
        assert response.status_code == 201, response.json()
        human_moves += 1
        assert worker.poll() is None, live.output(worker)
    events = ann.get(f"/api/v1/games/{game['id']}/events/").json()
    bot_moves = {e["seq"] for e in events if e["actor"] == 1}
    assert human_moves > 0 and bot_moves
    assert summary["status"] == "finished" and summary["result"]["reason"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
