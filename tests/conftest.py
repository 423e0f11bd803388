"""Shared fixtures: API clients for registered players, game helpers, and the service requirements.

Tests marked `postgres` or `worker` need a real PostgreSQL or a real broker. Outside CI they are skipped
with the reason printed (`-ra`); in CI (CI=true) a missing service fails them.
"""

from __future__ import annotations

import os
import random

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.test import APIClient

from games import services
from games.models import Event, Game
from games.services import player_create

#: The suite registers, creates and moves far faster than any person: the throttles are lifted (here and in the
#: servers and workers tests start, which inherit the environment); tests/integration/test_throttles.py lowers them.
HIGH_RATE = "1000000/min"
for _name in ("REGISTER", "GAME_CREATE", "ACTION", "TOURNAMENT_CREATE", "AUTH_FAILURE"):
    os.environ.setdefault(f"THROTTLE_{_name}", HIGH_RATE)
os.environ.setdefault("MAX_ACTIVE_GAMES_PER_PLAYER", "100000")


def missing(what: str) -> None:
    """Skip outside CI, fail in CI: a test's service or tool is not there."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{what} is required in CI but is not available")
    pytest.skip(f"needs {what}")


@pytest.fixture(autouse=True)
def _limits_lifted(settings):
    settings.THROTTLE_RATES = dict.fromkeys(settings.THROTTLE_RATES, HIGH_RATE)
    settings.MAX_ACTIVE_GAMES_PER_PLAYER = 100_000


@pytest.fixture(autouse=True)
def _services_for_markers(request):
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        missing("PostgreSQL (DATABASE_URL=postgres://...)")
    if request.node.get_closest_marker("worker"):
        if not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")):
            missing("a broker (CELERY_BROKER_URL=redis://...)")
        if connection.vendor != "postgresql":
            missing("PostgreSQL shared with the worker process (DATABASE_URL=postgres://...)")


#: Every Player made by a test, by id: `create_game` accepts invitations on their behalf.
_players: dict[int, Player] = {}


class Player:
    """A registered player with its own authenticated client."""

    def __init__(self, name: str) -> None:
        self.model, self.token = player_create(name=name)
        self.id = self.model.id
        _players[self.id] = self
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")

    def get(self, path: str, **params):
        return self.client.get(path, params)

    def post(self, path: str, body, **headers):
        return self.client.post(path, body, format="json", **headers)


@pytest.fixture
def make_player(db):
    counter = iter(range(10_000))
    return lambda name=None: Player(name or f"player{next(counter)}")


@pytest.fixture
def ann(make_player):
    return make_player("ann")


@pytest.fixture
def bob(make_player):
    return make_player("bob")


def create_game(player: Player, seats: list[dict], kind: str = "spite-and-malice", **extra) -> dict:
    """A started game: created by `player` through the API, every other seated player accepting. A test
    that fixes the deal (`seed`, `decks`) of a game with several people uses the trusted service instead,
    as a tournament does (the API refuses a chosen seed when another person is seated)."""
    others = list(dict.fromkeys(s["player"] for s in seats if "player" in s and s["player"] != player.id))
    if others and ("seed" in extra or "decks" in extra):
        game = services.game_open(creator=player.model, kind=kind, seats=seats, **extra)
        return player.get(f"/api/v1/games/{game.id}/").json()
    response = player.post("/api/v1/games/", {"kind": kind, "seats": seats, **extra})
    assert response.status_code == 201, response.json()
    for other in others:
        accepted = _players[other].post(f"/api/v1/games/{response.json()['id']}/accept/", {})
        assert accepted.status_code == 200, accepted.json()
    return player.get(f"/api/v1/games/{response.json()['id']}/").json() if others else response.json()


def event_count(game_id) -> int:
    return Event.objects.filter(game_id=game_id).count()


def play_randomly(players: dict[int, Player], game_id: str, rng: random.Random, max_moves: int = 5000) -> int:
    """Play a game to its end through the API, each seat choosing uniformly among its legal actions."""
    moves = 0
    while moves < max_moves:
        summary = next(iter(players.values())).get(f"/api/v1/games/{game_id}/").json()
        if summary["status"] != "active":
            return moves
        seat = summary["to_act"][0]
        state = players[seat].get(f"/api/v1/games/{game_id}/state/", seat=seat).json()
        assert state["seat"] == seat and state["legal_actions"]
        action = rng.choice(state["legal_actions"])
        response = players[seat].post(f"/api/v1/games/{game_id}/actions/",
                                      {"action": action, "expected_version": state["version"], "seat": seat})
        assert response.status_code == 201, response.json()
        moves += 1
    raise AssertionError("the game did not end")


def finished(game_id) -> Game:
    return Game.objects.get(pk=game_id)
