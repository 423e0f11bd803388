"""A web process asked to stop (SIGTERM) with live streams open exits within seconds, and a client that
resumes its stream with Last-Event-ID on the next process misses nothing; the health probes say whether the
process, its database and its broker answer."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import time

import httpx
import pytest

from tests.integration import live

STREAMS = 5
EXIT_LIMIT_SECONDS = 10


@pytest.mark.django_db
def test_healthz_answers_and_readyz_checks_database_and_broker(client, settings):
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["database"] == "ok"


@pytest.mark.django_db
def test_readyz_is_503_with_a_code_while_the_broker_is_down(client, settings):
    settings.CELERY_EMBEDDED_WORKER = False
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{live.free_port()}/0"  # nothing listens there
    down = client.get("/readyz")
    assert down.status_code == 503 and down.json()["code"] == "broker_unavailable"


@pytest.mark.parametrize("embedded", [True, False], ids=["serve", "uvicorn"])
def test_sigterm_with_streams_open_exits_quickly_and_resumed_streams_miss_nothing(tmp_path, embedded):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL",
                                                            "STREAM_BUS")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'tavolo.sqlite3'}"
    if not embedded:  # plain uvicorn has no embedded worker: the database must exist before it starts
        env["CELERY_BROKER_URL"] = "memory://"
        migrate = live.spawn(["python", "manage.py", "migrate", "-v0"], env)
        assert migrate.wait(timeout=120) == 0, live.output(migrate)
    first = live.start_server(env, port := live.free_port(), embedded=embedded)
    base = f"http://127.0.0.1:{port}/api/v1"
    rng = random.Random(11)

    async def before_stop():
        async with live.client() as http:
            me, token = await live.register(http, base)
            game = await live.create_game(http, base, token, [{"player": me}, {"player": me}])
            watchers = [live.Collector(http, f"{base}/games/{game['id']}/stream/", token) for _ in range(STREAMS)]
            tasks = [asyncio.create_task(w.run()) for w in watchers]
            await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), timeout=30)
            version = await live.play_moves(http, base, game["id"], {0: token, 1: token}, 8, rng)
            await live.wait_until(lambda: all(w.last >= version for w in watchers), 30, "every watcher")
            started = time.monotonic()
            first.send_signal(signal.SIGTERM)
            for task in tasks:  # the server closes them: each ends with an error or by itself
                with contextlib.suppress(httpx.HTTPError, asyncio.CancelledError):
                    await asyncio.wait_for(task, timeout=EXIT_LIMIT_SECONDS + 5)
            return game["id"], token, watchers, started

    game_id, token, watchers, started = asyncio.run(before_stop())
    try:
        first.wait(timeout=EXIT_LIMIT_SECONDS + 5)
    finally:
        if first.poll() is None:
            first.kill()
    took = time.monotonic() - started
    assert took < EXIT_LIMIT_SECONDS, f"the server took {took:.1f} s to stop\n{live.output(first)}"
    print(f"stopped {took:.2f} s after SIGTERM with {STREAMS} streams open")

    second = live.start_server(env, port := live.free_port(), embedded=embedded)
    base = f"http://127.0.0.1:{port}/api/v1"

    async def after_restart():
        async with live.client() as http:
            version = await live.play_moves(http, base, game_id, {0: token, 1: token}, 6, rng)
            resumed = [live.Collector(http, f"{base}/games/{game_id}/stream/", token, after=w.last)
                       for w in watchers]
            tasks = [asyncio.create_task(r.run()) for r in resumed]
            await live.wait_until(lambda: all(r.last >= version for r in resumed), 30, "every resumed stream")
            for task in tasks:
                task.cancel()
            return version, resumed

    try:
        version, resumed = asyncio.run(after_restart())
    finally:
        live.stop(second)
    for before, after in zip(watchers, resumed, strict=True):
        seqs = [e["seq"] for e in before.events + after.events]
        assert seqs == list(range(1, version + 1))
