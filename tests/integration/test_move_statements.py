"""The move path at database speed: the statements of each step pinned, the answer to a move carrying the
mover's next state, and the head cache never passing an old version for the current one."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors
from games.caches import read_caches
from tests.conftest import create_game

pytestmark = pytest.mark.postgres


@pytest.fixture(autouse=True)
def cold_caches():
    read_caches().clear()
    yield
    read_caches().clear()


def _statements(capture, request, *args, **params):
    """Make `request(*args, **params)` with its commit hooks run, as after a real commit; returns the answer and
    the statements it ran."""
    with CaptureQueriesContext(connection) as queries, capture(execute=True):
        answer = request(*args, **params)
    return answer, [q["sql"] for q in queries.captured_queries]


def _game(ann, bob):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="5e" * 32)
    return game, {0: ann, 1: bob}


def test_each_step_of_the_move_path_costs_its_pinned_statements(ann, bob, settings,
                                                                 django_capture_on_commit_callbacks):
    settings.SNAPSHOT_EVERY = 0
    game, players = _game(ann, bob)
    url = f"/api/v1/games/{game['id']}"
    seat = game["to_act"][0]
    mover = players[seat]
    # A cold read: token, game, seats (then remembered for this version), and the fold of the log.
    state, sql = _statements(django_capture_on_commit_callbacks, mover.get, f"{url}/state/")
    state = state.json()
    assert len(sql) == 4, sql
    # Warm: token and the game's head row, which says which version is current; seats and position cached.
    again, sql = _statements(django_capture_on_commit_callbacks, mover.get, f"{url}/state/")
    assert again.json() == state and len(sql) == 2, sql
    kept = passed = 0
    for _ in range(60):
        action = next((a for a in state["legal_actions"] if a["type"] == "play"), state["legal_actions"][0])
        body = {"action": action, "expected_version": state["version"]}
        answer, sql = _statements(django_capture_on_commit_callbacks, mover.post, f"{url}/actions/", body)
        assert answer.status_code == 201, answer.json()
        answer = answer.json()
        if answer["status"] != "active":
            break
        if seat in answer["to_act"]:
            # The mover keeps the turn: the token, then one statement that checks the head, moves it and
            # appends the events, committing by itself (no BEGIN/COMMIT round trips around it).
            assert len(sql) == 2 and "WITH head AS" in sql[1], sql
            assert answer["state"] == mover.get(f"{url}/state/", seat=seat).json()
            state, kept = answer["state"], kept + 1
        else:
            # The turn passes: the same, plus the your_turn notification of the next player, in one transaction.
            assert len(sql) == 3 and "games_notification" in sql[2], sql
            assert answer["state"] is None
            seat = answer["to_act"][0]
            mover = players[seat]
            state, sql = _statements(django_capture_on_commit_callbacks, mover.get, f"{url}/state/")
            state = state.json()
            assert len(sql) == 2, sql  # the mover's process remembered the new head's seats and position
            passed += 1
    assert kept >= 5 and passed >= 2


def test_a_move_without_expected_version_reads_the_game_first(ann, bob, settings,
                                                              django_capture_on_commit_callbacks):
    settings.SNAPSHOT_EVERY = 0
    game, players = _game(ann, bob)
    url = f"/api/v1/games/{game['id']}"
    mover = players[game["to_act"][0]]
    state = mover.get(f"{url}/state/").json()
    action = next((a for a in state["legal_actions"] if a["type"] == "play"), state["legal_actions"][0])
    answer, sql = _statements(django_capture_on_commit_callbacks, mover.post, f"{url}/actions/",
                              {"action": action})
    assert answer.status_code == 201
    assert len(sql) <= 5 and any("WITH head AS" in s for s in sql), sql  # token, game, seats, move (+ notice)


def test_a_cached_head_never_passes_for_the_current_one(ann, bob, django_capture_on_commit_callbacks):
    game, players = _game(ann, bob)
    url = f"/api/v1/games/{game['id']}"
    mover = players[game["to_act"][0]]
    with django_capture_on_commit_callbacks(execute=True):
        state = mover.get(f"{url}/state/").json()
    body = {"action": state["legal_actions"][0], "expected_version": state["version"]}
    with django_capture_on_commit_callbacks(execute=True):
        first = mover.post(f"{url}/actions/", body)
    assert first.status_code == 201
    assert selectors.head_at(game_id=game["id"], version=state["version"]) is not None  # the old head is kept
    # The same move again at the old version: judged on the cached old head, refused by the head check.
    with django_capture_on_commit_callbacks(execute=True):
        again = mover.post(f"{url}/actions/", body)
    assert again.status_code == 409 and again.json()["code"] == "stale_version"
    assert again.json()["version"] == first.json()["version"]
    # An action that the old head refuses as illegal is refused as stale: the game moved on.
    bad = {"action": {"type": "play", "source": "hand", "card": "KS", "center": "new"},
           "expected_version": state["version"]}
    refused = mover.post(f"{url}/actions/", bad)
    assert refused.status_code == 409 and refused.json()["code"] == "stale_version"
    # Every reader sees the current version, whoever wrote it.
    for player in players.values():
        assert player.get(f"{url}/state/").json()["version"] == first.json()["version"]
