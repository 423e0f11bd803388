"""Nobody is seated, dealt or rated without agreeing, and nobody chooses the deal of a game with another
person in it: seating another player is an invitation (the game is dealt when every seated person accepts,
aborted when one declines or time runs out); a chosen `seed` or `decks` is refused unless no other person
is seated, and such a game is never rated; a tournament's chosen seed admits bots only."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Event, Game, Notification
from tests.conftest import event_count, play_randomly
from tournaments import services as tournament_services
from tournaments.models import RatingChange
from tournaments.services import rating_record_game

pytestmark = pytest.mark.django_db
GAMES = "/api/v1/games/"


def seats(*players) -> list[dict]:
    return [{"player": p.id} for p in players]


def invite(ann, bob, **extra) -> dict:
    response = ann.post(GAMES, {"kind": "spite-and-malice", "seats": seats(ann, bob), **extra})
    assert response.status_code == 201, response.json()
    return response.json()


def kinds_of_notes(player) -> list[str]:
    return list(Notification.objects.filter(player=player.model).order_by("seq").values_list("kind", flat=True))


def test_seating_another_player_is_an_invitation_dealt_when_accepted(ann, bob):
    game = invite(ann, bob, turn_seconds=1, clock_policy="forfeit")
    assert game["status"] == "pending" and game["version"] == 0 and game["to_act"] == []
    assert [s["accepted"] for s in game["seats"]] == [True, False] and game["expires_at"]
    assert event_count(game["id"]) == 0  # nothing dealt, no clock running
    assert kinds_of_notes(bob) == ["game_invitation"]
    for client in (ann, bob):
        pending = client.get(f"{GAMES}{game['id']}/state/")
        assert pending.status_code == 409 and pending.json()["code"] == "game_pending"
    move = bob.post(f"{GAMES}{game['id']}/actions/", {"action": {"type": "end_turn"}})
    assert move.status_code == 409 and move.json()["code"] == "game_pending"
    stranger = ann.client.post(f"{GAMES}{game['id']}/accept/")  # ann's own seat is accepted already
    assert stranger.status_code == 200 and stranger.json()["status"] == "pending"

    accepted = bob.post(f"{GAMES}{game['id']}/accept/", {})
    assert accepted.status_code == 200, accepted.json()
    assert accepted.json()["status"] == "active" and accepted.json()["version"] > 0
    assert all(s["accepted"] for s in accepted.json()["seats"])
    assert Game.objects.get(pk=game["id"]).seats.exclude(deadline=None).count() == 1  # the clock starts now
    assert "game_started" in kinds_of_notes(bob) and "game_started" in kinds_of_notes(ann)
    again = bob.post(f"{GAMES}{game['id']}/accept/", {})
    assert again.status_code == 200 and again.json()["version"] == accepted.json()["version"]


def test_a_declined_invitation_aborts_the_game_and_changes_no_rating(ann, bob, make_player):
    carl = make_player("carl")
    game = invite(ann, bob)
    outsider = carl.post(f"{GAMES}{game['id']}/decline/", {})
    assert outsider.status_code == 403 and outsider.json()["code"] == "not_seated"
    declined = bob.post(f"{GAMES}{game['id']}/decline/", {})
    assert declined.status_code == 200
    assert declined.json()["status"] == "aborted" and declined.json()["abort_reason"] == "declined"
    assert kinds_of_notes(ann) == ["game_cancelled"]
    late = bob.post(f"{GAMES}{game['id']}/accept/", {})
    assert late.status_code == 409 and late.json()["code"] == "not_pending"
    for path in ("state/", "export/"):
        refused = ann.get(f"{GAMES}{game['id']}/{path}")
        assert refused.status_code == 409, (path, refused.json())
    assert ann.get(f"{GAMES}{game['id']}/events/").json() == []
    assert event_count(game["id"]) == 0 and not RatingChange.objects.exists()
    assert not rating_record_game(game_id=game["id"])


def test_the_creator_may_withdraw_a_pending_game(ann, bob):
    game = invite(ann, bob)
    assert ann.post(f"{GAMES}{game['id']}/decline/", {}).json()["status"] == "aborted"
    assert kinds_of_notes(bob) == ["game_invitation", "game_cancelled"]


def test_an_invitation_not_accepted_in_time_expires(ann, bob, settings):
    game = invite(ann, bob)
    assert services.game_expire_invitations() == 0  # not due yet
    Game.objects.filter(pk=game["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    late = bob.post(f"{GAMES}{game['id']}/accept/", {})
    assert late.status_code == 409 and late.json()["code"] == "invitation_expired"
    summary = ann.get(f"{GAMES}{game['id']}/").json()
    assert summary["status"] == "aborted" and summary["abort_reason"] == "expired"
    assert event_count(game["id"]) == 0


def test_the_periodic_sweep_expires_due_invitations(ann, bob):
    due, fresh = invite(ann, bob), invite(ann, bob)
    Game.objects.filter(pk=due["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    from games.tasks import expire_invitations

    assert expire_invitations() == 1
    assert Game.objects.get(pk=due["id"]).status == "aborted"
    assert Game.objects.get(pk=fresh["id"]).status == "pending"


def test_a_player_seats_themselves_and_bots_directly(ann):
    mine = [{"player": ann.id}, {"bot": "random"}, {"bot": "random"}]
    game = ann.post(GAMES, {"kind": "muscio", "seats": mine}).json()
    assert game["status"] == "active" and game["version"] > 0 and all(s["accepted"] for s in game["seats"])
    hotseat = ann.post(GAMES, {"kind": "spite-and-malice", "seats": seats(ann, ann)}).json()
    assert hotseat["status"] == "active" and not hotseat["rated"]


def test_an_accepted_game_is_rated_once_it_ends(ann, bob):
    game = invite(ann, bob)
    bob.post(f"{GAMES}{game['id']}/accept/", {})
    import random

    play_randomly({0: ann, 1: bob}, game["id"], random.Random(3))
    assert rating_record_game(game_id=game["id"])
    assert RatingChange.objects.filter(game_id=game["id"]).count() == 2


def test_a_game_with_an_unaccepted_seat_is_never_rated(ann, bob):
    """Belt and braces: even a rated game that somehow ended without every player's consent is not rated."""
    game = services.game_open(kind="spite-and-malice", seats=seats(ann, bob))
    import random

    play_randomly({0: ann, 1: bob}, str(game.id), random.Random(4))
    game.seats.filter(index=1).update(accepted_at=None)
    assert not rating_record_game(game_id=game.id)


@pytest.mark.parametrize("fixed", [{"seed": "ab" * 16}, {"decks": [["AS"]]}])
def test_a_chosen_deal_is_refused_when_another_person_is_seated(ann, bob, fixed):
    response = ann.post(GAMES, {"kind": "spite-and-malice", "seats": seats(ann, bob), **fixed})
    assert response.status_code == 422 and response.json()["code"] == "seed_not_allowed"
    assert "no other person" in response.json()["detail"]
    assert not Game.objects.exists()


def test_a_chosen_seed_is_allowed_alone_with_bots_and_never_rated(ann):
    body = {"kind": "spite-and-malice", "seats": [{"player": ann.id}, {"bot": "random"}], "seed": "cd" * 16}
    game = ann.post(GAMES, body).json()
    assert game["status"] == "active" and game["seed_chosen"] and not game["rated"]
    twin = ann.post(GAMES, body).json()
    deals = [list(Event.objects.filter(game_id=g["id"], type="shuffle").values_list("data", flat=True))
             for g in (game, twin)]
    assert deals[0] == deals[1]  # reproducible, for the creator's own practice
    rated = ann.post(GAMES, {**body, "rated": True})
    assert rated.status_code == 422 and rated.json()["code"] == "not_ratable"
    bots_only = ann.post(GAMES, {"kind": "muscio", "seats": [{"bot": "random"}] * 3, "seed": "ef" * 16})
    assert bots_only.status_code == 201 and not bots_only.json()["rated"]


def test_the_server_draws_seeds_of_at_least_128_bits(ann, bob):
    game = invite(ann, bob)
    bob.post(f"{GAMES}{game['id']}/accept/", {})
    seed = Game.objects.get(pk=game["id"]).seed
    assert len(bytes.fromhex(seed)) * 8 >= 128
    assert not Game.objects.get(pk=game["id"]).seed_chosen
    other = invite(ann, bob)
    assert Game.objects.get(pk=other["id"]).seed != seed


def test_a_tournament_with_a_chosen_seed_admits_bots_only(ann, bob):
    created = ann.post("/api/v1/tournaments/", {"kind": "diavoletto", "format": "swiss", "rounds": 1,
                                                "seed": "12" * 16})
    assert created.status_code == 201
    tid = created.json()["id"]
    refused = bob.post(f"/api/v1/tournaments/{tid}/entrants/", {})
    assert refused.status_code == 409 and refused.json()["code"] == "seeded_tournament"
    mine = ann.post(f"/api/v1/tournaments/{tid}/entrants/", {})
    assert mine.status_code == 409 and mine.json()["code"] == "seeded_tournament"
    for _ in range(2):
        assert ann.post(f"/api/v1/tournaments/{tid}/entrants/", {"bot": "random"}).status_code == 201
    assert ann.post(f"/api/v1/tournaments/{tid}/start/", {}).status_code == 200


def test_an_unseeded_tournament_seats_players_who_registered_without_invitations(ann, bob):
    tournament = tournament_services.tournament_create(organiser=ann.model, kind="diavoletto", format="round_robin")
    for player in (ann, bob):
        tournament_services.tournament_register(tournament_id=tournament.id, by=player.model)
    tournament_services.tournament_start(tournament_id=tournament.id, by=ann.model)
    game = Game.objects.get(tournament_table__round__tournament=tournament)
    assert game.status == "active" and game.rated and not game.seed_chosen
    assert all(seat.accepted_at is not None for seat in game.seats.all())
    assert len(bytes.fromhex(tournament.seed)) * 8 >= 128


def test_a_pending_game_that_could_not_be_dealt_is_refused_at_creation(ann, bob):
    """Options checked only when dealing (Machiavelli's first dealer) are checked before anyone is invited."""
    response = ann.post(GAMES, {"kind": "machiavelli", "seats": seats(ann, bob), "first_dealer": 5})
    assert response.status_code == 422 and response.json()["code"] == "invalid_options"
    assert not Game.objects.exists() and not Notification.objects.exists()
