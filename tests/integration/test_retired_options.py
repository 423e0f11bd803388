"""Machiavelli's engine option `turn_seconds` (the hourglass) is retired in favour of the platform's turn
clock: a new game or tournament asking for it gets a 422 that points to the clock, `GET /kinds/` no longer
lists it, and a game created while it existed still plays, replays and verifies."""

from __future__ import annotations

import random

from bots.services import bot_play_turn
from games.engine.base import Option
from games.models import Game
from games.rules.machiavelli.engine import MachiavelliEngine
from tests.conftest import create_game
from tournaments.models import Tournament


def test_kinds_no_longer_offer_it(ann):
    kinds = {k["kind"]: k for k in ann.get("/api/v1/kinds/").json()}
    assert "turn_seconds" not in kinds["machiavelli"]["options"]
    assert set(kinds["machiavelli"]["options"]) == {"deals", "unit", "failed_operation", "first_dealer"}


def test_a_new_game_asking_for_it_is_refused_with_a_pointer_to_the_platform_clock(ann):
    before = Game.objects.count()
    response = ann.post("/api/v1/games/", {"kind": "machiavelli", "seats": [{"player": ann.id}, {"bot": "random"}],
                                           "options": {"turn_seconds": 60}})
    assert response.status_code == 422
    assert response.json()["code"] == "retired_option"
    assert "POST /games/ 'turn_seconds'" in response.json()["detail"]
    assert Game.objects.count() == before
    clocked = create_game(ann, [{"player": ann.id}, {"bot": "random"}], kind="machiavelli", turn_seconds=60,
                          clock_policy="random", options={"deals": 1})
    assert clocked["turn_seconds"] == 60


def test_a_tournament_asking_for_it_is_refused(ann):
    response = ann.post("/api/v1/tournaments/", {"kind": "machiavelli", "format": "swiss",
                                                 "options": {"turn_seconds": 60}})
    assert response.status_code == 422 and response.json()["code"] == "retired_option"
    assert not Tournament.objects.exists()


def test_a_game_created_with_it_still_plays_replays_and_verifies(ann, monkeypatch):
    old_options = {**MachiavelliEngine.options,
                   "turn_seconds": Option(None, int, minimum=1, nullable=True, help="the hourglass")}
    with monkeypatch.context() as then:  # the engine as it was when the option existed
        then.setattr(MachiavelliEngine, "options", old_options)
        then.setattr(MachiavelliEngine, "retired_options", {})
        game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], kind="machiavelli", seed="6d" * 32,
                           options={"deals": 1, "turn_seconds": 45})
    assert Game.objects.get(pk=game["id"]).options["turn_seconds"] == 45

    rng = random.Random(6)
    for _ in range(5000):
        summary = ann.get(f"/api/v1/games/{game['id']}/").json()
        if summary["status"] != "active":
            break
        if 0 in summary["to_act"]:
            state = ann.get(f"/api/v1/games/{game['id']}/state/").json()
            assert state["view"]["options"]["turn_seconds"] == 45
            response = ann.post(f"/api/v1/games/{game['id']}/actions/",
                                {"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]})
            assert response.status_code == 201, response.json()
        else:
            assert bot_play_turn(game_id=game["id"], version=summary["version"]) is True
    assert summary["status"] == "finished"
    assert ann.get(f"/api/v1/games/{game['id']}/replay/{summary['version'] // 2}/").status_code == 200
    assert ann.get(f"/api/v1/games/{game['id']}/export/").json()["verification"]["ok"] is True
