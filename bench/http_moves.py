"""The HTTP move path against a static endpoint, served the production way, in one run.

    pip install -e ".[test]"
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tavolo_bench python bench/http_moves.py \
        [--redis redis://127.0.0.1:6379/6] [--requests 300] [--seconds 8]

It migrates the database, then serves the API as production does: `python -m config.web` (uvicorn, 2 worker
processes; plain `uvicorn config.asgi:application --workers 2` where that launcher is missing), PostgreSQL,
Redis for the throttle counters and the broker, and a Celery worker. Throttles stay on (at a rate no client
here reaches), so their cache round trips are counted. Clients are threads with one keep-alive connection
each (http.client), so a request costs what a real client's would.

It prints, side by side:
- one client: p50 and p99 of `GET /kinds/` (static: the floor of a request), `GET /state/` and `POST
  /actions/` (Spite and Malice, two players of one client), and their ratios to `/kinds/`;
- 4 and 16 clients, each playing its own game: moves/s divided by `/kinds/` requests/s at the same
  concurrency, measured in alternating rounds (the median round's ratio is printed, with the range). The
  loop is the documented one: a client reads `/state/` only when the answer to its move did
  not carry its next state (the answer carries it while the mover is still to act; a server without
  `state` in its answers is read before every move, which the line says);
- a game at version 1000 beside one at version 10: `GET /state/` p50, and `GET /replay/{n}/` for steps not
  read before (a fold from the nearest snapshot, or from the start once the snapshots are deleted).
Targets: POST p50 <= 2.5 x /kinds/ p50; /state/ p50 <= 1.5 x; 4 clients >= 0.35; state at v1000 <= 2 x v10.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
API = "/api/v1"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


class Client:
    """One keep-alive HTTP connection; `call` returns (status, JSON body, milliseconds)."""

    IDLE = 4.0  # seconds: uvicorn closes a keep-alive connection idle for 5

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port, self.token = port, token
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.used = time.monotonic()

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None):
        headers = {"Authorization": f"Token {token or self.token}"} if (token or self.token) else {}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if time.monotonic() - self.used > self.IDLE:
            self.connection.close()  # reconnects: the server may have closed it
        started = time.perf_counter()
        self.connection.request(method, API + path, body=payload, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        self.used = time.monotonic()
        return response.status, (json.loads(data) if data else None), elapsed


class Table:
    """A two-player Spite and Malice game played by one client for both seats, by the documented loop."""

    def __init__(self, client: Client, rng: random.Random, options: dict | None = None) -> None:
        self.client, self.rng, self.options = client, rng, options or {}
        self.answers_carry_state: bool | None = None  # known after the first move
        self.tokens = [register(client), register(client)]
        self.new_game()

    def new_game(self) -> None:
        ids = [token_id for token_id, _ in self.tokens]
        body = {"kind": "spite-and-malice", "seats": [{"player": ids[0]}, {"player": ids[1]}], "options": self.options}
        status, game, _ = self.client.call("POST", "/games/", body, token=self.tokens[0][1])
        assert status == 201, game
        status, game, _ = self.client.call("POST", f"/games/{game['id']}/accept/", token=self.tokens[1][1])
        assert status == 200, game
        self.game, self.state, self.seat, self.version = game["id"], None, 0, 0

    def read_state(self, seat: int) -> float:
        """GET /state/ through `seat`'s eyes; returns its milliseconds."""
        status, state, ms = self.client.call("GET", f"/games/{self.game}/state/?seat={seat}",
                                             token=self.tokens[seat][1])
        assert status == 200, state
        self.state = state
        return ms

    def move(self) -> tuple[float, float]:
        """One move by the seat to act; returns (POST ms, the ms of the GET /state/ it needed, 0 if none). A
        client knows the seat that moved last: its state tells whether it is still to act, else who is."""
        state_ms = 0.0
        if self.state is None:
            state_ms += self.read_state(self.seat)
        if not self.state["legal_actions"]:
            state_ms += self.read_state(self.state["to_act"][0])
        self.seat = seat = self.state["seat"]
        body = {"action": self.rng.choice(self.state["legal_actions"]), "expected_version": self.state["version"],
                "seat": seat}
        status, answer, ms = self.client.call("POST", f"/games/{self.game}/actions/", body, token=self.tokens[seat][1])
        assert status == 201, answer
        self.answers_carry_state, self.version = "state" in answer, answer["version"]
        if answer["status"] != "active":
            self.new_game()
        elif answer.get("state") is not None:  # still to act: the answer is the mover's next state
            self.state = {**answer["state"], "seat": seat, "version": answer["version"]}
        elif "to_act" in answer:
            self.state, self.seat = None, answer["to_act"][0]
        else:
            self.state = None
        return ms, state_ms


def register(client: Client) -> tuple[int, str]:
    status, player, _ = client.call("POST", "/players/", {"name": f"b{uuid.uuid4().hex[:12]}"})
    assert status == 201, player
    return player["id"], player["token"]


# -- the stack ---------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def stack(root: Path, database_url: str, redis_url: str, snapshot_every: int):
    """Migrate, then run the web processes and a Celery worker from the checkout `root`; yields the port."""
    env = {**os.environ, "DATABASE_URL": database_url, "CELERY_BROKER_URL": redis_url, "CACHE_URL": redis_url,
           "REDIS_URL": redis_url, "DEBUG": "false", "LOG_LEVEL": "WARNING", "SNAPSHOT_EVERY": str(snapshot_every),
           "MAX_ACTIVE_GAMES_PER_PLAYER": "1000000"}
    for name in ("REGISTER", "GAME_CREATE", "ACTION", "TOURNAMENT_CREATE", "AUTH_FAILURE"):
        env[f"THROTTLE_{name}"] = "10000000/min"  # on, so that their cost counts; never reached
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=root, env=env, check=True)
    port = free_port()
    if (root / "config" / "web.py").exists():
        web = [sys.executable, "-m", "config.web", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
    else:
        web = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port",
               str(port), "--workers", "2", "--log-level", "warning"]
    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed at exit
    processes = [subprocess.Popen(web, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT),
                 subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "-c", "1",
                                   "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "WARNING"],
                                  cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)]
    try:
        for _ in range(300):
            with contextlib.suppress(OSError, http.client.HTTPException):
                if Client(port).call("GET", "/kinds/")[0] == 200:
                    break
            time.sleep(0.1)
        else:
            log.seek(0)
            raise SystemExit(f"the server did not start:\n{log.read().decode(errors='replace')}")
        yield port
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


# -- measurements ------------------------------------------------------------------------------------
def single_client(port: int, requests: int) -> dict[str, list[float]]:
    client = Client(port)
    table = Table(client, random.Random(1))
    times: dict[str, list[float]] = {"kinds": [], "state": [], "move": []}
    for _ in range(20):  # warm both worker processes
        client.call("GET", "/kinds/")
        table.read_state(0)
    for _ in range(requests):
        times["kinds"].append(client.call("GET", "/kinds/")[2])
        times["state"].append(table.read_state(table.seat))
        times["move"].append(table.move()[0])
    return times


def throughput(port: int, clients: int, seconds: float, work: str) -> tuple[float, bool | None]:
    """Requests (work="kinds") or moves (work="moves") per second over `clients` threads."""
    counts = [0] * clients
    carry: list[bool | None] = [None] * clients
    ready = threading.Barrier(clients + 1)
    stop_at = [float("inf")]  # until the barrier is passed and the real end is set

    def run(index: int) -> None:
        client = Client(port)
        table = Table(client, random.Random(index)) if work == "moves" else None
        ready.wait()
        while time.perf_counter() < stop_at[0]:
            if table is None:
                client.call("GET", "/kinds/")
            else:
                table.move()
                carry[index] = table.answers_carry_state
            counts[index] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    ready.wait()
    started = time.perf_counter()
    stop_at[0] = started + seconds
    for thread in threads:
        thread.join()
    return sum(counts) / (time.perf_counter() - started), any(carry)


def long_game(port: int, version: int) -> Table:
    """A game played to at least `version`: a match of many games (one game ends after about 100 events)."""
    table = Table(Client(port), random.Random(7), {"target": 100_000})
    while True:
        game = table.game
        table.move()
        if table.game == game and table.version >= version:
            return table


def deep_reads(port: int, database_url: str, requests: int) -> dict[str, float]:
    short, deep = long_game(port, 10), long_game(port, 1000)
    out: dict[str, float] = {}
    for name, table in (("v10", short), ("v1000", deep)):
        _, summary, _ = table.client.call("GET", f"/games/{table.game}/")
        seat = summary["to_act"][0]
        out[f"state {name}"] = percentile([table.read_state(seat) for _ in range(requests)], 50)
        out[f"version {name}"] = summary["version"]
    table = deep
    head = out["version v1000"]
    replay = [table.client.call("GET", f"/games/{table.game}/replay/{n}/")[2] for n in range(head, head - 40, -1)]
    out["replay v1000 snapshots"] = percentile(replay, 50)
    deleted = delete_snapshots(database_url, table.game)
    replay = [table.client.call("GET", f"/games/{table.game}/replay/{n}/")[2]
              for n in range(head - 40, head - 80, -1)]
    out["replay v1000 no snapshots"] = percentile(replay, 50)
    out["snapshots deleted"] = deleted
    replay = [short.client.call("GET", f"/games/{short.game}/replay/{n}/")[2] for n in range(10, 0, -1)]
    out["replay v10"] = percentile(replay, 50)
    return out


def delete_snapshots(database_url: str, game_id: str) -> int:
    url = urlparse(database_url)
    command = ["psql", "-h", url.hostname or "127.0.0.1", "-p", str(url.port or 5432), "-U", url.username or "postgres",
               "-d", url.path.lstrip("/"), "-tAc", f"WITH d AS (DELETE FROM games_snapshot WHERE game_id = "
                                                   f"'{uuid.UUID(game_id)}' RETURNING 1) SELECT count(*) FROM d"]
    env = {**os.environ, **({"PGPASSWORD": url.password} if url.password else {})}
    return int(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--requests", type=int, default=300, help="per endpoint, single client")
    parser.add_argument("--seconds", type=float, default=8.0, help="per throughput measurement, over its rounds")
    parser.add_argument("--rounds", type=int, default=4, help="alternating /kinds/ and moves, per concurrency")
    parser.add_argument("--snapshot-every", type=int, default=50)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (another branch's, to compare)")
    args = parser.parse_args()
    if not args.database_url.startswith("postgres"):
        raise SystemExit("needs DATABASE_URL=postgres://... (a database this may fill)")
    with stack(args.root.resolve(), args.database_url, args.redis, args.snapshot_every) as port:
        times = single_client(port, args.requests)
        kinds = percentile(times["kinds"], 50)
        print(f"uvicorn 2 workers, PostgreSQL, Redis, Celery worker; Spite and Malice; {args.requests} requests each")
        print(f"{'one client':<22}{'p50 ms':>9}{'p99 ms':>9}{'÷ /kinds/ p50':>15}  target")
        for name, label, target in (("kinds", "GET /kinds/", ""), ("state", "GET /state/", "<= 1.5"),
                                    ("move", "POST /actions/", "<= 2.5")):
            p50, p99 = percentile(times[name], 50), percentile(times[name], 99)
            print(f"{label:<22}{p50:>9.2f}{p99:>9.2f}{p50 / kinds:>15.2f}  {target}", flush=True)
        slice_ = args.seconds / args.rounds
        for clients in (4, 16):
            # /kinds/ and moves alternate (ABAB...), so that a change in the machine's load hits both.
            rounds = []
            for _ in range(args.rounds):
                kinds_rate, _ = throughput(port, clients, slice_, "kinds")
                moves, carry = throughput(port, clients, slice_, "moves")
                rounds.append((moves / kinds_rate, moves, kinds_rate))
            ratio, moves, kinds_rate = sorted(rounds)[len(rounds) // 2]
            if clients == 4:
                loop = ("GET /state/ only when the move's answer did not carry the mover's next state" if carry
                        else "GET /state/ before every move (the answers carry no state)")
                print(f"\nthroughput ({args.rounds} rounds of {slice_:g} s each, alternating; the median round; "
                      f"loop: {loop})")
            target = "  target >= 0.35" if clients == 4 else ""
            print(f"{clients:>2} clients: {moves:7.1f} moves/s ÷ {kinds_rate:7.1f} /kinds/ req/s = "
                  f"{ratio:.3f}{target}  (rounds {min(rounds)[0]:.3f} to {max(rounds)[0]:.3f})", flush=True)
        deep = deep_reads(port, args.database_url, min(args.requests, 100))
    print(f"\ndeep game (version {deep['version v1000']:.0f}) beside a short one (version {deep['version v10']:.0f}),"
          f" snapshots every {args.snapshot_every}")
    print(f"GET /state/ p50: v1000 {deep['state v1000']:.2f} ms, v10 {deep['state v10']:.2f} ms, ratio "
          f"{deep['state v1000'] / deep['state v10']:.2f} (target <= 2)")
    print(f"GET /replay/n/ p50, steps not read before: near v1000 {deep['replay v1000 snapshots']:.2f} ms with "
          f"snapshots, {deep['replay v1000 no snapshots']:.2f} ms without ({deep['snapshots deleted']:.0f} deleted); "
          f"v10 {deep['replay v10']:.2f} ms")

if __name__ == "__main__":
    main()
