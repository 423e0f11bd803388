from django.urls import path

from api import games, kinds, players

urlpatterns = [
    path("players/", players.PlayerCreateApi.as_view(), name="player-create"),
    path("kinds/", kinds.KindListApi.as_view(), name="kind-list"),
    path("bots/", kinds.BotListApi.as_view(), name="bot-list"),
    path("games/", games.GameListCreateApi.as_view(), name="game-list"),
    path("games/<uuid:game_id>/", games.GameDetailApi.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/state/", games.GameStateApi.as_view(), name="game-state"),
    path("games/<uuid:game_id>/actions/", games.GameActionApi.as_view(), name="game-actions"),
    path("games/<uuid:game_id>/events/", games.GameEventsApi.as_view(), name="game-events"),
    path("games/<uuid:game_id>/replay/", games.GameReplayApi.as_view(), name="game-replay"),
    path("games/<uuid:game_id>/replay/<int:step>/", games.GameReplayStepApi.as_view(), name="game-replay-step"),
    path("games/<uuid:game_id>/export/", games.GameExportApi.as_view(), name="game-export"),
]
