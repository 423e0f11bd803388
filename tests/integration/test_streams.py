"""Live streams against a real ASGI server (`manage.py serve`: uvicorn, SQLite, in-process worker and bus):
resuming misses nothing and repeats nothing, a hundred watchers all get every event, nobody is shown a card
their seat may not see, the long poll, the player stream and its heartbeats."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
import time

import pytest
from httpx_sse import aconnect_sse

from games.engine import registry
from games.engine.protocol import Event as EngineEvent
from tests.integration import live

HEARTBEAT = 0.3


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = tmp_path_factory.mktemp("streams") / "tavolo.sqlite3"
    with live.server({"DATABASE_URL": f"sqlite:///{db}", "STREAM_HEARTBEAT_SECONDS": str(HEARTBEAT)}) as base:
        yield base, db


def _stored_events(db, game_id: str) -> list[tuple]:
    """The server's log of the game, straight from its database (the whole truth, unredacted)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT seq, type, data, public, visible_to, actor FROM games_event "
                            "WHERE game_id = ? ORDER BY seq", [game_id.replace("-", "")]).fetchall()
    return [(seq, t, json.loads(d), json.loads(p) if p else None, json.loads(v) if v else None, a)
            for seq, t, d, p, v, a in rows]


def _as_seen_by(stored: list[tuple], viewer: int | None) -> list[dict]:
    engine = registry.get("spite-and-malice")
    seen = []
    for seq, type_, data, public, visible_to, actor in stored:
        event = EngineEvent(type_, data, public, frozenset(visible_to) if visible_to is not None else None, actor)
        seen.append({"seq": seq, **engine.redact(event, viewer)})
    return seen


def _without_time(events: list[dict]) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "recorded_at"} for e in events]


async def _two_player_game(http, base, seed: str) -> tuple[str, dict[int, str]]:
    (ann, ann_token), (bob, bob_token) = await live.register(http, base), await live.register(http, base)
    game = await live.create_game(http, base, ann_token, [{"player": ann}, {"player": bob}], accept=(bob_token,))
    return game["id"], {0: ann_token, 1: bob_token}


def test_reconnecting_with_last_event_id_misses_nothing_and_repeats_nothing(served):
    base, _ = served

    async def scenario():
        async with live.client() as http:
            game_id, tokens = await _two_player_game(http, base, "a1" * 32)
            url = f"{base}/games/{game_id}/stream/"
            driver = asyncio.create_task(live.play_moves(http, base, game_id, tokens, 40, random.Random(1), 0.01))
            received: list[dict] = []
            last = None
            while not driver.done() or last < (await http.get(f"{base}/games/{game_id}/")).json()["version"]:
                collector = live.Collector(http, url, tokens[0], after=last)
                with contextlib.suppress(TimeoutError):  # take 7 events (fewer at the end), then hang up
                    await asyncio.wait_for(collector.run(max_events=7), timeout=3)
                received.extend(collector.events)
                last = collector.last
            await driver
            full = (await http.get(f"{base}/games/{game_id}/events/", headers=live.auth(tokens[0]))).json()
            status = (await http.get(f"{base}/games/{game_id}/")).json()["status"]
            return received, full, status

    received, full, status = asyncio.run(scenario())
    seqs = [e["seq"] for e in received]
    assert seqs == list(range(1, len(full) + 1)), "a gap or a repeat across reconnections"
    assert status == "active" and len(full) > 40
    assert received == full  # the same events, redacted the same way as /events/


def test_a_hundred_watchers_each_receive_every_event_and_no_hidden_card(served):
    base, db = served

    async def scenario():
        async with live.client() as http:
            game_id, tokens = await _two_player_game(http, base, "b2" * 32)
            url = f"{base}/games/{game_id}/stream/"
            # 40 through seat 0's eyes, 40 through seat 1's, 20 spectators; one via ?token= like EventSource.
            watchers = ([live.Collector(http, url, tokens[0]) for _ in range(40)]
                        + [live.Collector(http, url, tokens[1]) for _ in range(39)]
                        + [live.Collector(http, f"{url}?token={tokens[1]}")]
                        + [live.Collector(http, url) for _ in range(20)])
            tasks = [asyncio.create_task(w.run()) for w in watchers]
            await asyncio.wait_for(asyncio.gather(*(w.connected.wait() for w in watchers)), timeout=60)
            version = await live.play_moves(http, base, game_id, tokens, 25, random.Random(2))
            await live.wait_until(lambda: all(w.last >= version for w in watchers), 60, "every watcher")
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            status = (await http.get(f"{base}/games/{game_id}/")).json()["status"]
            return watchers, version, game_id, status

    watchers, version, game_id, status = asyncio.run(scenario())
    assert status == "active"  # so every event had to be redacted
    stored = _stored_events(db, game_id)
    assert len(stored) == version
    expected = {0: _as_seen_by(stored, 0), 1: _as_seen_by(stored, 1), None: _as_seen_by(stored, None)}
    assert expected[0] != expected[1] != expected[None]  # the seats really do see different things
    for index, watcher in enumerate(watchers):
        viewer = 0 if index < 40 else 1 if index < 80 else None
        assert [e["seq"] for e in watcher.events] == list(range(1, version + 1)), f"watcher {index}"
        assert _without_time(watcher.events) == expected[viewer], f"watcher {index} saw something else"
        assert watcher.heads[-1]["version"] == version


def test_a_bot_game_streams_to_its_end_then_the_stream_closes(served):
    base, _ = served

    async def scenario():
        async with live.client() as http:
            _, token = await live.register(http, base)
            game = await live.create_game(http, base, token, [{"bot": "random"}, {"bot": "random"}],
                                          options={"max_turns": 30})
            url = f"{base}/games/{game['id']}/stream/"
            watcher = live.Collector(http, url)
            await asyncio.wait_for(watcher.run(), timeout=120)
            summary = (await http.get(f"{base}/games/{game['id']}/")).json()
            again = await http.get(url, headers={"Last-Event-ID": str(summary["version"])})
            return watcher, summary, again

    watcher, summary, again = asyncio.run(scenario())
    assert watcher.ended and summary["status"] == "finished"
    assert [e["seq"] for e in watcher.events] == list(range(1, summary["version"] + 1))
    assert watcher.events[-1]["type"] == "game.finished" and watcher.events[-1]["data"]["seed"]
    assert again.status_code == 204  # EventSource stops reconnecting


def test_long_poll_returns_early_on_a_new_event_and_times_out_empty(served):
    base, _ = served

    async def scenario():
        async with live.client() as http:
            game_id, tokens = await _two_player_game(http, base, "c3" * 32)
            version = (await http.get(f"{base}/games/{game_id}/")).json()["version"]
            events_url = f"{base}/games/{game_id}/events/"
            started = time.monotonic()
            poll = asyncio.create_task(http.get(events_url, params={"after": version, "wait": 30},
                                                headers=live.auth(tokens[1])))
            await asyncio.sleep(0.5)
            assert not poll.done()
            # The waiting poll must not hold up the server's other (sync) views: this move goes through.
            moved = await live.play_moves(http, base, game_id, tokens, 1, random.Random(3))
            early = await poll
            early_seconds = time.monotonic() - started
            started = time.monotonic()
            empty = await http.get(events_url, params={"after": moved, "wait": 1})
            empty_seconds = time.monotonic() - started
            bad = await http.get(events_url, params={"after": moved, "wait": -1})
            return version, moved, early, early_seconds, empty, empty_seconds, bad

    version, moved, early, early_seconds, empty, empty_seconds, bad = asyncio.run(scenario())
    assert early.status_code == 200 and early_seconds < 10
    assert [e["seq"] for e in early.json()] == list(range(version + 1, moved + 1))
    assert empty.status_code == 200 and empty.json() == [] and 0.9 <= empty_seconds < 5
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_parameter"


def test_player_stream_says_whose_turn_it_is_and_resumes(served):
    base, _ = served

    async def scenario():
        async with live.client() as http:
            game_id, tokens = await _two_player_game(http, base, "d4" * 32)
            url = f"{base}/players/me/stream/"

            async def notes(token, after=None, count=1):
                headers = live.auth(token) | ({"Last-Event-ID": str(after)} if after is not None else {})
                got = []
                async with aconnect_sse(http, "GET", url, headers=headers) as source:
                    async for message in source.aiter_sse():
                        if not message.data:  # the `retry:` advice
                            continue
                        got.append((int(message.id), json.loads(message.data)))
                        if len(got) == count:
                            return got

            first = (await http.get(f"{base}/games/{game_id}/")).json()["to_act"][0]
            other = 1 - first
            # seat 1 (bob) was invited: his first notification is the invitation
            opening = await asyncio.wait_for(notes(tokens[first], count=2 + (first == 1)), 10)
            waiting = asyncio.create_task(notes(tokens[other], after=1 + (other == 1)))  # after its game_started
            rng = random.Random(4)
            while (await http.get(f"{base}/games/{game_id}/")).json()["to_act"] == [first]:
                await live.play_moves(http, base, game_id, tokens, 1, rng)
            turn = await asyncio.wait_for(waiting, 10)
            unauthenticated = await http.get(url)
            return first, other, opening, turn, unauthenticated, game_id

    first, other, opening, turn, unauthenticated, game_id = asyncio.run(scenario())
    invited = ["game_invitation"] if first == 1 else []
    assert [n["kind"] for _, n in opening] == [*invited, "game_started", "your_turn"]
    assert [seq for seq, _ in opening] == list(range(1, len(opening) + 1))
    assert opening[-1][1]["payload"]["seat"] == first and opening[-1][1]["payload"]["game"] == game_id
    assert [(seq, n["kind"], n["payload"]["seat"]) for seq, n in turn] == [(2 + (other == 1), "your_turn", other)]
    assert unauthenticated.status_code == 401 and unauthenticated.json()["code"] == "not_authenticated"


def test_idle_streams_get_heartbeats_and_bad_requests_get_json_errors(served):
    base, _ = served

    async def scenario():
        async with live.client() as http:
            game_id, tokens = await _two_player_game(http, base, "e5" * 32)
            lines = []
            started = time.monotonic()
            async with http.stream("GET", f"{base}/games/{game_id}/stream/", headers=live.auth(tokens[0])) as r:
                content_type = r.headers["content-type"]
                async for line in r.aiter_lines():
                    lines.append(line)
                    if line.startswith(": heartbeat"):
                        break
            waited = time.monotonic() - started
            bad_token = await http.get(f"{base}/games/{game_id}/stream/", params={"token": "nope"})
            bad_after = await http.get(f"{base}/games/{game_id}/stream/", headers={"Last-Event-ID": "x"})
            missing = await http.get(f"{base}/games/00000000-0000-0000-0000-000000000000/stream/")
            return content_type, lines, waited, bad_token, bad_after, missing

    content_type, lines, waited, bad_token, bad_after, missing = asyncio.run(scenario())
    assert content_type.startswith("text/event-stream") and "event: head" in lines and waited < 5
    assert (bad_token.status_code, bad_token.json()["code"]) == (401, "invalid_token")
    assert (bad_after.status_code, bad_after.json()["code"]) == (400, "invalid_parameter")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
