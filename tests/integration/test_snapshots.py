"""Snapshots and the position cache only speed reads up: removing them never changes an answer."""

import json
import pickle
import random

import pytest

from games import selectors
from games.caches import read_caches
from games.engine import registry, snapshot
from games.engine.runner import fold
from games.models import Game, Snapshot
from tests.conftest import create_game, play_randomly


def _views(player, game_id, versions):
    return [player.get(f"/api/v1/games/{game_id}/replay/{v}/").json() for v in versions]


def test_answers_are_the_same_without_snapshots_or_cache(ann, bob, settings):
    settings.SNAPSHOT_EVERY = 7
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="3c" * 32)
    play_randomly({0: ann, 1: bob}, game["id"], random.Random(1), max_moves=5000)
    version = Game.objects.get(pk=game["id"]).version
    assert Snapshot.objects.filter(game_id=game["id"]).count() >= version // 7 - 1
    versions = [1, 2, 7, 8, version // 2, version - 1, version]
    with_snapshots = _views(ann, game["id"], versions)
    state_with = ann.get(f"/api/v1/games/{game['id']}/state/").json()

    Snapshot.objects.filter(game_id=game["id"]).delete()
    read_caches().positions.clear()
    assert _views(ann, game["id"], versions) == with_snapshots
    assert ann.get(f"/api/v1/games/{game['id']}/state/").json() == state_with


def test_stale_snapshots_of_another_state_version_are_ignored(ann, bob, settings):
    settings.SNAPSHOT_EVERY = 5
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="3d" * 32)
    play_randomly({0: ann, 1: bob}, game["id"], random.Random(2))
    read_caches().positions.clear()
    Snapshot.objects.filter(game_id=game["id"]).update(state_version=999, payload=b"garbage")
    assert ann.get(f"/api/v1/games/{game['id']}/export/").json()["verification"]["ok"] is True
    assert ann.get(f"/api/v1/games/{game['id']}/replay/12/").status_code == 200


def test_a_snapshot_that_no_longer_loads_is_ignored(ann, bob, settings):
    """A snapshot of the current state version that the code can no longer read (not JSON, or a class changed
    without a new state version) is skipped: the log is folded instead, and the answers stay the same."""
    settings.SNAPSHOT_EVERY = 5
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="3e" * 32)
    play_randomly({0: ann, 1: bob}, game["id"], random.Random(3))
    read_caches().positions.clear()
    replay = ann.get(f"/api/v1/games/{game['id']}/replay/12/").json()
    read_caches().positions.clear()
    assert Snapshot.objects.filter(game_id=game["id"]).update(payload=b"not a snapshot") > 0
    assert ann.get(f"/api/v1/games/{game['id']}/replay/12/").json() == replay
    assert ann.get(f"/api/v1/games/{game['id']}/export/").json()["verification"]["ok"] is True


def _play_moves(players: dict, game_id: str, rng: random.Random, moves: int) -> None:
    """`moves` random legal moves through the API (or fewer, if the game ends first)."""
    for _ in range(moves):
        summary = players[0].get(f"/api/v1/games/{game_id}/").json()
        if summary["status"] != "active":
            return
        seat = summary["to_act"][0]
        state = players[seat].get(f"/api/v1/games/{game_id}/state/").json()
        response = players[seat].post(f"/api/v1/games/{game_id}/actions/", {
            "action": rng.choice(state["legal_actions"]), "expected_version": state["version"]})
        assert response.status_code == 201, response.json()


@pytest.mark.parametrize("kind", ["muscio", "machiavelli", "tarocchi-mineo", "diavoletto"])
def test_a_stored_snapshot_is_the_documented_json_and_gives_the_state_of_a_full_fold(ann, bob, make_player,
                                                                                     settings, kind):
    settings.SNAPSHOT_EVERY = 6
    players = [ann, bob] + [make_player() for _ in range(registry.get(kind).seats.start - 2)]
    game = create_game(ann, [{"player": p.id} for p in players], kind=kind, seed="5a" * 32)
    _play_moves(dict(enumerate(players)), game["id"], random.Random(5), 40)
    game = Game.objects.get(pk=game["id"])
    engine = selectors.engine_for(game)
    stored = list(Snapshot.objects.filter(game=game).values_list("version", "payload"))
    assert stored
    for version, payload in stored:
        document = json.loads(bytes(payload))
        assert (document["format"], document["format_version"], document["kind"], document["version"]) == (
            "tavolo-snapshot", 1, kind, version)
        from_snapshot = snapshot.from_bytes(engine, payload)
        full = fold(engine, selectors._events_between(game, 0, version))
        assert from_snapshot == full
        assert [engine.view(from_snapshot.state, s) for s in range(len(players))] == [
            engine.view(full.state, s) for s in range(len(players))]


class _Trap:
    def __reduce__(self):  # unpickling this would fail the test
        return pytest.fail, ("an old pickled snapshot was unpickled",)


def test_an_old_pickled_snapshot_is_never_unpickled_the_log_is_folded(ann, bob, settings):
    settings.SNAPSHOT_EVERY = 5
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="3f" * 32)
    _play_moves({0: ann, 1: bob}, game["id"], random.Random(6), 30)
    read_caches().positions.clear()
    replay = ann.get(f"/api/v1/games/{game['id']}/replay/12/").json()
    read_caches().positions.clear()
    assert Snapshot.objects.filter(game_id=game["id"]).update(payload=pickle.dumps(_Trap())) > 0
    assert ann.get(f"/api/v1/games/{game['id']}/replay/12/").json() == replay
    assert ann.get(f"/api/v1/games/{game['id']}/state/").status_code == 200
