"""Every registered game is playable end to end through the API: created with a player and random bots,
played to its end, replayed step by step, exported and verified."""

import random

import pytest

from bots.services import bot_play_turn
from games.engine import registry
from tests.conftest import create_game

SHORT = {"muscio": {"max_hands": 3}, "tarocchi-mineo": {"deals": 4}, "machiavelli": {"deals": 1}}


@pytest.mark.parametrize("kind", registry.kinds())
def test_a_whole_game_of_every_kind(ann, kind):
    engine = registry.get(kind)
    seats = [{"player": ann.id}] + [{"bot": "random"}] * (max(engine.seats.start, 2) - 1)
    options = {k: v for k, v in SHORT.get(kind, {}).items() if k in engine.options}
    game = create_game(ann, seats, kind=kind, seed="4b" * 32, options=options)
    rng = random.Random(kind)
    for _ in range(20_000):
        summary = ann.get(f"/api/v1/games/{game['id']}/").json()
        if summary["status"] != "active":
            break
        if 0 in summary["to_act"]:
            state = ann.get(f"/api/v1/games/{game['id']}/state/").json()
            response = ann.post(f"/api/v1/games/{game['id']}/actions/",
                                {"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]})
            assert response.status_code == 201, response.json()
        else:
            assert bot_play_turn(game_id=game["id"], version=summary["version"]) is True
    assert summary["status"] == "finished" and summary["result"]["reason"]
    last = summary["version"]
    assert ann.get(f"/api/v1/games/{game['id']}/replay/{last // 2}/").status_code == 200
    assert ann.get(f"/api/v1/games/{game['id']}/replay/{last}/", seat=1).json()["to_act"] == []
    assert ann.get(f"/api/v1/games/{game['id']}/export/").json()["verification"]["ok"] is True
