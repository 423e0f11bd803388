"""Lost bot turns are found and played again, once: the stalled-turn selector, the sweep task, bot tasks
delivered twice (one after the other, and racing on PostgreSQL), and the embedded server's beat thread."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta

import httpx
import pytest
from django.db import connections
from django.utils import timezone

from bots import policies
from bots.selectors import bot_turns_stalled
from bots.tasks import play_bot_turn, sweep_stalled_bot_turns
from config.celery import app
from games.models import Event, Game
from games.services import game_forfeit, game_open
from tests.integration import live
from tests.integration.slow_bot import SLOW

SEED = "b0" * 32


def _bots_game(**seat) -> Game:
    return game_open(kind="spite-and-malice", seed=SEED,
                       seats=[{"bot": "random", **seat}, {"bot": "random", **seat}])


def _moves(game: Game) -> list[tuple[int, int | None]]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "actor"))


@pytest.mark.django_db
def test_a_game_waiting_on_a_bot_past_the_threshold_is_stalled(ann, bob, monkeypatch):
    monkeypatch.setitem(policies.POLICIES, "slow", SLOW)
    waiting = _bots_game()  # its task was never sent: on_commit does not run in this test's transaction
    thinking = game_open(kind="spite-and-malice", seed=SEED,
                           seats=[{"bot": "slow", "budget_ms": 5000}, {"bot": "slow", "budget_ms": 5000}])
    humans = game_open(kind="spite-and-malice", seed=SEED,
                         seats=[{"player": ann.id}, {"player": bob.id}])
    over = _bots_game()
    game_forfeit(game=over, seat=0, expected_version=over.version)
    later = timezone.now() + timedelta(seconds=31)

    assert bot_turns_stalled(older_than=30) == []
    assert bot_turns_stalled(older_than=30, now=later) == [(str(waiting.id), waiting.version)]
    assert set(bot_turns_stalled(older_than=30, now=later + timedelta(seconds=5))) == {
        (str(waiting.id), waiting.version), (str(thinking.id), thinking.version)}  # 30 s + its 5 s budget
    assert humans.to_act and Game.objects.get(pk=over.pk).status == Game.Status.FINISHED


@pytest.fixture
def eager():
    """Queued tasks run at once, here."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.mark.django_db
def test_the_sweep_plays_a_lost_turn_once(eager):
    game = _bots_game()
    version, seat = game.version, game.to_act[0]

    assert sweep_stalled_bot_turns.apply(kwargs={"older_than": 0}).get() == 1
    game.refresh_from_db()
    assert game.version > version
    assert Event.objects.get(game=game, seq=version + 1).actor == seat  # the waiting bot's move

    moved = game.version
    assert sweep_stalled_bot_turns.apply().get() == 0  # a fresh head is not stalled (30 s by default)
    game.refresh_from_db()
    assert game.version == moved


@pytest.mark.django_db
def test_a_bot_task_delivered_twice_moves_once():
    game = _bots_game()
    version = game.version
    assert play_bot_turn.apply(args=(str(game.id), version)).get() is True
    game.refresh_from_db()
    after_first = _moves(game)
    assert game.version > version

    assert play_bot_turn.apply(args=(str(game.id), version)).get() is False
    game.refresh_from_db()
    assert _moves(game) == after_first


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_deliveries_racing_on_one_turn_record_one_move(monkeypatch):
    """Both copies read the game at the same version and choose; only one move is recorded."""
    from bots.tasks import play_bot_turn as task

    monkeypatch.setattr(task, "apply_async_on_commit", lambda *args, **kwargs: None)  # no other bot turn meanwhile
    game = _bots_game()
    version = game.version
    barrier = threading.Barrier(2, timeout=20)
    choose = policies.choose

    def choose_together(*args, **kwargs):
        barrier.wait()  # both have read the game at `version`
        return choose(*args, **kwargs)

    monkeypatch.setattr(policies, "choose", choose_together)
    results: list[bool] = []

    def deliver() -> None:
        try:
            results.append(task.apply(args=(str(game.id), version)).get())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=deliver) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, True]
    game.refresh_from_db()
    seqs = [seq for seq, _ in _moves(game)]
    assert seqs == list(range(1, game.version + 1)) and game.version > version


_CREATE = """
import django, json
django.setup()
from django.core.management import call_command
from games.services import game_open
call_command("migrate", verbosity=0)
game = game_open(kind="spite-and-malice", seats=[{"bot": "random"}, {"bot": "random"}])
print(json.dumps([str(game.id), game.version]))
"""


def _create_in_another_process(env: dict[str, str]) -> str:
    """A bot game created by a process that exits at once: its bot task dies with its in-memory broker."""
    full_env = {k: v for k, v in os.environ.items() if k not in live._SERVICE_VARS}
    full_env.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    out = subprocess.run([sys.executable, "-c", _CREATE], cwd=live.ROOT, env=full_env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])[0]


def _wait_finished(base: str, game_id: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        summary = httpx.get(f"{base}/games/{game_id}/", timeout=10).json()
        if summary["status"] != "active" or time.monotonic() > deadline:
            return summary
        time.sleep(0.2)


def test_the_embedded_server_resumes_lost_bot_turns(tmp_path):
    """`manage.py serve` (in-memory broker): a game left waiting before it started, and one whose task was
    lost while it runs, both get played to the end by its sweeps."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'tavolo.sqlite3'}", "BOT_SWEEP_SECONDS": "0.5",
           "BOT_STALL_SECONDS": "0.5"}
    before = _create_in_another_process(env)
    with live.server(env) as base:
        assert _wait_finished(base, before)["status"] == "finished"  # the sweep at start-up
        during = _create_in_another_process(env)
        assert _wait_finished(base, during)["status"] == "finished"  # the beat thread's sweeps
