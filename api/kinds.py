"""The games offered: seat counts, options and action schemas; and the bot policies."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema import action_schema
from bots.policies import POLICIES, options_described
from games.engine import registry


class KindListApi(APIView):
    @extend_schema(operation_id="kind_list", responses=inline_serializer("KindList", {
        "kind": serializers.CharField(), "title": serializers.CharField(),
        "seats": serializers.ListField(child=serializers.IntegerField()),
        "options": serializers.JSONField(),
        "actions": serializers.DictField(child=serializers.JSONField(),
                                         help_text="action type -> JSON Schema of the whole action object"),
        "view": serializers.JSONField(help_text="JSON Schema of the kind's view (as `<Kind>View`)"),
        "rules_version": serializers.IntegerField(min_value=1, help_text="the rules version new games are "
                                                  "played by (each game keeps the version it was created with)"),
        "rules_versions": inline_serializer("KindRulesVersion", {
            "version": serializers.IntegerField(min_value=1),
            "changes": serializers.CharField(help_text="what this version changed")}, many=True,
            help_text="every rules version games of this kind may be played by, oldest first")}, many=True))
    def get(self, request):
        return Response([
            {"kind": e.kind, "title": e.title, "seats": list(e.seats),
             "options": {name: spec.describe() for name, spec in e.options.items()},
             "actions": {name: action_schema(e, name) for name in e.action_schemas},
             "view": e.view_schema,
             "rules_version": e.rules_version,
             "rules_versions": [{"version": version, "changes": changes}
                                for version, changes in sorted(e.rules_versions.items())]}
            for e in registry.engines()
        ])


class BotListApi(APIView):
    @extend_schema(operation_id="bot_list", responses=inline_serializer("BotList", {
        "name": serializers.CharField(), "description": serializers.CharField(),
        "kinds": serializers.ListField(child=serializers.CharField(), help_text="the games it plays"),
        "options": serializers.JSONField(help_text="seat options it takes, as in a seat spec "
                                                   "{'bot': name, option: value}: type, default, bounds, "
                                                   "and default_by_kind where a game's default differs")},
        many=True))
    def get(self, request):
        """The bot policies a seat may name, the games each plays and the options each takes."""
        return Response([{"name": bot.name, "description": bot.description,
                          "kinds": [kind for kind in registry.kinds() if bot.plays(kind)],
                          "options": options_described(bot)}
                         for bot in POLICIES.values()])
