"""Live endpoints served by async views, so a waiting client costs a coroutine, not a worker thread.

- `GET /games/{id}/stream/`: server-sent events of the game's log, each event redacted for the caller
  exactly as `/events/` does, with `id: <seq>`; then a `head` event (version, status, to_act, deadlines).
- `GET /players/me/stream/`: the caller's notifications (your_turn, game_started, ...), `id: <seq>`.
- `GET /games/{id}/events/?after=N&wait=S`: the long poll, `/events/` answered as soon as there is news.

A client resumes with `Last-Event-ID` (or `?after=`) and gets everything after it, nothing twice. Streams
learn of new events from `games.broadcast` (never by polling the database) and then read the log.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.views import APIView

from api.authentication import PlayerTokenAuthentication
from api.base import parse_int, refuse_sealed
from api.errors import error_body
from api.games import GameEventsApi
from api.schema import SEAT, integer
from api.serializers import EventOutputSerializer
from api.throttles import AuthFailureThrottle
from games import broadcast, selectors
from games.exceptions import ApplicationError, BadRequest, NotFound
from games.models import Game, Player, Seat

MAX_WAIT_SECONDS = 60
RETRY_MS = 2000
READ_LIMIT = 1000
_events_view = GameEventsApi.as_view()
_datetime = serializers.DateTimeField()  # the API's one date format


# -- request parsing ------------------------------------------------------------------------------------
def _player_for_token(request: HttpRequest, key: str) -> Player:
    """The token's player; an address over its bad-token limit is refused first, and each failure counted."""
    failures = AuthFailureThrottle()
    failures.check(request)
    try:
        user, _ = PlayerTokenAuthentication().authenticate_credentials(key)
        player = getattr(user, "player", None)
        if player is None:
            raise exceptions.AuthenticationFailed("this token belongs to no player")
    except exceptions.AuthenticationFailed:
        failures.record(request)
        raise
    return player


async def _caller(request: HttpRequest) -> Player | None:
    """`Authorization: Token <key>`, or `?token=<key>` for EventSource clients that cannot set headers."""
    words = request.headers.get("Authorization", "").split()
    key = None
    if words and words[0].lower() == "token":
        if len(words) != 2:
            raise exceptions.AuthenticationFailed("invalid token header")
        key = words[1]
    elif request.GET.get("token"):
        key = request.GET["token"]
    return await sync_to_async(_player_for_token)(request, key) if key else None


def _int(raw: str | None, name: str, default: int = 0) -> int:
    return parse_int(raw, name, default)


def _resume_point(request: HttpRequest) -> int:
    """The last id the client has: the reconnect header wins over the query string of the first request."""
    header = request.headers.get("Last-Event-ID")
    if header:
        return _int(header, "Last-Event-ID")
    return _int(request.GET.get("after"), "after")


def _error(error: Exception) -> JsonResponse:
    if isinstance(error, ApplicationError):
        return JsonResponse(error_body(error.code, error.detail, **error.extra), status=error.status)
    if isinstance(error, exceptions.AuthenticationFailed):
        return JsonResponse(error_body("invalid_token", str(error.detail)), status=401)
    if isinstance(error, exceptions.Throttled):
        extra = {"retry_after": error.wait} if error.wait is not None else {}
        response = JsonResponse(error_body("throttled", str(error.detail), **extra), status=429)
        if error.wait is not None:
            response["Retry-After"] = str(error.wait)
        return response
    raise error


def _sse(data: dict, *, event: str | None = None, id: int | None = None) -> str:
    lines = [f"event: {event}"] if event else []
    if id is not None:
        lines.append(f"id: {id}")
    lines.append("data: " + json.dumps(data, separators=(",", ":"), default=str))
    return "\n".join(lines) + "\n\n"


def _stream(body) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: do not buffer the stream
    return response


# -- the game stream --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Batch:
    """One read of the log after `after`, shared by every stream of the game in this process."""

    game: Game
    seats: list[Seat]
    rows: list[tuple]

    @property
    def top(self) -> int:
        return self.rows[-1][0] if self.rows else -1


def _read_log(game_id, after: int) -> _Batch:
    # Rows first, then the head: the status is never older than the rows it decides the redaction of.
    rows = selectors.game_event_rows(game=Game(pk=game_id), after=after, limit=READ_LIMIT)
    game = Game.objects.get(pk=game_id)
    return _Batch(game, selectors.seats_of(game=game) if game.turn_seconds else [], rows)


_reads: dict[tuple, asyncio.Future] = {}


async def _shared_read(game_id, after: int) -> _Batch:
    """A read that every stream woken by the same publish joins, so 100 watchers cost one query."""
    key = (id(asyncio.get_running_loop()), str(game_id), after)
    future = _reads.get(key)
    if future is None:
        future = _reads[key] = asyncio.ensure_future(sync_to_async(_read_log)(game_id, after))
        future.add_done_callback(lambda _: _reads.pop(key, None))
    return await asyncio.shield(future)


def _head(game: Game, seats: list[Seat]) -> dict:
    deadlines = selectors.seat_deadlines(seats=seats) if seats else [None] * game.seat_count
    return {"version": game.version, "status": game.status, "to_act": game.to_act, "result": game.result,
            "deadlines": [_datetime.to_representation(d) if d else None for d in deadlines]}


async def _game_events(game_id, seat: int | None, after: int, listener: broadcast.Listener):
    yield f"retry: {RETRY_MS}\n\n"
    batch = await sync_to_async(_read_log)(game_id, after)  # not shared: it must start after subscribing
    while True:
        events = selectors.redact_event_rows(game=batch.game, rows=batch.rows, viewer=seat)
        for event in EventOutputSerializer(events, many=True).data:
            yield _sse(event, id=event["seq"])
        if events:
            after = events[-1]["seq"]
            yield _sse(_head(batch.game, batch.seats), event="head")
        if batch.game.is_over and after >= batch.game.version:
            yield _sse({"version": batch.game.version, "status": batch.game.status}, event="end")
            return
        if len(batch.rows) >= READ_LIMIT:  # a long backlog: read on before waiting
            batch = await sync_to_async(_read_log)(game_id, after)
            continue
        while not await listener.wait(settings.STREAM_HEARTBEAT_SECONDS):
            yield ": heartbeat\n\n"
        batch = await _read_after_wake(game_id, after, listener)


async def _read_after_wake(game_id, after: int, listener: broadcast.Listener) -> _Batch:
    """Join the shared read, unless it began before the publish that woke us (then read afresh)."""
    if listener.resync:
        listener.resync = False
        return await sync_to_async(_read_log)(game_id, after)
    batch = await _shared_read(game_id, after)
    if max(batch.top, after) < listener.latest:
        batch = await sync_to_async(_read_log)(game_id, after)
    return batch


def _load_game(game_id) -> tuple[Game, list[Seat]]:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound("not_found", "no such game")
    return game, selectors.seats_of(game=game)


def _viewer(game: Game, seats: list[Seat], player: Player | None, requested: int | None) -> int | None:
    seat = selectors.viewer_seat(seats=seats, player=player, requested=requested)
    if requested is not None and seat != requested and selectors.log_is_public(game):
        if requested >= game.seat_count:
            raise BadRequest("invalid_parameter", f"seat must be below {game.seat_count}")
        seat = requested  # a finished game's whole log is public
    return seat


async def game_stream(request: HttpRequest, game_id) -> HttpResponse:
    """Server-sent events of the game's log as the caller's seat sees it (see the module docstring)."""
    if request.method != "GET":
        return JsonResponse(error_body("method_not_allowed", f"method {request.method} not allowed"), status=405)
    try:
        player = await _caller(request)
        after = _resume_point(request)
        requested = _int(request.GET.get("seat"), "seat", default=-1)
        game, seats = await sync_to_async(_load_game)(game_id)
        seat = _viewer(game, seats, player, None if requested < 0 else requested)
        refuse_sealed(game, seat)
    except (ApplicationError, exceptions.AuthenticationFailed, exceptions.Throttled) as error:
        return _error(error)
    if game.is_over and after >= game.version:
        return HttpResponse(status=204)  # nothing will ever come: tells EventSource not to reconnect
    return _stream(_subscribed(broadcast.game_channel(game.id),
                               lambda listener: _game_events(game.id, seat, after, listener)))


async def _subscribed(channel: str, make_body):
    """Subscribe before the body's first read, and unsubscribe when the client goes away."""
    try:
        async with broadcast.listen(channel) as listener:
            async for chunk in make_body(listener):
                yield chunk
    except broadcast.BusUnavailable:
        yield _sse({"code": "stream_unavailable", "detail": "live updates are unavailable; retry"}, event="error")


# -- the player stream ------------------------------------------------------------------------------------
async def _player_events(player: Player, after: int, listener: broadcast.Listener):
    yield f"retry: {RETRY_MS}\n\n"
    while True:
        notes = await sync_to_async(selectors.player_notifications)(player=player, after=after)
        for note in notes:
            yield _sse({**note, "created_at": _datetime.to_representation(note["created_at"])}, id=note["seq"])
        if notes:
            after = notes[-1]["seq"]
            continue  # a long backlog comes in pages: read until it is empty before waiting
        while not await listener.wait(settings.STREAM_HEARTBEAT_SECONDS):
            yield ": heartbeat\n\n"


async def player_stream(request: HttpRequest) -> HttpResponse:
    """Server-sent events of the caller's notifications, across all the caller's games."""
    if request.method != "GET":
        return JsonResponse(error_body("method_not_allowed", f"method {request.method} not allowed"), status=405)
    try:
        player = await _caller(request)
        after = _resume_point(request)
    except (ApplicationError, exceptions.AuthenticationFailed, exceptions.Throttled) as error:
        return _error(error)
    if player is None:
        return JsonResponse(error_body("not_authenticated", "send Authorization: Token <key> (or ?token=)"),
                            status=401)
    return _stream(_subscribed(broadcast.player_channel(player.id),
                               lambda listener: _player_events(player, after, listener)))


# -- the long poll ----------------------------------------------------------------------------------------
def _head_version(game_id) -> tuple[int, str] | None:
    return Game.objects.filter(pk=game_id).values_list("version", "status").first()


async def game_events(request: HttpRequest, game_id) -> HttpResponse:
    """`/events/`, and with `wait=S` (at most 60) the long poll: an empty answer waits up to S seconds for
    the next event instead of returning at once. Errors and non-empty answers return at once."""
    view = sync_to_async(_events_view)
    try:
        wait = min(_int(request.GET.get("wait"), "wait"), MAX_WAIT_SECONDS)
        after = _int(request.GET.get("after"), "after")
    except ApplicationError:
        wait = 0  # the view itself answers 400
    if not wait:
        return await view(request, game_id=game_id)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    try:
        async with broadcast.listen(broadcast.game_channel(game_id)) as listener:
            response = await view(request, game_id=game_id)
            if response.status_code != 200 or response.data:
                return response
            while loop.time() < deadline:
                head = await sync_to_async(_head_version)(game_id)
                if head is None or head[0] > after or head[1] in (Game.Status.FINISHED, Game.Status.ABORTED):
                    break
                await listener.wait(deadline - loop.time())
    except broadcast.BusUnavailable:
        pass  # answer with what there is now, as without `wait`
    return await view(request, game_id=game_id)



# -- OpenAPI: drf-spectacular documents DRF classes; these describe the async views above ---------------------
_SSE = {(200, "text/event-stream"): OpenApiTypes.STR}
_RESUME = [OpenApiParameter("Last-Event-ID", integer(0), OpenApiParameter.HEADER, required=False,
                            description="Resume after this id (sent by EventSource on reconnect)."),
           OpenApiParameter("after", integer(0), required=False, description="Resume after this id."),
           OpenApiParameter("token", str, required=False,
                            description="The API token, for clients that cannot send Authorization.")]


class GameStreamSchema(APIView):
    @extend_schema(operation_id="game_stream", parameters=[*_RESUME, SEAT],
                   responses={**_SSE, 204: None}, description=(
                       "Server-sent events: each log event (`id: seq`, data as in `/events/`), then `event: head` "
                       "(version, status, to_act, deadlines); `event: end` when the game is over; heartbeats."))
    def get(self, request, game_id):  # pragma: no cover - requests go to game_stream
        raise exceptions.MethodNotAllowed("GET")


class PlayerStreamSchema(APIView):
    @extend_schema(operation_id="player_stream", parameters=_RESUME, responses=_SSE, description=(
        "Server-sent events of the caller's notifications: `id: seq`, data `{seq, kind, payload, created_at}` with "
        "kind `your_turn`, `game_started`, `game_finished` or another feature's (`tournament_round_paired`)."))
    def get(self, request):  # pragma: no cover - requests go to player_stream
        raise exceptions.MethodNotAllowed("GET")


for _view, _schema in ((game_events, GameEventsApi), (game_stream, GameStreamSchema),
                       (player_stream, PlayerStreamSchema)):
    _view.cls, _view.initkwargs = _schema, {}
