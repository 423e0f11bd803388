"""Stream latency: from a move's commit to its arrival on a server-sent-events client, over a few hundred
moves, printed beside a plain Redis pub/sub round trip measured in the same run.

    pip install -e ".[test]" && python bench/stream_latency.py [--moves 300] [--watchers 10] [--redis URL]

It serves the API with uvicorn on a fresh SQLite file, once per bus (`local`: the embedded default's
in-process bus; `redis`: pub/sub), creates two-player games and plays random moves over HTTP while
`--watchers` clients stream each game. The latency of a move is the arrival of its first event at the
first watcher minus its commit time: the server process here wraps `games.broadcast.publish` (called by
on_commit right after the commit) to log when each version committed. Same machine, same clock. Also shown:
from the event's `recorded_at` (its insert), which adds the commit itself (SQLite's fsync). The Redis
baseline is PUBLISH -> an async subscriber, the floor any pub/sub-based stream pays.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime
from pathlib import Path

import httpx
from httpx_sse import aconnect_sse

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@contextlib.contextmanager
def serve(bus: str, redis_url: str):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="tavolo-bench-")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{folder}/bench.sqlite3", STREAM_BUS=bus, REDIS_URL=redis_url,
               LOG_LEVEL="WARNING")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    commits = Path(folder) / "commits.log"
    process = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--commit-log", str(commits)],
                               cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}/api/v1"
    for _ in range(200):
        try:
            httpx.get(f"{base}/kinds/", timeout=2)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    try:
        yield base, commits
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)


def serve_with_commit_log(port: int, commit_log: str) -> None:
    """The server process: uvicorn, with the commit time of every game version appended to `commit_log`."""
    import uvicorn

    log_commits(commit_log)
    uvicorn.run("config.asgi:application", port=port, log_level="warning")


def log_commits(commit_log: str) -> None:
    """Set Django up in this process and append "<game> <version> <time>" to `commit_log` after each commit
    (the moment the wake-up is published, right after the commit)."""
    import django

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from games import broadcast

    publish, log = broadcast.publish, open(commit_log, "a", buffering=1)  # noqa: SIM115 - lives with the process

    def timed_publish(channel: str, value: int) -> None:
        now = time.time()
        if channel.startswith("game:"):
            log.write(f"{channel[5:]} {value} {now}\n")
        publish(channel, value)

    broadcast.publish = timed_publish


async def watch(http: httpx.AsyncClient, url: str, connected: asyncio.Event, arrivals: dict[int, float],
                recorded: dict[int, float]) -> None:
    async with aconnect_sse(http, "GET", url) as source:
        async for message in source.aiter_sse():
            now = time.time()
            if message.event == "head":
                connected.set()
            elif message.event == "message" and message.data:
                event = json.loads(message.data)
                arrivals.setdefault(event["seq"], now)  # the first watcher to get it
                recorded[event["seq"]] = datetime.fromisoformat(event["recorded_at"]).timestamp()
            elif message.event == "end":
                return


async def stream_latencies(base: str, moves: int, watchers: int) -> tuple[list[tuple[str, int, int, float]],
                                                                          list[float]]:
    """(game, first seq, version after, arrival) of each move, and insert-to-arrival latencies in ms."""
    moved: list[tuple[str, int, int, float]] = []
    latencies: list[float] = []
    rng = random.Random(7)
    limits = httpx.Limits(max_connections=watchers + 20)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        players = []
        for _ in range(2):
            body = (await http.post(f"{base}/players/", json={"name": f"b{uuid.uuid4().hex[:10]}"})).json()
            players.append(body)
        tokens = {0: players[0]["token"], 1: players[1]["token"]}
        while len(latencies) < moves:
            game = (await http.post(f"{base}/games/", headers={"Authorization": f"Token {tokens[0]}"}, json={
                "kind": "spite-and-malice", "seats": [{"player": p["id"]} for p in players]})).json()
            game = (await http.post(f"{base}/games/{game['id']}/accept/",  # the invited second player
                                    headers={"Authorization": f"Token {tokens[1]}"})).json()
            arrivals: dict[int, float] = {}
            recorded: dict[int, float] = {}
            connected = [asyncio.Event() for _ in range(watchers)]

            url = f"{base}/games/{game['id']}/stream/"
            tasks = [asyncio.create_task(watch(http, url, flag, arrivals, recorded)) for flag in connected]
            await asyncio.gather(*(flag.wait() for flag in connected))
            firsts = []
            while len(latencies) + len(firsts) < moves:
                summary = (await http.get(f"{base}/games/{game['id']}/")).json()
                if summary["status"] != "active":
                    break
                seat = summary["to_act"][0]
                headers = {"Authorization": f"Token {tokens[seat]}"}
                state = (await http.get(f"{base}/games/{game['id']}/state/", headers=headers,
                                        params={"seat": seat})).json()
                response = await http.post(f"{base}/games/{game['id']}/actions/", headers=headers, json={
                    "action": rng.choice(state["legal_actions"]), "expected_version": state["version"],
                    "seat": seat})
                firsts.append((state["version"] + 1, response.json()["version"]))
            deadline = time.monotonic() + 10
            while any(seq not in arrivals for seq, _ in firsts) and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            missing = [seq for seq, _ in firsts if seq not in arrivals]
            if missing:
                raise AssertionError(f"events never arrived: {missing}")
            latencies.extend((arrivals[seq] - recorded[seq]) * 1000 for seq, _ in firsts)
            moved.extend((game["id"], seq, version, arrivals[seq]) for seq, version in firsts)
    return moved, latencies


def commit_latencies(moved: list[tuple[str, int, int, float]], commit_log: Path) -> list[float]:
    committed = {}
    for line in commit_log.read_text().splitlines():
        game_id, version, at = line.split()
        committed[(game_id, int(version))] = float(at)
    return [(arrival - committed[(game_id, version)]) * 1000 for game_id, _, version, arrival in moved]


async def redis_round_trips(url: str, count: int) -> list[float]:
    import redis.asyncio as aioredis

    subscriber, publisher = aioredis.Redis.from_url(url), aioredis.Redis.from_url(url)
    pubsub = subscriber.pubsub()
    await pubsub.subscribe("tavolo-bench")
    await pubsub.get_message(timeout=1)  # the subscribe confirmation
    times = []
    for i in range(count):
        started = time.perf_counter()
        await publisher.publish("tavolo-bench", str(i))
        while (await pubsub.get_message(timeout=1)) is None:
            pass
        times.append((time.perf_counter() - started) * 1000)
    await pubsub.aclose()
    await subscriber.aclose()
    await publisher.aclose()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--watchers", type=int, default=10)
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/3"))
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--commit-log", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_with_commit_log(args.serve, args.commit_log)
        return

    try:
        baseline = asyncio.run(redis_round_trips(args.redis, max(args.moves, 300)))
    except OSError as error:
        sys.exit(f"Redis at {args.redis} is needed for the baseline: {error}")
    rows = [("redis pub/sub round trip", baseline)]
    for bus in ("local", "redis"):
        with serve(bus, args.redis) as (base, commit_log):
            moved, from_insert = asyncio.run(stream_latencies(base, args.moves, args.watchers))
            rows.append((f"commit -> SSE client, {bus} bus", commit_latencies(moved, commit_log)))
            rows.append((f"insert -> SSE client, {bus} bus", from_insert))
    floor = percentile(baseline, 50)
    print(f"{args.watchers} watchers per game, SQLite, uvicorn; each move's first event at its first watcher")
    print(f"{'what':34} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'p50 / redis p50':>16} {'p99 / redis p99':>16}")
    for name, values in rows:
        p50, p99 = percentile(values, 50), percentile(values, 99)
        print(f"{name:34} {len(values):>5} {p50:>8.2f} {p99:>8.2f} {p50 / floor:>16.1f}"
              f" {p99 / percentile(baseline, 99):>16.1f}")


if __name__ == "__main__":
    main()
