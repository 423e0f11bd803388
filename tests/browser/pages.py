"""Set-up for the page tests, through the public API as any client: players, bot games played to the end."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

import httpx

from tests.browser.conftest import register


def create_game(web_server: str, token: str, body: dict) -> dict:
    response = httpx.post(f"{web_server}/api/v1/games/", json=body, headers={"Authorization": f"Token {token}"},
                          timeout=30)
    assert response.status_code == 201, response.text
    return response.json()


def wait_finished(web_server: str, game_id: str, timeout: float = 60) -> dict:
    """The summary of a game once the worker has played it out."""
    deadline = time.monotonic() + timeout
    while True:
        game = httpx.get(f"{web_server}/api/v1/games/{game_id}/", timeout=30).json()
        if game["status"] != "active" or time.monotonic() > deadline:
            assert game["status"] == "finished", game
            return game
        time.sleep(0.3)


def bot_game(web_server: str, name: str, kind: str = "spite-and-malice", seats: int = 2) -> dict:
    """A finished game between random bots, created by a new player `name`."""
    creator = register(web_server, name)
    game = create_game(web_server, creator["token"], {"kind": kind, "seats": [{"bot": "random"}] * seats})
    return wait_finished(web_server, game["id"])


def query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}
