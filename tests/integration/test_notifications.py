"""The per-player notification log behind `/players/me/stream/`: what the platform sends, the hook other
features call, gapless per-player numbering, and what it costs a move."""

from __future__ import annotations

import pytest
from django.db import connection

from games.exceptions import BadRequest
from games.models import Notification
from games.services import player_notify
from tests.conftest import create_game


def _kinds(player) -> list[tuple[int, str]]:
    return list(Notification.objects.filter(player=player.model).order_by("seq").values_list("seq", "kind"))


def test_creation_and_turns_notify_the_seated_players(ann, bob):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="21" * 32)
    first, other = (ann, bob) if game["to_act"] == [0] else (bob, ann)
    assert _kinds(first) == [(1, "game_started"), (2, "your_turn")]
    assert _kinds(other) == [(1, "game_started")]
    turn = Notification.objects.get(player=first.model, seq=2).payload
    assert turn == {"game": game["id"], "kind": "spite-and-malice", "seat": game["to_act"][0],
                    "version": game["version"], "deadline": None}
    # moves inside one turn say nothing new; the turn passing tells the other player
    while True:
        state = first.get(f"/api/v1/games/{game['id']}/state/").json()
        if state["to_act"] != [state["seat"]]:
            break
        first.post(f"/api/v1/games/{game['id']}/actions/", {"action": state["legal_actions"][-1]})
    assert _kinds(first) == [(1, "game_started"), (2, "your_turn")]
    assert _kinds(other) == [(1, "game_started"), (2, "your_turn")]


def test_player_notify_is_the_hook_for_other_features(ann, bob):
    create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="22" * 32)
    before = _kinds(ann)
    rows = player_notify([ann.id, bob.id, 999_999], "tournament_round_paired", {"tournament": "t1", "round": 2})
    assert {(r.player_id, r.seq) for r in rows} == {(ann.id, len(before) + 1), (bob.id, 1)}  # unknown: skipped
    assert _kinds(ann)[-1] == (len(before) + 1, "tournament_round_paired")
    assert Notification.objects.get(player=bob.model).payload == {"tournament": "t1", "round": 2}
    with pytest.raises(BadRequest):
        player_notify([ann.id], "", {})


def test_a_turn_changing_move_costs_a_bounded_number_of_queries(ann, bob, django_assert_max_num_queries):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="23" * 32, turn_seconds=60)
    mover = ann if game["to_act"] == [0] else bob
    while True:
        state = mover.get(f"/api/v1/games/{game['id']}/state/").json()
        ending = [a for a in state["legal_actions"] if a["type"] == "discard"]
        if ending:
            break
        mover.post(f"/api/v1/games/{game['id']}/actions/", {"action": state["legal_actions"][0]})
    # the 6 of a plain move (7 off PostgreSQL), + deadlines 1, + the notification 1 (lock, last seq, insert: 3
    # off PostgreSQL), + the clock check's outbox job 1
    with django_assert_max_num_queries(9 if connection.vendor == "postgresql" else 12):
        response = mover.post(f"/api/v1/games/{game['id']}/actions/",
                              {"action": ending[0], "expected_version": state["version"]})
    assert response.status_code == 201 and response.json()["events"]
