"""Bot seats through the API: their options reach the policy, bad ones are refused with a clear 422, the
bot list tells what each bot plays and takes, and a bot never thinks inside a web request."""

from __future__ import annotations

from unittest import mock

import pytest

from bots import policies
from bots.policies import POLICIES, Bot, random_choice
from bots.policies.search import Search
from bots.tasks import play_bot_turn
from games.models import Seat
from tests.conftest import create_game, event_count

BOTS = "/api/v1/bots/"
GAMES = "/api/v1/games/"


def test_the_bot_list_names_each_bot_its_games_and_its_options(ann):
    listed = {bot["name"]: bot for bot in ann.get(BOTS).json()}
    assert {"random", "heuristic", "search"} <= set(listed)
    search = listed["search"]
    assert set(search["kinds"]) == {"spite-and-malice", "diavoletto", "muscio", "tarocchi-mineo", "machiavelli"}
    assert search["options"]["budget_ms"] == {"type": "int", "default": 200, "nullable": False, "minimum": 1,
                                              "maximum": 60_000, "help": "thinking time per move, in milliseconds",
                                              "default_by_kind": {"machiavelli": 1000, "tarocchi-mineo": 300}}
    assert listed["random"]["options"] == {} and listed["random"]["description"]


def test_a_search_seat_keeps_its_budget_and_the_policy_receives_it(ann):
    game = create_game(ann, [{"player": ann.id}, {"bot": "search", "budget_ms": 150}])
    assert game["seats"][1]["bot"] == "search" and game["seats"][1]["bot_options"] == {"budget_ms": 150}
    assert game["seats"][0]["bot_options"] == {}
    assert Seat.objects.get(game_id=game["id"], index=1).bot_options == {"budget_ms": 150}


def test_a_bot_seat_without_options_uses_the_defaults(ann):
    game = create_game(ann, [{"bot": "search"}, {"bot": "heuristic"}], kind="spite-and-malice")
    assert [seat["bot_options"] for seat in game["seats"]] == [{}, {}]


@pytest.mark.parametrize(("seat", "status", "code", "says"), [
    ({"bot": "genius"}, 422, "unknown_bot", "unknown bot 'genius'"),
    ({"bot": "random", "budget_ms": 100}, 422, "invalid_bot_options", "takes no options"),
    ({"bot": "search", "budget_ms": 0}, 400, "invalid_input", "seats.1.budget_ms: Ensure this value is greater"),
    ({"bot": "search", "budget_ms": 60_001}, 400, "invalid_input", "seats.1.budget_ms: Ensure this value is less"),
    ({"bot": "search", "budget_ms": "fast"}, 400, "invalid_input", "seats.1.budget_ms: A valid integer"),
])
def test_bad_bot_seats_are_refused_with_a_clear_message(ann, seat, status, code, says):
    response = ann.post(GAMES, {"kind": "spite-and-malice", "seats": [{"player": ann.id}, seat]})
    assert response.status_code == status, response.json()
    body = response.json()
    assert body["code"] == code and says in body["detail"]
    assert not Seat.objects.exists()


def test_a_bot_that_does_not_play_the_game_is_refused(ann, monkeypatch):
    monkeypatch.setitem(POLICIES, "muscio-only", Bot("muscio-only", "plays Muscio only",
                                                     lambda engine, options: random_choice, frozenset({"muscio"})))
    response = ann.post(GAMES, {"kind": "spite-and-malice", "seats": [{"player": ann.id}, {"bot": "muscio-only"}]})
    assert response.status_code == 422
    assert response.json() == {"code": "unknown_bot",
                               "detail": "seats[1]: bot 'muscio-only' does not play spite-and-malice"}
    assert not Seat.objects.exists()


def test_no_bot_thinks_inside_the_request_the_task_does(ann, django_capture_on_commit_callbacks):
    """Creating a game whose first turn is a search bot's answers at once: the move is made later by the
    task (here run by hand, as the worker would), with the seat's budget handed to the policy."""
    real_choose = policies.choose
    with mock.patch.object(policies, "choose", side_effect=real_choose) as chose, \
            mock.patch.object(Search, "choose", autospec=True, side_effect=Search.choose) as searched:
        with django_capture_on_commit_callbacks(execute=True) as queued:
            game = create_game(ann, [{"bot": "search", "budget_ms": 40}, {"bot": "search", "budget_ms": 40}],
                               seed="3c" * 32)
        assert chose.call_count == 0 and searched.call_count == 0  # nothing computed in the request
        assert queued, "the bot turn is queued for after the commit"
        assert game["version"] == event_count(game["id"]) and game["to_act"]
        seat = game["to_act"][0]
        assert play_bot_turn(game["id"], game["version"]) is True  # what the worker runs
        assert chose.call_count == 1
        name, _engine, _state, acting, _rng, options = chose.call_args.args
        assert (name, acting, options) == ("search", seat, {"budget_ms": 40})
    summary = ann.get(f"{GAMES}{game['id']}/").json()
    assert summary["version"] > game["version"]
    events = ann.get(f"{GAMES}{game['id']}/events/", after=game["version"]).json()
    assert events and events[0]["actor"] == seat


@pytest.mark.parametrize(("kind", "options", "seconds"), [
    ("spite-and-malice", {}, 0.2), ("machiavelli", {}, 1.0), ("tarocchi-mineo", {}, 0.3),
    ("machiavelli", {"budget_ms": 150}, 0.15)])
def test_the_search_budget_defaults_per_game_and_yields_to_the_seat_option(kind, options, seconds):
    from bots.policies import make_policy
    from games.engine import registry

    assert make_policy("search", registry.get(kind), options).__self__.budget == pytest.approx(seconds)
