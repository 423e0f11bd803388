"""Bot reply latency: from the commit of a human's move to the commit of the random bot's reply, played by a
real Celery worker on Redis with PostgreSQL, printed beside a no-op Celery task round trip in the same run.

    pip install -e ".[test]"
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tavolo_bench python bench/bot_latency.py \
        [--replies 300] [--redis redis://127.0.0.1:6379/3] [--pool prefork] [--concurrency 2]

It migrates the database, serves the API with uvicorn and starts a worker (both from this file, so that
each wraps `games.broadcast.publish`, which on_commit calls right after every commit, to log when each game
version committed), then plays Spite and Malice games over HTTP, a human at random against a random bot.
A reply's latency is the commit of the bot's first action after a human move handed it the turn minus that
move's commit (same machine, same clock), in two ways: "commit" is when the game's wake-up is published (the
moment a stream hears of it, among the commit hooks), "COMMIT" when the hooks start, right after the
database's COMMIT. Also shown: the same from the events' `recorded_at` (insert times, read back through the
API), and the steps of a reply (`trace_phases`: the task's sending and receipt, each SQL statement, the
commit), each as the p50 of its time since the human's COMMIT, of the gap before it, of its duration. The
baseline is Celery's built-in no-op task (`celery.accumulate`) sent
to the same worker with its result through Redis, one right after each reply: publish, deliver, run, ack,
return — the floor any task-based bot pays. Target: reply p50 / no-op p50 <= 3.
"""

from __future__ import annotations

import argparse
import contextlib
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
from stream_latency import log_commits, percentile  # bench/ is on the path when a script here runs

ROOT = Path(__file__).resolve().parent.parent


def run_server(port: int, commit_log: str) -> None:
    import uvicorn

    log_commits(commit_log)
    trace_phases(commit_log + ".phases")
    uvicorn.run("config.asgi:application", port=port, log_level="warning")


def run_worker(commit_log: str, pool: str, concurrency: int) -> None:
    log_commits(commit_log)
    trace_phases(commit_log + ".phases")
    from config.celery import app

    app.conf.result_backend = os.environ["CELERY_BROKER_URL"]  # for the no-op's answer only
    app.worker_main(["worker", "-P", pool, "-c", str(concurrency), "--without-gossip", "--without-mingle",
                     "--without-heartbeat", "-l", "WARNING"])


def trace_phases(trace_log: str) -> None:
    """Append "<game> <version> <label> <time> <ms>" to `trace_log` at each step of a bot reply: in the web
    process the commit of the human's move (the start of its on-commit hooks) and each hook (bot task sent,
    wake-ups published); in the worker the task's receipt, start, every SQL statement (with its duration),
    the bot's choice, the engine, the notifications, the commit and its hooks. A step is keyed by the bot
    turn it serves: (game, version) of the human's head, i.e. the task's arguments."""
    import threading

    from celery import signals
    from django.db import connections
    from django.db.backends.base.base import BaseDatabaseWrapper

    from games import broadcast

    class Local(threading.local):
        key: tuple | None = None  # the bot turn a worker's task plays
        head: tuple | None = None  # the head whose commit hooks run (the web process keys by it)
        committed: float | None = None
        hooks: tuple = ()
        sql = 0

    out, local = open(trace_log, "a", buffering=1), Local()  # noqa: SIM115 - lives with the process

    def mark(label: str, at: float | None = None, ms: float = 0.0, key: tuple | None = None) -> None:
        key = key or local.key
        if key is not None:
            out.write(f"{key[0]} {key[1]} {label.replace(' ', '_')} {at or time.time()} {ms:.3f}\n")

    def task_key(name: str, args) -> tuple | None:
        return (args[0], args[1]) if name == "bots.tasks.play_bot_turn" and args and len(args) >= 2 else None

    def hook(label: str) -> None:
        if local.committed is not None:
            local.hooks = (*local.hooks, (label, time.time()))

    run_hooks = BaseDatabaseWrapper.run_and_clear_commit_hooks

    def timed_hooks(self) -> None:  # runs right after COMMIT: every on-commit hook comes after it
        local.committed, local.hooks, local.head = time.time(), (), None
        try:
            run_hooks(self)
        finally:
            key = local.key or local.head
            if key is not None:
                mark("commit", local.committed, key=key)
                for label, at in local.hooks:
                    mark(label, at, key=key)
            local.committed, local.hooks = None, ()

    BaseDatabaseWrapper.run_and_clear_commit_hooks = timed_hooks
    commit = BaseDatabaseWrapper.commit

    def timed_commit(self) -> None:
        started = time.time()
        commit(self)
        mark("COMMIT statement", started, (time.time() - started) * 1000)

    BaseDatabaseWrapper.commit = timed_commit
    publish = broadcast.publish

    def timed_publish(channel: str, value: int) -> None:
        publish(channel, value)
        hook(f"published {channel.split(':')[0]}")
        if channel.startswith("game:") and local.committed is not None and local.head is None:
            local.head = (channel[5:], value)

    broadcast.publish = timed_publish

    @signals.after_task_publish.connect(weak=False)
    def _sent(sender=None, **_) -> None:
        hook(f"sent {sender.rsplit('.', 1)[-1]}")

    @signals.task_received.connect(weak=False)
    def _received(request=None, **_) -> None:
        mark("received", key=task_key(request.name, request.args))

    @signals.task_prerun.connect(weak=False)
    def _prerun(task=None, args=None, **_) -> None:
        local.key, local.sql = task_key(task.name, args), 0
        mark("task start")

    @signals.task_postrun.connect(weak=False)
    def _postrun(**_) -> None:
        mark("task end")
        local.key = None

    def sql(execute, statement, params, many, context):
        started = time.time()
        try:
            return execute(statement, params, many, context)
        finally:
            if getattr(local, "key", None) is not None:
                local.sql += 1
                words = statement.replace('"', "").split()
                after = zip(words, words[1:], strict=False)
                table = next((word for prev, word in after if prev.upper() in ("FROM", "INTO", "UPDATE")), "")
                mark(f"sql{local.sql} {words[0]} {table}", started, (time.time() - started) * 1000)

    from django.db.backends.signals import connection_created

    def _wrap_sql(connection=None, **_) -> None:
        if sql not in connection.execute_wrappers:
            connection.execute_wrappers.append(sql)

    connection_created.connect(_wrap_sql, weak=False)
    for connection in connections.all(initialized_only=True):
        _wrap_sql(connection)

    def wrap(module, name: str, label: str) -> None:
        original = getattr(module, name, None)
        if original is None:
            return

        def timed(*args, **kwargs):
            started = time.time()
            try:
                return original(*args, **kwargs)
            finally:
                mark(label, started, (time.time() - started) * 1000)

        setattr(module, name, timed)

    from bots import policies
    from games import notifications, selectors, services

    wrap(policies, "choose", "bot choice")
    wrap(services, "apply_action", "engine apply")
    wrap(notifications, "notify_each", "notifications")
    wrap(services, "_after_append", "after append")
    wrap(selectors, "game_position_at", "position")


@contextlib.contextmanager
def stack(database_url: str, redis_url: str, pool: str, concurrency: int):
    """Web server and worker subprocesses; yields the API's base URL and the two commit logs."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = Path(tempfile.mkdtemp(prefix="tavolo-bot-bench-"))
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "STREAM_BUS")}
    env.update(DATABASE_URL=database_url, CELERY_BROKER_URL=redis_url, LOG_LEVEL="WARNING")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    web_log, worker_log = folder / "web.log", folder / "worker.log"
    processes = [
        subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--commit-log", str(web_log)], cwd=ROOT,
                         env=env),
        subprocess.Popen([sys.executable, __file__, "--worker", "--commit-log", str(worker_log), "--pool", pool,
                          "--concurrency", str(concurrency)], cwd=ROOT, env=env),
    ]
    base = f"http://127.0.0.1:{port}/api/v1"
    for _ in range(300):
        try:
            httpx.get(f"{base}/kinds/", timeout=2).raise_for_status()
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    try:
        yield base, web_log, worker_log
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=20)


def noop_round_trip(app) -> float:
    started = time.perf_counter()
    result = app.send_task("celery.accumulate", args=(1,), ignore_result=False)
    result.get(timeout=10)
    elapsed = (time.perf_counter() - started) * 1000
    result.forget()  # leave no result behind in Redis
    return elapsed


def play(base: str, replies: int, app) -> tuple[list[tuple[str, int, int]], list[float], list[float]]:
    """Play until `replies` bot replies: (game, human version, bot version) of each, their recorded_at
    latencies (ms), and a no-op round trip (ms) taken right after each."""
    rng = random.Random(11)
    pairs, recorded, noops = [], [], []
    with httpx.Client(timeout=30) as http:
        human = http.post(f"{base}/players/", json={"name": f"h{uuid.uuid4().hex[:10]}"}).json()
        auth = {"Authorization": f"Token {human['token']}"}
        for _ in range(5):  # warm up both paths
            noop_round_trip(app)
        while len(pairs) < replies:
            game = http.post(f"{base}/games/", headers=auth, json={
                "kind": "spite-and-malice", "seats": [{"player": human["id"]}, {"bot": "random"}]}).json()
            url = f"{base}/games/{game['id']}"
            while len(pairs) < replies:
                state = http.get(f"{url}/state/", headers=auth).json()
                if state["status"] != "active":
                    break
                if 0 not in state["to_act"]:  # the bot's turn: wait until it hands the move back
                    http.get(f"{url}/events/", params={"after": state["version"], "wait": 10}, headers=auth)
                    continue
                moved = http.post(f"{url}/actions/", headers=auth, json={
                    "action": rng.choice(state["legal_actions"]), "expected_version": state["version"]}).json()
                summary = http.get(f"{url}/").json()
                if summary["status"] != "active" or summary["to_act"] == [0]:
                    continue  # the game ended, or the human's turn goes on (nothing can move meanwhile)
                events = http.get(f"{url}/events/", params={"after": moved["version"] - 1, "wait": 10},
                                  headers=auth).json()
                while len(events) < 2:  # the human's last event, then the bot's first
                    events = http.get(f"{url}/events/", params={"after": moved["version"] - 1, "wait": 10},
                                      headers=auth).json()
                human_event, bot_event = events[0], events[1]
                assert human_event["seq"] == moved["version"] and bot_event["actor"] == 1, events[:2]
                pairs.append((game["id"], moved["version"], bot_event["seq"]))
                recorded.append((datetime.fromisoformat(bot_event["recorded_at"])
                                 - datetime.fromisoformat(human_event["recorded_at"])).total_seconds() * 1000)
                noops.append(noop_round_trip(app))
    return pairs, recorded, noops


def _commits(log: Path) -> dict[str, list[tuple[int, float]]]:
    """game -> [(version, commit time)] in version order."""
    commits: dict[str, list[tuple[int, float]]] = {}
    for line in log.read_text().splitlines():
        game_id, version, at = line.split()
        commits.setdefault(game_id, []).append((int(version), float(at)))
    return {game_id: sorted(rows) for game_id, rows in commits.items()}


def commit_latencies(pairs: list[tuple[str, int, int]], web_log: Path, worker_log: Path) -> list[float]:
    """The bot's first commit past the human's version (its action may hold several events) minus the human's."""
    web, worker = _commits(web_log), _commits(worker_log)
    latencies = []
    for game, human, _ in pairs:
        human_at = next(at for version, at in web[game] if version == human)
        bot_at = next(at for version, at in worker[game] if version > human)
        latencies.append((bot_at - human_at) * 1000)
    return latencies


def _phases(logs: list[Path]) -> dict[tuple[str, int], list[tuple[float, str, float]]]:
    """(game, version) -> [(time, label, ms)] from the trace logs of every process, in time order."""
    steps: dict[tuple[str, int], list[tuple[float, str, float]]] = {}
    for log in logs:
        if log.exists():
            for line in log.read_text().splitlines():
                game_id, version, label, at, ms = line.split()
                steps.setdefault((game_id, int(version)), []).append((float(at), label, float(ms)))
    return {key: sorted(rows) for key, rows in steps.items()}


def phase_breakdown(pairs: list[tuple[str, int, int]], web_log: Path, worker_log: Path) -> list[float]:
    """Print each step of a reply: the p50 of its start since the human's COMMIT, of the gap since the
    previous step ended (Python, scheduling) and of its own duration (SQL statements, wrapped calls); then
    where the task's time went. Returns the COMMIT-to-COMMIT latencies."""
    steps = _phases([Path(f"{web_log}.phases"), Path(f"{worker_log}.phases")])
    offsets: dict[str, list[float]] = {}
    gaps: dict[str, list[float]] = {}
    durations: dict[str, list[float]] = {}
    committed: list[float] = []
    split: dict[str, list[float]] = {"task": [], "SQL statements": [], "COMMIT": [], "other": [], "count": []}
    for game, human, _ in pairs:
        rows = steps.get((game, human), [])
        base = next((at for at, label, _ in rows if label == "commit"), None)
        if base is None:
            continue
        seen: dict[str, int] = {}
        ends: list[float] = []
        for at, label, ms in rows:
            seen[label] = seen.get(label, 0) + 1
            name = label if seen[label] == 1 else f"{label}#{seen[label]}"
            offsets.setdefault(name, []).append((at - base) * 1000)
            gaps.setdefault(name, []).append((at - max([end for end in ends if end <= at], default=at)) * 1000)
            durations.setdefault(name, []).append(ms)
            ends.append(at + ms / 1000)
        if seen.get("commit", 0) >= 2 and "task_start" in seen:
            committed.append(offsets["commit#2"][-1])
            task = offsets["commit#2"][-1] - offsets["task_start"][-1]
            sql = [ms for _, label, ms in rows if label.startswith("sql")]
            commit = next((ms for _, label, ms in rows if label == "COMMIT_statement"), 0.0)
            for key, value in (("task", task), ("SQL statements", sum(sql)), ("COMMIT", commit),
                               ("other", task - sum(sql) - commit), ("count", len(sql))):
                split[key].append(value)
    print(f"\nsteps of a reply ({len(committed)} traced), p50 in ms: start since the human's COMMIT, gap since "
          "the previous step, own duration")
    for name in sorted(offsets, key=lambda n: percentile(offsets[n], 50)):
        if len(offsets[name]) * 2 < len(committed):
            continue  # a step most replies do not take
        print(f"  {name.replace('_', ' '):36} {len(offsets[name]):>5} {percentile(offsets[name], 50):>8.2f}"
              f" {percentile(gaps[name], 50):>7.2f} {percentile(durations[name], 50):>7.2f}")
    if committed:
        print("  the task, from its start to its COMMIT (p50 ms): " + ", ".join(
            f"{key} {percentile(values, 50):.{0 if key == 'count' else 2}f}" for key, values in split.items()))
    return committed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=300)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--redis", default=os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/3")
    parser.add_argument("--pool", default="prefork", help="the worker's pool (production default: prefork)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--commit-log", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        run_server(args.serve, args.commit_log)
        return
    if args.worker:
        run_worker(args.commit_log, args.pool, args.concurrency)
        return
    if not args.database_url.startswith(("postgres://", "postgresql://")):
        sys.exit("set DATABASE_URL (or --database-url) to a PostgreSQL database, e.g. "
                 "postgres://postgres@127.0.0.1:5432/tavolo_bench (created beforehand)")

    os.environ.update(DATABASE_URL=args.database_url, CELERY_BROKER_URL=args.redis)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from config.celery import app

    app.conf.result_backend = args.redis
    app.control.purge()
    with stack(args.database_url, args.redis, args.pool, args.concurrency) as (base, web_log, worker_log):
        pairs, recorded, noops = play(base, args.replies, app)
        time.sleep(0.5)  # let the last commit lines reach the logs
        committed = commit_latencies(pairs, web_log, worker_log)
        exact = phase_breakdown(pairs, web_log, worker_log)
    rows = [("no-op task round trip", noops), ("human commit -> bot commit", committed),
            ("human COMMIT -> bot COMMIT", exact), ("human insert -> bot insert", recorded)]
    floor50, floor99 = percentile(noops, 50), percentile(noops, 99)
    print(f"\nPostgreSQL, Redis, uvicorn, worker -P {args.pool} -c {args.concurrency}; random bot, Spite and Malice")
    print(f"{'what':28} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'p50 / no-op p50':>16} {'p99 / no-op p99':>16}")
    for name, values in rows:
        p50, p99 = percentile(values, 50), percentile(values, 99)
        print(f"{name:28} {len(values):>5} {p50:>8.2f} {p99:>8.2f} {p50 / floor50:>16.2f} {p99 / floor99:>16.2f}")


if __name__ == "__main__":
    main()
