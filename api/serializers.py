"""Shapes shared by several endpoints: the game summary, seats, events, and the action field."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.schema import MAX_SEAT, ref
from bots.policies import POLICIES
from games.engine import registry
from games.engine.schema import card
from games.models import Game


@extend_schema_field({"type": "string", "enum": registry.kinds(), "description": "a game kind (`GET /kinds/`)"})
class KindField(serializers.CharField):
    """A kind name; an unknown one is refused by the service (422 `unknown_kind`), so only the schema lists them."""


@extend_schema_field({"type": "string", "pattern": "^(?:[0-9a-fA-F]{2}){8,64}$",
                      "description": "hex, 16 to 128 digits (an even number)"})
class SeedField(serializers.CharField):
    """A secret seed in hex (checked by the service: 400 `invalid_seed`)."""


@extend_schema_field({"type": "string", "pattern": card({c for e in registry.engines() for c in e.card_ids})["pattern"],
                      "description": "a card id (ARCHITECTURE §4)"})
class CardField(serializers.CharField):
    """A card id of some game; whether it belongs to the game is the service's check (422 `invalid_decks`)."""


@extend_schema_field({"type": "string", "enum": list(POLICIES), "description": "a bot policy (`GET /bots/`)"})
class BotField(serializers.CharField):
    """A bot policy name; an unknown one is refused by the service (422 `unknown_bot`)."""


@extend_schema_field(ref("Action"))
class ActionField(serializers.JSONField):
    """An action object of the game's kind (see `api.schema`)."""


@extend_schema_field(ref("View"))
class ViewField(serializers.JSONField):
    """The table as the caller may see it, in the shape of the game's kind."""


class SeatOutputSerializer(serializers.Serializer):
    index = serializers.IntegerField(min_value=0, max_value=MAX_SEAT)
    player = serializers.IntegerField(source="player_id", allow_null=True, min_value=1)
    name = serializers.SerializerMethodField()
    bot = serializers.CharField(allow_blank=True)
    bot_options = serializers.JSONField(help_text="The bot's options as given at creation, e.g. budget_ms.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When this seat's turn clock runs out.")

    def get_name(self, seat) -> str | None:
        return seat.player.name if seat.player_id else None


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = KindField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    version = serializers.IntegerField(min_value=0)
    options = serializers.JSONField()
    seats = SeatOutputSerializer(many=True, source="seats.all")
    to_act = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=MAX_SEAT))
    result = serializers.JSONField(allow_null=True)
    seed_sha256 = serializers.CharField()
    turn_seconds = serializers.IntegerField(allow_null=True, min_value=1)
    clock_policy = serializers.CharField(allow_blank=True)
    rated = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class EventOutputSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1)
    type = serializers.CharField()
    actor = serializers.IntegerField(allow_null=True, min_value=0, max_value=MAX_SEAT)
    data = serializers.JSONField()
    recorded_at = serializers.DateTimeField(required=False)
