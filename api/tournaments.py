"""Tournament and rating endpoints: create, register, start, cancel, rounds, standings (JSON or CSV),
leaderboards and rating histories. Thin views over tournaments.services and .selectors."""

from __future__ import annotations

import csv
import io

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from api.base import caller, int_param
from api.pagination import Pagination
from api.schema import MAX_SEAT, PAGE, integer, paginated
from api.serializers import BotField, KindField, SeedField
from api.throttles import TournamentCreateThrottle
from games.engine import registry
from tournaments import selectors, services
from tournaments.models import Tournament

ROUND = OpenApiParameter("round", integer(1, services.MAX_ROUNDS),
                         description="standings after this round (default: the latest)")
STANDING_COLUMNS = ["rank", "number", "name", "points", "game_points", "buchholz", "sonneborn_berger", "played",
                    "wins", "byes", "stage"]


class EntrantOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(min_value=1)
    number = serializers.IntegerField(min_value=1)
    name = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True, min_value=1)
    bot = serializers.CharField(allow_blank=True)


class TournamentOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    kind = serializers.CharField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    options = serializers.JSONField()
    table_size = serializers.IntegerField(min_value=1, max_value=16)
    rounds = serializers.IntegerField(allow_null=True, min_value=1)
    turn_seconds = serializers.IntegerField(allow_null=True, min_value=1)
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    organiser = serializers.IntegerField(source="organiser_id", allow_null=True, min_value=1)
    current_round = serializers.IntegerField(min_value=0)
    entrants = EntrantOutputSerializer(many=True, source="entrant_list")
    seed = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_seed(self, tournament) -> str | None:
        """Every game's seed derives from it: revealed only once every game is over."""
        return tournament.seed if tournament.status == Tournament.Status.FINISHED else None


def _tournament_body(tournament: Tournament) -> dict:
    tournament.entrant_list = selectors.entrants_of(tournament=tournament)
    return TournamentOutputSerializer(tournament).data


class TournamentListCreateApi(APIView):
    throttle_classes = [TournamentCreateThrottle]

    class TournamentCreateInputSerializer(serializers.Serializer):
        name = serializers.CharField(required=False, max_length=80)
        kind = KindField(max_length=32)
        format = serializers.ChoiceField(choices=Tournament.Format.choices)
        rounds = serializers.IntegerField(required=False, min_value=1, max_value=services.MAX_ROUNDS)
        options = serializers.DictField(required=False, default=dict)
        table_size = serializers.IntegerField(required=False, min_value=1, max_value=16)
        turn_seconds = serializers.IntegerField(required=False, min_value=1, max_value=services.MAX_TURN_SECONDS)
        seed = SeedField(required=False, max_length=128)

    class TournamentListOutputSerializer(serializers.Serializer):
        id = serializers.UUIDField()
        name = serializers.CharField()
        kind = serializers.CharField()
        format = serializers.ChoiceField(choices=Tournament.Format.choices)
        status = serializers.ChoiceField(choices=Tournament.Status.choices)
        table_size = serializers.IntegerField(min_value=1, max_value=16)
        rounds = serializers.IntegerField(allow_null=True, min_value=1)
        current_round = serializers.IntegerField(min_value=0)
        created_at = serializers.DateTimeField()

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="tournament_list", parameters=[
        OpenApiParameter("status", str, enum=Tournament.Status.values), OpenApiParameter("kind", str), *PAGE],
        responses=paginated("PaginatedTournamentList", TournamentListOutputSerializer(many=True)))
    def get(self, request):
        wanted = request.query_params.get("status")
        if wanted and wanted not in Tournament.Status.values:
            raise serializers.ValidationError({"status": [f"must be one of {Tournament.Status.values}"]})
        tournaments = selectors.tournament_list(status=wanted, kind=request.query_params.get("kind"))
        paginator = Pagination()
        page = paginator.paginate_queryset(tournaments, request, view=self)
        return paginator.get_paginated_response(self.TournamentListOutputSerializer(page, many=True).data)

    @extend_schema(operation_id="tournament_create", request=TournamentCreateInputSerializer,
                   responses={201: TournamentOutputSerializer})
    def post(self, request):
        data = self.TournamentCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_create(organiser=caller(request), **data.validated_data)
        return Response(_tournament_body(tournament), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    @extend_schema(operation_id="tournament_detail", responses=TournamentOutputSerializer)
    def get(self, request, tournament_id):
        return Response(_tournament_body(selectors.tournament_get(tournament_id=tournament_id)))


class TournamentEntrantsApi(APIView):
    permission_classes = [IsAuthenticated]

    class TournamentRegisterInputSerializer(serializers.Serializer):
        bot = BotField(required=False, max_length=32,
                                    help_text="organiser only: add a bot entrant instead of registering yourself")

    @extend_schema(operation_id="tournament_register", request=TournamentRegisterInputSerializer,
                   responses={201: EntrantOutputSerializer})
    def post(self, request, tournament_id):
        """Register yourself, or (the organiser) add a bot entrant `{"bot": "random"}`."""
        data = self.TournamentRegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entrant = services.tournament_register(tournament_id=tournament_id, by=caller(request),
                                               bot=data.validated_data.get("bot"))
        return Response(EntrantOutputSerializer(entrant).data, status=status.HTTP_201_CREATED)


class TournamentStartApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournament_start", request=None, responses=TournamentOutputSerializer)
    def post(self, request, tournament_id):
        """Close registration and pair round one (organiser only)."""
        tournament = services.tournament_start(tournament_id=tournament_id, by=caller(request))
        return Response(_tournament_body(tournament))


class TournamentCancelApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournament_cancel", request=None, responses=TournamentOutputSerializer)
    def post(self, request, tournament_id):
        """Stop the tournament (organiser only); games already running are played out."""
        tournament = services.tournament_cancel(tournament_id=tournament_id, by=caller(request))
        return Response(_tournament_body(tournament))


class TournamentRoundsApi(APIView):
    @extend_schema(operation_id="tournament_rounds", responses=inline_serializer("TournamentRound", {
        "number": serializers.IntegerField(min_value=1), "finished": serializers.BooleanField(),
        "tables": serializers.ListField(child=serializers.JSONField()),
        "byes": serializers.ListField(child=serializers.JSONField())}, many=True))
    def get(self, request, tournament_id):
        tournament = selectors.tournament_get(tournament_id=tournament_id)
        return Response(selectors.tournament_rounds(tournament=tournament))


class StandingsCsvRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=STANDING_COLUMNS, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(data["standings"])
        return out.getvalue().encode(self.charset)


class TournamentStandingsApi(APIView):
    renderer_classes = [JSONRenderer, StandingsCsvRenderer]

    @extend_schema(operation_id="tournament_standings", parameters=[
        ROUND, OpenApiParameter("format", str, enum=["json", "csv"])],
        responses=inline_serializer("TournamentStandings", {
            "tournament": serializers.UUIDField(), "format": serializers.CharField(),
            "round": serializers.IntegerField(min_value=0), "final": serializers.BooleanField(),
            "standings": serializers.ListField(child=serializers.JSONField())}))
    def get(self, request, tournament_id, **kwargs):
        """Rank, points and tie-breaks of every entrant; `?format=csv` (or `/standings.csv`) for a CSV."""
        tournament = selectors.tournament_get(tournament_id=tournament_id)
        upto = int_param(request, "round", None, minimum=1)
        body = selectors.tournament_standings(tournament=tournament, upto=upto)
        headers = {}
        if getattr(request, "accepted_renderer", None) and request.accepted_renderer.format == "csv":
            headers["Content-Disposition"] = f'attachment; filename="standings-{tournament.id}-{body["round"]}.csv"'
        return Response(body, headers=headers)

    def handle_exception(self, exc):
        """Errors are JSON whatever format was asked for."""
        self._answer_json()
        return super().handle_exception(exc)

    def options(self, request, *args, **kwargs):
        """The endpoint's description is JSON too: the CSV renderer knows only standings."""
        self._answer_json()
        return super().options(request, *args, **kwargs)

    def _answer_json(self) -> None:
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type


class TournamentStandingsCsvApi(TournamentStandingsApi):
    renderer_classes = [StandingsCsvRenderer]

    @extend_schema(operation_id="tournament_standings_csv", parameters=[ROUND],
        responses={(200, "text/csv"): str})
    def get(self, request, tournament_id, **kwargs):
        """The standings as CSV: rank, number, name, points and tie-breaks."""
        return super().get(request, tournament_id)


class RatingLeaderboardApi(APIView):
    class RatingOutputSerializer(serializers.Serializer):
        player = serializers.IntegerField(source="player_id", min_value=1)
        name = serializers.CharField(source="player.name")
        rating = serializers.FloatField(source="ordinal")
        mu = serializers.FloatField()
        sigma = serializers.FloatField()
        games = serializers.IntegerField(min_value=0)

    @extend_schema(operation_id="rating_leaderboard", parameters=[
        OpenApiParameter("kind", {"type": "string", "enum": registry.kinds()}, OpenApiParameter.PATH), *PAGE],
                   responses=paginated("PaginatedRatingList", RatingOutputSerializer(many=True)))
    def get(self, request, kind):
        """Players by rating (mu - 3 sigma, openskill Plackett-Luce) at one game kind, best first."""
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.rating_leaderboard(kind=kind), request, view=self)
        return paginator.get_paginated_response(self.RatingOutputSerializer(page, many=True).data)


class PlayerRatingsApi(APIView):
    class PlayerRatingChangeOutputSerializer(serializers.Serializer):
        game = serializers.UUIDField(source="game_id")
        kind = serializers.CharField()
        seat = serializers.IntegerField(min_value=0, max_value=MAX_SEAT)
        place = serializers.IntegerField(min_value=1)
        rating = serializers.FloatField(source="ordinal")
        mu = serializers.FloatField()
        sigma = serializers.FloatField()
        mu_before = serializers.FloatField()
        sigma_before = serializers.FloatField()
        created_at = serializers.DateTimeField()

    class PlayerRatingOutputSerializer(serializers.Serializer):
        kind = serializers.CharField()
        rating = serializers.FloatField(source="ordinal")
        mu = serializers.FloatField()
        sigma = serializers.FloatField()
        games = serializers.IntegerField(min_value=0)

    @extend_schema(operation_id="player_ratings", parameters=[
        OpenApiParameter("kind", str), OpenApiParameter("player_id", integer(1), OpenApiParameter.PATH)],
                   responses=inline_serializer("PlayerRatings", {
                       "player": serializers.IntegerField(min_value=1), "name": serializers.CharField(),
                       "ratings": PlayerRatingOutputSerializer(many=True),
                       "history": PlayerRatingChangeOutputSerializer(many=True)}))
    def get(self, request, player_id):
        """A player's current rating per kind and its history, newest change first (at most 500)."""
        player, ratings, changes = selectors.rating_history(player_id=player_id,
                                                            kind=request.query_params.get("kind"))
        return Response({
            "player": player.id, "name": player.name,
            "ratings": self.PlayerRatingOutputSerializer(ratings, many=True).data,
            "history": self.PlayerRatingChangeOutputSerializer(changes[:500], many=True).data,
        })
