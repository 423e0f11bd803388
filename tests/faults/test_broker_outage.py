"""The broker (Redis: Celery's queue and the streams' bus) stopped for 10 s during play, then started again
empty: every committed move was answered 201, every game finished, every clock forfeit and every rating
happened, each log is gapless and verifies, a live stream caught up, and worker, beat and web lived through
it. The figures (how long until everything was done again) are printed (`pytest -s`)."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from django.utils import timezone

from games import selectors
from games.models import Event, Game, Job
from tests.faults.harness import log_of
from tests.integration.live import Collector, auth, client, register
from tournaments.models import RatingChange

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

OUTAGE = 10.0
TURN_SECONDS = 3  # the clocked games' deadlines fall inside the outage
LIMIT = 150.0  # seconds for the whole run: every loop below stops by then


class Answers:
    """Every answer the clients got, as (method, path, status, seconds it took)."""

    def __init__(self, http, base: str) -> None:
        self.http, self.base = http, base
        self.rows: list[tuple[str, str, int, float]] = []

    async def __call__(self, method: str, path: str, token: str | None = None, **kwargs):
        start = time.monotonic()
        response = await self.http.request(method, self.base + path, headers=auth(token), **kwargs)
        self.rows.append((method, path, response.status_code, time.monotonic() - start))
        return response


async def _against_a_bot(call: Answers, game_id: str, token: str, rng: random.Random, until: float) -> float:
    """Play seat 0 at random until the game ends; returns the longest the bot kept it waiting."""
    longest, waiting_since = 0.0, None
    while time.monotonic() < until:
        state = (await call("GET", f"/games/{game_id}/state/", token)).json()
        now = time.monotonic()
        if state["status"] != "active" or 0 in state["to_act"]:
            if waiting_since is not None:
                longest, waiting_since = max(longest, now - waiting_since), None
            if state["status"] != "active":
                return longest
            body = {"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]}
            await call("POST", f"/games/{game_id}/actions/", token, json=body)
        else:
            waiting_since = waiting_since or now
            await asyncio.sleep(0.05)
    return longest


async def _between_people(call: Answers, game_id: str, tokens: dict[int, str], rng: random.Random,
                          until: float) -> None:
    """Both seats played at random, a move every 0.15 s, until the game ends."""
    while time.monotonic() < until:
        summary = (await call("GET", f"/games/{game_id}/")).json()
        if summary["status"] != "active":
            return
        seat = summary["to_act"][0]
        state = (await call("GET", f"/games/{game_id}/state/", tokens[seat], params={"seat": seat})).json()
        body = {"action": rng.choice(state["legal_actions"]), "expected_version": state["version"], "seat": seat}
        await call("POST", f"/games/{game_id}/actions/", tokens[seat], json=body)
        await asyncio.sleep(0.15)


async def _game(call: Answers, token: str, seats: list[dict], accept: str | None = None, **extra) -> str:
    response = await call("POST", "/games/", token, json={"kind": "spite-and-malice", "seats": seats, **extra})
    assert response.status_code == 201, response.text
    if accept is not None:
        accepted = await call("POST", f"/games/{response.json()['id']}/accept/", accept)
        assert accepted.status_code == 200, accepted.text
    return response.json()["id"]


async def _finished(call: Answers, game_ids: list[str], until: float) -> dict[str, float]:
    """When each game was seen finished (monotonic time)."""
    seen: dict[str, float] = {}
    while len(seen) < len(game_ids) and time.monotonic() < until:
        for game_id in game_ids:
            if game_id not in seen and (await call("GET", f"/games/{game_id}/")).json()["status"] != "active":
                seen[game_id] = time.monotonic()
        await asyncio.sleep(0.1)
    return seen


async def _play_through_an_outage(base: str, redis_server) -> dict:
    rng = random.Random(7)
    async with client() as http:
        call = Answers(http, base)
        (ann, ann_token), (bob, bob_token) = await register(http, base), await register(http, base)
        until = time.monotonic() + LIMIT
        against_bots = [await _game(call, ann_token, [{"player": ann}, {"bot": "random"}]) for _ in range(3)]
        people = await _game(call, ann_token, [{"player": ann}, {"player": bob}], accept=bob_token)
        stream = Collector(http, f"{base}/games/{people}/stream/", ann_token)
        streaming = asyncio.create_task(stream.run())
        await asyncio.wait_for(stream.connected.wait(), 10)
        players = [asyncio.create_task(_against_a_bot(call, g, ann_token, random.Random(g), until))
                   for g in against_bots]
        players.append(asyncio.create_task(_between_people(call, people, {0: ann_token, 1: bob_token}, rng, until)))
        await asyncio.sleep(3)

        clocked = {"turn_seconds": TURN_SECONDS, "clock_policy": "forfeit", "rated": True}
        bots_only = [{"bot": "random"}, {"bot": "random"}]
        forfeits = [await _game(call, ann_token, [{"player": ann}, {"player": bob}], bob_token, **clocked)
                    for _ in range(2)]
        bot_games = [await _game(call, ann_token, bots_only) for _ in range(2)]

        redis_server.stop()
        stopped = time.monotonic()
        await asyncio.sleep(1)
        during = len(call.rows)
        forfeits.append(await _game(call, ann_token, [{"player": ann}, {"player": bob}], bob_token, **clocked))
        bot_games += [await _game(call, ann_token, bots_only) for _ in range(2)]
        await asyncio.sleep(OUTAGE - (time.monotonic() - stopped))
        redis_server.start()
        restarted, restarted_at = time.monotonic(), timezone.now()
        outage_rows = call.rows[during:]

        everything = [*against_bots, people, *forfeits, *bot_games]
        finished = await _finished(call, everything, until)
        waits = (await asyncio.gather(*players))[:-1]  # the last one plays between people
        await asyncio.wait_for(streaming, max(1.0, until - time.monotonic()))
        caught_up = time.monotonic()
        return {"games": everything, "forfeits": forfeits, "people": people, "stream": stream, "answers": call.rows,
                "outage_answers": outage_rows, "finished": finished, "bot_waits": waits,
                "restarted": restarted, "restarted_at": restarted_at, "caught_up": caught_up}


def test_a_broker_outage_loses_nothing(processes, redis_server):
    base = processes.web()
    worker, beat = processes.worker(), processes.beat()
    run = asyncio.run(_play_through_an_outage(base, redis_server))

    deadline = time.monotonic() + 30  # each job done: nothing left in the outbox that is due
    while (pending := list(Job.objects.filter(done_at__isnull=True, due_at__lte=timezone.now())
                           .values_list("key", flat=True))):
        assert time.monotonic() < deadline, f"jobs never done: {pending}"
        time.sleep(0.1)
    all_done = time.monotonic()

    server_errors = [row for row in run["answers"] if row[2] >= 500]
    assert not server_errors, server_errors
    moves = [row for row in run["answers"] if row[0] == "POST" and row[1].endswith("/actions/")]
    assert moves and {row[2] for row in moves} == {201}, {row[2] for row in moves}
    assert len(run["finished"]) == len(run["games"]), "some game never finished"
    for game in Game.objects.filter(pk__in=run["games"]):
        assert game.status == Game.Status.FINISHED
        seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, game.version + 1))
        assert selectors.game_export(game=game)["verification"]["ok"] is True
    for game_id in run["forfeits"]:
        assert Event.objects.filter(game_id=game_id, type="game.forfeited").count() == 1
        assert RatingChange.objects.filter(game_id=game_id).count() == 2
    people = Game.objects.get(pk=run["people"])
    assert [e["seq"] for e in run["stream"].events] == list(range(1, people.version + 1))
    for process in (worker, beat):
        assert process.poll() is None, log_of(process)
        assert "restore_unacked" not in log_of(process) and "AttributeError" not in log_of(process), log_of(process)

    # the jobs recorded before the restart and not done by then (lost with the broker, or never handed to it)
    restarted_at = run["restarted_at"]
    waiting = Job.objects.filter(created_at__lt=restarted_at, done_at__gt=restarted_at).order_by("done_at")
    assert waiting.exists()
    recovered = (waiting.last().done_at - restarted_at).total_seconds()
    outage_moves = [row[3] for row in run["outage_answers"] if row[0] == "POST"]
    print(f"\nbroker outage {OUTAGE:.0f} s: {len(moves)} moves answered 201, {len(outage_moves)} writes during it "
          f"(slowest {max(outage_moves):.2f} s); after the restart the {waiting.count()} jobs due meanwhile were "
          f"done in {recovered:.1f} s, every game finished in "
          f"{max(run['finished'].values()) - run['restarted']:.1f} s, every job was done in "
          f"{all_done - run['restarted']:.1f} s, the stream caught up in {run['caught_up'] - run['restarted']:.1f} s; "
          f"longest bot wait {max(run['bot_waits']):.1f} s; jobs lost: 0")
