"""The production shape: several web processes (uvicorn) on PostgreSQL, wake-ups through Redis pub/sub,
countdowns through a real Celery worker on Redis; and the PostgreSQL LISTEN/NOTIFY bus."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings

from config.celery import app
from games import broadcast
from tests.integration import live


def _web(extra: dict | None = None):
    env = {"DATABASE_URL": live.database_url(connection.settings_dict),
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "STREAM_BUS": "redis", **(extra or {})}
    return live.server(env, embedded=False)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_events_posted_to_one_process_reach_watchers_of_another_through_redis():
    with _web() as first, _web() as second:

        async def scenario():
            async with live.client() as http:
                (ann, token_a), (bob, token_b) = await live.register(http, first), await live.register(http, first)
                game = await live.create_game(http, first, token_a, [{"player": ann}, {"player": bob}],
                                              accept=(token_b,))
                watchers = [live.Collector(http, f"{base}/games/{game['id']}/stream/", token)
                            for base in (first, second) for token in (token_a, token_b, None)]
                tasks = [asyncio.create_task(w.run()) for w in watchers]
                await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), timeout=30)
                version = await live.play_moves(http, first, game["id"], {0: token_a, 1: token_b}, 20,
                                                random.Random(5))
                await live.wait_until(lambda: all(w.last >= version for w in watchers), 30, "every watcher")
                for task in tasks:
                    task.cancel()
                seen = {}
                for token in (token_a, token_b, None):
                    seen[token] = (await http.get(f"{first}/games/{game['id']}/events/",
                                                  headers=live.auth(token))).json()
                return watchers, version, seen, (token_a, token_b, None)

        watchers, version, seen, tokens = asyncio.run(scenario())
    for index, watcher in enumerate(watchers):
        assert [e["seq"] for e in watcher.events] == list(range(1, version + 1))
        assert watcher.events == seen[tokens[index % 3]]  # the same redaction as /events/ for that caller


@pytest.fixture
def worker():
    app.control.purge()
    process = live.celery_worker({"DATABASE_URL": live.database_url(connection.settings_dict),
                                  "CELERY_BROKER_URL": settings.CELERY_BROKER_URL})
    yield process
    live.stop(process)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_enforces_a_forfeit_clock_and_the_stream_shows_it(worker):
    with _web() as base:

        async def scenario():
            async with live.client() as http:
                (ann, token), (bob, bob_token) = await live.register(http, base), await live.register(http, base)
                game = await live.create_game(http, base, token, [{"player": ann}, {"player": bob}],
                                              accept=(bob_token,), turn_seconds=1, clock_policy="forfeit")
                watcher = live.Collector(http, f"{base}/games/{game['id']}/stream/", token)
                await asyncio.wait_for(watcher.run(), timeout=30)
                return game, watcher

        game, watcher = asyncio.run(scenario())
    assert worker.poll() is None, worker.stdout.read().decode()
    assert watcher.ended and [e["type"] for e in watcher.events[-2:]] == ["game.forfeited", "game.finished"]
    assert watcher.heads[0]["deadlines"][game["to_act"][0]] is not None
    assert watcher.heads[-1]["status"] == "finished"
    assert watcher.heads[-1]["result"]["forfeited"] == game["to_act"][0]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_postgres_bus_wakes_listeners_after_notify():
    received = []

    async def scenario():
        async with broadcast.listen("game:pg-test") as listener:
            publisher = threading.Thread(target=broadcast.publish, args=("game:pg-test", 7))
            publisher.start()
            woke = await listener.wait(10)
            publisher.join()
            received.append((woke, listener.latest))
            received.append(await listener.wait(0.2))  # nothing more

    with override_settings(STREAM_BUS="postgres"):
        asyncio.run(scenario())
    assert received == [(True, 7), False]
