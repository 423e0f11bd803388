"""What a bot turn reads: a worker that played the game's last bot move keeps the game's rows and position,
so after a human's move it reads only the new events (which also show the turn is still due), and a stale
turn is refused as before."""

from __future__ import annotations

import pytest
from django.db import connection

from bots.selectors import bot_turn
from bots.services import bot_play_turn
from games import selectors
from games.caches import read_caches
from games.models import Event, Game
from tests.conftest import create_game


@pytest.fixture
def cold_worker():
    """A worker that has read nothing yet (and leaves nothing behind for other tests)."""
    read_caches().clear()
    yield
    read_caches().clear()


def _answer(engine, position):
    return position.version, position.shuffles, engine.to_act(position.state), \
        [engine.view(position.state, seat) for seat in (None, 0, 1)]


def _bot_moves(game_id: str, capture, version: int | None = None) -> None:
    """The worker's move: played, committed, and its position cached (the commit hook that does it)."""
    if version is None:
        version = Game.objects.values_list("version", flat=True).get(pk=game_id)
    with capture() as hooks:
        assert bot_play_turn(game_id=game_id, version=version)
    for hook in hooks:
        if getattr(hook, "func", None) is selectors.remember_position:
            hook()


def _human_hands_the_turn_to_the_bot(ann, game_id: str) -> int:
    """Human moves (their commit hooks run elsewhere, in a web process) until the bot is to act."""
    while True:
        state = ann.get(f"/api/v1/games/{game_id}/state/").json()
        assert state["status"] == "active"
        if 1 in state["to_act"]:
            return state["version"]
        ann.post(f"/api/v1/games/{game_id}/actions/", {"action": state["legal_actions"][0]})


def test_after_its_own_move_a_worker_reads_only_the_new_events(ann, cold_worker, django_assert_num_queries,
                                                              django_assert_max_num_queries,
                                                              django_capture_on_commit_callbacks):
    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="a7" * 32)
    version = _human_hands_the_turn_to_the_bot(ann, game["id"])
    assert bot_turn(game_id=game["id"], version=version) is not None  # a cold read: seats with the game, the log
    assert read_caches().bot_games.get(game["id"]) is not None
    for _ in range(3):  # the bot moves, the human answers: three rounds
        while 1 in Game.objects.values_list("to_act", flat=True).get(pk=game["id"]):
            _bot_moves(game["id"], django_capture_on_commit_callbacks)
        version = _human_hands_the_turn_to_the_bot(ann, game["id"])
        with django_assert_num_queries(1):  # the events since the bot's own last move
            turn = bot_turn(game_id=game["id"], version=version)
        assert turn is not None
        kept, seats, position = turn
        fresh = Game.objects.get(pk=game["id"])
        assert (kept.version, kept.status, kept.to_act) == (fresh.version, fresh.status, fresh.to_act)
        assert [(s.index, s.player_id, s.bot) for s in seats] == [(0, ann.id, ""), (1, None, "random")]
        engine = selectors.engine_for(fresh)
        read_caches().positions.clear()
        assert _answer(engine, position) == _answer(engine, selectors.game_position(game=fresh))
        assert bot_turn(game_id=game["id"], version=version - 1) is None  # a stale turn: the game moved on
        # the warm reply: the read, the head update with its events (one statement on PostgreSQL), maybe the
        # human's your_turn notification (one statement there), and the test's savepoint around the write
        before = Event.objects.filter(game_id=game["id"]).count()
        with django_assert_max_num_queries(5 if connection.vendor == "postgresql" else 9):
            _bot_moves(game["id"], django_capture_on_commit_callbacks, version)
        assert Event.objects.filter(game_id=game["id"]).count() > before


def test_a_clocked_game_is_read_afresh_every_turn(ann, cold_worker):
    """Its seats carry deadlines that move with the head: they are never kept."""
    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="a8" * 32, turn_seconds=60)
    version = _human_hands_the_turn_to_the_bot(ann, game["id"])
    assert bot_turn(game_id=game["id"], version=version) is not None
    assert read_caches().bot_games.get(game["id"]) is None


def test_a_finished_game_has_no_bot_turn_even_from_a_warm_worker(ann, cold_worker, django_capture_on_commit_callbacks):
    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="a9" * 32)
    version = _human_hands_the_turn_to_the_bot(ann, game["id"])
    _bot_moves(game["id"], django_capture_on_commit_callbacks)
    version = _human_hands_the_turn_to_the_bot(ann, game["id"])
    from games.services import game_forfeit

    game_forfeit(game=Game.objects.get(pk=game["id"]), seat=0, expected_version=version)
    assert bot_turn(game_id=game["id"], version=version) is None  # moved on: forfeited, then finished
    finished = Game.objects.get(pk=game["id"])
    assert finished.status == Game.Status.FINISHED
    assert bot_turn(game_id=game["id"], version=finished.version) is None


def _human_move_handing_over(ann, game_id: str, monkeypatch) -> tuple[int, list]:
    """The human moves until the bot is to act; (version, the tail the move's write queued with the bot turn)."""
    from games import outbox

    queued: list[outbox.Work] = []
    schedule = outbox.schedule
    monkeypatch.setattr(outbox, "schedule", lambda works: (queued.extend(works), schedule(works)))
    version = _human_hands_the_turn_to_the_bot(ann, game_id)
    turn = [work for work in queued if work.task == "bots.tasks.play_bot_turn"][-1]
    (game_id_sent, version_sent), tail = turn.args, turn.extra["tail"]
    assert (game_id_sent, version_sent) == (game_id, version)
    return version, tail


def test_with_the_move_handed_over_a_warm_worker_reads_nothing(ann, cold_worker, monkeypatch,
                                                               django_assert_num_queries,
                                                               django_capture_on_commit_callbacks):
    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="b1" * 32)
    version = _human_hands_the_turn_to_the_bot(ann, game["id"])
    _bot_moves(game["id"], django_capture_on_commit_callbacks, version)  # warm: the worker played the last move
    while 1 in Game.objects.values_list("to_act", flat=True).get(pk=game["id"]):
        _bot_moves(game["id"], django_capture_on_commit_callbacks)
    version, tail = _human_move_handing_over(ann, game["id"], monkeypatch)
    stored = [selectors.event_row(e) for e in Event.objects.filter(game_id=game["id"], seq__gt=tail[0][0] - 1)]
    assert tail == stored and tail[-1][0] == version  # exactly the rows of the human's move, up to the head
    with django_assert_num_queries(0):
        turn = bot_turn(game_id=game["id"], version=version, tail=tail)
    assert turn is not None
    kept, _, position = turn
    fresh = Game.objects.get(pk=game["id"])
    assert (kept.version, kept.status, kept.to_act) == (fresh.version, fresh.status, fresh.to_act)
    engine = selectors.engine_for(fresh)
    read_caches().positions.clear()
    assert _answer(engine, position) == _answer(engine, selectors.game_position(game=fresh))


def test_a_handed_over_move_the_game_has_moved_past_is_not_played(ann, cold_worker, monkeypatch,
                                                                 django_capture_on_commit_callbacks):
    """The tail is not read back, so it cannot tell that the game moved on: the conditional head update does."""
    from games.services import game_forfeit

    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="b2" * 32)
    version = _human_hands_the_turn_to_the_bot(ann, game["id"])
    _bot_moves(game["id"], django_capture_on_commit_callbacks, version)
    while 1 in Game.objects.values_list("to_act", flat=True).get(pk=game["id"]):
        _bot_moves(game["id"], django_capture_on_commit_callbacks)
    version, tail = _human_move_handing_over(ann, game["id"], monkeypatch)
    game_forfeit(game=Game.objects.get(pk=game["id"]), seat=0, expected_version=version)  # moved on meanwhile
    events = Event.objects.filter(game_id=game["id"]).count()
    assert bot_play_turn(game_id=game["id"], version=version, tail=tail) is False
    assert Event.objects.filter(game_id=game["id"]).count() == events
    assert Game.objects.get(pk=game["id"]).status == Game.Status.FINISHED
