"""Players: register and receive a token."""

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from api.throttles import RegisterThrottle
from games.services import player_create


@extend_schema_field({"type": "string", "pattern": r"^\w[\w .'-]{0,39}$",
                      "description": "1 to 40 letters, digits, spaces, dots, dashes or apostrophes"})
class NameField(serializers.CharField):
    """A player's name (checked by the service: 400 `invalid_name`)."""


class PlayerCreateApi(APIView):
    authentication_classes: list = []
    throttle_classes = [RegisterThrottle]

    class PlayerCreateInputSerializer(serializers.Serializer):
        name = NameField(max_length=40)

    class PlayerCreateOutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        token = serializers.CharField()

    @extend_schema(request=PlayerCreateInputSerializer, responses={201: PlayerCreateOutputSerializer},
                   operation_id="player_create",
                   summary="Register a player; the answer holds its API token (Authorization: Token <key>)")
    def post(self, request):
        data = self.PlayerCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player, token = player_create(name=data.validated_data["name"])
        return Response(self.PlayerCreateOutputSerializer({"id": player.id, "name": player.name, "token": token}).data,
                        status=status.HTTP_201_CREATED)
