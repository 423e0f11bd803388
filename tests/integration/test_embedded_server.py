"""The README's first command as a new user meets it: `manage.py serve` on a fresh SQLite file, with no
broker configured, serves the API and plays bot seats with its in-process worker."""

import json
import time
import urllib.request

import pytest

from tests.integration import live


def _call(url: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=10) as response:
        return json.loads(response.read())


@pytest.fixture
def server(tmp_path):
    with live.server({"DATABASE_URL": f"sqlite:///{tmp_path / 'tavolo.sqlite3'}"}) as base:
        yield base


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
