"""Bot turns on two queues: a clock-bound bot's (search) on BOT_SEARCH_QUEUE, every other bot's on the default
queue, so that search games never hold up the replies of the other games' bots."""

from __future__ import annotations

import base64
import json
import os
import random
import sys
import time
from collections.abc import Callable

import httpx
import pytest
import redis
from django.conf import settings
from django.db import connection

from bots.tasks import bot_turn_queue, play_bot_turn
from config.celery import app
from games.models import Game
from games.outbox import jobs_resend
from games.services import game_open
from tests.conftest import create_game
from tests.integration import live

SEARCH, DEFAULT = "bots.search", "celery"


@pytest.fixture
def sent(monkeypatch) -> list[tuple[tuple, dict]]:
    """The bot turns sent to the broker: ((game, version, tail), {"queue": ...})."""
    calls: list[tuple[tuple, dict]] = []

    def apply_async(args, kwargs=None, **options):
        calls.append(((*args, (kwargs or {}).get("tail")), {"queue": options.get("queue")}))

    monkeypatch.setattr(play_bot_turn, "apply_async", apply_async)
    return calls


def test_the_queues_are_configured_and_named_after_the_bots():
    assert settings.BOT_SEARCH_QUEUE == SEARCH and settings.CELERY_TASK_DEFAULT_QUEUE == DEFAULT
    assert {queue.name for queue in settings.CELERY_TASK_QUEUES} == {SEARCH, DEFAULT}
    assert bot_turn_queue("search") == SEARCH
    assert bot_turn_queue("random") == bot_turn_queue("heuristic") == DEFAULT


@pytest.mark.django_db
@pytest.mark.parametrize(("bots", "queue"), [
    (["search", "search"], SEARCH), (["random", "random"], DEFAULT), (["heuristic", "heuristic"], DEFAULT)])
def test_a_bot_turn_is_sent_to_its_bots_queue(ann, sent, django_capture_on_commit_callbacks, bots, queue):
    with django_capture_on_commit_callbacks(execute=True):
        game = create_game(ann, [{"bot": bot} for bot in bots], seed="4d" * 32)
    assert [(args[:2], options) for args, options in sent] == [((game["id"], game["version"]), {"queue": queue})]


@pytest.mark.django_db
def test_in_a_mixed_game_each_turn_goes_where_its_bot_plays(ann, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create_game(ann, [{"bot": "search", "budget_ms": 10}, {"bot": "random"}], seed="4d" * 32)
    seen = set()
    for _ in range(40):  # play the turns queued, one after the other, as a worker would
        (game_id, version, tail), options = sent.pop()
        seat = Game.objects.get(pk=game_id).to_act[0]
        assert options == {"queue": SEARCH if seat == 0 else DEFAULT}
        seen.add(options["queue"])
        with django_capture_on_commit_callbacks(execute=True):
            assert play_bot_turn(game_id, version, tail) is True
        assert len(sent) == 1
    assert seen == {SEARCH, DEFAULT}


@pytest.mark.django_db
def test_the_sweep_sends_a_search_game_to_the_search_queue(sent, django_capture_on_commit_callbacks):
    search = game_open(kind="spite-and-malice", seats=[{"bot": "search"}, {"bot": "search"}])
    plain = game_open(kind="spite-and-malice", seats=[{"bot": "random"}, {"bot": "random"}])
    with django_capture_on_commit_callbacks(execute=True):  # the outbox resends both lost turns
        assert jobs_resend(everything=True) == 2
    queues = {args[0]: options["queue"] for args, options in sent}
    assert queues == {str(search.id): SEARCH, str(plain.id): DEFAULT}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_on_the_broker_each_turn_waits_in_its_queue_only(ann):
    """The queues are bound apart: a search turn is in the search queue's Redis list, not also in the default's."""
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    app.control.purge()
    try:
        search = create_game(ann, [{"bot": "search"}, {"bot": "search"}], seed="4d" * 32)
        assert (broker.llen(SEARCH), broker.llen(DEFAULT)) == (1, 0)
        create_game(ann, [{"bot": "random"}, {"bot": "random"}], seed="4d" * 32)
        assert (broker.llen(SEARCH), broker.llen(DEFAULT)) == (1, 1)
        body = json.loads(base64.b64decode(json.loads(broker.lindex(SEARCH, 0))["body"]))
        assert body[0][:2] == [search["id"], search["version"]]
    finally:
        app.control.purge()


# -- with real workers: random bots reply while search bots think --------------------------------------
THINK_MS = 4000
#: The embedded server's search thread shares the GIL with the web thread and the random bot's: on a slow
#: machine three replies can take more than 3 s there, so its search bots think longer (the cap raised to match).
EMBEDDED_THINK_MS = 10_000


def _replies_while_search_thinks(get: Callable[[str], dict], post: Callable[[str, dict], int], game_id: str,
                                 search_id: str, search_version: int, think_ms: int = THINK_MS) -> int:
    """Play the human seat 0 against a random bot until it replied three times; returns the replies. Fails if
    the search game moved meanwhile: the replies must come while its first turn is still being thought."""
    rng = random.Random(3)
    started = time.monotonic()
    replies = 0
    last_actor = None
    while replies < 3:
        assert time.monotonic() - started < think_ms / 1000 * 0.75, f"only {replies} replies in time"
        events = get(f"/games/{game_id}/events/")
        replies = sum(1 for event in events if event["actor"] == 1)
        summary = get(f"/games/{game_id}/")
        if 0 in summary["to_act"] and last_actor != summary["version"]:
            state = get(f"/games/{game_id}/state/")
            status = post(f"/games/{game_id}/actions/", {"action": rng.choice(state["legal_actions"]),
                                                         "expected_version": state["version"]})
            assert status == 201
            last_actor = summary["version"]
        time.sleep(0.02)
    assert get(f"/games/{search_id}/")["version"] == search_version, "the search game moved first"
    return replies


def _wait_for_consumers(workers: list, queues: set[str], timeout: float = 60) -> None:
    """Until the workers consume `queues` between them (they take a few seconds to start)."""
    deadline = time.monotonic() + timeout
    while True:
        replies = app.control.inspect(timeout=0.5).active_queues() or {}
        if {queue["name"] for consumed in replies.values() for queue in consumed} >= queues:
            return
        assert time.monotonic() < deadline, [live.output(worker) for worker in workers]


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_workers_of_each_queue_keep_random_bots_replying_while_search_bots_think(ann):
    """The production layout (docker/compose.yaml): a worker per queue."""
    app.control.purge()
    env = {"DATABASE_URL": live.database_url(connection.settings_dict),
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL}
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo", "-c", "1",
               "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "WARNING", "-Q"]
    workers = [live.spawn([*command, queue, "-n", f"{queue}@%h"], {**os.environ, **env}) for queue in (DEFAULT, SEARCH)]
    try:
        _wait_for_consumers(workers, {DEFAULT, SEARCH})
        search = create_game(ann, [{"bot": "search", "budget_ms": THINK_MS}] * 2, seed="5c" * 32)
        game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="9a" * 32)

        def post(path: str, body: dict) -> int:
            return ann.post(f"/api/v1{path}", body).status_code

        assert _replies_while_search_thinks(lambda path: ann.get(f"/api/v1{path}").json(), post, game["id"],
                                            search["id"], search["version"]) >= 3
        deadline = time.monotonic() + 30
        while ann.get(f"/api/v1/games/{search['id']}/").json()["version"] == search["version"]:
            assert time.monotonic() < deadline, "the search worker never played"
            time.sleep(0.1)
        for worker in workers:
            assert worker.poll() is None, live.output(worker)
    finally:
        for worker in workers:
            live.stop(worker)
        app.control.purge()


def test_the_embedded_server_plays_both_queues_side_by_side(tmp_path):
    """`manage.py serve` with no broker: a worker thread per queue in the web process."""
    with live.server({"DATABASE_URL": f"sqlite:///{tmp_path / 'tavolo.sqlite3'}",
                      "MAX_BOT_BUDGET_MS": str(EMBEDDED_THINK_MS)}) as base, \
            httpx.Client(base_url=base, timeout=10) as http:
        me = http.post("/players/", json={"name": "solo"}).json()
        http.headers["Authorization"] = f"Token {me['token']}"
        search = http.post("/games/", json={"kind": "spite-and-malice", "seed": "5c" * 32,
                                            "seats": [{"bot": "search", "budget_ms": EMBEDDED_THINK_MS}] * 2}).json()
        game = http.post("/games/", json={"kind": "spite-and-malice", "seed": "9a" * 32,
                                          "seats": [{"player": me["id"]}, {"bot": "random"}]}).json()

        def post(path: str, body: dict) -> int:
            return http.post(path, json=body).status_code

        assert _replies_while_search_thinks(lambda path: http.get(path).json(), post, game["id"], search["id"],
                                            search["version"], EMBEDDED_THINK_MS) >= 3
        deadline = time.monotonic() + 30
        while http.get(f"/games/{search['id']}/").json()["version"] == search["version"]:
            assert time.monotonic() < deadline, "the search thread never played"
            time.sleep(0.1)
