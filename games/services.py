"""Writes: the only code that appends events. Each write is one transaction that checks, decides, moves the
head with an optimistic check (conditional on the version it read) and appends, then queues a bot turn
after commit."""

from __future__ import annotations

import hashlib
import json
import pickle
import re
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from bots.policies import bot_options_reason, unknown_bot_reason
from games import broadcast, notifications, selectors
from games.engine import registry
from games.engine.chance import Chance, check_decks, new_seed, seed_commitment
from games.engine.forfeit import forfeit_result
from games.engine.protocol import Event as EngineEvent
from games.engine.protocol import IllegalAction, InvalidOptions
from games.engine.runner import Position, apply_action, begin
from games.exceptions import BadRequest, Conflict, Forbidden, NotFound, Unprocessable
from games.models import ClockPolicy, Event, Game, IdempotencyRecord, Player, Seat, Snapshot, TournamentTable
from games.notifications import player_notify  # noqa: F401 - the service other features call

MAX_TURN_SECONDS = 7 * 24 * 3600

_NAME = re.compile(r"^[\w][\w .'-]{0,39}$")
_HEX = re.compile(r"^(?:[0-9a-fA-F]{2}){8,64}$")


# -- players -----------------------------------------------------------------------------------------
@transaction.atomic
def player_create(*, name: str) -> tuple[Player, str]:
    name = name.strip()
    if not _NAME.match(name):
        raise BadRequest("invalid_name", "a name has 1 to 40 letters, digits, spaces, dots, dashes or apostrophes")
    if Player.objects.filter(name__iexact=name).exists():
        raise Conflict("name_taken", f"the name {name!r} is taken")
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=f"player:{name.lower()}")
            player = Player.objects.create(user=user, name=name)
    except IntegrityError:
        raise Conflict("name_taken", f"the name {name!r} is taken") from None
    token = Token.objects.create(user=user)
    return player, token.key


# -- games -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatSpec:
    player: Player | None
    bot: str
    bot_options: dict


def _seat_specs(seats: list[dict], kind: str) -> list[SeatSpec]:
    specs: list[SeatSpec] = []
    wanted = [s["player"] for s in seats if "player" in s]
    players = Player.objects.in_bulk(wanted)
    for index, seat in enumerate(seats):
        if "player" in seat:
            player = players.get(seat["player"])
            if player is None:
                raise Unprocessable("unknown_player", f"seats[{index}]: there is no player {seat['player']}")
            specs.append(SeatSpec(player, "", {}))
        else:
            bot = seat["bot"]
            if reason := unknown_bot_reason(bot, kind):
                raise Unprocessable("unknown_bot", f"seats[{index}]: {reason}")
            bot_options = {k: v for k, v in seat.items() if k != "bot"}
            if reason := bot_options_reason(bot, bot_options):
                raise Unprocessable("invalid_bot_options", f"seats[{index}]: {reason}")
            specs.append(SeatSpec(None, bot, bot_options))
    return specs


def _created_event(game: Game, specs: list[SeatSpec]) -> EngineEvent:
    seats = [{"player": s.player.id, "name": s.player.name} if s.player else {"bot": s.bot} for s in specs]
    return EngineEvent("game.created", {"kind": game.kind, "options": game.options, "seats": seats,
                                        "seed_sha256": game.seed_sha256})


def _check_clock(turn_seconds: int | None, clock_policy: str | None) -> str:
    if turn_seconds is None:
        if clock_policy:
            raise BadRequest("invalid_clock", "clock_policy needs turn_seconds")
        return ""
    if isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int) or not 1 <= turn_seconds <= MAX_TURN_SECONDS:
        raise BadRequest("invalid_clock", f"turn_seconds must be an integer from 1 to {MAX_TURN_SECONDS}")
    if clock_policy not in (None, "", *ClockPolicy.values):
        raise BadRequest("invalid_clock", f"clock_policy must be one of {ClockPolicy.values}")
    return clock_policy or ClockPolicy.RANDOM


@transaction.atomic
def game_create(*, creator: Player | None, kind: str, seats: list[dict], options: dict | None = None,
                seed: str | None = None, decks: list | None = None, first_dealer: int | None = None,
                turn_seconds: int | None = None, clock_policy: str | None = None, rated: bool | None = None,
                sealed: bool = False) -> Game:
    """Create a game and record its set-up. `seed`/`decks` fix the deal (tests, duplicate tournaments);
    `turn_seconds` starts a turn clock for player seats, `clock_policy` says what happens when it runs out.
    `rated` (default: every seat a distinct player) updates ratings when it ends; `sealed` keeps its log
    private after the end until `game_unseal` (duplicate tables sharing a deal)."""
    clock_policy = _check_clock(turn_seconds, clock_policy)
    try:
        engine = registry.get(kind)
    except KeyError:
        raise Unprocessable("unknown_kind", f"unknown game kind {kind!r}; known: {registry.kinds()}") from None
    options = dict(options or {})
    if first_dealer is not None:
        if "first_dealer" not in engine.options:
            raise Unprocessable("invalid_options", f"{kind} has no dealer: first_dealer does not apply")
        options["first_dealer"] = first_dealer
    try:
        options = engine.normalize_options(options, len(seats))
        deck_list = check_decks(decks or [], Counter(engine.card_set(len(seats), options)))
    except InvalidOptions as error:
        raise Unprocessable(error.code, error.message) from None
    if seed is not None and not _HEX.match(seed):
        raise BadRequest("invalid_seed", "seed must be hex, 16 to 128 digits, an even number of them")
    seed = (seed or new_seed()).lower()
    specs = _seat_specs(seats, kind)
    rated = _check_rated(rated, specs)

    chance = Chance(seed, deck_list)
    created_position = Position(None, 1, 0)
    position, events = begin(engine, len(specs), options, chance, created_position)
    used = [e for e in events if e.type == "shuffle" and e.data["n"] < len(deck_list)]
    for event in used:
        if event.data["source"] != "decks":
            n = event.data["n"]
            raise Unprocessable("invalid_decks", f"decks[{n}] is not a permutation of the {len(event.data['cards'])} "
                                                 f"cards that shuffle {n} ({event.data['purpose']}) covers")
    game = Game.objects.create(kind=kind, options=options, seat_count=len(specs), seed=seed,
                               seed_sha256=seed_commitment(seed), decks=deck_list, created_by=creator,
                               turn_seconds=turn_seconds, clock_policy=clock_policy, rated=rated, sealed=sealed)
    seats = Seat.objects.bulk_create(
        [Seat(game=game, index=i, player=s.player, bot=s.bot, bot_options=s.bot_options) for i, s in enumerate(specs)]
    )
    _append(game, Position(None, 0, 0), [_created_event(game, specs), *events], position, seats)
    return game


def _check_rated(rated: bool | None, specs: list[SeatSpec]) -> bool:
    players = [s.player.id for s in specs if s.player is not None]
    eligible = len(players) == len(specs) and len(set(players)) == len(players)
    if rated and not eligible:
        raise Unprocessable("not_ratable", "only a game whose seats are all different players can be rated")
    return eligible if rated is None else rated


def game_unseal(*, game_ids: list) -> None:
    """Make the logs of these (finished) sealed games public like any finished game's."""
    Game.objects.filter(pk__in=game_ids, sealed=True).update(sealed=False)


def game_apply_action(*, game_id: Any, player: Player, action: Any, expected_version: int | None = None,
                      seat: int | None = None) -> tuple[Game, list[dict]]:
    """Play `action` for the caller's seat; returns the game and the new events as the caller sees them."""
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise NotFound("not_found", "no such game")
        seats = selectors.seats_of(game=game)
        mine = [s.index for s in seats if s.player_id == player.id]
        if not mine:
            raise Forbidden("not_seated", "you hold no seat in this game")
        if seat is not None and seat not in mine:
            raise Forbidden("not_your_seat", f"seat {seat} is not yours")
        if game.status != Game.Status.ACTIVE:
            raise Conflict("game_finished", "the game is over", version=game.version)
        if expected_version is not None and expected_version != game.version:
            raise Conflict("stale_version", f"the game is at version {game.version}, not {expected_version}",
                           version=game.version)
        position = selectors.game_position(game=game)
        if seat is None:
            to_act = selectors.engine_for(game).to_act(position.state)
            seat = next((s for s in mine if s in to_act), mine[0])
        events = _play(game, position, seat, action, seats)
        viewer = seat
    return game, selectors.redact_new_events(game=game, first_seq=position.version + 1, events=events, viewer=viewer)


def game_apply_seat_action(*, game: Game, seat: int, action: Any, expected_version: int,
                           seats: list[Seat] | None = None) -> list[EngineEvent]:
    """Play for a seat without a player check (bots, clocks). Raises Conflict if the game moved on.

    `game` as the caller read it at `expected_version`, and `seats` (which change only with the version),
    are not read again: the head update, conditional on that version, refuses a game that moved on since."""
    if game.status != Game.Status.ACTIVE or game.version != expected_version:
        raise Conflict("stale_version", "the game moved on", version=game.version)
    with transaction.atomic():
        return _play(game, selectors.game_position(game=game), seat, action, seats or selectors.seats_of(game=game))


def game_forfeit(*, game: Game, seat: int, expected_version: int, reason: str = "clock") -> None:
    """End the game with `seat` forfeiting (`game.forfeited` then `game.finished`, which reveals the seed).
    Raises Conflict if the game moved on."""
    with transaction.atomic():
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or game.version != expected_version:
            raise Conflict("stale_version", "the game moved on", version=game.version)
        position = selectors.game_position(game=game)
        forfeited = EngineEvent("game.forfeited", {"seat": seat, "reason": reason})
        after = Position(position.state, position.version + 1, position.shuffles)
        _append(game, position, [forfeited], after, selectors.seats_of(game=game),
                result=forfeit_result(seats=game.seat_count, seat=seat))


def _play(game: Game, position: Position, seat: int, action: Any, seats: list[Seat]) -> list[EngineEvent]:
    engine = selectors.engine_for(game)
    chance = Chance(game.seed, game.decks, position.shuffles)
    try:
        new_position, events = apply_action(engine, position, seat, action, chance)
    except IllegalAction as refused:
        raise Unprocessable(refused.code, refused.message) from None
    _append(game, position, events, new_position, seats)
    return events


def _append(game: Game, before: Position, events: list[EngineEvent], after: Position, seats: list[Seat],
            result: dict | None = None) -> None:
    """Insert the events after `before.version` and move the head; a clash means someone moved first.
    `result` ends the game for a reason outside the rules (a forfeit)."""
    engine = selectors.engine_for(game)
    result = result if result is not None else engine.result(after.state)
    events = list(events)
    if result is not None:
        result = json.loads(json.dumps(result))
        sealed = {"public": {"result": result}, "visible_to": frozenset()} if game.sealed else {}
        events.append(EngineEvent("game.finished", {"result": result, "seed": game.seed, "decks": game.decks},
                                  **sealed))
        after = Position(after.state, after.version + 1, after.shuffles)
    to_act = sorted(engine.to_act(after.state)) if result is None else []
    status = Game.Status.ACTIVE if result is None else Game.Status.FINISHED
    previous_to_act = list(game.to_act)
    rows = [
        Event(game=game, seq=before.version + offset, type=e.type, actor=e.actor, data=e.data, public=e.public,
              visible_to=sorted(e.visible_to) if e.visible_to is not None else None)
        for offset, e in enumerate(events, start=1)
    ]
    try:
        moved = _move_head_and_insert(game, before.version, rows, version=after.version, status=status,
                                      to_act=to_act, result=result)
    except IntegrityError:  # events past the head: cannot happen while every append goes through here
        raise Conflict("version_conflict", "another move was recorded first; reload and retry") from None
    if not moved:
        raise Conflict("version_conflict", "another move was recorded first; reload and retry",
                       version=Game.objects.filter(pk=game.pk).values_list("version", flat=True).first())
    game.version, game.status, game.to_act, game.result = after.version, status, to_act, result
    # Cached once committed: a position that was rolled back must not pass later for another move's.
    transaction.on_commit(partial(selectors.remember_position, game=game, position=after), robust=True)
    if settings.SNAPSHOT_EVERY and after.version // settings.SNAPSHOT_EVERY > before.version // settings.SNAPSHOT_EVERY:
        Snapshot.objects.create(game=game, version=after.version, state_version=engine.state_version,
                                payload=pickle.dumps(after))
    if game.turn_seconds:
        _set_deadlines(game, seats, previous_to_act, to_act, movers={e.actor for e in events if e.actor is not None})
    _after_append(game, result, to_act, seats, previous_to_act=previous_to_act, started=before.version == 0,
                  tail=[selectors.event_row(row) for row in rows])


_MOVE_HEAD_AND_INSERT = """
    WITH head AS (
        UPDATE {game} SET version = %s, status = %s, to_act = %s::jsonb, result = %s::jsonb
        WHERE id = %s AND version = %s AND status = %s
        RETURNING id),
    appended AS (
        INSERT INTO {event} (game_id, seq, type, actor, data, public, visible_to, schema_version, recorded_at)
        SELECT head.id, v.seq, v.type, v.actor, v.data::jsonb, v.public::jsonb, v.visible_to::jsonb, %s, %s
        FROM head CROSS JOIN (VALUES {values}) AS v (seq, type, actor, data, public, visible_to)
        ORDER BY v.seq
        RETURNING seq)
    SELECT (SELECT count(*) FROM head), (SELECT count(*) FROM appended)"""


def _move_head_and_insert(game: Game, expected: int, rows: list[Event], **head: Any) -> bool:
    """Move the head of the active `game` from version `expected` to `head` and insert `rows`; False (nothing
    written) if it is no longer there. The head moves first: its row lock keeps any other writer of the game
    waiting until we commit (it then finds the version moved), so the insert cannot clash and needs no
    savepoint. On PostgreSQL both are one statement, else two."""
    if connection.vendor == "postgresql" and rows:
        return _move_head_and_insert_postgres(game, expected, rows, **head)
    moved = Game.objects.filter(pk=game.pk, version=expected, status=Game.Status.ACTIVE).update(**head)
    if moved:
        Event.objects.bulk_create(rows)
    return bool(moved)


def _move_head_and_insert_postgres(game: Game, expected: int, rows: list[Event], **head: Any) -> bool:
    """`_move_head_and_insert` as one statement: the insert takes its game id from the update's RETURNING, so
    nothing is inserted when the head was not there. Values are encoded as the ORM encodes them."""

    def jsonb(value: Any) -> str | None:
        return None if value is None else json.dumps(value)

    recorded_at = timezone.now()
    params: list[Any] = [head["version"], head["status"], json.dumps(head["to_act"]), jsonb(head["result"]), game.pk,
                         expected, Game.Status.ACTIVE, Event._meta.get_field("schema_version").default, recorded_at]
    for row in rows:
        params += [row.seq, row.type, row.actor, json.dumps(row.data), jsonb(row.public), jsonb(row.visible_to)]
    values = ", ".join(["(%s::integer, %s::varchar, %s::smallint, %s::text, %s::text, %s::text)"] * len(rows))
    sql = _MOVE_HEAD_AND_INSERT.format(game=Game._meta.db_table, event=Event._meta.db_table, values=values)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        moved, _ = cursor.fetchone()
    return bool(moved)


def _after_append(game: Game, result: dict | None, to_act: list[int], seats: list[Seat], *,
                  previous_to_act: list[int] | None = None, started: bool = False,
                  tail: list[list] | None = None) -> None:
    """What a new head sets in motion once it commits, in the order the hooks run: the next bot turn (first:
    it is on the critical path of a bot's reply; it carries `tail`, the rows just appended, so that a worker
    holding the position before them need not read them back), the wake-up of the game's live streams, the
    players' notifications, the rating and tournament tasks, the turn clock."""
    if result is None and any(seat.bot and seat.index in to_act for seat in seats):
        _queue_bot_turn(game, tail)
    transaction.on_commit(partial(broadcast.publish, broadcast.game_channel(game.id), game.version), robust=True)
    _notify_seats(game, result, to_act, seats, previous_to_act or [], started)
    if result is not None:
        _queue_game_finished(game)
    if result is None and game.turn_seconds:
        _queue_turn_expiry(game, seats)


def _queue_game_finished(game: Game) -> None:
    """A finished game may be rated and may end a tournament round: idempotent tasks, queued on commit."""
    from games.tournaments.tasks import advance_tournament, rate_game

    if game.rated:
        rate_game.delay_on_commit(str(game.id))
    tournament_id = (TournamentTable.objects.filter(game=game)
                     .values_list("round__tournament_id", flat=True).first())
    if tournament_id is not None:
        advance_tournament.delay_on_commit(str(tournament_id))


def _set_deadlines(game: Game, seats: list[Seat], previous_to_act: list[int], to_act: list[int],
                   movers: set[int]) -> None:
    """A player seat to act gets `turn_seconds` from this head, unless it was already to act and did not
    move now (another seat's move in a simultaneous phase does not reset its clock)."""
    fresh = timezone.now() + timedelta(seconds=game.turn_seconds)
    changed = []
    for seat in seats:
        if seat.bot or seat.index not in to_act:
            deadline = None
        elif seat.index in previous_to_act and seat.index not in movers and seat.deadline is not None:
            deadline = seat.deadline
        else:
            deadline = fresh
        if deadline != seat.deadline:
            seat.deadline = deadline
            changed.append(seat)
    if changed:
        Seat.objects.bulk_update(changed, ["deadline"])


def _notify_seats(game: Game, result: dict | None, to_act: list[int], seats: list[Seat],
                  previous_to_act: list[int], started: bool) -> None:
    """game_started, your_turn (a seat that becomes one to act) and game_finished, to the seats' players."""
    items = []
    for seat in seats:
        if seat.player_id is None:
            continue
        about = {"game": str(game.id), "kind": game.kind, "seat": seat.index, "version": game.version}
        if started:
            items.append((seat.player_id, notifications.GAME_STARTED, about))
        if result is not None:
            items.append((seat.player_id, notifications.GAME_FINISHED, {**about, "result": result}))
        elif seat.index in to_act and seat.index not in previous_to_act:
            deadline = seat.deadline.isoformat() if seat.deadline else None
            items.append((seat.player_id, notifications.YOUR_TURN, {**about, "deadline": deadline}))
    notifications.notify_each(items)


def _queue_turn_expiry(game: Game, seats: list[Seat]) -> None:
    from games.tasks import queue_turn_expiry

    deadlines = [seat.deadline for seat in seats if seat.deadline is not None]
    if deadlines:
        queue_turn_expiry(game_id=str(game.id), version=game.version, eta=min(deadlines))


def _queue_bot_turn(game: Game, tail: list[list] | None = None) -> None:
    from bots.tasks import play_bot_turn

    play_bot_turn.delay_on_commit(str(game.id), game.version, tail)


# -- idempotency -------------------------------------------------------------------------------------
def request_fingerprint(*, method: str, path: str, body: Any) -> str:
    return hashlib.sha256(json.dumps([method, path, body], sort_keys=True, default=str).encode()).hexdigest()


def idempotency_lock(*, player: Player, key: str) -> None:
    """Hold the (player, key) pair until the caller's transaction ends, before looking it up: a retry sent while
    the first request still runs waits for it to commit, then finds and replays its record. PostgreSQL: a
    transaction-level advisory lock on a 64-bit hash of the pair (a collision only makes two requests wait for
    each other). SQLite needs none: its transactions begin IMMEDIATE, one writer at a time."""
    if not connection.in_atomic_block:
        raise RuntimeError("idempotency_lock must be taken inside a transaction")
    if connection.vendor != "postgresql":
        return
    digest = hashlib.blake2b(f"idempotency:{player.pk}:{key}".encode(), digest_size=8).digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest, "big", signed=True)])


def idempotency_lookup(*, player: Player, key: str, fingerprint: str) -> IdempotencyRecord | None:
    record = IdempotencyRecord.objects.filter(player=player, key=key).first()
    if record is not None and record.fingerprint != fingerprint:
        raise Unprocessable("idempotency_key_reused", "this Idempotency-Key was used for a different request")
    return record


def idempotency_record(*, player: Player, key: str, fingerprint: str, status_code: int, body: Any) -> None:
    IdempotencyRecord.objects.create(player=player, key=key, fingerprint=fingerprint, status_code=status_code,
                                     body=json.loads(json.dumps(body, default=str)))
