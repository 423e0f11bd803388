"""Turn clocks: deadlines shown to clients, an expiry plays exactly one move (or forfeits), a move in time
cancels it, duplicates change nothing; and the embedded server's in-memory broker runs the countdowns."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games import selectors
from games.clocks import clock_expire
from games.engine.chance import Chance
from games.engine.runner import apply_action
from games.models import Event, Game, Notification, Seat
from tests.conftest import create_game
from tests.integration import live


def _expire_now(game_id) -> None:
    """Let the seats' deadlines pass (as if turn_seconds had gone by)."""
    Seat.objects.filter(game_id=game_id, deadline__isnull=False).update(deadline=timezone.now() - timedelta(seconds=1))


def _one_move_explains(game: Game, before: int, seat: int) -> bool:
    """True if the events after `before` are exactly what one legal action of `seat` produces."""
    engine = selectors.engine_for(game)
    position = selectors.game_position_at(game=game, version=before)
    logged = [(t, d) for t, d in Event.objects.filter(game=game, seq__gt=before).order_by("seq")
              .values_list("type", "data")]
    for action in engine.legal_actions(position.state, seat):
        _, events = apply_action(engine, position, seat, action, Chance(game.seed, game.decks, position.shuffles))
        if [(e.type, e.data) for e in events] == logged:
            return True
    return False


def test_a_clocked_game_shows_each_seats_deadline(ann, bob):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="11" * 32, turn_seconds=90)
    assert game["turn_seconds"] == 90 and game["clock_policy"] == "random"
    mover = game["to_act"][0]
    deadlines = [seat["deadline"] for seat in game["seats"]]
    assert deadlines[1 - mover] is None and deadlines[mover] is not None
    state = ann.get(f"/api/v1/games/{game['id']}/state/").json()
    assert state["deadlines"] == deadlines
    due = Seat.objects.get(game_id=game["id"], index=mover).deadline - timezone.now()
    assert timedelta(seconds=85) < due <= timedelta(seconds=90)
    plain = create_game(ann, [{"player": ann.id}, {"player": bob.id}])
    assert plain["turn_seconds"] is None and [s["deadline"] for s in plain["seats"]] == [None, None]


@pytest.mark.parametrize("body, code", [
    ({"turn_seconds": 0}, "invalid_input"),
    ({"turn_seconds": "soon"}, "invalid_input"),
    ({"clock_policy": "forfeit"}, "invalid_clock"),
    ({"turn_seconds": 30, "clock_policy": "coin"}, "invalid_input"),
])
def test_bad_clock_settings_are_refused(ann, bob, body, code):
    response = ann.post("/api/v1/games/", {"kind": "spite-and-malice",
                                           "seats": [{"player": ann.id}, {"player": bob.id}], **body})
    assert response.status_code == 400 and response.json()["code"] == code
    assert Game.objects.count() == 0


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_an_expired_clock_plays_exactly_one_move_once(ann, bob, policy):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="12" * 32, turn_seconds=60,
                       clock_policy=policy)
    model = Game.objects.get(pk=game["id"])
    version, seat = model.version, model.to_act[0]
    assert clock_expire(game_id=game["id"], version=version) is None  # not yet due: checked again then
    assert Game.objects.get(pk=game["id"]).version == version
    _expire_now(game["id"])
    assert clock_expire(game_id=game["id"], version=version) is True
    model.refresh_from_db()
    assert model.version > version and _one_move_explains(model, version, seat)
    after = model.version
    assert clock_expire(game_id=game["id"], version=version) is False  # a duplicate delivery
    assert Game.objects.get(pk=game["id"]).version == after
    if seat in model.to_act:  # it played for the seat: a returning player gets a fresh turn_seconds
        due = Seat.objects.get(game_id=game["id"], index=seat).deadline - timezone.now()
        assert due > timedelta(seconds=55)


def test_a_move_in_time_cancels_the_expiry(ann, bob):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="13" * 32, turn_seconds=60)
    mover = ann if game["to_act"] == [0] else bob
    state = mover.get(f"/api/v1/games/{game['id']}/state/").json()
    response = mover.post(f"/api/v1/games/{game['id']}/actions/",
                          {"action": state["legal_actions"][0], "expected_version": state["version"]})
    assert response.status_code == 201
    moved = response.json()["version"]
    _expire_now(game["id"])
    assert clock_expire(game_id=game["id"], version=state["version"]) is False  # the task of the old head
    assert Game.objects.get(pk=game["id"]).version == moved


def test_the_forfeit_policy_ends_the_game(ann, bob, django_capture_on_commit_callbacks):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="14" * 32, turn_seconds=30,
                       clock_policy="forfeit")
    loser = game["to_act"][0]
    _expire_now(game["id"])
    with django_capture_on_commit_callbacks() as queued:
        assert clock_expire(game_id=game["id"], version=game["version"]) is True
    assert queued  # the stream wake-ups, published after commit
    summary = ann.get(f"/api/v1/games/{game['id']}/").json()
    assert summary["status"] == "finished" and summary["to_act"] == []
    assert summary["result"]["reason"] == "forfeit" and summary["result"]["forfeited"] == loser
    assert summary["result"]["winners"] == [1 - loser]
    assert [s["deadline"] for s in summary["seats"]] == [None, None]
    events = ann.get(f"/api/v1/games/{game['id']}/events/", after=game["version"]).json()
    assert [e["type"] for e in events] == ["game.forfeited", "game.finished"]
    assert events[0]["data"]["seat"] == loser and events[1]["data"]["seed"] == "14" * 32
    assert ann.get(f"/api/v1/games/{game['id']}/export/").json()["verification"]["ok"] is True
    finished = Notification.objects.filter(kind="game_finished", payload__game=game["id"])
    assert sorted(finished.values_list("player_id", flat=True)) == sorted([ann.id, bob.id])


def test_clocks_leave_bot_seats_alone(ann):
    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="15" * 32, turn_seconds=60)
    seats = {s["index"]: s for s in game["seats"]}
    assert seats[1]["deadline"] is None


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = tmp_path_factory.mktemp("clocks") / "tavolo.sqlite3"
    with live.server({"DATABASE_URL": f"sqlite:///{db}"}) as base:
        yield base


def test_the_embedded_servers_in_memory_broker_runs_the_countdowns(served):
    """Real countdown tasks: a 1 s clock plays for an absent player, not before its deadline; a forfeit
    clock ends the game."""
    base = served

    async def scenario():
        async with live.client() as http:
            (ann, token), (bob, bob_token) = await live.register(http, base), await live.register(http, base)
            seats = [{"player": ann}, {"player": bob}]
            played = await live.create_game(http, base, token, seats, accept=(bob_token,), turn_seconds=1)
            forfeited = await live.create_game(http, base, token, seats, accept=(bob_token,), turn_seconds=1,
                                               clock_policy="forfeit")
            first = {}

            async def moved():
                summary = (await http.get(f"{base}/games/{played['id']}/")).json()
                first.update(summary)
                return summary["version"] > played["version"]

            deadline = asyncio.get_running_loop().time() + 20
            while not await moved():
                assert asyncio.get_running_loop().time() < deadline, "the clock never played"
                await asyncio.sleep(0.05)
            events = (await http.get(f"{base}/games/{played['id']}/events/",
                                     params={"after": played["version"]})).json()
            deadline = asyncio.get_running_loop().time() + 20
            while (ended := (await http.get(f"{base}/games/{forfeited['id']}/")).json())["status"] == "active":
                assert asyncio.get_running_loop().time() < deadline, "the forfeit never came"
                await asyncio.sleep(0.05)
            return played, events, ended, forfeited

    played, events, ended, forfeited = asyncio.run(scenario())
    seat = played["to_act"][0]
    due = next(s["deadline"] for s in played["seats"] if s["index"] == seat)
    assert events and events[0]["actor"] == seat
    assert datetime.fromisoformat(events[0]["recorded_at"]) >= datetime.fromisoformat(due)
    assert ended["result"]["reason"] == "forfeit" and ended["result"]["forfeited"] == forfeited["to_act"][0]
