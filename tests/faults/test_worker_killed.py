"""A worker SIGKILLed in the middle of a bot turn (a slow bot thinking), restarted at once: the turn is played
exactly once, by the outbox sweep's resend, within BOT_STALL_SECONDS plus the bot's budget plus a sweep of the
head; the killed worker's message stays invisible in Redis (an hour's visibility timeout) and changes nothing.
The time it took is printed (`pytest -s`)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from celery import Celery

from bots.policies import POLICIES
from games import outbox, selectors
from games.models import Event, Game, Job
from games.services import game_open
from tests.faults.harness import log_of
from tests.integration.slow_bot import SLOW

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

BUDGET_MS = 2000  # the slow bot's first turn in each worker process
STALL = 1.0  # BOT_STALL_SECONDS here
SWEEP = 0.5  # JOB_SWEEP_SECONDS here


def _starts(marker: Path) -> list[int]:
    return [int(line) for line in marker.read_text().split()] if marker.exists() else []


def test_a_worker_killed_mid_turn_has_the_turn_played_once(processes, redis_server, settings, monkeypatch,
                                                           tmp_path):
    settings.BOT_STALL_SECONDS = STALL  # the resend delay is written with the job, here
    monkeypatch.setitem(POLICIES, "slow", SLOW)
    sender = Celery("faults", broker=redis_server.url)  # this process hands its jobs to the private Redis
    monkeypatch.setattr(outbox, "dispatch", lambda works, **_: [
        sender.send_task(w.task, args=w.args, kwargs={**w.extra, "job": w.key}) for w in works])
    marker = tmp_path / "turns"
    env = {"SLOW_BOT_MARKER": str(marker), "BOT_STALL_SECONDS": str(STALL), "JOB_SWEEP_SECONDS": str(SWEEP)}
    first = processes.worker("tests.integration.slow_worker", **env)
    processes.beat(**env)

    game = game_open(kind="spite-and-malice", seed="5e" * 32,
                     seats=[{"bot": "slow", "budget_ms": BUDGET_MS}, {"bot": "random"}])
    deadline = time.monotonic() + 30
    while not _starts(marker):
        assert time.monotonic() < deadline, log_of(first)
        time.sleep(0.01)
    game.refresh_from_db()
    version = game.version
    assert game.to_act == [0] and _starts(marker) == [first.pid]
    os.kill(first.pid, signal.SIGKILL)
    killed = time.monotonic()
    assert first.wait(timeout=10) == -signal.SIGKILL
    second = processes.worker("tests.integration.slow_worker", **env)

    while not Event.objects.filter(game=game, seq=version + 1).exists():
        assert time.monotonic() < killed + 30, log_of(second)
        time.sleep(0.02)
    took = time.monotonic() - killed
    # resent once the head is STALL + budget old (the sweep runs every SWEEP), then thought over for the budget
    assert took < STALL + 2 * BUDGET_MS / 1000 + SWEEP + 5, took

    deadline = time.monotonic() + 90
    while game.status == Game.Status.ACTIVE:
        assert time.monotonic() < deadline, f"stuck at version {game.version}"
        time.sleep(0.05)
        game.refresh_from_db()
    move = Event.objects.get(game=game, seq=version + 1)
    assert move.actor == 0
    assert _starts(marker) == [first.pid, second.pid]  # begun by the killed worker, played by the new one, once
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    assert selectors.game_export(game=game)["verification"]["ok"] is True
    job = Job.objects.get(key=f"bot:{game.id}:{version}")
    assert job.done_at is not None and job.attempts >= 2
    print(f"\nworker SIGKILLed mid-turn: the turn was played once, {took:.1f} s after the kill "
          f"(BOT_STALL_SECONDS={STALL}, budget {BUDGET_MS / 1000:.0f} s, sweep every {SWEEP} s)")
