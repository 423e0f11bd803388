"""Helpers for tests against a real ASGI server process: start it, talk to it with httpx, play moves and
collect server-sent events."""

from __future__ import annotations

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
from collections.abc import Iterator
from pathlib import Path

import httpx
from httpx_sse import aconnect_sse

ROOT = Path(__file__).resolve().parents[2]
_SERVICE_VARS = ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "STREAM_BUS", "STREAM_HEARTBEAT_SECONDS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn(command: list[str], env: dict[str, str]) -> subprocess.Popen:
    """Start a process whose output goes to a temporary file: a pipe nobody reads fills up and stalls it."""
    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed with the process object
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    process.log = log  # type: ignore[attr-defined]
    return process


def output(process: subprocess.Popen) -> str:
    """What a spawned process printed so far (for assertion messages)."""
    process.log.seek(0)  # type: ignore[attr-defined]
    return process.log.read().decode(errors="replace")  # type: ignore[attr-defined]


def stop(process: subprocess.Popen, sig: int = signal.SIGTERM, timeout: float = 15) -> None:
    process.send_signal(sig)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def celery_worker(env: dict[str, str]) -> subprocess.Popen:
    """A real solo worker process on the given broker and database."""
    return spawn([sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo", "-c", "1",
                  "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "WARNING"],
                 {**os.environ, **env})


@contextlib.contextmanager
def server(env: dict[str, str], *, embedded: bool = True) -> Iterator[str]:
    """Serve the API in a subprocess: `manage.py serve` (embedded worker) or plain uvicorn. Yields its base URL."""
    port = free_port()
    full_env = {k: v for k, v in os.environ.items() if k not in _SERVICE_VARS}
    full_env.update(env)
    process = start_server(full_env, port, embedded=embedded)
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        yield base
    finally:
        stop(process, signal.SIGINT, timeout=10)


def start_server(env: dict[str, str], port: int, *, embedded: bool = True) -> subprocess.Popen:
    """`manage.py serve` or the README's uvicorn command on `port`, once it answers."""
    command = ([sys.executable, "manage.py", "serve", "--port", str(port)] if embedded else
               [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port), "--log-level",
                "warning", "--timeout-graceful-shutdown", "3"])
    process = spawn(command, env)
    base = f"http://127.0.0.1:{port}/api/v1"
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"{base}/kinds/", timeout=5).raise_for_status()
            break
        except httpx.HTTPError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise AssertionError(output(process)) from None
            time.sleep(0.2)
    return process


def client() -> httpx.AsyncClient:
    return httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=400, max_keepalive_connections=400))


async def register(http: httpx.AsyncClient, base: str) -> tuple[int, str]:
    response = await http.post(f"{base}/players/", json={"name": f"p{uuid.uuid4().hex[:12]}"})
    assert response.status_code == 201, response.text
    return response.json()["id"], response.json()["token"]


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Token {token}"} if token else {}


async def create_game(http: httpx.AsyncClient, base: str, token: str, seats: list[dict], *,
                      accept: tuple[str, ...] = (), **extra) -> dict:
    """Create a game with `token`; each token in `accept` (the other seated players) accepts it."""
    body = {"kind": "spite-and-malice", "seats": seats, **extra}
    response = await http.post(f"{base}/games/", json=body, headers=auth(token))
    assert response.status_code == 201, response.text
    for other in accept:
        accepted = await http.post(f"{base}/games/{response.json()['id']}/accept/", headers=auth(other))
        assert accepted.status_code == 200, accepted.text
        response = accepted
    return response.json()


async def play_moves(http: httpx.AsyncClient, base: str, game_id: str, tokens: dict[int, str], moves: int,
                     rng: random.Random, pause: float = 0.0) -> int:
    """Play `moves` random legal moves for the seats in `tokens`; returns the version reached."""
    version = 0
    for _ in range(moves):
        summary = (await http.get(f"{base}/games/{game_id}/")).json()
        version = summary["version"]
        if summary["status"] != "active":
            break
        seat = summary["to_act"][0]
        state = (await http.get(f"{base}/games/{game_id}/state/", params={"seat": seat},
                                headers=auth(tokens[seat]))).json()
        body = {"action": rng.choice(state["legal_actions"]), "expected_version": state["version"], "seat": seat}
        response = await http.post(f"{base}/games/{game_id}/actions/", json=body, headers=auth(tokens[seat]))
        assert response.status_code == 201, response.text
        version = response.json()["version"]
        if pause:
            await asyncio.sleep(pause)
    return version


class Collector:
    """Reads one SSE stream into `events` (log events) and `heads`, checking ids as it goes."""

    def __init__(self, http: httpx.AsyncClient, url: str, token: str | None = None, after: int | None = None):
        self.http, self.url, self.token = http, url, token
        self.after = after
        self.events: list[dict] = []
        self.heads: list[dict] = []
        self.ended = False
        self.connected = asyncio.Event()

    @property
    def last(self) -> int:
        return self.events[-1]["seq"] if self.events else (self.after or 0)

    async def run(self, max_events: int | None = None) -> None:
        headers = auth(self.token)
        if self.after is not None:
            headers["Last-Event-ID"] = str(self.after)
        taken = 0
        async with aconnect_sse(self.http, "GET", self.url, headers=headers) as source:
            if source.response.status_code == 204:  # a finished game with nothing after `after`
                self.ended = True
                return
            assert source.response.status_code == 200, await source.response.aread()
            async for message in source.aiter_sse():
                if not message.data:  # the `retry:` advice
                    continue
                if message.event == "message":
                    event = json.loads(message.data)
                    assert message.id == str(event["seq"])
                    self.events.append(event)
                    taken += 1
                    if max_events is not None and taken >= max_events:
                        return
                elif message.event == "head":
                    self.heads.append(json.loads(message.data))
                    self.connected.set()
                elif message.event == "end":
                    self.ended = True
                    return


async def wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for a subprocess sharing this test run's (PostgreSQL) database."""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or "5432"
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    return f"postgres://{settings_dict['USER']}{password}@{host}:{port}/{settings_dict['NAME']}"
