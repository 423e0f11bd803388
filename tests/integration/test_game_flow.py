"""A whole game through the REST API, as a client would play it, then its replay and export."""

import random

from games.engine.cards import card_tokens, french_deck
from games.engine.registry import get
from games.models import Event
from tests.conftest import create_game, event_count, play_randomly

SM = get("spite-and-malice")


def test_two_players_play_a_whole_game_and_replay_it(ann, bob):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}])
    assert game["status"] == "active" and game["result"] is None
    assert [s["name"] for s in game["seats"]] == ["ann", "bob"]
    assert len(game["seed_sha256"]) == 64

    moves = play_randomly({0: ann, 1: bob}, game["id"], random.Random(3))
    summary = ann.get(f"/api/v1/games/{game['id']}/").json()
    assert summary["status"] == "finished" and summary["to_act"] == []
    assert summary["result"]["reason"] in {"goal_emptied", "blocked", "turn_limit"}
    assert summary["version"] == event_count(game["id"]) > moves

    index = bob.get(f"/api/v1/games/{game['id']}/replay/").json()
    assert [s["step"] for s in index["steps"]] == list(range(1, summary["version"] + 1))
    first = bob.get(f"/api/v1/games/{game['id']}/replay/2/").json()
    last = bob.get(f"/api/v1/games/{game['id']}/replay/{summary['version']}/").json()
    assert first["step"] == 2 and last["to_act"] == []
    assert bob.get(f"/api/v1/games/{game['id']}/replay/{summary['version'] + 1}/").json()["code"] == "no_such_step"

    export = ann.get(f"/api/v1/games/{game['id']}/export/").json()
    assert export["verification"]["ok"] is True
    assert len(export["verification"]["shuffles"]) >= 2
    assert [e["seq"] for e in export["events"]] == list(range(1, summary["version"] + 1))
    assert export["events"][-1]["type"] == "game.finished"
    assert export["events"][-1]["data"]["seed"] == export["seed"]


def test_state_shows_own_hand_and_hides_the_opponents(ann, bob):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}])
    state_ann = ann.get(f"/api/v1/games/{game['id']}/state/").json()
    state_bob = bob.get(f"/api/v1/games/{game['id']}/state/").json()
    hand_ann = state_ann["view"]["players"][0]["hand"]
    assert state_ann["seat"] == 0 and len(hand_ann) == 5
    assert state_bob["view"]["players"][0]["hand"] is None
    spectator = bob.client.__class__().get(f"/api/v1/games/{game['id']}/state/").json()
    assert spectator["seat"] is None and spectator["legal_actions"] == []
    assert spectator["view"]["players"][0]["hand"] is None and spectator["view"]["players"][1]["hand"] is None
    # every event hidden from bob reaches him without a single card
    hidden = Event.objects.filter(game_id=game["id"], visible_to__isnull=False).values_list("seq", "visible_to")
    hidden_seqs = {seq for seq, visible in hidden if 1 not in visible}
    assert hidden_seqs, "the deal of ann's hand is a hidden event"
    for event in bob.get(f"/api/v1/games/{game['id']}/events/").json():
        if event["seq"] in hidden_seqs:
            assert not card_tokens(event["data"], SM.card_ids), event


def test_events_after_and_seed_secret_while_running(ann, bob):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}])
    events = ann.get(f"/api/v1/games/{game['id']}/events/").json()
    assert events[0]["type"] == "game.created" and "seed" not in events[0]["data"]
    assert [e["seq"] for e in events] == list(range(1, game["version"] + 1))
    later = ann.get(f"/api/v1/games/{game['id']}/events/", after=game["version"] - 1).json()
    assert [e["seq"] for e in later] == [game["version"]]
    refused = ann.get(f"/api/v1/games/{game['id']}/export/")
    assert refused.status_code == 409 and refused.json()["code"] == "game_running"


def test_same_seed_and_decks_give_the_same_deal(ann, bob):
    seed = "ab" * 32
    one = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed=seed)
    two = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed=seed)
    view_one = ann.get(f"/api/v1/games/{one['id']}/state/").json()["view"]
    view_two = ann.get(f"/api/v1/games/{two['id']}/state/").json()["view"]
    assert view_one == view_two

    goal = french_deck()
    goal[26], goal[30] = goal[30], goal[26]  # seat 0's goal top AS, seat 1's 5D: different, so no redeal
    dealt = create_game(ann, [{"player": ann.id}, {"player": bob.id}], decks=[goal])
    view = ann.get(f"/api/v1/games/{dealt['id']}/state/").json()["view"]
    assert view["players"][0]["goal_top"] == goal[0]
    assert view["players"][1]["goal_top"] == goal[26]


def test_bot_seat_plays_after_the_human(ann, django_capture_on_commit_callbacks):
    from bots.services import bot_play_turn

    with django_capture_on_commit_callbacks() as queued:
        game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="01" * 32)
    rng = random.Random(0)
    for _ in range(40):
        summary = ann.get(f"/api/v1/games/{game['id']}/").json()
        if summary["status"] != "active":
            break
        if summary["to_act"] == [1]:
            assert bot_play_turn(game_id=game["id"], version=summary["version"]) is True
            continue
        state = ann.get(f"/api/v1/games/{game['id']}/state/").json()
        response = ann.post(f"/api/v1/games/{game['id']}/actions/",
                            {"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]})
        assert response.status_code == 201
    events = ann.get(f"/api/v1/games/{game['id']}/events/").json()
    assert any(e["actor"] == 1 for e in events), "the bot never moved"
    # a bot task at an old version is a no-op (duplicate or late delivery)
    before = event_count(game["id"])
    assert bot_play_turn(game_id=game["id"], version=1) is False
    assert event_count(game["id"]) == before
    del queued
