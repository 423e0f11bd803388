"""The games offered: seat counts, options and action schemas; and the bot policies."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from bots.policies import POLICIES
from games.engine import registry


class KindListApi(APIView):
    @extend_schema(operation_id="kind_list", responses=inline_serializer("KindList", {
        "kind": serializers.CharField(), "title": serializers.CharField(),
        "seats": serializers.ListField(child=serializers.IntegerField()),
        "options": serializers.JSONField(), "actions": serializers.JSONField()}, many=True))
    def get(self, request):
        return Response([
            {"kind": e.kind, "title": e.title, "seats": list(e.seats),
             "options": {name: spec.describe() for name, spec in e.options.items()},
             "actions": dict(e.action_schemas)}
            for e in registry.engines()
        ])


class BotListApi(APIView):
    @extend_schema(operation_id="bot_list", responses=inline_serializer("BotList", {
        "name": serializers.CharField(), "description": serializers.CharField(),
        "kinds": serializers.ListField(child=serializers.CharField())}, many=True))
    def get(self, request):
        return Response([{"name": name, "description": text, "kinds": registry.kinds()}
                         for name, (_, text) in POLICIES.items()])
