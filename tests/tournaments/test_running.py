"""Tournaments playing by themselves, in process: a finished game queues the advance task, which pairs the
next round once the last game ends; duplicate tables share their deals (checked on the event logs) and stay
sealed until the round is over; rated games update ratings once; the CLI runs a bot tournament."""

import itertools
import random
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from bots.services import bot_play_turn
from games.engine import registry
from games.models import Event, Game, Job
from tests.conftest import create_game, play_randomly
from tournaments import services, tasks
from tournaments.models import RatingChange, Round, Tournament, TournamentTable
from tournaments.selectors import tournament_standings

pytestmark = pytest.mark.django_db


class Queued:
    """The rating and advance jobs that finished games recorded in the outbox and that are not done yet, as
    (task name, argument): what `_after_append` queues."""

    NAMES = {"tournaments.tasks.advance_tournament": "advance", "tournaments.tasks.rate_game": "rate"}

    def _pending(self):
        return Job.objects.filter(task__in=self.NAMES, done_at__isnull=True)

    def __iter__(self):
        rows = self._pending().order_by("created_at", "id").values_list("task", "args")
        return iter([(self.NAMES[task], args[0]) for task, args in rows])

    def __eq__(self, other: object) -> bool:
        return list(self) == other

    def clear(self) -> None:
        self._pending().update(done_at=timezone.now())


@pytest.fixture
def queued():
    return Queued()


def bot_tournament(fmt: str, bots: int, kind: str = "spite-and-malice", **extra) -> Tournament:
    tournament = services.tournament_create(organiser=None, kind=kind, format=fmt, **extra)
    for _ in range(bots):
        services.tournament_register(tournament_id=tournament.id, by=None, bot="random")
    return services.tournament_start(tournament_id=tournament.id, by=None)


def play_out(game_id) -> None:
    while True:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return
        assert bot_play_turn(game_id=str(game.id), version=game.version)


def round_games(tournament: Tournament, number: int) -> list[Game]:
    tables = TournamentTable.objects.filter(round__tournament=tournament, round__number=number, game__isnull=False)
    return [t.game for t in tables.select_related("game").order_by("number")]


def run(tournament: Tournament, queued: list) -> Tournament:
    """Play every bot game; run the advance tasks the finished games queued, as a worker would."""
    while True:
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return tournament
        for game in round_games(tournament, tournament.current_round):
            play_out(game.id)
        advances = [arg for name, arg in queued if name == "advance"]
        assert advances and set(advances) == {str(tournament.id)}
        queued.clear()
        for tid in advances:
            services.tournament_advance(tournament_id=tid)


def pairings(tournament: Tournament) -> list[tuple[list[tuple], list[int]]]:
    out = []
    for r in Round.objects.filter(tournament=tournament).order_by("number"):
        tables = [tuple(t.entrants) for t in r.tables.order_by("number") if t.game_id]
        byes = [t.entrants[0] for t in r.tables.all() if t.game_id is None]
        out.append((tables, byes))
    return out


def test_swiss_runs_by_itself_without_rematches_and_with_fair_byes(queued):
    tournament = run(bot_tournament("swiss", 5, rounds=3), queued)
    assert tournament.status == "finished" and tournament.current_round == 3
    rounds = pairings(tournament)
    assert all(len(tables) == 2 and len(byes) == 1 for tables, byes in rounds)
    meetings = Counter(frozenset(t) for tables, _ in rounds for t in tables)
    assert max(meetings.values()) == 1
    assert len({byes[0] for _, byes in rounds}) == 3
    final = tournament_standings(tournament=tournament)
    assert final["final"] is True and final["round"] == 3
    assert sum(row["points"] for row in final["standings"]) == 3 * 2 + 3  # a point per game and per bye
    # a late or duplicated task does nothing
    assert services.tournament_advance(tournament_id=tournament.id) is False
    assert Round.objects.filter(tournament=tournament).count() == 3
    # bot games are not rated
    assert not any(name == "rate" for name, _ in queued)


def test_the_advance_task_waits_for_the_last_game_of_the_round(queued):
    tournament = bot_tournament("round_robin", 4)
    first, second = round_games(tournament, 1)
    play_out(first.id)
    assert queued == [("advance", str(tournament.id))]
    assert tasks.advance_tournament.run(str(tournament.id)) is False  # the other game still runs
    play_out(second.id)
    assert tasks.advance_tournament.run(str(tournament.id)) is True
    assert tasks.advance_tournament.run(str(tournament.id)) is False  # already paired
    tournament.refresh_from_db()
    assert tournament.current_round == 2 and len(round_games(tournament, 2)) == 2


def test_round_robin_every_pair_meets_once(queued):
    tournament = run(bot_tournament("round_robin", 4), queued)
    assert tournament.rounds == 3
    meetings = Counter(frozenset(t) for tables, _ in pairings(tournament) for t in tables)
    assert len(meetings) == 6 and set(meetings.values()) == {1}
    firsts = Counter(t[0] for tables, _ in pairings(tournament) for t in tables)
    assert max(firsts.values()) - min(firsts.values()) <= 1


def test_knockout_runs_a_bracket_to_one_champion(queued):
    tournament = run(bot_tournament("knockout", 5), queued)
    rounds = pairings(tournament)
    assert tournament.rounds == 3 and [len(t) for t, _ in rounds] == [1, 2, 1]
    assert sorted(len(b) for _, b in rounds) == [0, 0, 3]
    standings = tournament_standings(tournament=tournament)["standings"]
    champion = TournamentTable.objects.get(round__tournament=tournament, round__number=3).advanced
    assert standings[0]["entrant"] == champion[0] and standings[0]["stage"] == 3


def _shuffles(game: Game) -> list[list[str]]:
    rows = Event.objects.filter(game=game, type="shuffle").order_by("seq").values_list("data", flat=True)
    return [row["cards"] for row in rows]


def same_deals(games: list[Game]) -> bool:
    """The first shuffle (the deal) is equal at every table, and so is every later n-th shuffle of the same
    cards (a recycle covers whatever cards that table's play left, so only equal sets can match)."""
    deals = [_shuffles(game) for game in games]
    if not deals[0] or any(deal[0] != deals[0][0] for deal in deals):
        return False
    for one, other in itertools.combinations(deals, 2):
        for a, b in zip(one, other, strict=False):
            if sorted(a) == sorted(b) and a != b:
                return False
    return True


def test_duplicate_tables_play_the_same_deals_sealed_until_the_round_ends(ann, queued):
    tournament = bot_tournament("duplicate", 4)
    assert tournament.rounds == 2
    first, second = round_games(tournament, 1)
    assert first.sealed and second.sealed and first.seed == second.seed
    play_out(first.id)
    # table 1 is over but table 2 still plays the same deal: table 1 shows nothing to anyone not seated there
    for path in ("events/", "state/", "replay/", "replay/1/", "export/"):
        sealed = ann.get(f"/api/v1/games/{first.id}/{path}")
        assert sealed.status_code == 403 and sealed.json()["code"] == "game_sealed", path
    assert ann.get(f"/api/v1/games/{first.id}/").json()["result"] is None
    run(tournament, queued)
    for number in (1, 2):
        tables = round_games(tournament, number)
        assert same_deals(tables)
        assert all(not game.sealed for game in tables)
    # seats rotated: over the two rounds every entrant held both hands
    held = Counter((e, seat) for tables, _ in pairings(tournament) for t in tables for seat, e in enumerate(t))
    assert set(held.values()) == {1} and len(held) == 8
    export = ann.get(f"/api/v1/games/{first.id}/export/").json()
    assert export["verification"]["ok"] is True
    shown = ann.get(f"/api/v1/games/{first.id}/events/").json()
    assert "cards" in next(e for e in shown if e["type"] == "shuffle")["data"]


def test_a_cancelled_tournament_pairs_no_more_rounds(queued):
    tournament = bot_tournament("swiss", 4, rounds=3)
    services.tournament_cancel(tournament_id=tournament.id, by=None)
    for game in round_games(tournament, 1):
        play_out(game.id)
    services.tournament_advance(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.status == "cancelled" and tournament.current_round == 1
    assert Round.objects.get(tournament=tournament, number=1).finished_at is not None


def test_player_games_are_rated_once_and_show_on_the_leaderboard(ann, bob, queued):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="5e" * 32)
    assert game["rated"] is True
    play_randomly({0: ann, 1: bob}, game["id"], random.Random(1))
    assert queued == [("rate", game["id"])]
    assert tasks.rate_game.run(game["id"]) is True
    assert tasks.rate_game.run(game["id"]) is False  # a game is rated once
    assert RatingChange.objects.filter(game_id=game["id"]).count() == 2
    board = ann.get("/api/v1/ratings/spite-and-malice/").json()["results"]
    assert {row["name"] for row in board} == {"ann", "bob"} and all(row["games"] == 1 for row in board)
    assert board[0]["rating"] >= board[1]["rating"]
    result = Game.objects.get(pk=game["id"]).result
    if result["winners"]:
        assert board[0]["player"] == [ann.id, bob.id][result["winners"][0]]
        assert board[0]["rating"] > board[1]["rating"]
    history = ann.get(f"/api/v1/players/{ann.id}/ratings/").json()
    assert [h["game"] for h in history["history"]] == [game["id"]]
    assert history["ratings"][0]["kind"] == "spite-and-malice"


def test_games_with_bots_are_unrated(ann, queued):
    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}])
    assert game["rated"] is False
    refused = ann.post("/api/v1/games/", {"kind": "spite-and-malice", "seats": [{"player": ann.id}, {"bot": "random"}],
                                          "rated": True})
    assert refused.status_code == 422 and refused.json()["code"] == "not_ratable"
    unrated = create_game(ann, [{"player": ann.id}, {"player": ann.id}], rated=False)
    assert unrated["rated"] is False


def test_the_cli_runs_a_bot_tournament_and_prints_the_standings():
    out = StringIO()
    call_command("tournament", "spite-and-malice", "--format", "swiss", "--rounds", "2", "--bots",
                 "random,random,random", "--seed", "ab" * 32, stdout=out, stderr=StringIO())
    lines = out.getvalue().splitlines()
    assert lines[1].split() == ["rank", "name", "points", "buchholz", "sonneborn_berger", "played", "wins", "byes"]
    assert sorted(line.split()[1] for line in lines[2:]) == ["random#1", "random#2", "random#3"]
    tournament = Tournament.objects.get()
    assert tournament.status == "finished" and tournament.current_round == 2


@pytest.mark.skipif("muscio" not in registry.kinds(), reason="the Muscio engine is not registered")
@pytest.mark.parametrize("fmt", ["swiss", "round_robin", "duplicate", "knockout"])
def test_multi_seat_tournament_end_to_end(fmt, queued):
    extra = {"rounds": 2} if fmt != "knockout" else {}
    entrants = 9 if fmt in ("swiss", "knockout") else 6  # Swiss: 3 tables, so round 2 can avoid every rematch
    tournament = run(bot_tournament(fmt, entrants, kind="muscio", table_size=3, **extra), queued)
    assert tournament.status == "finished"
    for tables, _ in pairings(tournament):
        assert all(len(t) == 3 for t in tables)
        assert Game.objects.filter(tournament_table__round__tournament=tournament, seat_count=3).exists()
    if fmt == "duplicate":
        assert all(same_deals(round_games(tournament, number)) for number in (1, 2))
    if fmt == "swiss":
        pairs = Counter(frozenset(p) for tables, _ in pairings(tournament) for t in tables
                        for p in itertools.combinations(t, 2))
        assert max(pairs.values()) == 1
    rows = tournament_standings(tournament=tournament)["standings"]
    assert rows[0]["rank"] == 1 and len(rows) == tournament.entrants.count()
