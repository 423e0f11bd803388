"""`examples/bot_client.py`, the third-party bot, plays whole games against `manage.py serve` through the
public HTTP API: alone against a bot, and as two copies racing for the same seat (409s, reloads)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.integration import live

CLIENT = Path(live.ROOT) / "examples" / "bot_client.py"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`manage.py serve` on a fresh SQLite file; its output (an access log line per request) goes to a file,
    since an undrained pipe would fill up and stall the server."""
    folder = tmp_path_factory.mktemp("client")
    env = {k: v for k, v in os.environ.items() if k not in live._SERVICE_VARS}
    env["DATABASE_URL"] = f"sqlite:///{folder / 'tavolo.sqlite3'}"
    port = live.free_port()
    with open(folder / "serve.log", "w") as log:
        process = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=live.ROOT,
                                   env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/api/v1"
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"{base}/kinds/", timeout=5).raise_for_status()
            break
        except httpx.HTTPError:
            assert process.poll() is None and time.monotonic() < deadline, (folder / "serve.log").read_text()
            time.sleep(0.2)
    yield base
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CLIENT), *args], capture_output=True, text=True, timeout=240)


def test_the_client_creates_a_game_against_a_bot_and_plays_it_to_the_end(server):
    done = _run("--server", server, "--kind", "spite-and-malice", "--against", "random", "--seed", "3")
    assert done.returncode == 0, done.stderr
    game_id = re.search(r"created spite-and-malice game (\S+)", done.stdout)[1]
    summary = httpx.get(f"{server}/games/{game_id}/").json()
    assert summary["status"] == "finished" and summary["result"]
    assert summary["seats"][1]["bot"] == "random"
    events = httpx.get(f"{server}/games/{game_id}/events/").json()
    assert any(e["actor"] == 0 for e in events) and any(e["actor"] == 1 for e in events)
    assert re.search(rf"game {game_id}: (won|not won) \(seat 0", done.stdout)


def test_two_clients_racing_for_one_seat_reload_on_409_and_finish(server):
    http = httpx.Client(base_url=server)
    me = http.post("/players/", json={"name": "racer"}).json()
    game = http.post("/games/", headers={"Authorization": f"Token {me['token']}"}, json={
        "kind": "spite-and-malice", "seats": [{"player": me["id"]}, {"bot": "random"}]}).json()
    clients = [subprocess.Popen([sys.executable, str(CLIENT), "--server", server, "--token", me["token"], "--game",
                                 game["id"], "--seed", str(seed)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True) for seed in (1, 2)]
    outputs = [client.communicate(timeout=240) for client in clients]
    assert [client.returncode for client in clients] == [0, 0], [err for _, err in outputs]
    assert sum(out.count("409 ") for out, _ in outputs) >= 1  # they did collide, and went on
    summary = http.get(f"/games/{game['id']}/").json()
    assert summary["status"] == "finished"
    seqs = [e["seq"] for e in http.get(f"/games/{game['id']}/events/").json()]
    assert seqs == list(range(1, summary["version"] + 1))
