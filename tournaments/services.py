"""Writes for tournaments and ratings.

A tournament runs by itself: `tournament_start` pairs round one and creates its games; when the last game
of a round ends, `tournament_advance` (called by an idempotent task queued on commit) closes the round and
pairs the next one, until the last round ends. Bot seats are played by the bot task like in any game.
Only the organiser may change a tournament.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from bots.policies import unknown_bot_reason
from games import notifications, services
from games.engine import registry
from games.engine.chance import new_seed
from games.engine.protocol import InvalidOptions
from games.exceptions import BadRequest, Conflict, Forbidden, NotFound, Unprocessable
from games.models import Game, Player
from tournaments import pairing, ratings, selectors, standings
from tournaments.models import Entrant, Rating, RatingChange, Round, Tournament, TournamentTable
from tournaments.results import places

MAX_ENTRANTS = 256
MAX_ROUNDS = 64
MAX_TURN_SECONDS = 7 * 24 * 3600
ROUND_PAIRED = "tournament_round_paired"
_HEX = re.compile(r"^(?:[0-9a-fA-F]{2}){8,64}$")
Format = Tournament.Format


# -- organising ----------------------------------------------------------------------------------------
@transaction.atomic
def tournament_create(*, organiser: Player | None, kind: str, format: str, name: str | None = None,
                      rounds: int | None = None, options: dict | None = None, table_size: int | None = None,
                      turn_seconds: int | None = None, seed: str | None = None) -> Tournament:
    """A tournament open for registration. `rounds` defaults to what the format needs (see `_rounds_for`)."""
    try:
        engine = registry.get(kind)
    except KeyError:
        raise Unprocessable("unknown_kind", f"unknown game kind {kind!r}; known: {registry.kinds()}") from None
    if format not in Format.values:
        raise BadRequest("invalid_format", f"format must be one of {Format.values}")
    table_size = engine.seats.start if table_size is None else table_size
    if table_size not in engine.seats:
        raise Unprocessable("invalid_table_size",
                            f"{kind} is played by {engine.seats.start} to {engine.seats.stop - 1} players")
    try:
        engine.normalize_options(options or {}, table_size)
    except InvalidOptions as error:
        raise Unprocessable(error.code, error.message) from None
    if rounds is not None:
        if format == Format.KNOCKOUT:
            raise Unprocessable("invalid_rounds", "a knockout's rounds follow from the number of entrants")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise BadRequest("invalid_rounds", f"rounds must be an integer from 1 to {MAX_ROUNDS}")
    if turn_seconds is not None and (isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int)
                                     or not 1 <= turn_seconds <= MAX_TURN_SECONDS):
        raise BadRequest("invalid_clock", f"turn_seconds must be an integer from 1 to {MAX_TURN_SECONDS}")
    if seed is not None and not _HEX.match(seed):
        raise BadRequest("invalid_seed", "seed must be hex, 16 to 128 digits, an even number of them")
    name = (name or f"{engine.title} {format.replace('_', ' ')}").strip()[:80]
    return Tournament.objects.create(name=name, kind=kind, format=format, options=dict(options or {}),
                                     table_size=table_size, rounds=rounds, turn_seconds=turn_seconds,
                                     seed=(seed or new_seed()).lower(), seed_chosen=seed is not None,
                                     organiser=organiser)


def _locked(tournament_id: Any) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound("not_found", "no such tournament")
    return tournament


def _check_organiser(tournament: Tournament, by: Player | None) -> None:
    if tournament.organiser_id != (by.id if by is not None else None):
        raise Forbidden("not_organiser", "only the tournament's organiser may do this")


@transaction.atomic
def tournament_register(*, tournament_id: Any, by: Player | None, bot: str | None = None) -> Entrant:
    """Register the caller, or (organiser only) a bot entrant, while the tournament takes entries."""
    tournament = _locked(tournament_id)
    if bot is not None:
        _check_organiser(tournament, by)
        if reason := unknown_bot_reason(bot, tournament.kind):
            raise Unprocessable("unknown_bot", reason)
    elif by is None:
        raise Forbidden("not_authenticated", "register with your player's token")
    if tournament.status != Tournament.Status.REGISTERING:
        raise Conflict("registration_closed", f"the tournament is {tournament.status}")
    count = tournament.entrants.count()
    if count >= MAX_ENTRANTS:
        raise Conflict("tournament_full", f"a tournament takes at most {MAX_ENTRANTS} entrants")
    if bot is None and tournament.seed_chosen:
        raise Conflict("seeded_tournament", "the organiser chose this tournament's seed, so only bots may enter "
                                            "(a chosen seed would tell the organiser every deal)")
    if bot is None and tournament.entrants.filter(player=by).exists():
        raise Conflict("already_registered", "you are registered already")
    number = (tournament.entrants.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    try:
        with transaction.atomic():
            return Entrant.objects.create(tournament=tournament, number=number, player=None if bot else by,
                                          bot=bot or "")
    except IntegrityError:
        raise Conflict("already_registered", "you are registered already") from None


@transaction.atomic
def tournament_start(*, tournament_id: Any, by: Player | None) -> Tournament:
    """Close registration, settle the number of rounds and pair round one (its games start now)."""
    tournament = _locked(tournament_id)
    _check_organiser(tournament, by)
    if tournament.status != Tournament.Status.REGISTERING:
        raise Conflict("not_registering", f"the tournament is {tournament.status}")
    entrants = tournament.entrants.count()
    if tournament.seed_chosen and tournament.entrants.filter(player__isnull=False).exists():
        raise Conflict("seeded_tournament", "a tournament with a chosen seed is for bots only")
    needed = minimum_entrants(tournament)
    if entrants < needed:
        raise Unprocessable("too_few_entrants", f"this tournament needs at least {needed} entrants, it has {entrants}")
    tournament.rounds = _rounds_for(tournament, entrants)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["rounds", "status", "started_at"])
    _pair_round(tournament, 1)
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament_id: Any, by: Player | None) -> Tournament:
    """Stop the tournament: no further round is paired (games already running are played out)."""
    tournament = _locked(tournament_id)
    _check_organiser(tournament, by)
    if tournament.status not in (Tournament.Status.REGISTERING, Tournament.Status.RUNNING):
        raise Conflict("tournament_over", f"the tournament is {tournament.status}")
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    return tournament


def minimum_entrants(tournament: Tournament) -> int:
    """Two full tables for duplicate (its results compare tables), one full table otherwise."""
    return 2 * tournament.table_size if tournament.format == Format.DUPLICATE else max(2, tournament.table_size)


def _rounds_for(tournament: Tournament, entrants: int) -> int:
    engine = registry.get(tournament.kind)
    if tournament.format == Format.KNOCKOUT:
        return pairing.knockout_rounds(entrants, tournament.table_size, engine.seats)
    if tournament.rounds is not None:
        return tournament.rounds
    if tournament.format == Format.ROUND_ROBIN:
        return pairing.round_robin_rounds(entrants, tournament.table_size)
    if tournament.format == Format.DUPLICATE:
        return tournament.table_size  # everybody holds every hand once
    return max(1, math.ceil(math.log2(entrants)))


# -- running -----------------------------------------------------------------------------------------
def tournament_advance(*, tournament_id: Any) -> bool:
    """Close the current round once its last game is over, then pair the next one or finish.

    Idempotent: it locks the tournament row, and does nothing while a game of the round is running or once
    the next round is paired. Returns True when it changed something."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.current_round == 0:
            return False
        round_ = Round.objects.filter(tournament=tournament, number=tournament.current_round).first()
        tables = list(round_.tables.select_related("game").order_by("number"))
        if any(t.game is not None and t.game.status == Game.Status.ACTIVE for t in tables):
            return False
        changed = False
        if round_.finished_at is None:
            _close_round(tournament, round_, tables)
            changed = True
        if tournament.status != Tournament.Status.RUNNING:
            return changed
        if tournament.current_round >= tournament.rounds or _knockout_won(tournament, tables):
            tournament.status = Tournament.Status.FINISHED
            tournament.finished_at = timezone.now()
            tournament.save(update_fields=["status", "finished_at"])
            return True
        _pair_round(tournament, tournament.current_round + 1)
        return True


def _close_round(tournament: Tournament, round_: Round, tables: list[TournamentTable]) -> None:
    """Record who goes through (knockout) and open the round's sealed logs."""
    if tournament.format == Format.KNOCKOUT:
        for table in tables:
            if table.game is None:
                table.advanced = list(table.entrants)
            else:
                ranks = places(table.game.result, len(table.entrants)).ranks if table.game.result else None
                rng = random.Random(_derive(tournament.seed, f"round:{round_.number}:table:{table.number}:lot"))
                table.advanced = pairing.advancers(table.entrants, ranks, round_.advance, rng)
        TournamentTable.objects.bulk_update(tables, ["advanced"])
    services.game_unseal(game_ids=[t.game_id for t in tables if t.game_id is not None])
    round_.finished_at = timezone.now()
    round_.save(update_fields=["finished_at"])


def _knockout_won(tournament: Tournament, tables: list[TournamentTable]) -> bool:
    if tournament.format != Format.KNOCKOUT:
        return False
    return sum(len(t.advanced) for t in tables) <= 1


def _derive(seed: str, label: str) -> str:
    """A game seed derived from the tournament's secret seed (hex, 64 digits)."""
    return hashlib.sha256(f"{seed}:{label}".encode()).hexdigest()


def _next_pairing(tournament: Tournament, number: int, entrants: list[int]) -> tuple[pairing.Pairing, int]:
    """The pairing of round `number` and how many advance per table (knockout)."""
    engine = registry.get(tournament.kind)
    size, fmt = tournament.table_size, tournament.format
    history = pairing.History.of(selectors.past_pairings(tournament=tournament))
    if fmt == Format.KNOCKOUT:
        if number > 1:
            previous = TournamentTable.objects.filter(round__tournament=tournament, round__number=number - 1)
            alive = [e for t in previous.order_by("number") for e in t.advanced]
            entrants = sorted(alive, key=entrants.index)
        if size == 2:
            if number == 1:
                return pairing.knockout_first_round(entrants), 1
            everyone = list(tournament.entrants.order_by("number").values_list("id", flat=True))
            return pairing.knockout_pairs(entrants, everyone, history), 1
        return pairing.knockout_tables(entrants, size, engine.seats, history)
    if fmt == Format.ROUND_ROBIN and size == 2:
        return pairing.round_robin_pairs(entrants, number - 1), 1
    if fmt == Format.SWISS:
        rows = standings.compute(fmt, entrants, selectors.played_rounds(tournament=tournament))
        order = [row.entrant for row in rows]
        if size == 2:
            return pairing.swiss_pairs(order, {row.entrant: float(row.points) for row in rows}, history), 1
        sizes = pairing.table_sizes(len(order), size, engine.seats.start)
        byes = pairing.pick_byes(order, len(order) - sum(sizes), history)
        rest = [e for e in order if e not in byes]
        return pairing.Pairing(pairing.swiss_tables(rest, sizes, history), byes), 1
    # round robin (3+ seats) and duplicate: balanced draws; who sits out rotates with the round
    if fmt == Format.DUPLICATE:
        sizes = [size] * (len(entrants) // size)
    else:
        sizes = pairing.table_sizes(len(entrants), size, engine.seats.start)
    shift = (number - 1) % len(entrants)
    rotated = entrants[shift:] + entrants[:shift]
    byes = pairing.pick_byes(rotated, len(entrants) - sum(sizes), history)
    rest = [e for e in entrants if e not in byes]
    tables = pairing.balanced_draw(rest, sizes, history, turn=number, hands_first=fmt == Format.DUPLICATE)
    return pairing.Pairing(tables, byes), 1


def _pair_round(tournament: Tournament, number: int) -> Round:
    """Create round `number`: its tables, their games (bots start playing on commit) and the byes."""
    entrants = {e.id: e for e in selectors.entrants_of(tournament=tournament)}
    drawn, advance = _next_pairing(tournament, number, list(entrants))
    round_ = Round.objects.create(tournament=tournament, number=number, advance=advance)
    duplicate = tournament.format == Format.DUPLICATE
    notices = []
    for index, table in enumerate(drawn.tables, start=1):
        label = f"round:{number}" if duplicate else f"round:{number}:table:{index}"
        game = services.game_open(  # the entrants consented by registering
            creator=tournament.organiser, kind=tournament.kind, seats=[entrants[e].seat_spec() for e in table],
            options=tournament.options, seed=_derive(tournament.seed, label), turn_seconds=tournament.turn_seconds,
            sealed=duplicate)
        TournamentTable.objects.create(round=round_, number=index, entrants=list(table), game=game)
        for seat, e in enumerate(table):
            if entrants[e].player_id:
                notices.append((entrants[e].player_id, ROUND_PAIRED, {
                    "tournament": str(tournament.id), "round": number, "game": str(game.id), "seat": seat}))
    for offset, e in enumerate(drawn.byes, start=len(drawn.tables) + 1):
        TournamentTable.objects.create(round=round_, number=offset, entrants=[e], game=None)
        if entrants[e].player_id:
            notices.append((entrants[e].player_id, ROUND_PAIRED,
                            {"tournament": str(tournament.id), "round": number, "game": None, "bye": True}))
    notifications.notify_each(notices)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    return round_


# -- ratings -----------------------------------------------------------------------------------------
def rating_record_game(*, game_id: Any) -> bool:
    """Update the ratings of a finished rated game's players. Idempotent: a game is rated once."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or not game.rated or game.status != Game.Status.FINISHED or not game.result:
            return False
        if RatingChange.objects.filter(game=game).exists():
            return False
        seats = list(game.seats.order_by("index").values_list("index", "player_id"))
        players = [player_id for _, player_id in seats]
        if None in players or len(set(players)) != len(players):
            return False
        if game.seats.filter(accepted_at__isnull=True).exists():  # rated only what every player agreed to
            return False
        Rating.objects.bulk_create(
            [Rating(player_id=p, kind=game.kind, mu=ratings.MU, sigma=ratings.SIGMA, ordinal=ratings.Skill().ordinal)
             for p in players], ignore_conflicts=True)
        current = {r.player_id: r for r in Rating.objects.select_for_update().filter(kind=game.kind,
                                                                                      player_id__in=players)
                   .order_by("player_id")}
        ranks = places(game.result, len(players)).ranks
        before = [ratings.Skill(current[p].mu, current[p].sigma) for p in players]
        after = ratings.rate(before, ranks)
        changes = []
        for (seat, p), old, new, rank in zip(seats, before, after, ranks, strict=True):
            rating = current[p]
            rating.mu, rating.sigma, rating.ordinal, rating.games = new.mu, new.sigma, new.ordinal, rating.games + 1
            rating.updated_at = timezone.now()
            changes.append(RatingChange(player_id=p, game=game, kind=game.kind, seat=seat, place=rank,
                                        mu_before=old.mu, sigma_before=old.sigma, mu=new.mu, sigma=new.sigma,
                                        ordinal=new.ordinal))
        Rating.objects.bulk_update(list(current.values()), ["mu", "sigma", "ordinal", "games", "updated_at"])
        RatingChange.objects.bulk_create(changes)
        return True
