"""Snapshots and the position cache only speed reads up: removing them never changes an answer."""

import random

from games import selectors
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
    selectors._positions.clear()
    assert _views(ann, game["id"], versions) == with_snapshots
    assert ann.get(f"/api/v1/games/{game['id']}/state/").json() == state_with


def test_stale_snapshots_of_another_state_version_are_ignored(ann, bob, settings):
    settings.SNAPSHOT_EVERY = 5
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="3d" * 32)
    play_randomly({0: ann, 1: bob}, game["id"], random.Random(2))
    selectors._positions.clear()
    Snapshot.objects.filter(game_id=game["id"]).update(state_version=999, payload=b"garbage")
    assert ann.get(f"/api/v1/games/{game['id']}/export/").json()["verification"]["ok"] is True
    assert ann.get(f"/api/v1/games/{game['id']}/replay/12/").status_code == 200


def test_a_snapshot_that_no_longer_loads_is_ignored(ann, bob, settings):
    """A snapshot of the current state version whose pickle the code can no longer read (a class changed
    without a new state version) is skipped: the log is folded instead, and the answers stay the same."""
    settings.SNAPSHOT_EVERY = 5
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="3e" * 32)
    play_randomly({0: ann, 1: bob}, game["id"], random.Random(3))
    selectors._positions.clear()
    replay = ann.get(f"/api/v1/games/{game['id']}/replay/12/").json()
    selectors._positions.clear()
    assert Snapshot.objects.filter(game_id=game["id"]).update(payload=b"not a pickle") > 0
    assert ann.get(f"/api/v1/games/{game['id']}/replay/12/").json() == replay
    assert ann.get(f"/api/v1/games/{game['id']}/export/").json()["verification"]["ok"] is True
