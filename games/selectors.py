"""Reads: positions folded from the log (sped up by snapshots and a small cache), views, logs, replays.

Nothing here writes the log. Every answer is computed from the events, so it is the same with or without
snapshots and cache.
"""

from __future__ import annotations

import copy
import json
import logging
from typing import Any

from games.caches import read_caches
from games.engine import registry, snapshot
from games.engine.chance import seed_commitment, verify_shuffle
from games.engine.forfeit import forfeit_result
from games.engine.protocol import Engine
from games.engine.protocol import Event as EngineEvent
from games.engine.runner import Position, fold
from games.exceptions import Conflict
from games.models import Event, Game, Notification, Player, Seat, Snapshot

logger = logging.getLogger(__name__)

_FOLD_FROM_CACHE = 50  # events: beyond that, the nearest snapshot is the better start


def engine_for(game: Game) -> Engine:
    """The engine of the game's kind playing the rules version the game was created with."""
    return registry.get(game.kind, game.rules_version)


def _to_engine_event(type_: str, data: Any, public: Any, visible_to: Any, actor: Any) -> EngineEvent:
    return EngineEvent(type_, data, public, frozenset(visible_to) if visible_to is not None else None, actor)


#: The columns of an event row as `game_position_at_head` reads it and `game_position_from_tail` receives it.
ROW_FIELDS = ("seq", "type", "data", "public", "visible_to", "actor")


def event_row(event: Event) -> list:
    """A stored event as the JSON row `game_position_from_tail` folds (`ROW_FIELDS`)."""
    return [getattr(event, field) for field in ROW_FIELDS]


def _events_between(game: Game, after: int, upto: int) -> list[EngineEvent]:
    rows = (
        Event.objects.filter(game=game, seq__gt=after, seq__lte=upto)
        .order_by("seq")
        .values_list("type", "data", "public", "visible_to", "actor")
    )
    return [_to_engine_event(*row) for row in rows]


def _latest_snapshot(game: Game, engine: Engine, upto: int) -> Position | None:
    payload = (
        Snapshot.objects.filter(game=game, state_version=engine.state_version, version__lte=upto)
        .order_by("-version")
        .values_list("payload", flat=True)
        .first()
    )
    if payload is None:
        return None
    try:
        return snapshot.from_bytes(engine, payload)
    except snapshot.SnapshotError:  # an old pickle or another layout only sped reads up: fold the log instead
        logger.warning("snapshot of game %s at or below %s could not be loaded; folding the log", game.pk, upto)
        return None


def game_position_at(*, game: Game, version: int) -> Position:
    """The position after event `version` (a fold of the log, from the nearest snapshot)."""
    key = (str(game.id), version)
    cached = read_caches().positions.get(key)
    if cached is not None:
        return cached
    engine = engine_for(game)
    start = _cached_start(key[0], version) or _latest_snapshot(game, engine, version)
    position = fold(engine, _events_between(game, start.version if start else 0, version), start)
    read_caches().positions.put(key, position)
    return position


def _cached_start(game_id: str, version: int) -> Position | None:
    """A recent cached position of the game to fold on from (e.g. a worker's own last bot move, when a human
    moved since): it saves the snapshot read and most of the fold."""
    return read_caches().positions.newest_within(game_id, version, _FOLD_FROM_CACHE)


def game_position(*, game: Game) -> Position:
    return game_position_at(game=game, version=game.version)


def game_position_at_head(*, game: Game, version: int) -> Position | None:
    """The position at `version` from a cached position at or shortly before it and one read of the events
    after that, which also shows whether `version` is still the head: for a writer that kept `game`'s rows
    (`bots.selectors.bot_turn`), that read replaces reading the game. It sets `game.version`, `status` and
    `to_act` as the log says (a later version when the game moved on). None when no cached position is near
    or the log is behind it: read the game instead."""
    game_id = str(game.id)
    start = read_caches().positions.get((game_id, version)) or _cached_start(game_id, version)
    if start is None:
        return None
    rows = list(
        Event.objects.filter(game=game, seq__gt=start.version)
        .order_by("seq")
        .values_list(*ROW_FIELDS)[: version - start.version + 1]
    )
    head = rows[-1][0] if rows else start.version
    if head < version:
        return None
    engine = engine_for(game)
    position = start if start.version == version else fold(
        engine, [_to_engine_event(*row[1:]) for row in rows if row[0] <= version], start)
    read_caches().positions.put((game_id, version), position)
    closed = head == version and bool(rows) and rows[-1][1] == "game.finished"
    _set_head(game, engine, position, head, closed)
    return position


def game_position_from_tail(*, game: Game, version: int, tail: list[list]) -> Position | None:
    """The position at `version` from the cached position just before `tail`, the rows that the write
    which made `version` the head appended (handed to the bot task with it, see `event_row`): no read at all.
    Sets `game`'s head fields as `game_position_at_head` does. The caller's write, conditional on `version`
    being the head, is what checks that nobody moved since. None when no cached position precedes `tail`."""
    seqs = [row[0] for row in tail]
    if not tail or seqs != list(range(seqs[0], version + 1)):
        return None
    start = read_caches().positions.get((str(game.id), seqs[0] - 1))
    if start is None:
        return None
    engine = engine_for(game)
    position = fold(engine, [_to_engine_event(*row[1:]) for row in tail], start)
    read_caches().positions.put((str(game.id), version), position)
    _set_head(game, engine, position, version, tail[-1][1] == "game.finished")
    return position


def _set_head(game: Game, engine: Engine, position: Position, head: int, closed: bool) -> None:
    """Set `game`'s head fields as the log says, for a writer that kept the game's row instead of reading it."""
    finished = closed or engine.result(position.state) is not None
    game.version, game.result = head, None
    game.status = Game.Status.FINISHED if finished else Game.Status.ACTIVE
    game.to_act = [] if finished else sorted(engine.to_act(position.state))


def remember_position(*, game: Game, position: Position) -> None:
    """Let the writer hand its freshly computed position to the cache (it equals the fold)."""
    read_caches().positions.put((str(game.id), position.version), position)


def remember_head(*, game: Game, seats: list[Seat]) -> None:
    """Keep the game's row and seats as they are at `game.version`, once committed (the writer's copies).

    Once a game is dealt (version 1 on), its row changes only with its version, but for `sealed` (cleared
    when a duplicate round ends, after its last move) and `updated_at`; its seats change only with the
    version too (their deadlines). So an entry stays true of that version for ever: the head check of the
    next write (conditional on that version) or a read of the current version is what says it is current."""
    if game.version < 1:  # a pending game's seats still change (acceptances) at version 0
        return
    read_caches().heads.put((str(game.id), game.version),
                            (copy.copy(game), tuple(copy.copy(seat) for seat in seats)))


def head_at(*, game_id: Any, version: int) -> tuple[Game, list[Seat]] | None:
    """Copies of the game and its seats as they were at `version`, if a writer here remembered them."""
    kept = read_caches().heads.get((str(game_id), version))
    if kept is None:
        return None
    game, seats = kept
    return copy.copy(game), [copy.copy(seat) for seat in seats]


def seats_of(*, game: Game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("index"))


def seats_at_head(*, game: Game) -> list[Seat]:
    """The seats of `game` as just read: remembered for its version, else read. Seats read after the game
    are remembered only without a turn clock: with one, a move committed between the two reads could have
    moved their deadlines on, and they would pass for those of the version read."""
    kept = head_at(game_id=game.id, version=game.version)
    if kept is not None:
        return kept[1]
    seats = seats_of(game=game)
    if not game.turn_seconds:
        remember_head(game=game, seats=seats)
    return seats


def viewer_seat(*, seats: list[Seat], player: Player | None, requested: int | None = None) -> int | None:
    """The seat whose eyes the caller uses: the requested one if theirs, else their first; None = spectator."""
    mine = [seat.index for seat in seats if player is not None and seat.player_id == player.id]
    if requested is not None and requested in mine:
        return requested
    return mine[0] if mine else None


def game_state(*, game: Game, seat: int | None, seats: list[Seat] | None = None,
               position: Position | None = None) -> dict:
    """`seat`'s state (None: a spectator's) at the game's head; `position` if the caller holds it."""
    if game.version == 0:
        code, detail = (("game_pending", "the game is dealt when every seated player has accepted")
                        if game.status == Game.Status.PENDING else ("game_not_started", "the game was never dealt"))
        raise Conflict(code, detail)
    engine = engine_for(game)
    if seats is None and game.turn_seconds:
        seats = seats_of(game=game)
    position = position or game_position(game=game)
    state = position.state
    running = game.status == Game.Status.ACTIVE
    return {
        "version": game.version,
        "status": game.status,
        "seat": seat,
        "to_act": sorted(engine.to_act(state)) if running else [],
        "view": engine.view(state, seat),
        "legal_actions": engine.legal_actions(state, seat) if running and seat is not None else [],
        "result": game.result,
        "deadlines": seat_deadlines(seats=seats) if seats is not None else [None] * game.seat_count,
    }


def log_is_public(game: Game) -> bool:
    """Once a game is over its whole log is public, unless it is sealed (a duplicate round still running)."""
    return game.is_over and not game.sealed


def _redacted(engine: Engine, game: Game, row: tuple, viewer: int | None) -> dict:
    seq, type_, data, public, visible_to, actor, recorded_at = row
    if log_is_public(game):
        shown = {"type": type_, "actor": actor, "data": data}
    else:
        shown = engine.redact(_to_engine_event(type_, data, public, visible_to, actor), viewer)
    return {"seq": seq, **shown, "recorded_at": recorded_at}


def game_events(*, game: Game, viewer: int | None, after: int = 0, limit: int = 1000) -> list[dict]:
    """The log after `after`, each event as `viewer` may see it (everything once the game is over)."""
    return redact_event_rows(game=game, rows=game_event_rows(game=game, after=after, limit=limit), viewer=viewer)


def game_event_rows(*, game: Game, after: int = 0, limit: int = 1000) -> list[tuple]:
    """The stored events after `after`, unredacted: only for `redact_event_rows` (streams share one read)."""
    return list(
        Event.objects.filter(game=game, seq__gt=after)
        .order_by("seq")
        .values_list("seq", "type", "data", "public", "visible_to", "actor", "recorded_at")[:limit]
    )


def redact_event_rows(*, game: Game, rows: list[tuple], viewer: int | None) -> list[dict]:
    """Rows from `game_event_rows` as `viewer` may see them, given the game's status when they were read."""
    engine = engine_for(game)
    return [_redacted(engine, game, row, viewer) for row in rows]


def seat_deadlines(*, seats: list[Seat]) -> list:
    """Each seat's turn-clock deadline (None where no clock runs), indexed by seat."""
    return [seat.deadline for seat in seats]


def player_notifications(*, player: Player, after: int = 0, limit: int = 500) -> list[dict]:
    """The player's notifications after seq `after`, oldest first."""
    rows = (
        Notification.objects.filter(player=player, seq__gt=after)
        .order_by("seq")
        .values("seq", "kind", "payload", "created_at")[:limit]
    )
    return list(rows)


def redact_new_events(*, game: Game, first_seq: int, events: list[EngineEvent], viewer: int | None) -> list[dict]:
    """Freshly appended events as `viewer` may see them (the answer to a move)."""
    engine = engine_for(game)
    out = []
    for offset, event in enumerate(events):
        shown = engine.redact(event, viewer) if not log_is_public(game) else {
            "type": event.type, "actor": event.actor, "data": event.data}
        out.append({"seq": first_seq + offset, **shown})
    return out


def game_replay(*, game: Game, step: int, viewer: int | None) -> dict:
    """The view after event `step`, for stepping through a game."""
    engine = engine_for(game)
    position = game_position_at(game=game, version=step)
    return {
        "step": step,
        "version": game.version,
        "rules_version": game.rules_version,
        "to_act": sorted(engine.to_act(position.state)) if position.state is not None else [],
        "view": engine.view(position.state, viewer) if position.state is not None else None,
    }


def game_export(*, game: Game) -> dict:
    """The whole log of a finished game with its revealed seed, and a check that re-derives every shuffle."""
    rows = list(
        Event.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "type", "data", "public", "visible_to", "actor", "recorded_at")
    )
    events = [
        {"seq": seq, "type": t, "actor": actor, "data": data, "visible_to": vis, "recorded_at": at}
        for seq, t, data, public, vis, actor, at in rows
    ]
    return {"id": str(game.id), "kind": game.kind, "rules_version": game.rules_version, "options": game.options,
            "seed": game.seed,
            "seed_sha256": game.seed_sha256, "decks": game.decks, "result": game.result, "events": events,
            "verification": game_verify(game=game, rows=rows)}


def game_verify(*, game: Game, rows: list[tuple]) -> dict:
    """Re-derive every shuffle from the revealed seed and refold the log to the recorded result."""
    shuffles = []
    for _, type_, data, *_rest in rows:
        if type_ != "shuffle":
            continue
        n, cards, source = data["n"], data["cards"], data["source"]
        if source == "decks":
            ok = n < len(game.decks) and list(game.decks[n]) == list(cards)
        else:
            ok = verify_shuffle(game.seed, n, cards)
        shuffles.append({"n": n, "purpose": data.get("purpose"), "source": source, "ok": ok})
    engine = engine_for(game)
    folded = fold(engine, [_to_engine_event(t, d, p, v, a) for _, t, d, p, v, a, _at in rows])
    expected = engine.result(folded.state)
    forfeits = [data["seat"] for _, type_, data, *_rest in rows if type_ == "game.forfeited"]
    if forfeits:
        expected = forfeit_result(seats=game.seat_count, seat=forfeits[0])
    result_ok = json.loads(json.dumps(expected)) == game.result
    commitment_ok = seed_commitment(game.seed) == game.seed_sha256
    return {
        "seed_matches_commitment": commitment_ok,
        "shuffles": shuffles,
        "result_matches_log": result_ok,
        "ok": commitment_ok and result_ok and all(s["ok"] for s in shuffles),
    }


def game_list(*, kind: str | None = None, status: str | None = None, player: int | None = None):
    games = Game.objects.all().order_by("-created_at")
    if kind:
        games = games.filter(kind=kind)
    if status:
        games = games.filter(status=status)
    if player is not None:
        games = games.filter(seats__player_id=player).distinct()
    return games.prefetch_related("seats__player")
