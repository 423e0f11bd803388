"""Reads for tournaments and ratings: rounds, standings (computed from the games, never stored),
leaderboards and rating histories."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games.engine import registry
from games.exceptions import NotFound
from games.models import Game, Player
from tournaments import standings
from tournaments.models import Entrant, Rating, RatingChange, Round, Tournament, TournamentTable
from tournaments.pairing import Pairing
from tournaments.results import places

DONE = (Game.Status.FINISHED, Game.Status.ABORTED)


def tournament_get(*, tournament_id: Any) -> Tournament:
    tournament = Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound("not_found", "no such tournament")
    return tournament


def tournament_list(*, status: str | None = None, kind: str | None = None) -> QuerySet[Tournament]:
    tournaments = Tournament.objects.select_related("organiser").order_by("-created_at")
    if status:
        tournaments = tournaments.filter(status=status)
    if kind:
        tournaments = tournaments.filter(kind=kind)
    return tournaments


def entrants_of(*, tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.select_related("player").order_by("number"))


def _tables(tournament: Tournament, upto: int | None = None) -> list[TournamentTable]:
    tables = TournamentTable.objects.filter(round__tournament=tournament).select_related("round", "game")
    if upto is not None:
        tables = tables.filter(round__number__lte=upto)
    return list(tables.order_by("round__number", "number"))


def past_pairings(*, tournament: Tournament) -> list[Pairing]:
    """Every paired round as the pure pairing functions see it (tables in seat order, byes)."""
    rounds: dict[int, Pairing] = {}
    for table in _tables(tournament):
        pairing = rounds.setdefault(table.round.number, Pairing([], []))
        if table.game_id is None:
            pairing.byes.append(table.entrants[0])
        else:
            pairing.tables.append(tuple(table.entrants))
    return [rounds[n] for n in sorted(rounds)]


def played_rounds(*, tournament: Tournament, upto: int | None = None) -> list[standings.RoundPlayed]:
    """The finished tables and byes of each round up to `upto`, as standings count them. A sealed table (a
    duplicate round still running elsewhere) counts once its round is over: its places would tell the other
    tables how the shared deal plays."""
    rounds: dict[int, standings.RoundPlayed] = {}
    for table in _tables(tournament, upto):
        played = rounds.setdefault(table.round.number, standings.RoundPlayed([], []))
        if table.game_id is None:
            played.byes.append(table.entrants[0])
        elif table.game.status in DONE and not table.game.sealed:
            where = places(table.game.result, len(table.entrants))
            played.tables.append(standings.Played(tuple(table.entrants), where.ranks, where.scores, where.direction,
                                                  tuple(table.advanced)))
    return [rounds[n] for n in sorted(rounds)]


def tournament_standings(*, tournament: Tournament, upto: int | None = None) -> dict:
    """Standings after round `upto` (default: everything played so far), each row with the entrant's name."""
    last = tournament.current_round if upto is None else min(upto, tournament.current_round)
    entrants = entrants_of(tournament=tournament)
    rows = standings.compute(tournament.format, [e.id for e in entrants], played_rounds(tournament=tournament,
                                                                                      upto=last))
    by_id = {e.id: e for e in entrants}
    out = []
    for row in rows:
        entrant = by_id[row.entrant]
        out.append({**row.as_dict(), "number": entrant.number, "name": entrant.name, "player": entrant.player_id,
                    "bot": entrant.bot or None})
    final = tournament.status == Tournament.Status.FINISHED and last == tournament.current_round
    return {"tournament": str(tournament.id), "format": tournament.format, "round": last, "final": final,
            "standings": out}


def tournament_rounds(*, tournament: Tournament) -> list[dict]:
    """Each round's tables: the entrants in seat order, the game, its status and the places (a sealed table's
    once its round is over)."""
    names = {e.id: e.name for e in entrants_of(tournament=tournament)}
    rounds: dict[int, dict] = {}
    for r in Round.objects.filter(tournament=tournament).order_by("number"):
        rounds[r.number] = {"number": r.number, "finished": r.finished_at is not None, "tables": [], "byes": []}
    for table in _tables(tournament):
        entry = rounds[table.round.number]
        if table.game_id is None:
            entry["byes"].append({"entrant": table.entrants[0], "name": names[table.entrants[0]]})
            continue
        game = table.game
        ranks = places(game.result, len(table.entrants)).ranks if game.status in DONE and not game.sealed else None
        entry["tables"].append({
            "number": table.number, "game": str(game.id), "status": game.status,
            "seats": [{"seat": i, "entrant": e, "name": names[e], "place": ranks[i] if ranks else None}
                      for i, e in enumerate(table.entrants)],
            "advanced": table.advanced,
        })
    return [rounds[n] for n in sorted(rounds)]


# -- ratings -----------------------------------------------------------------------------------------
def rating_leaderboard(*, kind: str) -> QuerySet[Rating]:
    if kind not in registry.kinds():
        raise NotFound("unknown_kind", f"unknown game kind {kind!r}; known: {registry.kinds()}")
    return Rating.objects.filter(kind=kind).select_related("player").order_by("-ordinal", "player__name")


def rating_history(*, player_id: int, kind: str | None = None) -> tuple[Player, list[Rating], QuerySet]:
    """A player's current ratings and every change, newest first."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound("not_found", "no such player")
    ratings = list(Rating.objects.filter(player=player).order_by("kind"))
    changes = RatingChange.objects.filter(player=player).order_by("-created_at", "-id")
    if kind:
        ratings = [r for r in ratings if r.kind == kind]
        changes = changes.filter(kind=kind)
    return player, ratings, changes
