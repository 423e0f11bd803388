"""The outbox: each job a commit implies is recorded with it and handed to the broker after it; a job lost on
the way (broker down, a worker killed, an in-memory broker gone with its process) is handed again by the
sweep, once its resend delay passed, and done once. Tasks delivered twice (one after the other, and racing
on PostgreSQL) move once; the embedded server's beat thread resumes lost bot turns."""

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
from kombu.exceptions import OperationalError

from bots import policies
from bots.tasks import play_bot_turn
from config.celery import app
from games import outbox
from games.models import Event, Game, Job
from games.outbox import jobs_resend
from games.services import game_forfeit, game_open
from tests.integration import live
from tests.integration.slow_bot import SLOW

SEED = "b0" * 32


def _bots_game(**seat) -> Game:
    return game_open(kind="spite-and-malice", seed=SEED,
                     seats=[{"bot": "random", **seat}, {"bot": "random", **seat}])


def _moves(game: Game) -> list[tuple[int, int | None]]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "actor"))


def _pending(game: Game) -> list[str]:
    return sorted(Job.objects.filter(args__0=str(game.id), done_at__isnull=True).values_list("key", flat=True))


@pytest.mark.django_db
def test_each_head_records_the_jobs_it_implies(ann, bob, monkeypatch, settings):
    """A bot to act: its turn, resent after BOT_STALL_SECONDS plus its budget; a clocked head: its clock
    check at the deadline; a finished rated game: its rating; no job where there is nothing to do."""
    monkeypatch.setitem(policies.POLICIES, "slow", SLOW)
    waiting = _bots_game()  # on_commit does not run in this test's transaction: nothing is handed over
    thinking = game_open(kind="spite-and-malice", seed=SEED,
                         seats=[{"bot": "slow", "budget_ms": 5000}, {"bot": "slow", "budget_ms": 5000}])
    humans = game_open(kind="spite-and-malice", seed=SEED, seats=[{"player": ann.id}, {"player": bob.id}])
    clocked = game_open(kind="spite-and-malice", seed=SEED, seats=[{"player": ann.id}, {"player": bob.id}],
                        turn_seconds=60)
    rated = game_open(kind="spite-and-malice", seed=SEED, seats=[{"player": ann.id}, {"player": bob.id}])
    game_forfeit(game=rated, seat=0, expected_version=rated.version)

    jobs = {job.key: job for job in Job.objects.all()}
    turn, slow = jobs[f"bot:{waiting.id}:{waiting.version}"], jobs[f"bot:{thinking.id}:{thinking.version}"]
    assert turn.task == "bots.tasks.play_bot_turn" and turn.args == [str(waiting.id), waiting.version]
    assert turn.resend_at - turn.due_at == timedelta(seconds=settings.BOT_STALL_SECONDS)
    assert slow.resend_at - slow.due_at == timedelta(seconds=settings.BOT_STALL_SECONDS + 5)
    assert _pending(humans) == []
    clock = jobs[f"clock:{clocked.id}:{clocked.version}"]
    deadline = min(s.deadline for s in clocked.seats.all() if s.deadline)
    assert (clock.task, clock.due_at, clock.done_at) == ("games.tasks.expire_turn", deadline, None)
    assert _pending(rated) == [f"rate:{rated.id}"]
    assert len(jobs) == 4


@pytest.fixture
def eager():
    """Queued tasks run at once, here."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.mark.django_db
def test_the_sweep_plays_a_lost_turn_once_and_marks_it_done(eager, settings, django_capture_on_commit_callbacks):
    game = _bots_game()
    version, seat = game.version, game.to_act[0]
    key = f"bot:{game.id}:{version}"

    assert jobs_resend() == 0  # not lost yet: within BOT_STALL_SECONDS of its head
    later = timezone.now() + timedelta(seconds=settings.BOT_STALL_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_resend(now=later) == 1
    game.refresh_from_db()
    assert game.version > version
    assert Event.objects.get(game=game, seq=version + 1).actor == seat  # the waiting bot's move
    job = Job.objects.get(key=key)
    assert job.done_at is not None and job.attempts == 2

    moved = game.version
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_resend(now=later) == 0  # done; the next turn's job is fresh (its own head's time)
    game.refresh_from_db()
    assert game.version == moved


@pytest.mark.django_db
def test_a_resent_job_waits_its_delay_again_and_done_jobs_are_deleted_after_a_day(settings, monkeypatch):
    sent: list[list[str]] = []
    monkeypatch.setattr(outbox, "dispatch", lambda works, **_: sent.append([w.key for w in works]))
    game = _bots_game()
    key = f"bot:{game.id}:{game.version}"
    delay = timedelta(seconds=settings.BOT_STALL_SECONDS)
    first = timezone.now() + delay
    assert jobs_resend(now=first) == 1
    job = Job.objects.get(key=key)
    assert (job.due_at, job.resend_at, job.attempts) == (first, first + delay, 2)
    assert jobs_resend(now=first + delay / 2) == 0  # not again before its delay passed once more
    assert jobs_resend(now=first + delay) == 1 and Job.objects.get(key=key).attempts == 3

    outbox.job_done(key)
    done_at = Job.objects.get(key=key).done_at
    jobs_resend(now=done_at + timedelta(hours=23))
    assert Job.objects.filter(key=key).exists()
    jobs_resend(now=done_at + timedelta(hours=24, seconds=1))
    assert not Job.objects.filter(key=key).exists()


@pytest.mark.django_db
def test_a_commit_answers_201_with_the_broker_down_and_its_job_is_resent(ann, monkeypatch, eager, settings,
                                                                       django_capture_on_commit_callbacks):
    """The move is committed whatever the broker says; its bot turn waits in the outbox for the sweep."""
    game = ann.post("/api/v1/games/", {"kind": "spite-and-malice", "seed": SEED,
                                       "seats": [{"player": ann.id}, {"bot": "random"}]}).json()

    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(play_bot_turn, "apply_async", refuse)
    moved = False
    while True:
        state = ann.get(f"/api/v1/games/{game['id']}/state/").json()
        if 1 in state["to_act"]:
            break
        with django_capture_on_commit_callbacks(execute=True):
            response = ann.post(f"/api/v1/games/{game['id']}/actions/", {"action": state["legal_actions"][0]})
        assert response.status_code == 201, response.content
        moved = True
    version = state["version"]
    assert moved
    assert _pending(Game.objects.get(pk=game["id"])) == [f"bot:{game['id']}:{version}"]

    monkeypatch.undo()  # the broker is back
    app.conf.task_always_eager = True
    later = timezone.now() + timedelta(seconds=settings.BOT_STALL_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_resend(now=later) >= 1
    assert Event.objects.get(game_id=game["id"], seq=version + 1).actor == 1
    assert Job.objects.get(key=f"bot:{game['id']}:{version}").done_at is not None


@pytest.mark.django_db
def test_a_bot_task_delivered_twice_moves_once():
    game = _bots_game()
    version = game.version
    key = f"bot:{game.id}:{version}"
    assert play_bot_turn.apply(args=(str(game.id), version), kwargs={"job": key}).get() is True
    game.refresh_from_db()
    after_first = _moves(game)
    assert game.version > version and Job.objects.get(key=key).done_at is not None

    assert play_bot_turn.apply(args=(str(game.id), version), kwargs={"job": key}).get() is False
    game.refresh_from_db()
    assert _moves(game) == after_first


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_deliveries_racing_on_one_turn_record_one_move(monkeypatch):
    """Both copies read the game at the same version and choose; only one move is recorded."""
    monkeypatch.setattr(outbox, "dispatch", lambda *args, **kwargs: 0)  # no other bot turn meanwhile
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
            results.append(play_bot_turn.apply(args=(str(game.id), version)).get())
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
    """`manage.py serve` (in-memory broker): a game left waiting before it started (its job resent at start-up
    without waiting for its delay), and one whose task was lost while it runs (resent by the beat thread's
    sweeps), both get played to the end."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'tavolo.sqlite3'}", "JOB_SWEEP_SECONDS": "0.5",
           "BOT_STALL_SECONDS": "0.5"}
    before = _create_in_another_process(env)
    with live.server(env) as base:
        assert _wait_finished(base, before)["status"] == "finished"  # the sweep at start-up
        during = _create_in_another_process(env)
        assert _wait_finished(base, during)["status"] == "finished"  # the beat thread's sweeps


@pytest.mark.django_db
def test_a_move_records_its_jobs_in_one_statement(ann):
    """The move that hands the turn to a bot costs one INSERT more than any other move (6 statements on
    PostgreSQL, see test_idempotency_and_queries), and it is the job's only write."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = ann.post("/api/v1/games/", {"kind": "spite-and-malice", "seed": SEED,
                                       "seats": [{"player": ann.id}, {"bot": "random"}]}).json()
    while True:
        state = ann.get(f"/api/v1/games/{game['id']}/state/").json()
        assert 0 in state["to_act"]
        with CaptureQueriesContext(connection) as queries:
            assert ann.post(f"/api/v1/games/{game['id']}/actions/",
                            {"action": state["legal_actions"][0]}).status_code == 201
        writes = [q["sql"] for q in queries.captured_queries if "games_job" in q["sql"]]
        if 1 in Game.objects.values_list("to_act", flat=True).get(pk=game["id"]):
            break
        assert writes == []
    assert len(writes) == 1 and writes[0].startswith("INSERT") and "ON CONFLICT DO NOTHING" in writes[0]
    assert len(queries.captured_queries) <= (7 if connection.vendor == "postgresql" else 8)
