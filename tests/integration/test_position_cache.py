"""A fold may start from a recent cached position of the same game (a worker's own last bot move, when a
human moved since): one read of the new events, and the same answer as a fold from scratch."""

import random

import pytest

from games import selectors
from games.caches import read_caches
from games.models import Game, Snapshot
from tests.conftest import create_game, play_randomly


def _answer(engine, position):
    return position.version, position.shuffles, engine.to_act(position.state), engine.result(position.state), \
        [engine.view(position.state, seat) for seat in (None, 0, 1)]


@pytest.fixture
def cold_cache():
    read_caches().positions.clear()
    yield
    read_caches().positions.clear()


def test_folding_on_from_a_cached_position_equals_folding_from_scratch(ann, bob, settings, cold_cache,
                                                                        django_assert_num_queries):
    settings.SNAPSHOT_EVERY = 10
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="4f" * 32)
    play_randomly({0: ann, 1: bob}, game["id"], random.Random(4))
    game = Game.objects.get(pk=game["id"])
    engine = selectors.engine_for(game)
    for version in range(4, game.version + 1, 3):
        read_caches().positions.clear()
        selectors.game_position_at(game=game, version=version - 3)  # what a worker keeps of its last move
        with django_assert_num_queries(1):  # the three new events; no snapshot read
            on = selectors.game_position_at(game=game, version=version)
        read_caches().positions.clear()
        fresh = selectors.game_position_at(game=game, version=version)
        assert _answer(engine, on) == _answer(engine, fresh)
    assert Snapshot.objects.filter(game=game).exists()  # so the fresh folds above did start from snapshots
