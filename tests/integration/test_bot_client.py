"""`examples/bot_client.py`, the third-party bot, plays whole games against `manage.py serve` through the
public HTTP API: alone against a bot, and as two copies racing for the same seat (409s, reloads)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.integration import live

CLIENT = Path(live.ROOT) / "examples" / "bot_client.py"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`manage.py serve` on a fresh SQLite file."""
    folder = tmp_path_factory.mktemp("client")
    with live.server({"DATABASE_URL": f"sqlite:///{folder / 'tavolo.sqlite3'}"}) as base:
        yield base


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
