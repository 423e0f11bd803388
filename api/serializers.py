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
    kind = KindField()
    rules_version = serializers.IntegerField(min_value=1, help_text="The rules version of its kind the game is "
                                             "played by, fixed when it was created (see `GET /kinds/`).")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    version = serializers.IntegerField(min_value=0)
    options = serializers.JSONField()
    seats = SeatOutputSerializer(many=True, source="seats.all")
    to_act = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=MAX_SEAT))
    result = serializers.SerializerMethodField()
    seed_sha256 = serializers.CharField()
    seed_chosen = serializers.BooleanField(help_text="The creator chose the seed or decks (a game with no other "
                                           "person seated; never rated).")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="A pending game is aborted at this time "
                                           "unless every seated player has accepted.")
    abort_reason = serializers.CharField(allow_blank=True, help_text="Why an aborted game ended: `declined`, "
                                         "`expired`.")
    turn_seconds = serializers.IntegerField(allow_null=True, min_value=1)
    clock_policy = serializers.CharField(allow_blank=True)
    rated = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    @extend_schema_field({"type": ["object", "null"], "description": "null until the game ends (and, for a "
                          "sealed duplicate table, to anyone not seated at it until its round is over)"})
    def get_result(self, game):
        player = self.context.get("player")
        seated = player is not None and any(s.player_id == player.id for s in game.seats.all())
        if game.sealed and not seated:
            return None
        return game.result


class EventOutputSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1)
    type = serializers.CharField()
    actor = serializers.IntegerField(allow_null=True, min_value=0, max_value=MAX_SEAT)
    data = serializers.JSONField()
    recorded_at = serializers.DateTimeField(required=False)
