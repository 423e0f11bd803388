"""Game endpoints: create, list, summary, state, actions, events, replay, export."""

from __future__ import annotations

import re

import django_filters
from django.conf import settings
from django.db import IntegrityError, transaction
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from api.base import GameEndpoint, caller, int_param
from api.pagination import Pagination
from api.schema import MAX_SEAT, PAGE, SEAT, integer, paginated
from api.serializers import (
    ActionField,
    CardField,
    EventOutputSerializer,
    GameSummarySerializer,
    KindField,
    SeedField,
    ViewField,
)
from api.throttles import ActionThrottle, GameCreateThrottle
from bots.policies import POLICIES
from games import selectors, services
from games.exceptions import BadRequest, Conflict, NotFound, Unprocessable
from games.models import ClockPolicy, Game, IdempotencyRecord

IDEMPOTENCY = OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
                               description="1 to 128 printable ASCII characters. A retried request with the same "
                               "key returns the first answer (a retry sent while the first still runs waits for it).")


MAX_IDEMPOTENCY_KEY = IdempotencyRecord._meta.get_field("key").max_length
_IDEMPOTENCY_KEY = re.compile(rf"[\x20-\x7e]{{1,{MAX_IDEMPOTENCY_KEY}}}")


def idempotency_key(request) -> str | None:
    """The request's Idempotency-Key: absent (None), or 1 to 128 printable ASCII characters (else a 400)."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not _IDEMPOTENCY_KEY.fullmatch(key) or not key.strip():
        raise BadRequest("invalid_idempotency_key",
                         f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} printable ASCII characters")
    return key


def idempotent(request, make_response):
    """Run `make_response` at most once per (player, Idempotency-Key); retries get the first answer.

    The pair is locked inside the transaction before it is looked up, so a retry that arrives while the first
    request still runs waits for it and replays its answer instead of running again. An answer that raised
    (a 4xx) is not recorded: a retry runs afresh."""
    key = idempotency_key(request)
    player = caller(request)
    if key is None or player is None:
        return make_response()
    fingerprint = services.request_fingerprint(method=request.method, path=request.path, body=request.data)
    try:
        with transaction.atomic():
            services.idempotency_lock(player=player, key=key)
            record = services.idempotency_lookup(player=player, key=key, fingerprint=fingerprint)
            if record is None:
                response = make_response()
                services.idempotency_record(player=player, key=key, fingerprint=fingerprint,
                                            status_code=response.status_code, body=response.data)
                return response
    except IntegrityError:
        # Only a writer that skipped the lock could have stored the pair meanwhile: its answer stands.
        record = services.idempotency_lookup(player=player, key=key, fingerprint=fingerprint)
        if record is None:
            raise
    return Response(record.body, status=record.status_code, headers={"Idempotent-Replayed": "true"})


def check_bot_budgets(seats: list[dict]) -> None:
    """A bot's thinking time per move is this server's to bound (MAX_BOT_BUDGET_MS): each move of it holds a
    worker that long."""
    limit = settings.MAX_BOT_BUDGET_MS
    for index, seat in enumerate(seats):
        if seat.get("budget_ms", 0) > limit:
            raise Unprocessable("bot_budget_too_large", f"seats[{index}]: budget_ms may be at most {limit} on "
                                                        "this server", limit=limit)


class GameFilter(django_filters.FilterSet):
    kind = django_filters.CharFilter()
    status = django_filters.ChoiceFilter(choices=Game.Status.choices)
    player = django_filters.NumberFilter(field_name="seats__player_id", distinct=True)

    class Meta:
        model = Game
        fields = ["kind", "status", "player"]


@extend_schema_field({"type": "array", "minItems": 1, "maxItems": 8, "items": {"oneOf": [
    {"type": "object", "properties": {"player": {"type": "integer", "minimum": 1}}, "required": ["player"],
     "additionalProperties": False, "title": "a player's seat"},
    {"type": "object", "properties": {
        "bot": {"type": "string", "enum": list(POLICIES), "description": "a bot policy (`GET /bots/`)"},
        "budget_ms": {"type": "integer", "minimum": 1, "maximum": 60_000}},
     "required": ["bot"], "additionalProperties": False, "title": "a bot's seat"}]}})
class SeatsField(serializers.ListField):
    """The seats in order: each `{"player": id}` or `{"bot": name}` (with the bot's options)."""


class GameListCreateApi(APIView):
    throttle_classes = [GameCreateThrottle]

    class GameListCreateInputSerializer(serializers.Serializer):
        class SeatSerializer(serializers.Serializer):
            player = serializers.IntegerField(required=False, min_value=1)
            bot = serializers.CharField(required=False, max_length=32)
            budget_ms = serializers.IntegerField(required=False, min_value=1, max_value=60_000)

            def validate(self, attrs):
                if ("player" in attrs) == ("bot" in attrs):
                    raise serializers.ValidationError("a seat is either {'player': id} or {'bot': name}")
                return attrs

        kind = KindField(max_length=32)
        seats = SeatsField(child=SeatSerializer(), allow_empty=False, min_length=1, max_length=8)
        options = serializers.DictField(required=False, default=dict)
        seed = SeedField(required=False, max_length=128)
        decks = serializers.ListField(child=serializers.ListField(child=CardField(max_length=4),
                                                                  max_length=120), required=False, max_length=64)
        first_dealer = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEAT)
        turn_seconds = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                                max_value=services.MAX_TURN_SECONDS)
        clock_policy = serializers.ChoiceField(choices=ClockPolicy.choices, required=False)
        rated = serializers.BooleanField(required=False,
                                         help_text="default: true when every seat is a different player")

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="game_list", parameters=[
        OpenApiParameter("kind", str), OpenApiParameter("status", str, enum=[c for c, _ in Game.Status.choices]),
        OpenApiParameter("player", integer(1)), *PAGE],
        responses=paginated("PaginatedGameList", GameSummarySerializer(many=True)))
    def get(self, request):
        games = GameFilter(request.query_params, queryset=selectors.game_list())
        if not games.is_valid():
            raise serializers.ValidationError(games.errors)
        paginator = Pagination()
        page = paginator.paginate_queryset(games.qs, request, view=self)
        return paginator.get_paginated_response(
            GameSummarySerializer(page, many=True, context={"player": caller(request)}).data)

    @extend_schema(operation_id="game_create", request=GameListCreateInputSerializer, parameters=[IDEMPOTENCY],
                   responses={201: GameSummarySerializer})
    def post(self, request):
        data = self.GameListCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        check_bot_budgets(data.validated_data["seats"])

        def create():
            player = caller(request)
            game = services.game_create(creator=player, **data.validated_data)
            return Response(GameSummarySerializer(game, context={"player": player}).data,
                            status=status.HTTP_201_CREATED)

        return idempotent(request, create)


class GameDetailApi(GameEndpoint):
    shows_cards = False

    @extend_schema(operation_id="game_detail", responses=GameSummarySerializer)
    def get(self, request, game_id):
        return Response(GameSummarySerializer(self.game, context={"player": self.player}).data)


def _answer_invitation(request, game_id, answer) -> Response:
    """The caller's answer (`services.game_accept` or `game_decline`) to a pending game, and its summary."""
    player = caller(request)
    game = answer(game_id=game_id, player=player)
    return Response(GameSummarySerializer(game, context={"player": player}).data)


class GameAcceptApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="game_accept", request=None, responses=GameSummarySerializer)
    def post(self, request, game_id):
        """Accept the invitation to a game you are seated in; the last acceptance deals it."""
        return _answer_invitation(request, game_id, services.game_accept)


class GameDeclineApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="game_decline", request=None, responses=GameSummarySerializer)
    def post(self, request, game_id):
        """Decline a pending game you are seated in (its creator may withdraw it too): it is aborted."""
        return _answer_invitation(request, game_id, services.game_decline)


class GameStateApi(GameEndpoint):
    class GameStateOutputSerializer(serializers.Serializer):
        version = serializers.IntegerField(min_value=0)
        status = serializers.ChoiceField(choices=Game.Status.choices)
        seat = serializers.IntegerField(allow_null=True, min_value=0, max_value=MAX_SEAT)
        to_act = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=MAX_SEAT))
        view = ViewField()
        legal_actions = serializers.ListField(child=ActionField())
        result = serializers.JSONField(allow_null=True)
        deadlines = serializers.ListField(child=serializers.DateTimeField(allow_null=True),
                                          help_text="Each seat's turn-clock deadline (null where none runs).")

    @extend_schema(operation_id="game_state", parameters=[SEAT], responses=GameStateOutputSerializer)
    def get(self, request, game_id):
        return Response(state_body(selectors.game_state(game=self.game, seat=self.seat, seats=self.seats)))


_DATETIME = serializers.DateTimeField()
_EVENT_FIELDS = tuple(EventOutputSerializer().fields)


def state_body(state: dict) -> dict:
    """`GameStateOutputSerializer`'s output, built directly: the state is plain JSON already but for the
    deadlines, and a serializer would deep-copy its fields for every answer (a millisecond on the move path)."""
    return {**state, "deadlines": [_DATETIME.to_representation(d) if d is not None else None
                                   for d in state["deadlines"]]}


def events_body(events: list[dict]) -> list[dict]:
    """`EventOutputSerializer(many=True)`'s output for freshly redacted events, built directly."""
    return [{name: event[name] for name in _EVENT_FIELDS if name in event} for event in events]


class GameActionApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ActionThrottle]

    class GameActionInputSerializer(serializers.Serializer):
        action = ActionField()
        expected_version = serializers.IntegerField(required=False, min_value=0)
        seat = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEAT)

    class GameActionOutputSerializer(serializers.Serializer):
        version = serializers.IntegerField(min_value=0)
        status = serializers.ChoiceField(choices=Game.Status.choices)
        to_act = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=MAX_SEAT),
                                       help_text="The seats to act at the new version.")
        events = EventOutputSerializer(many=True)
        state = GameStateApi.GameStateOutputSerializer(
            allow_null=True, help_text="The mover's state at the new version, as `GET /state/` gives it, while "
            "its seat is still to act: its next move needs no read. Null when the move handed the turn on or "
            "ended the game (read `/state/`, or wait on `/events/?wait=`, when your turn comes).")

    @extend_schema(operation_id="game_action", request=GameActionInputSerializer, parameters=[IDEMPOTENCY],
                   responses={201: GameActionOutputSerializer})
    def post(self, request, game_id):
        """Play one action. The answer is what the mover needs next: the new version, the seats to act, the
        new events as the mover may see them and, while the mover is still to act, its next state."""
        data = self.GameActionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def act():
            move = services.game_apply_action(game_id=game_id, player=caller(request), **data.validated_data)
            game = move.game
            still = game.status == Game.Status.ACTIVE and move.seat in game.to_act
            state = selectors.game_state(game=game, seat=move.seat, seats=move.seats,
                                         position=move.position) if still else None
            body = {"version": game.version, "status": game.status, "to_act": list(game.to_act),
                    "events": events_body(move.events), "state": state_body(state) if state else None}
            return Response(body, status=status.HTTP_201_CREATED)

        return idempotent(request, act)


class GameEventsApi(GameEndpoint):
    @extend_schema(operation_id="game_events", parameters=[
        OpenApiParameter("after", integer(0), description="only the events after this seq"), SEAT,
        OpenApiParameter("wait", integer(0, 60), description="Long poll: if nothing follows `after`, wait up to "
                         "this many seconds (at most 60) for the next event; an empty list means none came.")],
        responses=EventOutputSerializer(many=True))
    def get(self, request, game_id):
        after = int_param(request, "after", 0)
        int_param(request, "wait", 0)  # served by api.streams.game_events; checked here for the 400
        return Response(EventOutputSerializer(
            selectors.game_events(game=self.game, viewer=self.seat, after=after), many=True).data)


def _rules_version() -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, help_text="the rules version the game is played by (fixed when "
                                    "it was created; see `GET /kinds/`)")


class GameReplayApi(GameEndpoint):
    @extend_schema(operation_id="game_replay", parameters=[SEAT], responses=inline_serializer("ReplayIndex", {
        "version": serializers.IntegerField(min_value=0), "rules_version": _rules_version(),
        "steps": inline_serializer("ReplayIndexStep", {
            "step": serializers.IntegerField(min_value=1), "type": serializers.CharField(),
            "actor": serializers.IntegerField(allow_null=True, min_value=0, max_value=MAX_SEAT)}, many=True)}))
    def get(self, request, game_id):
        """The steps of the game: step n is the position after event n."""
        events = selectors.game_events(game=self.game, viewer=self.seat)
        steps = [{"step": e["seq"], "type": e["type"], "actor": e["actor"]} for e in events]
        return Response({"version": self.game.version, "rules_version": self.game.rules_version, "steps": steps})


class GameReplayStepApi(GameEndpoint):
    @extend_schema(operation_id="game_replay_step", parameters=[
        SEAT, OpenApiParameter("step", integer(1), OpenApiParameter.PATH, description="the position after event n")],
        responses=inline_serializer("ReplayStep", {
            "step": serializers.IntegerField(min_value=1), "version": serializers.IntegerField(min_value=0),
            "rules_version": _rules_version(),
            "to_act": serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=MAX_SEAT)),
            "view": ViewField(allow_null=True)}))
    def get(self, request, game_id, step):
        if step < 1 or step > self.game.version:
            raise NotFound("no_such_step", f"steps run from 1 to {self.game.version}")
        return Response(selectors.game_replay(game=self.game, step=step, viewer=self.seat))


class GameExportApi(GameEndpoint):
    @extend_schema(operation_id="game_export", responses=inline_serializer("GameExport", {
        "id": serializers.UUIDField(), "kind": serializers.CharField(),
        "rules_version": _rules_version(), "seed": serializers.CharField(),
        "seed_sha256": serializers.CharField(), "events": serializers.ListField(child=serializers.JSONField()),
        "verification": serializers.JSONField()}))
    def get(self, request, game_id):
        if not self.game.is_over:
            raise Conflict("game_running", "a game can be exported once it is over (its seed is still secret)")
        if self.game.version == 0:
            raise Conflict("game_not_started", "the game was aborted before it was dealt: there is no log")
        if not selectors.log_is_public(self.game):
            raise Conflict("game_sealed", "this game's deal is still in play at other tables of its round")
        return Response(selectors.game_export(game=self.game))
