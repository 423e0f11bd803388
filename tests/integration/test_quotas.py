"""Quotas: the active games a player may have when creating another, and the server's bound on a bot's
thinking time per move. A refused creation changes nothing."""

from __future__ import annotations

import pytest

from bots import policies
from bots.services import bot_play_turn
from games.models import Game, Seat
from games.services import game_forfeit, game_open
from tests.conftest import create_game

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
BOTS = [{"bot": "random"}, {"bot": "random"}]


def test_a_player_at_the_active_games_cap_cannot_create_another(settings, ann, bob):
    settings.MAX_ACTIVE_GAMES_PER_PLAYER = 2
    mine = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="1a" * 32)
    create_game(bob, [{"player": bob.id}, {"player": ann.id}])  # bob's, with ann seated: counts for both
    before = Game.objects.count()

    refused = ann.post(GAMES, {"kind": "spite-and-malice", "seats": BOTS})
    assert refused.status_code == 409, refused.json()
    body = refused.json()
    assert body["code"] == "too_many_active_games" and body["limit"] == 2 and "2 active games" in body["detail"]
    assert Game.objects.count() == before and Seat.objects.filter(game__created_by=ann.model).count() == 2

    create_game(bob, BOTS)  # bob was at one below the cap: the bots-only game he creates is his second
    assert bob.post(GAMES, {"kind": "spite-and-malice", "seats": BOTS}).json()["code"] == "too_many_active_games"

    game = Game.objects.get(pk=mine["id"])
    game_forfeit(game=game, seat=0, expected_version=game.version)  # over: it no longer counts
    create_game(ann, BOTS)


def test_games_created_by_the_server_are_not_counted(settings, ann):
    settings.MAX_ACTIVE_GAMES_PER_PLAYER = 1
    game_open(kind="spite-and-malice", seats=BOTS)
    game_open(kind="spite-and-malice", seats=BOTS)
    create_game(ann, BOTS)


@pytest.mark.parametrize("budget_ms", [5001, 60_000])
def test_a_search_budget_over_the_server_maximum_is_refused(ann, budget_ms):
    response = ann.post(GAMES, {"kind": "spite-and-malice",
                                "seats": [{"player": ann.id}, {"bot": "search", "budget_ms": budget_ms}]})
    assert response.status_code == 422, response.json()
    body = response.json()
    assert body["code"] == "bot_budget_too_large" and body["limit"] == 5000  # the default
    assert body["detail"] == "seats[1]: budget_ms may be at most 5000 on this server"
    assert not Game.objects.exists()


def test_the_budget_maximum_is_configurable(settings, ann):
    settings.MAX_BOT_BUDGET_MS = 300
    seats = [{"bot": "search", "budget_ms": 300}, {"bot": "search", "budget_ms": 301}]
    response = ann.post(GAMES, {"kind": "spite-and-malice", "seats": seats})
    assert response.status_code == 422 and response.json()["detail"].startswith("seats[1]: ")
    game = create_game(ann, seats[:1] * 2)
    assert game["seats"][0]["bot_options"] == {"budget_ms": 300}


def test_a_game_created_with_a_larger_budget_is_played_within_the_maximum(settings, monkeypatch):
    """A game from before the maximum was lowered keeps its seat options, but its bot thinks no longer than
    the server allows now."""
    game = game_open(kind="spite-and-malice", seed="2b" * 32,
                       seats=[{"bot": "search", "budget_ms": 60_000}] * 2)
    settings.MAX_BOT_BUDGET_MS = 40
    asked = []

    def choose(name, engine, state, seat, rng, options=None):
        asked.append((name, options))
        return engine.legal_actions(state, seat)[0]

    monkeypatch.setattr(policies, "choose", choose)
    assert bot_play_turn(game_id=str(game.id), version=game.version) is True
    assert asked == [("search", {"budget_ms": 40})]
    assert Seat.objects.get(game=game, index=0).bot_options == {"budget_ms": 60_000}


def test_invitations_count_for_their_creator_not_for_the_invited(settings, ann, bob):
    """Seating somebody in games cannot fill their quota: only games they accepted count for them; the
    pending games a player created count for the creator (invitations are not free to send)."""
    settings.MAX_ACTIVE_GAMES_PER_PLAYER = 2
    for _ in range(2):
        assert ann.post(GAMES, {"kind": "spite-and-malice", "seats": [{"player": ann.id}, {"player": bob.id}]}
                        ).status_code == 201
    refused = ann.post(GAMES, {"kind": "spite-and-malice", "seats": [{"player": ann.id}, {"player": bob.id}]})
    assert refused.status_code == 409 and refused.json()["code"] == "too_many_active_games"
    create_game(bob, BOTS)  # two pending invitations do not count for bob
    create_game(bob, BOTS)
