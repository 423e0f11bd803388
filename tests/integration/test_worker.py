"""A human plays a whole game against a random bot whose turns a real Celery worker plays, on a real
broker, sharing the test database."""

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app
from tests.conftest import create_game

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _database_url() -> str:
    db = connection.settings_dict
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or "5432"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{host}:{port}/{db['NAME']}"


@pytest.fixture
def worker():
    app.control.purge()
    env = dict(os.environ, DATABASE_URL=_database_url(), CELERY_BROKER_URL=settings.CELERY_BROKER_URL)
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo", "-c", "1", "--without-gossip",
         "--without-mingle", "--without-heartbeat", "-l", "WARNING"],
        env=env, cwd=settings.BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    yield process
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()


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
        assert worker.poll() is None, worker.stdout.read().decode()
    events = ann.get(f"/api/v1/games/{game['id']}/events/").json()
    bot_moves = {e["seq"] for e in events if e["actor"] == 1}
    assert human_moves > 0 and bot_moves
    assert summary["status"] == "finished" and summary["result"]["reason"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
