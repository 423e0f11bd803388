"""Shapes shared by several endpoints: the game summary, seats, events, and the action field."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.engine import registry


def _all_action_schemas() -> list[dict]:
    schemas = []
    for engine in registry.engines():
        for name, schema in engine.action_schemas.items():
            schemas.append({**schema, "title": f"{engine.kind}: {name}"})
    return schemas


@extend_schema_field({"oneOf": _all_action_schemas(), "description": "An action object of the game's kind; "
                      "`GET /api/v1/kinds/` lists each kind's schemas, and `legal_actions` in the state holds "
                      "complete actions that can be sent as they are."})
class ActionField(serializers.JSONField):
    pass


class SeatOutputSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id", allow_null=True)
    name = serializers.SerializerMethodField()
    bot = serializers.CharField(allow_blank=True)
    bot_options = serializers.JSONField(help_text="The bot's options as given at creation, e.g. budget_ms.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When this seat's turn clock runs out.")
    accepted = serializers.SerializerMethodField(help_text="Whether the seated player agreed to play (an invited "
                                                 "player accepts with `POST /games/{id}/accept/`); true for bots.")

    def get_accepted(self, seat) -> bool:
        return seat.accepted_at is not None

    def get_name(self, seat) -> str | None:
        return seat.player.name if seat.player_id else None


class GameSummarySerializer(serializers.Serializer):
    """A game's head. Give the caller as `context={"player": ...}`: a sealed table's result is shown only
    to its own players."""

    id = serializers.UUIDField()
    kind = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    options = serializers.JSONField()
    seats = SeatOutputSerializer(many=True, source="seats.all")
    to_act = serializers.ListField(child=serializers.IntegerField())
    result = serializers.SerializerMethodField()
    seed_sha256 = serializers.CharField()
    seed_chosen = serializers.BooleanField(help_text="The creator chose the seed or decks (a game with no other "
                                           "person seated; never rated).")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="A pending game is aborted at this time "
                                           "unless every seated player has accepted.")
    abort_reason = serializers.CharField(allow_blank=True, help_text="Why an aborted game ended: `declined`, "
                                         "`expired`.")
    turn_seconds = serializers.IntegerField(allow_null=True)
    clock_policy = serializers.CharField(allow_blank=True)
    rated = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    @extend_schema_field({"type": "object", "nullable": True, "description": "null until the game ends"})
    def get_result(self, game):
        player = self.context.get("player")
        seated = player is not None and any(s.player_id == player.id for s in game.seats.all())
        if game.sealed and not seated:
            return None
        return game.result


class EventOutputSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    actor = serializers.IntegerField(allow_null=True)
    data = serializers.JSONField()
    recorded_at = serializers.DateTimeField(required=False)
