"""`Game.updated_at` follows the head: a move, the end of a game and an unsealing move it, on the one-statement
PostgreSQL path and on the generic one (a queryset update skips `auto_now`, so the services set it)."""

from __future__ import annotations

import types

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from bots.services import bot_play_turn
from games import services
from games.models import Game
from tests.conftest import create_game


@pytest.fixture(params=["native", "generic"])
def head_path(request, monkeypatch):
    """Run the test on the database's own path and, on PostgreSQL, on the generic two-statement one too."""
    if request.param == "generic":
        monkeypatch.setattr(services, "connection", types.SimpleNamespace(vendor="generic"))
    return request.param


def _new_game(player) -> dict:
    """A game against a bot, played up to the player's turn."""
    game = create_game(player, [{"player": player.id}, {"bot": "random"}], seed="5c" * 32)
    while 0 not in (summary := player.get(f"/api/v1/games/{game['id']}/").json())["to_act"]:
        assert bot_play_turn(game_id=game["id"], version=summary["version"]) is True
    return summary


def _move(player, game_id: str) -> dict:
    state = player.get(f"/api/v1/games/{game_id}/state/").json()
    response = player.post(f"/api/v1/games/{game_id}/actions/",
                           {"action": state["legal_actions"][0], "expected_version": state["version"]})
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_move_moves_updated_at(ann, head_path):
    game = _new_game(ann)
    created = Game.objects.get(pk=game["id"])
    assert created.updated_at > created.created_at  # the deal moved the head after the row was made
    assert parse_datetime(game["updated_at"]) == created.updated_at  # the summary shows the head as stored

    asked = timezone.now()
    _move(ann, game["id"])

    moved = Game.objects.get(pk=game["id"])
    assert moved.version > created.version
    assert moved.updated_at >= asked > created.updated_at
    summary = ann.get(f"/api/v1/games/{game['id']}/").json()
    assert parse_datetime(summary["updated_at"]) == moved.updated_at


def test_a_refused_move_leaves_updated_at(ann, head_path):
    game = _new_game(ann)
    before = Game.objects.get(pk=game["id"]).updated_at
    state = ann.get(f"/api/v1/games/{game['id']}/state/").json()
    stale = ann.post(f"/api/v1/games/{game['id']}/actions/",
                     {"action": state["legal_actions"][0], "expected_version": state["version"] - 1})
    assert stale.status_code == 409
    assert Game.objects.get(pk=game["id"]).updated_at == before


def test_unsealing_moves_updated_at(ann):
    game = create_game(ann, [{"bot": "random"}, {"bot": "random"}], seed="5c" * 32)
    Game.objects.filter(pk=game["id"]).update(sealed=True)
    before = Game.objects.get(pk=game["id"]).updated_at
    services.game_unseal(game_ids=[game["id"]])
    after = Game.objects.get(pk=game["id"])
    assert after.sealed is False and after.updated_at > before
