"""`python manage.py tournament <kind> --format swiss --rounds 3 --bots random,random,random,random`:
a bot tournament run in process (no broker needed), with a progress bar, then its final standings."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from bots.policies import POLICIES
from bots.services import bot_play_turn
from games.engine import registry
from games.exceptions import ApplicationError
from games.models import Game
from tournaments import selectors, services
from tournaments.models import Tournament, TournamentTable

TIEBREAKS = {
    "swiss": ["buchholz", "sonneborn_berger"],
    "round_robin": ["sonneborn_berger"],
    "duplicate": ["game_points"],
    "knockout": ["stage"],
}


class Command(BaseCommand):
    help = "Run a bot tournament in process: create it, start it, play every round, print the standings."

    def add_arguments(self, parser):
        parser.add_argument("kind", choices=registry.kinds())
        parser.add_argument("--format", dest="fmt", choices=Tournament.Format.values, default="swiss")
        parser.add_argument("--rounds", type=int, default=None, help="default: what the format needs")
        parser.add_argument("--bots", default="random,random,random,random",
                            help="one bot policy per entrant, comma-separated")
        parser.add_argument("--table-size", type=int, default=None, help="seats per table (default: the fewest)")
        parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                            help="a game option (VALUE read as JSON when it parses)")
        parser.add_argument("--seed", default=None, help="tournament seed (hex) for a reproducible run")

    def handle(self, *args, kind: str, fmt: str, rounds: int | None, bots: str, table_size: int | None,
               option: list[str], seed: str | None, **options):
        names = [b.strip() for b in bots.split(",") if b.strip()]
        unknown = sorted(set(names) - set(POLICIES))
        if unknown:
            raise CommandError(f"unknown bot(s) {unknown}; known: {sorted(POLICIES)}")
        try:
            tournament = services.tournament_create(organiser=None, kind=kind, format=fmt, rounds=rounds,
                                                    options=_options(option), table_size=table_size, seed=seed)
            for name in names:
                services.tournament_register(tournament_id=tournament.id, by=None, bot=name)
            tournament = services.tournament_start(tournament_id=tournament.id, by=None)
        except ApplicationError as error:
            raise CommandError(f"{error.code}: {error.detail}") from None
        moves = games = 0
        with tqdm(total=tournament.rounds, desc=f"{fmt} {kind}", unit="round") as bar:
            while tournament.status == Tournament.Status.RUNNING:
                for game_id in _round_games(tournament):
                    moves += _play_out(game_id)
                    games += 1
                    bar.set_postfix(games=games, moves=moves)
                services.tournament_advance(tournament_id=tournament.id)
                tournament.refresh_from_db()
                bar.update(tournament.current_round - bar.n - (tournament.status == Tournament.Status.RUNNING))
        self._print(tournament)

    def _print(self, tournament: Tournament) -> None:
        body = selectors.tournament_standings(tournament=tournament)
        extra = TIEBREAKS[tournament.format]
        header = ["rank", "name", "points", *extra, "played", "wins", "byes"]
        rows = [[str(row[h]) for h in header] for row in body["standings"]]
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
        self.stdout.write(f"{tournament.name}: {tournament.rounds} rounds, {len(rows)} entrants, "
                          f"seed {tournament.seed}")
        self.stdout.write("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
        for row in rows:
            self.stdout.write("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


def _options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise CommandError(f"--option takes NAME=VALUE, not {pair!r}")
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


def _round_games(tournament: Tournament) -> list:
    return list(TournamentTable.objects.filter(round__tournament=tournament, round__number=tournament.current_round,
                                               game__status=Game.Status.ACTIVE).values_list("game_id", flat=True))


def _play_out(game_id) -> int:
    """Play a bot-only game to its end, one synchronous bot turn at a time."""
    moves = 0
    while True:
        status, version = Game.objects.filter(pk=game_id).values_list("status", "version").get()
        if status != Game.Status.ACTIVE:
            return moves
        if not bot_play_turn(game_id=str(game_id), version=version):
            raise CommandError(f"game {game_id} waits for a player: this command plays bot tournaments only")
        moves += 1
