"""A worker killed (SIGKILL) in the middle of a bot turn: the turn is played exactly once afterwards, and the
game goes on to its end. Real Celery workers on Redis, sharing the PostgreSQL test database.

What Redis does with the killed worker's message decides who replays the turn:
- a prefork pool process killed: its parent sees the loss and requeues the message (`reject_on_worker_lost`);
- the whole worker killed: the message waits in Redis's `unacked` set for `visibility_timeout` seconds, then
  any worker restores it; until then the outbox sweep (`games.tasks.sweep_jobs`) hands the turn's job again.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from bots.policies import POLICIES
from config.celery import app
from games import selectors
from games.models import Event, Game
from games.services import game_open
from tests.integration.live import database_url
from tests.integration.slow_bot import SLOW

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

BUDGET_MS = 2000  # the slow bot's first turn in each worker process
SLOW_SEAT = 0


@pytest.fixture
def broker():
    """The test broker with nothing queued and nothing held in Redis's `unacked` set, before and after."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)

    def clear() -> None:
        app.control.purge()
        client.delete("unacked", "unacked_index", "unacked_mutex")

    clear()
    yield client
    clear()


@pytest.fixture
def workers(tmp_path, monkeypatch, broker):
    """Start workers (`-A tests.integration.slow_worker`, which registers the slow bot); all stopped after."""
    monkeypatch.setitem(POLICIES, "slow", SLOW)  # game creation here must know the bot too
    marker = tmp_path / "turns"
    started: list[subprocess.Popen] = []

    def start(*args: str, pool: str = "solo", **env: str) -> subprocess.Popen:
        full_env = dict(os.environ, DATABASE_URL=database_url(connection.settings_dict),
                        CELERY_BROKER_URL=settings.CELERY_BROKER_URL, SLOW_BOT_MARKER=str(marker),
                        CELERY_LOG_LEVEL="INFO", **env)
        with open(tmp_path / f"worker-{len(started)}.log", "w") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "tests.integration.slow_worker", "worker", "-P", pool,
                 "-c", "1", "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO", *args],
                env=full_env, cwd=settings.BASE_DIR, stdout=log, stderr=subprocess.STDOUT)
        process.log = Path(log.name)
        started.append(process)
        return process

    start.marker = marker
    yield start
    for process in started:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in started:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


def _held_turns(broker: redis.Redis) -> list[list]:
    """The (game, version) of each bot turn Redis holds as delivered but not acknowledged."""
    raws = [json.loads(value)[0] for value in broker.hvals("unacked")]
    return [json.loads(base64.b64decode(raw["body"]))[0][:2] for raw in raws
            if raw["headers"]["task"] == "bots.tasks.play_bot_turn"]


def _turn_starts(marker: Path) -> list[int]:
    return [int(line) for line in marker.read_text().split()] if marker.exists() else []


def _succeeded(log: Path, task: str) -> str:
    """The worker's first "Task <task>[id] succeeded in ...: <result>" line, or ""."""
    return next((line.strip() for line in log.read_text().splitlines() if f"{task}[" in line and
                 " succeeded in " in line), "")


def _kill_mid_turn(marker: Path) -> tuple[Game, int, int]:
    """Create a game whose slow bot starts thinking, SIGKILL the process thinking; (game, version, pid)."""
    game = game_open(kind="spite-and-malice", seed="5e" * 32,
                       seats=[{"bot": "slow", "budget_ms": BUDGET_MS}, {"bot": "random"}])
    deadline = time.monotonic() + 30
    while not _turn_starts(marker):
        assert time.monotonic() < deadline, "the slow bot never started its turn"
        time.sleep(0.01)
    game.refresh_from_db()
    version = game.version
    assert game.to_act == [SLOW_SEAT]
    pid = _turn_starts(marker)[0]
    os.kill(pid, signal.SIGKILL)
    return game, version, pid


def _wait_for_end(game: Game, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while game.status == Game.Status.ACTIVE:
        assert time.monotonic() < deadline, f"the game is stuck at version {game.version} (to act: {game.to_act})"
        time.sleep(0.05)
        game.refresh_from_db()


def _assert_played_once(game: Game, version: int, killed: int, marker: Path) -> None:
    """The turn at `version` was begun by the killed process, redone by another one, recorded once; the game
    then went on to its end and its log verifies."""
    _wait_for_end(game)
    assert game.status == Game.Status.FINISHED and game.result
    starts = _turn_starts(marker)
    assert starts[0] == killed and killed not in starts[1:] and len(starts) >= 2
    move = Event.objects.get(game=game, seq=version + 1)
    assert move.actor == SLOW_SEAT
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    assert selectors.game_export(game=game)["verification"]["ok"] is True


def test_a_killed_pool_process_has_its_turn_requeued_at_once(workers):
    """Production's prefork pool: the parent notices the SIGKILLed child and requeues its message."""
    parent = workers(pool="prefork")
    game, version, killed = _kill_mid_turn(workers.marker)
    assert killed != parent.pid
    _assert_played_once(game, version, killed, workers.marker)
    assert parent.poll() is None


def test_a_killed_worker_gets_its_message_back_after_the_visibility_timeout(workers, broker):
    """The whole worker SIGKILLed: the restarted worker restores the message once `visibility_timeout` passed
    (short here; no sweep running)."""
    options = '{"visibility_timeout": 3, "unacked_restore_interval": 1, "unacked_restore_throttle": 1}'
    first = workers(CELERY_BROKER_TRANSPORT_OPTIONS=options)
    game, version, killed = _kill_mid_turn(workers.marker)
    assert killed == first.pid and first.wait(timeout=10) == -signal.SIGKILL
    assert _held_turns(broker) == [[str(game.id), version]]  # delivered, never acknowledged
    workers(CELERY_BROKER_TRANSPORT_OPTIONS=options)
    _assert_played_once(game, version, killed, workers.marker)
    assert broker.hlen("unacked") == 0 and broker.llen("celery") == 0


def test_the_sweep_resumes_a_turn_whose_message_is_still_invisible(workers, broker, tmp_path):
    """The whole worker SIGKILLed with the production visibility timeout (an hour): the restarted worker, with
    its beat (`-B`), sweeps the stalled turn and plays it; the message restored later changes nothing."""
    first = workers()
    game, version, killed = _kill_mid_turn(workers.marker)
    assert first.wait(timeout=10) == -signal.SIGKILL
    second = workers("-B", JOB_SWEEP_SECONDS="0.5", BOT_STALL_SECONDS="0.5")
    _assert_played_once(game, version, killed, workers.marker)
    finished_at = game.version
    second.send_signal(signal.SIGTERM)
    second.wait(timeout=15)
    assert _held_turns(broker) == [[str(game.id), version]]  # the killed worker's, invisible for an hour

    third = workers(CELERY_BROKER_TRANSPORT_OPTIONS='{"visibility_timeout": 1, "unacked_restore_throttle": 1}')
    deadline = time.monotonic() + 30
    while not (done := _succeeded(third.log, "bots.tasks.play_bot_turn")):  # restored at start-up, delivered, run
        assert time.monotonic() < deadline, "the old message was never redelivered"
        time.sleep(0.05)
    assert done.endswith(": False")  # the game had moved on: nothing to do
    while broker.hlen("unacked"):
        assert time.monotonic() < deadline, "the old message was never acknowledged"
        time.sleep(0.05)
    game.refresh_from_db()
    assert game.version == finished_at and Event.objects.filter(game=game).count() == finished_at
