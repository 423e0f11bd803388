"""Writes: the only code that appends events. Each write is one transaction that checks, decides, moves the
head with an optimistic check (conditional on the version it read) and appends, and publishes "head moved"
(`games.hooks`): the jobs its subscribers (bots, the turn clock, ratings, tournaments) return are recorded
in the same transaction (`games.outbox`) and handed to the broker after commit."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from rest_framework.authtoken.models import Token

from bots.policies import bot_options_reason, unknown_bot_reason
from games import broadcast, hooks, notifications, outbox, selectors
from games.engine import registry, snapshot
from games.engine.chance import Chance, check_decks, new_seed, seed_commitment
from games.engine.forfeit import forfeit_result
from games.engine.protocol import Event as EngineEvent
from games.engine.protocol import IllegalAction, InvalidOptions
from games.engine.runner import Position, apply_action, begin
from games.exceptions import BadRequest, Conflict, Forbidden, NotFound, Unprocessable
from games.models import ClockPolicy, Event, Game, IdempotencyRecord, Player, Seat, Snapshot
from games.notifications import player_notify  # noqa: F401 - the service other features call
from games.rows import game_by_id

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


def _created_event(game: Game, seats: list[Seat]) -> EngineEvent:
    shown = [{"player": s.player.id, "name": s.player.name} if s.player else {"bot": s.bot} for s in seats]
    return EngineEvent("game.created", {"kind": game.kind, "rules_version": game.rules_version,
                                        "options": game.options, "seats": shown, "seed_sha256": game.seed_sha256})


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
def game_create(*, creator: Player, kind: str, seats: list[dict], options: dict | None = None,
                seed: str | None = None, decks: list | None = None, first_dealer: int | None = None,
                turn_seconds: int | None = None, clock_policy: str | None = None,
                rated: bool | None = None) -> Game:
    """A player's new game. The creator may seat themselves and bots directly; every other player seated is
    invited, and nothing is dealt until each has accepted (`game_accept`). A chosen `seed` or `decks` would
    let the creator know the others' cards, so they are refused unless no other person is seated, and such a
    game is never rated."""
    _check_active_game_quota(creator)
    invited = {s["player"] for s in seats if "player" in s and s["player"] != creator.id}
    chosen = seed is not None or bool(decks)
    if chosen and invited:
        raise Unprocessable("seed_not_allowed", "seed and decks may be chosen only for a game in which no other "
                                                "person is seated (yourself and bots); the server draws the seed")
    if chosen and rated:
        raise Unprocessable("not_ratable", "a game with a chosen seed or decks is never rated")
    return game_open(creator=creator, kind=kind, seats=seats, options=options, seed=seed, decks=decks,
                     first_dealer=first_dealer, turn_seconds=turn_seconds, clock_policy=clock_policy,
                     rated=False if chosen else rated, seed_chosen=chosen, invited=invited)


@transaction.atomic
def game_open(*, kind: str, seats: list[dict], creator: Player | None = None, options: dict | None = None,
              seed: str | None = None, decks: list | None = None, first_dealer: int | None = None,
              turn_seconds: int | None = None, clock_policy: str | None = None, rated: bool | None = None,
              sealed: bool = False, seed_chosen: bool = False, invited: set[int] = frozenset()) -> Game:
    """Create a game and, unless some seated player in `invited` must accept first, deal it. For callers
    that already hold every seated person's consent (tournament tables, `game_create`): `seed`/`decks` fix
    the deal, `turn_seconds` starts a turn clock for player seats, `clock_policy` says what happens when it
    runs out. `rated` (default: every seat a distinct player) updates ratings when it ends; `sealed` keeps
    its log from everyone not seated at it until `game_unseal` (duplicate tables sharing a deal)."""
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
    now = timezone.now()
    pending = bool(invited)
    game = Game.objects.create(
        kind=kind, rules_version=engine.rules_version, options=options, seat_count=len(specs), seed=seed,
        seed_sha256=seed_commitment(seed),
        decks=deck_list, created_by=creator, turn_seconds=turn_seconds, clock_policy=clock_policy, rated=rated,
        sealed=sealed, seed_chosen=seed_chosen, status=Game.Status.PENDING if pending else Game.Status.ACTIVE,
        expires_at=now + timedelta(seconds=settings.INVITATION_SECONDS) if pending else None)
    rows = Seat.objects.bulk_create([
        Seat(game=game, index=i, player=s.player, bot=s.bot, bot_options=s.bot_options,
             accepted_at=None if s.player is not None and s.player.id in invited else now)
        for i, s in enumerate(specs)])
    if pending:
        _set_up(game)
        about = {"game": str(game.id), "kind": kind, "by": creator.name if creator else None,
                 "expires_at": game.expires_at.isoformat()}
        notifications.notify_each([(s.player_id, notifications.GAME_INVITATION, {**about, "seat": s.index})
                                   for s in rows if s.accepted_at is None])
        transaction.on_commit(partial(broadcast.publish, broadcast.game_channel(game.id), 0), robust=True)
    else:
        _deal(game, rows)
    return game


def _deal(game: Game, seats: list[Seat]) -> None:
    """Record the set-up (`game.created`, the shuffles and deals): the game begins."""
    position, events = _set_up(game)
    _append(game, Position(None, 0, 0), [_created_event(game, seats), *events], position, seats)


def _set_up(game: Game) -> tuple[Position, list[EngineEvent]]:
    """The game's set-up events from its seed and decks, or a 422 if its options or decks cannot be dealt
    (checked at creation too for a pending game, so that nobody accepts a game that cannot start)."""
    engine = selectors.engine_for(game)
    try:
        position, events = begin(engine, game.seat_count, game.options, Chance(game.seed, game.decks),
                                 Position(None, 1, 0))
    except InvalidOptions as error:
        raise Unprocessable(error.code, error.message) from None
    used = [e for e in events if e.type == "shuffle" and e.data["n"] < len(game.decks)]
    for event in used:
        if event.data["source"] != "decks":
            n = event.data["n"]
            raise Unprocessable("invalid_decks", f"decks[{n}] is not a permutation of the {len(event.data['cards'])} "
                                                 f"cards that shuffle {n} ({event.data['purpose']}) covers")
    return position, events


def _check_active_game_quota(creator: Player) -> None:
    """A player creates a game only while fewer than MAX_ACTIVE_GAMES_PER_PLAYER games are open for them: the
    pending and active games they created, and the active games they play in. Invitations they have not
    accepted do not count, so nobody can fill another player's quota. Their row is locked first, so parallel
    creations are counted one after the other."""
    limit = settings.MAX_ACTIVE_GAMES_PER_PLAYER
    list(Player.objects.select_for_update().filter(pk=creator.pk).values_list("pk"))
    open_statuses = (Game.Status.PENDING, Game.Status.ACTIVE)
    active = (Game.objects.filter(Q(created_by=creator, status__in=open_statuses)
                                  | Q(seats__player=creator, status=Game.Status.ACTIVE)).distinct().count())
    if active >= limit:
        raise Conflict("too_many_active_games", f"you have {active} active games (at most {limit}): finish one "
                                                "before creating another", limit=limit)


def _check_rated(rated: bool | None, specs: list[SeatSpec]) -> bool:
    players = [s.player.id for s in specs if s.player is not None]
    eligible = len(players) == len(specs) and len(set(players)) == len(players)
    if rated and not eligible:
        raise Unprocessable("not_ratable", "only a game whose seats are all different players can be rated")
    return eligible if rated is None else rated


def game_unseal(*, game_ids: list) -> None:
    """Make the logs of these (finished) sealed games public like any finished game's."""
    Game.objects.filter(pk__in=game_ids, sealed=True).update(sealed=False, updated_at=timezone.now())


# -- invitations -------------------------------------------------------------------------------------
def _pending_game(game_id: Any, player: Player) -> tuple[Game, list[Seat], list[Seat]]:
    """The game locked for update, its seats, and the caller's seats (403 if none)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise NotFound("not_found", "no such game")
    seats = selectors.seats_of(game=game)
    mine = [s for s in seats if s.player_id == player.id]
    if not mine:
        raise Forbidden("not_seated", "you hold no seat in this game")
    return game, seats, mine


def game_accept(*, game_id: Any, player: Player) -> Game:
    """The caller agrees to play; when the last seated person agrees the game is dealt. Accepting twice
    is harmless; an invitation past its time is expired instead (409 `invitation_expired`)."""
    game_expire_invitation(game_id=game_id)
    with transaction.atomic():
        game, seats, mine = _pending_game(game_id, player)
        if all(s.accepted_at is not None for s in mine):
            return game
        if game.status != Game.Status.PENDING:
            code = "invitation_expired" if game.abort_reason == Game.AbortReason.EXPIRED else "not_pending"
            raise Conflict(code, f"the game is {game.status}" + (f" ({game.abort_reason})" if game.abort_reason
                                                                  else ""))
        now = timezone.now()
        Seat.objects.filter(pk__in=[s.pk for s in mine]).update(accepted_at=now)
        for seat in mine:
            seat.accepted_at = now
        if all(s.accepted_at is not None for s in seats):
            game.status, game.expires_at = Game.Status.ACTIVE, None
            game.save(update_fields=["status", "expires_at", "updated_at"])
            _deal(game, seats)
        return game


def game_decline(*, game_id: Any, player: Player) -> Game:
    """The caller will not play (any seated person, the creator too): the pending game is aborted."""
    with transaction.atomic():
        game, seats, mine = _pending_game(game_id, player)
        if game.status != Game.Status.PENDING:
            raise Conflict("not_pending", f"the game is {game.status}: only an invitation can be declined")
        Seat.objects.filter(pk__in=[s.pk for s in mine]).update(declined_at=timezone.now())
        _abort_pending(game, seats, Game.AbortReason.DECLINED, by=player)
        return game


def game_expire_invitation(*, game_id: Any) -> bool:
    """Abort the pending game if its invitations ran out of time; True if it did. Safe to call any time."""
    with transaction.atomic():
        game = (Game.objects.select_for_update()
                .filter(pk=game_id, status=Game.Status.PENDING, expires_at__lte=timezone.now()).first())
        if game is None:
            return False
        _abort_pending(game, selectors.seats_of(game=game), Game.AbortReason.EXPIRED)
        return True


def game_expire_invitations() -> int:
    """Expire every pending game past its time (the periodic sweep); returns how many."""
    due = Game.objects.filter(status=Game.Status.PENDING, expires_at__lte=timezone.now()).values_list("pk", flat=True)
    return sum(game_expire_invitation(game_id=pk) for pk in list(due))


def _abort_pending(game: Game, seats: list[Seat], reason: str, by: Player | None = None) -> None:
    game.status, game.abort_reason, game.expires_at = Game.Status.ABORTED, reason, None
    game.save(update_fields=["status", "abort_reason", "expires_at", "updated_at"])
    about = {"game": str(game.id), "kind": game.kind, "reason": reason, "by": by.name if by else None}
    notifications.notify_each([(pid, notifications.GAME_CANCELLED, about)
                               for pid in dict.fromkeys(s.player_id for s in seats if s.player_id)
                               if by is None or pid != by.id])
    transaction.on_commit(partial(broadcast.publish, broadcast.game_channel(game.id), 0), robust=True)


@dataclass(frozen=True)
class Move:
    """An accepted move: the game at its new head, the new events as the mover sees them, the new position
    and the seat that moved (whose next state the answer may carry)."""

    game: Game
    seats: list[Seat]
    events: list[dict]
    position: Position
    seat: int


def game_apply_action(*, game_id: Any, player: Player, action: Any, expected_version: int | None = None,
                      seat: int | None = None) -> Move:
    """Play `action` for the caller's seat.

    With `expected_version`, the game and its seats as they were at that version come from the head cache
    (`selectors.head_at`, filled after each commit) and the position from the position cache: nothing is read,
    and the write, conditional on that version still being the head, checks that nobody moved since. A move
    that implies nothing else (no notification, job, deadline or snapshot: the mover keeps the turn) is then
    a single self-committing statement. Otherwise the game and seats are read first."""
    head = selectors.head_at(game_id=game_id, version=expected_version) if expected_version is not None else None
    game, seats = head or _read_game(game_id)
    mine = [s.index for s in seats if s.player_id == player.id]
    if not mine:
        raise Forbidden("not_seated", "you hold no seat in this game")
    if seat is not None and seat not in mine:
        raise Forbidden("not_your_seat", f"seat {seat} is not yours")
    if game.status == Game.Status.PENDING:
        raise Conflict("game_pending", "the game starts when every seated player has accepted", version=0)
    if game.status != Game.Status.ACTIVE:
        raise Conflict("game_finished", "the game is over", version=game.version)
    if expected_version is not None and expected_version != game.version:
        raise _stale(game.version, expected_version)
    position = selectors.game_position(game=game)
    if seat is None:
        to_act = selectors.engine_for(game).to_act(position.state)
        seat = next((s for s in mine if s in to_act), mine[0])
    try:
        events, after = _play(game, position, seat, action, seats)
    except Unprocessable:
        if head is not None:  # judged on a cached head: refused for being stale rather than illegal, if it is
            current = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()
            if current != expected_version:
                raise _stale(current, expected_version) from None
        raise
    except Conflict as conflict:
        if expected_version is not None and conflict.code == "version_conflict":
            raise _stale(conflict.extra.get("version"), expected_version) from None
        raise
    return Move(game, seats, selectors.redact_new_events(game=game, first_seq=position.version + 1, events=events,
                                                          viewer=seat), after, seat)


def _read_game(game_id: Any) -> tuple[Game, list[Seat]]:
    game = game_by_id(game_id)  # the head row, read without compiling a queryset
    if game is None:
        raise NotFound("not_found", "no such game")
    return game, selectors.seats_of(game=game)


def _stale(current: int | None, expected: int) -> Conflict:
    return Conflict("stale_version", f"the game is at version {current}, not {expected}", version=current)


def game_apply_seat_action(*, game: Game, seat: int, action: Any, expected_version: int,
                           seats: list[Seat] | None = None) -> list[EngineEvent]:
    """Play for a seat without a player check (bots, clocks). Raises Conflict if the game moved on.

    `game` as the caller read it at `expected_version`, and `seats` (which change only with the version),
    are not read again: the head update, conditional on that version, refuses a game that moved on since."""
    if game.status != Game.Status.ACTIVE or game.version != expected_version:
        raise Conflict("stale_version", "the game moved on", version=game.version)
    with transaction.atomic():
        events, _ = _play(game, selectors.game_position(game=game), seat, action,
                          seats or selectors.seats_of(game=game))
        return events


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


def _play(game: Game, position: Position, seat: int, action: Any,
          seats: list[Seat]) -> tuple[list[EngineEvent], Position]:
    """Decide and append; returns the new events and the new position."""
    engine = selectors.engine_for(game)
    chance = Chance(game.seed, game.decks, position.shuffles)
    try:
        new_position, events = apply_action(engine, position, seat, action, chance)
    except IllegalAction as refused:
        raise Unprocessable(refused.code, refused.message) from None
    return events, _append(game, position, events, new_position, seats)


def _append(game: Game, before: Position, events: list[EngineEvent], after: Position, seats: list[Seat],
            result: dict | None = None) -> Position:
    """Insert the events after `before.version`, move the head and record what that sets in motion (a
    snapshot, deadlines, jobs, notifications), all in one transaction; a clash means someone moved first.
    When the head and the events are all there is to write (one statement on PostgreSQL), that statement
    commits by itself unless the caller holds a transaction. `result` ends the game for a reason outside the
    rules (a forfeit). Returns the new position."""
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
    head_before = game.version, game.status, game.to_act, game.result
    game.version, game.status, game.to_act, game.result = after.version, status, to_act, result
    stored = None
    if settings.SNAPSHOT_EVERY and after.version // settings.SNAPSHOT_EVERY > before.version // settings.SNAPSHOT_EVERY:
        stored = Snapshot(game=game, version=after.version, state_version=engine.state_version,
                          payload=snapshot.to_bytes(engine, after))
    deadlines = _set_deadlines(game, seats, previous_to_act, to_act,
                               movers={e.actor for e in events if e.actor is not None}) if game.turn_seconds else []
    jobs, notices = _implied(game, result, to_act, seats, previous_to_act=previous_to_act,
                             started=before.version == 0, tail=[selectors.event_row(row) for row in rows])
    alone = connection.vendor == "postgresql" and not (stored or deadlines or jobs or notices)
    try:
        with contextlib.nullcontext() if alone else transaction.atomic(savepoint=False):
            if not _move_head_and_insert(game, before.version, rows, version=after.version, status=status,
                                         to_act=to_act, result=result):
                raise Conflict("version_conflict", "another move was recorded first; reload and retry",
                               version=Game.objects.filter(pk=game.pk).values_list("version", flat=True).first())
            # Cached once committed: a position that was rolled back must not pass later for another move's.
            transaction.on_commit(partial(selectors.remember_position, game=game, position=after), robust=True)
            transaction.on_commit(partial(selectors.remember_head, game=game, seats=seats), robust=True)
            if stored is not None:
                stored.save(force_insert=True)
            if deadlines:
                Seat.objects.bulk_update(deadlines, ["deadline"])
            outbox.schedule(jobs)
            transaction.on_commit(partial(broadcast.publish, broadcast.game_channel(game.id), game.version),
                                  robust=True)
            notifications.notify_each(notices)
    except IntegrityError:  # events past the head: cannot happen while every append goes through here
        game.version, game.status, game.to_act, game.result = head_before
        raise Conflict("version_conflict", "another move was recorded first; reload and retry") from None
    except Conflict:
        game.version, game.status, game.to_act, game.result = head_before
        raise
    return after


_MOVE_HEAD_AND_INSERT = """
    WITH head AS (
        UPDATE {game} SET version = %s, status = %s, to_act = %s::jsonb, result = %s::jsonb, updated_at = %s
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
    savepoint. On PostgreSQL both are one statement, else two. A queryset update skips `auto_now`: the head's
    `updated_at` is set here, on both paths."""
    head["updated_at"] = timezone.now()
    if connection.vendor == "postgresql" and rows:
        moved = _move_head_and_insert_postgres(game, expected, rows, **head)
    else:
        moved = bool(Game.objects.filter(pk=game.pk, version=expected, status=Game.Status.ACTIVE).update(**head))
        if moved:
            Event.objects.bulk_create(rows)
    if moved:
        game.updated_at = head["updated_at"]
    return moved


def _move_head_and_insert_postgres(game: Game, expected: int, rows: list[Event], **head: Any) -> bool:
    """`_move_head_and_insert` as one statement: the insert takes its game id from the update's RETURNING, so
    nothing is inserted when the head was not there. Values are encoded as the ORM encodes them."""

    def jsonb(value: Any) -> str | None:
        return None if value is None else json.dumps(value)

    recorded_at = head["updated_at"]
    params: list[Any] = [head["version"], head["status"], json.dumps(head["to_act"]), jsonb(head["result"]),
                         head["updated_at"], game.pk, expected, Game.Status.ACTIVE,
                         Event._meta.get_field("schema_version").default, recorded_at]
    for row in rows:
        params += [row.seq, row.type, row.actor, json.dumps(row.data), jsonb(row.public), jsonb(row.visible_to)]
    values = ", ".join(["(%s::integer, %s::varchar, %s::smallint, %s::text, %s::text, %s::text)"] * len(rows))
    sql = _MOVE_HEAD_AND_INSERT.format(game=Game._meta.db_table, event=Event._meta.db_table, values=values)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        moved, _ = cursor.fetchone()
    return bool(moved)


def _implied(game: Game, result: dict | None, to_act: list[int], seats: list[Seat], *,
             previous_to_act: list[int], started: bool, tail: list[list]) -> tuple[list[outbox.Work], list]:
    """What a new head (already set on `game`) sets in motion: the jobs of the "head moved" hook's
    subscribers (`games.hooks`: the next bot turn first, carrying `tail`, the rows just appended; the turn
    clock; rating and tournament tasks), recorded with the move and handed to the broker once it commits;
    and the players' notifications. The wake-up of the game's live streams follows the commit."""
    jobs = hooks.jobs_for(hooks.HeadMoved(game=game, seats=seats, result=result, to_act=to_act,
                                          previous_to_act=previous_to_act, started=started, tail=tail))
    return jobs, _seat_notices(game, result, to_act, seats, previous_to_act, started)


def _set_deadlines(game: Game, seats: list[Seat], previous_to_act: list[int], to_act: list[int],
                   movers: set[int]) -> list[Seat]:
    """A player seat to act gets `turn_seconds` from this head, unless it was already to act and did not
    move now (another seat's move in a simultaneous phase does not reset its clock). Sets them on `seats`;
    returns those that changed, to save."""
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
    return changed


def _seat_notices(game: Game, result: dict | None, to_act: list[int], seats: list[Seat],
                  previous_to_act: list[int], started: bool) -> list[tuple[int, str, dict]]:
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
    return items


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
