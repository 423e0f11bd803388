"""The README's first command as a new user meets it: `manage.py serve` on a fresh SQLite file, with no
broker configured, serves the API and plays bot seats with its in-process worker."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(url: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=10) as response:
        return json.loads(response.read())


@pytest.fixture
def server(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'tavolo.sqlite3'}"
    process = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/api/v1"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            _call(f"{base}/kinds/")
            break
        except OSError:
            assert process.poll() is None, process.stdout.read().decode()
            time.sleep(0.2)
    yield base
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def test_serve_plays_a_bot_game_to_the_end(server):
    token = _call(f"{server}/players/", {"name": "newcomer"})["token"]
    game = _call(f"{server}/games/", {"kind": "spite-and-malice", "seats": [{"bot": "random"}, {"bot": "random"}]},
                 token)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        summary = _call(f"{server}/games/{game['id']}/")
        if summary["status"] == "finished":
            break
        time.sleep(0.2)
    assert summary["status"] == "finished", summary
    assert _call(f"{server}/games/{game['id']}/export/")["verification"]["ok"] is True
