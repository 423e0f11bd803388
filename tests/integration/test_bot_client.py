"""`examples/bot_client.py`, the third-party bot, plays whole games against `manage.py serve` through the
public HTTP API: alone against a bot, and as two copies racing for the same seat (409s, reloads)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
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


def _one_line_failure(done: subprocess.CompletedProcess) -> str:
    """The client stopped with exit status 1 and one line on stderr, no traceback."""
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def _name_is_free(server: str, name: str) -> bool:
    """True if `name` was never registered (registering it now succeeds)."""
    return httpx.post(f"{server}/players/", json={"name": name}).status_code == 201


def test_no_server_is_one_clear_line():
    base = f"http://127.0.0.1:{live.free_port()}/api/v1"
    line = _one_line_failure(_run("--server", base))
    assert line.startswith(f"cannot reach the server at {base}:")


@pytest.mark.parametrize(("args", "expected"), [
    (["--kind", "poker"], "unknown --kind 'poker'; this server offers: diavoletto, machiavelli, muscio, "),
    (["--kind", "muscio", "--against", "random"], "muscio is played by 3 to 6 players"),
    (["--against", "random,random"], "spite-and-malice is played by 2 to 2 players"),
    (["--against", "randm"], "unknown bot(s) in --against: randm; this server has: "),
])
def test_a_game_the_server_would_refuse_is_refused_before_registering(server, args, expected):
    name = f"early-{uuid.uuid4().hex[:8]}"
    line = _one_line_failure(_run("--server", server, "--name", name, *args))
    assert line.startswith(expected), line
    assert _name_is_free(server, name)


def test_an_error_answer_is_one_clear_line(server):
    me = httpx.post(f"{server}/players/", json={"name": f"lost-{uuid.uuid4().hex[:8]}"}).json()
    line = _one_line_failure(_run("--server", server, "--token", me["token"], "--game", str(uuid.uuid4())))
    assert line.startswith("the server refused: 404 "), line
    line = _one_line_failure(_run("--server", server.removesuffix("/api/v1")))
    assert "is --server the API root, like http://127.0.0.1:8000/api/v1?" in line


def test_help_shows_the_defaults():
    done = subprocess.run([sys.executable, str(CLIENT), "--help"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "200"})  # no line break inside a default
    assert done.returncode == 0
    text = done.stdout
    assert "(default: http://127.0.0.1:8000/api/v1)" in text
    assert "(default: spite-and-malice)" in text and "(default: random)" in text
