"""A duplicate round's tables share one deal, so while the round runs each table shows nothing to anyone
not seated at it: a player of another table would read their own opponents' hands in it, a spectator could
pass them on. Its own players see what their seat may see. Once every table of the round is over, every log
opens."""

import random

import pytest

from games.models import Game
from tests.conftest import play_randomly
from tournaments import services
from tournaments.models import TournamentTable

pytestmark = pytest.mark.django_db
CARD_PATHS = ("state/", "events/", "events/?after=0&wait=1", "replay/", "replay/1/", "export/", "stream/")


@pytest.fixture
def round_of_people(ann, bob, make_player):
    """A duplicate tournament of four people (two tables of Spite and Malice), round one paired."""
    people = [ann, bob, make_player("carl"), make_player("dora")]
    tournament = services.tournament_create(organiser=ann.model, kind="spite-and-malice", format="duplicate")
    for person in people:
        assert person.post(f"/api/v1/tournaments/{tournament.id}/entrants/", {}).status_code == 201
    assert ann.post(f"/api/v1/tournaments/{tournament.id}/start/", {}).status_code == 200
    tables = list(TournamentTable.objects.filter(round__tournament=tournament, round__number=1)
                  .select_related("game").order_by("number"))
    by_entrant = {e.id: p for e, p in zip(tournament.entrants.order_by("number"), people, strict=True)}
    seated = [[by_entrant[e] for e in table.entrants] for table in tables]
    return tournament, [t.game for t in tables], seated


def refused(client, game: Game, path: str) -> bool:
    response = client.get(f"/api/v1/games/{game.id}/{path}")
    return response.status_code == 403 and response.json()["code"] == "game_sealed"


def test_a_running_duplicate_table_shows_nothing_to_players_of_other_tables_or_spectators(round_of_people,
                                                                                          client):
    _, (first, second), seated = round_of_people
    assert first.sealed and second.sealed and first.seed == second.seed
    for outsider in seated[1]:
        for path in CARD_PATHS:
            assert refused(outsider.client, first, path), path
            seat = "&" if "?" in path else "?"
            assert refused(outsider.client, first, f"{path}{seat}seat=0"), path
    for path in CARD_PATHS:
        assert refused(client, first, path), path  # a spectator, no token
    # the summary (no cards) stays readable: status, seats, whose turn
    summary = client.get(f"/api/v1/games/{first.id}/").json()
    assert summary["status"] == "active" and summary["result"] is None
    # its own players see their own seat
    for seat, player in enumerate(seated[0]):
        state = player.get(f"/api/v1/games/{first.id}/state/").json()
        assert state["seat"] == seat and "hand" in str(state["view"])
        other = player.get(f"/api/v1/games/{first.id}/state/", seat=1 - seat).json()
        assert other["seat"] == seat  # not another seat's eyes


def test_logs_open_once_every_table_of_the_round_is_over(round_of_people, client, settings):
    tournament, (first, second), seated = round_of_people
    play_randomly(dict(enumerate(seated[0])), str(first.id), random.Random(1))
    # table one is over, table two still plays the same deal: still sealed, result hidden to outsiders
    assert refused(seated[1][0].client, first, "events/")
    assert client.get(f"/api/v1/games/{first.id}/").json()["result"] is None
    assert seated[0][0].get(f"/api/v1/games/{first.id}/").json()["result"] is not None
    listed = client.get("/api/v1/games/", {"status": "finished"}).json()["results"]
    assert [g["result"] for g in listed if g["id"] == str(first.id)] == [None]
    play_randomly(dict(enumerate(seated[1])), str(second.id), random.Random(2))
    services.tournament_advance(tournament_id=tournament.id)
    for game in (first, second):
        events = client.get(f"/api/v1/games/{game.id}/events/")
        assert events.status_code == 200
        assert "cards" in next(e for e in events.json() if e["type"] == "shuffle")["data"]
        assert client.get(f"/api/v1/games/{game.id}/export/").json()["verification"]["ok"] is True
