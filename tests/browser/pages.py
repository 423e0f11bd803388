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
    """A finished game between random bots, created by a new player `name` (a patience game stops after 80 turns,
    which bounds its length, since random bots may block each other for long)."""
    creator = register(web_server, name)
    options = {"max_turns": 80} if kind in ("spite-and-malice", "diavoletto") else {}
    game = create_game(web_server, creator["token"], {"kind": kind, "options": options,
                                                      "seats": [{"bot": "random"}] * seats})
    return wait_finished(web_server, game["id"])


def query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}


def play_rated_game(web_server: str, first: dict, second: dict, kind: str = "spite-and-malice",
                    options: dict | None = None, seed: int = 0) -> dict:
    """A rated game between two registered players, played to its end through the API with random legal moves
    (`second` accepts the invitation first). Returns the finished summary."""
    import random

    api = f"{web_server}/api/v1"
    tokens = {0: first["token"], 1: second["token"]}
    game = create_game(web_server, first["token"], {"kind": kind, "options": options or {},
                                                    "seats": [{"player": first["id"]}, {"player": second["id"]}]})
    accepted = httpx.post(f"{api}/games/{game['id']}/accept/", headers={"Authorization": f"Token {tokens[1]}"},
                          timeout=30)
    assert accepted.status_code == 200, accepted.text
    rng = random.Random(seed)
    with httpx.Client(base_url=api, timeout=30) as client:
        for _ in range(5000):
            summary = client.get(f"/games/{game['id']}/").json()
            if summary["status"] != "active":
                assert summary["status"] == "finished", summary
                return summary
            seat = summary["to_act"][0]
            auth = {"Authorization": f"Token {tokens[seat]}"}
            state = client.get(f"/games/{game['id']}/state/", headers=auth).json()
            move = {"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]}
            client.post(f"/games/{game['id']}/actions/", json=move, headers=auth)
    raise AssertionError("the game did not end")
