"""Noninterference: what a viewer can read does not depend on cards hidden from it.

For every kind and every viewer (each seat, and a spectator), game A is played some random legal moves through
the players' own clients; then game B, whose deal differs only by two card faces the viewer never read, replays
the same moves. Everything the viewer can read of the two games (summary, state, log, long poll, stream, replay,
export, game lists, its own moves' answers, and the errors to illegal actions naming the two cards) must be equal
up to ids and times. How twins are built and checked: `tests/integration/noninterference.py`.
"""

from __future__ import annotations

import hashlib
import random

import pytest
from django.utils import timezone

from games.engine import registry
from games.engine.protocol import IllegalAction
from games.models import Game
from tests.integration import noninterference as ni
from tournaments import services as tournament_services
from tournaments.models import Round, Tournament, TournamentTable

pytestmark = pytest.mark.django_db

SEATS = {"spite-and-malice": 2, "diavoletto": 2, "tarocchi-mineo": 4, "machiavelli": 2, "muscio": 3}
CASES = [(kind, viewer) for kind, seats in SEATS.items() for viewer in [*range(seats), None]]
ATTEMPTS = 3  # seeds tried before giving up on finding twins
PAIRS = 200  # candidate pairs of hidden cards tried per seed (a pure simulation each)


def _seed(*parts) -> str:
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()


def _twin(kind: str, seats: int, options: dict, seed: str, plan: ni.Course, seen: set[str],
          rng: random.Random, others: tuple = ()) -> tuple[str, str, list[list[str]]] | None:
    """Two faces never read whose exchange leaves the game's course (and the courses in `others`, of tables
    dealt the same) unchanged up to the exchange, with B's decks; None if no candidate pair does."""
    for x, y in ni.twin_pairs(plan.shuffles, seen, rng)[:PAIRS]:
        decks = ni.relabel(plan.shuffles, x, y)
        try:
            courses = [(plan, ni.simulate(kind, seats, options, seed, decks, actions=plan.actions))]
            courses += [(course, ni.simulate(kind, seats, options, seed, decks, actions=course.actions))
                        for course in others]
        except IllegalAction:  # some seat's legal moves depend on the two cards: not a twin
            continue
        if all(ni.same_course(a, b, x, y) for a, b in courses):
            return x, y, decks
    return None


def check_twins(kind: str, viewer: int | None, make_player, salt: str = "", moves: tuple[int, int] = (20, 40)) -> None:
    """Play twins for `viewer` and compare its reads (seeds derive from kind, viewer, `salt` and the attempt)."""
    seats = SEATS[kind]
    players = [make_player() for _ in range(seats)]
    spectator = make_player()
    reader = players[viewer] if viewer is not None else spectator
    clients = {seat: p.client for seat, p in enumerate(players)}
    listed = [p.id for p in players]
    for attempt in range(ATTEMPTS):
        seed = _seed(kind, viewer, salt, attempt)
        rng = random.Random(seed)
        found = ni.simulate(kind, seats, {}, seed, [], moves=rng.randint(*moves), rng=rng, until_seat=viewer,
                            extra=30)
        plan = ni.simulate(kind, seats, {}, seed, found.shuffles, actions=found.actions)  # every deck given
        a = ni.Table(str(ni.create(kind, players, {}, seed, plan.shuffles).id), clients)
        ni.play(a, plan.actions)
        assert ni.canonical(ni.true_log(a.game_id)) == ni.canonical(plan.log), "the API played another game"
        seen_a = ni.observe(reader.client, reader.token, a.game_id, listed)
        assert seen_a["summary"][1]["status"] == "active"
        seen = ni.strings([seen_a, a.posted.get(viewer)])
        twin = _twin(kind, seats, {}, seed, plan, seen, rng)
        if twin is None:
            continue
        x, y, decks = twin
        b = ni.Table(str(ni.create(kind, players, {}, seed, decks).id), clients)
        ni.play(b, plan.actions)
        assert ni.true_log(b.game_id) != ni.true_log(a.game_id)
        seen_b = ni.observe(reader.client, reader.token, b.game_id, listed)
        if viewer is not None:
            templates = seen_a["state"][1]["legal_actions"]
            probes = ni.probes(kind, templates, (x, y), table=seen_a["state"][1]["view"].get("table"))
            assert probes
            seen_a["probes"] = ni.post_probes(reader.client, a.game_id, viewer, probes)
            seen_b["probes"] = ni.post_probes(reader.client, b.game_id, viewer, probes)
        seen_a["posted"], seen_b["posted"] = a.posted.get(viewer), b.posted.get(viewer)
        left = ni.normalise(seen_a, {a.game_id: "<game>"})
        right = ni.normalise(seen_b, {b.game_id: "<game>"})
        where = ni.differences(left, right)
        assert not where, (f"leak: {kind}, viewer {viewer}: the reads differ when {x} and {y} (never shown to "
                           f"the viewer) are exchanged:\n" + "\n".join(where[:20]))
        return
    pytest.fail(f"no twin deal found for {kind}, viewer {viewer}")


@pytest.mark.parametrize(("kind", "viewer"), CASES, ids=[f"{k}-{'spectator' if v is None else f'seat{v}'}"
                                                          for k, v in CASES])
def test_a_viewer_reads_the_same_of_deals_differing_in_two_cards_hidden_from_it(kind, viewer, make_player):
    check_twins(kind, viewer, make_player)


def test_the_check_catches_a_view_that_depends_on_hidden_cards(make_player, monkeypatch):
    """A view carrying a digest of the whole state names no card, yet tells twins apart."""
    engine = registry.get("muscio")
    view = engine.view

    def leaky(state, viewer):
        return {**view(state, viewer), "digest": hashlib.sha256(repr(state).encode()).hexdigest()}

    monkeypatch.setattr(engine, "view", leaky)
    with pytest.raises(AssertionError, match=r"leak: muscio, viewer 2(.|\n)*digest"):
        check_twins("muscio", 2, make_player)


# -- a duplicate round ------------------------------------------------------------------------------------
# NOTE: this test asserts the sealed-table rule being added on main (a game with `sealed=True` shows nothing to a
# viewer not seated at it: 403 `game_sealed` on /state/, /events/, /stream/, /replay/, /replay/{n}/, /export/, and a
# null `result` in its summary). It fails on a branch without that change; it is neither skipped nor xfailed on
# purpose.
DUPLICATE_KIND = "spite-and-malice"
DUPLICATE_OPTIONS = {"max_turns": 10}  # table 2 plays to its end while table 1 still runs
SEALED_ENDPOINTS = ("state/", "events/?after=0", "events/?after=0&wait=1", "replay/", "replay/1/", "export/")


def _duplicate_round(players: list, seed: str, decks: list[list[str]]) -> tuple[Tournament, list[str]]:
    """A running duplicate tournament whose round 1 has two tables dealt alike: players 0-1 at table 1, 2-3 at
    table 2 (built by hand, so that the deal can be given)."""
    tournament = tournament_services.tournament_create(organiser=None, kind=DUPLICATE_KIND, format="duplicate",
                                                       options=DUPLICATE_OPTIONS)
    for player in players:
        tournament_services.tournament_register(tournament_id=tournament.id, by=player.model)
    entrants = list(tournament.entrants.order_by("number").values_list("id", flat=True))
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING, rounds=2, current_round=1,
                                                       started_at=timezone.now())
    round_ = Round.objects.create(tournament=tournament, number=1)
    games = []
    for number, seats in enumerate(((0, 1), (2, 3)), start=1):
        game = ni.create(DUPLICATE_KIND, [players[s] for s in seats], DUPLICATE_OPTIONS, seed, decks, sealed=True)
        TournamentTable.objects.create(round=round_, number=number, entrants=[entrants[s] for s in seats], game=game)
        games.append(str(game.id))
    return tournament, games


def _tournament_reads(client, tournament_id) -> dict:
    base = f"{ni.API}/tournaments/{tournament_id}"
    return {name: ni.answer(client.get(f"{base}/{path}")) for name, path in
            (("detail", ""), ("rounds", "rounds/"), ("standings", "standings/"))}


def _assert_sealed(client, token, game_id: str, listed: list[int]) -> None:
    for path in SEALED_ENDPOINTS:
        status, body = ni.answer(client.get(f"{ni.API}/games/{game_id}/{path}"))
        assert (status, body.get("code")) == (403, "game_sealed"), (path, status, body)
    stream = ni.read_stream(game_id, token, 1)
    assert (stream[0]["status"], stream[0].get("body", {}).get("code")) == (403, "game_sealed"), ("stream/", stream)
    assert client.get(f"{ni.API}/games/{game_id}/").json()["result"] is None
    for player in listed:
        for entry in client.get(f"{ni.API}/games/", {"player": player}).json()["results"]:
            if entry["id"] == game_id:
                assert entry["result"] is None


def test_a_duplicate_round_shows_a_table_nothing_of_the_other_and_hides_cards(make_player):
    players = [make_player() for _ in range(4)]
    spectator = make_player()
    viewer = players[0]  # seat 0 of table 1
    clients = {seat: p.client for seat, p in enumerate(players)}
    listed = [p.id for p in players]
    seed = _seed("duplicate")
    rng = random.Random(seed)
    deal = ni.simulate(DUPLICATE_KIND, 2, DUPLICATE_OPTIONS, seed, [], actions=[]).shuffles
    first = ni.simulate(DUPLICATE_KIND, 2, DUPLICATE_OPTIONS, seed, deal, moves=rng.randint(10, 20), rng=rng,
                        until_seat=0, extra=10)
    second = ni.simulate(DUPLICATE_KIND, 2, DUPLICATE_OPTIONS, seed, deal, rng=rng, finish=True)
    assert not first.finished and second.finished

    def world(decks: list[list[str]]) -> tuple[Tournament, list[str], dict]:
        tournament, (one, two) = _duplicate_round(players, seed, decks)
        ni.play(ni.Table(one, clients), first.actions)
        ni.play(ni.Table(two, {0: clients[2], 1: clients[3]}), second.actions)
        seen = {"table1": ni.observe(viewer.client, viewer.token, one, listed),
                "table2": ni.observe(viewer.client, viewer.token, two, listed),
                "tournament": _tournament_reads(viewer.client, tournament.id)}
        return tournament, [one, two], seen

    tournament_a, games_a, seen_a = world(deal)
    assert Game.objects.get(pk=games_a[1]).status == Game.Status.FINISHED
    _assert_sealed(viewer.client, viewer.token, games_a[1], listed)
    for game_id in games_a:
        _assert_sealed(spectator.client, spectator.token, game_id, listed)

    plan = ni.Course(first.actions, first.log, deal, first.finished)
    twin = _twin(DUPLICATE_KIND, 2, DUPLICATE_OPTIONS, seed, plan, ni.strings(seen_a), rng, others=(second,))
    assert twin is not None, "no twin deal found"
    x, y, decks = twin
    tournament_b, games_b, seen_b = world(decks)

    def names(tournament, games) -> tuple[dict, dict]:
        entrants = tournament.entrants.order_by("number").values_list("id", flat=True)
        return ({str(tournament.id): "<tournament>", games[0]: "<table1>", games[1]: "<table2>"},
                {e: f"<entrant{n}>" for n, e in enumerate(entrants)})

    left = ni.normalise(seen_a, *names(tournament_a, games_a))
    right = ni.normalise(seen_b, *names(tournament_b, games_b))
    where = ni.differences(left, right)
    assert not where, (f"leak: a duplicate round, viewer at table 1 seat 0: the reads differ when {x} and {y} "
                       f"(never shown to the viewer) are exchanged:\n" + "\n".join(where[:20]))
    # The tournament's own pages tell no more of a sealed table than its summary does (its result is its places).
    rounds = seen_a["tournament"]["rounds"][1]
    assert all(seat["place"] is None for table in rounds[0]["tables"] for seat in table["seats"]), (
        "/rounds/ shows a sealed table's places (its result) while its round runs")
    standings = seen_a["tournament"]["standings"][1]["standings"]
    assert all(row["played"] == 0 and row["points"] == 0 for row in standings), (
        "/standings/ counts a sealed table's result while its round runs")
