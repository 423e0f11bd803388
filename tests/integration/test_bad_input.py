"""Every kind of bad request gets a clear 4xx JSON error with a stable code, and writes nothing."""

import json

import pytest
from rest_framework.test import APIClient

from games.models import Event, Game
from tests.conftest import create_game, event_count


@pytest.fixture
def game(ann, bob):
    return create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="5e" * 32)


def _act(player, game, body, **headers):
    return player.post(f"/api/v1/games/{game['id']}/actions/", body, **headers)


def _mover(game, ann, bob):
    return (ann, bob) if game["to_act"] == [0] else (bob, ann)


def _assert_refused(response, status, code, game_id=None, before=None):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and isinstance(body["detail"], str) and body["detail"]
    if game_id is not None:
        assert event_count(game_id) == before


def test_malformed_json(game, ann):
    before = event_count(game["id"])
    response = ann.client.post(f"/api/v1/games/{game['id']}/actions/", data="{not json",
                               content_type="application/json")
    _assert_refused(response, 400, "malformed_json", game["id"], before)


def test_action_missing_or_not_an_object(game, ann, bob):
    mover, _ = _mover(game, ann, bob)
    before = event_count(game["id"])
    _assert_refused(_act(mover, game, {"expected_version": game["version"]}), 400, "invalid_input", game["id"], before)
    _assert_refused(_act(mover, game, {"action": "play"}), 422, "invalid_action", game["id"], before)


def test_unknown_action_type(game, ann, bob):
    mover, _ = _mover(game, ann, bob)
    before = event_count(game["id"])
    response = _act(mover, game, {"action": {"type": "fly"}, "expected_version": game["version"]})
    _assert_refused(response, 422, "unknown_action", game["id"], before)
    assert "discard" in response.json()["detail"]


def test_unknown_card_and_card_not_held(game, ann, bob):
    mover, _ = _mover(game, ann, bob)
    before = event_count(game["id"])
    for card in ("ZZ", "11H", ""):
        response = _act(mover, game, {"action": {"type": "discard", "card": card, "pile": 0}})
        assert response.status_code == 422 and event_count(game["id"]) == before
    hand = mover.get(f"/api/v1/games/{game['id']}/state/").json()["view"]["players"][game["to_act"][0]]["hand"]
    missing = next(c for c in ("KS", "KH", "KD", "KC", "QS", "QH") if c not in hand)
    response = _act(mover, game, {"action": {"type": "discard", "card": missing, "pile": 0}})
    assert response.status_code == 422 and event_count(game["id"]) == before
    assert response.json()["code"] in {"card_not_in_hand", "must_play_ace", "must_play_two"}


def test_acting_out_of_turn(game, ann, bob):
    _, waiting = _mover(game, ann, bob)
    before = event_count(game["id"])
    response = _act(waiting, game, {"action": {"type": "end_turn"}, "expected_version": game["version"]})
    _assert_refused(response, 422, "not_your_turn", game["id"], before)


def test_acting_for_another_seat_or_game(game, ann, bob, make_player):
    mover, waiting = _mover(game, ann, bob)
    before = event_count(game["id"])
    other_seat = game["to_act"][0]
    _assert_refused(_act(waiting, game, {"action": {"type": "end_turn"}, "seat": other_seat}), 403, "not_your_seat",
                    game["id"], before)
    stranger = make_player("carl")
    _assert_refused(_act(stranger, game, {"action": {"type": "end_turn"}}), 403, "not_seated", game["id"], before)


def test_no_token_or_bad_token(game):
    before = event_count(game["id"])
    anonymous = APIClient()
    response = anonymous.post(f"/api/v1/games/{game['id']}/actions/", {"action": {"type": "end_turn"}}, format="json")
    _assert_refused(response, 401, "not_authenticated", game["id"], before)
    anonymous.credentials(HTTP_AUTHORIZATION="Token nope")
    response = anonymous.post(f"/api/v1/games/{game['id']}/actions/", {"action": {"type": "end_turn"}}, format="json")
    _assert_refused(response, 401, "invalid_token", game["id"], before)
    response = APIClient().post("/api/v1/games/", {"kind": "spite-and-malice", "seats": []}, format="json")
    assert response.status_code == 401


def test_stale_version(game, ann, bob):
    mover, _ = _mover(game, ann, bob)
    before = event_count(game["id"])
    response = _act(mover, game, {"action": {"type": "end_turn"}, "expected_version": game["version"] - 1})
    _assert_refused(response, 409, "stale_version", game["id"], before)
    assert response.json()["version"] == game["version"]


def test_finished_game(game, ann, bob):
    Game.objects.filter(pk=game["id"]).update(status=Game.Status.FINISHED)
    before = event_count(game["id"])
    mover, _ = _mover(game, ann, bob)
    _assert_refused(_act(mover, game, {"action": {"type": "end_turn"}}), 409, "game_finished", game["id"], before)


def test_oversized_body(game, ann, settings):
    before = event_count(game["id"])
    body = json.dumps({"action": {"type": "end_turn", "pad": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)}})
    response = ann.client.post(f"/api/v1/games/{game['id']}/actions/", data=body, content_type="application/json")
    _assert_refused(response, 413, "body_too_large", game["id"], before)


def test_unknown_game_and_bad_parameters(ann):
    _assert_refused(ann.get("/api/v1/games/00000000-0000-0000-0000-000000000000/"), 404, "not_found")
    _assert_refused(ann.post("/api/v1/games/00000000-0000-0000-0000-000000000000/actions/",
                             {"action": {"type": "end_turn"}}), 404, "not_found")
    _assert_refused(ann.get("/api/v1/games/", status="bogus"), 400, "invalid_input")


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"kind": "chess", "seats": [{"bot": "random"}, {"bot": "random"}]}, 422, "unknown_kind"),
    ({"kind": "spite-and-malice", "seats": [{"bot": "random"}]}, 422, "invalid_seats"),
    ({"kind": "spite-and-malice", "seats": [{"bot": "genius"}, {"bot": "random"}]}, 422, "unknown_bot"),
    ({"kind": "spite-and-malice", "seats": [{"player": 999}, {"bot": "random"}]}, 422, "unknown_player"),
    ({"kind": "spite-and-malice", "seats": [{"player": 1, "bot": "random"}, {"bot": "random"}]}, 400,
     "invalid_input"),
    ({"kind": "spite-and-malice", "seats": [{"bot": "random"}] * 2, "options": {"colour": 1}}, 422,
     "invalid_options"),
    ({"kind": "spite-and-malice", "seats": [{"bot": "random"}] * 2, "options": {"target": "x"}}, 422,
     "invalid_options"),
    ({"kind": "spite-and-malice", "seats": [{"bot": "random"}] * 2, "seed": "xyz"}, 400, "invalid_seed"),
    ({"kind": "spite-and-malice", "seats": [{"bot": "random"}] * 2, "decks": [["AS", "AS"]]}, 422, "invalid_decks"),
    ({"kind": "spite-and-malice", "seats": [{"bot": "random"}] * 2, "decks": [["ZZ"]]}, 422, "invalid_decks"),
    ({"kind": "spite-and-malice", "seats": [{"bot": "random"}] * 2, "first_dealer": 0}, 422, "invalid_options"),
])
def test_bad_game_creation_writes_nothing(ann, body, status, code):
    games, events = Game.objects.count(), Event.objects.count()
    _assert_refused(ann.post("/api/v1/games/", body), status, code)
    assert (Game.objects.count(), Event.objects.count()) == (games, events)


def test_player_names(make_player):
    client = APIClient()
    assert client.post("/api/v1/players/", {"name": "dora"}, format="json").status_code == 201
    _assert_refused(client.post("/api/v1/players/", {"name": "Dora"}, format="json"), 409, "name_taken")
    _assert_refused(client.post("/api/v1/players/", {"name": "<script>"}, format="json"), 400, "invalid_name")
    _assert_refused(client.post("/api/v1/players/", {}, format="json"), 400, "invalid_input")
