from django.urls import path

from api import games, kinds, players, streams, tournaments

urlpatterns = [
    path("players/", players.PlayerCreateApi.as_view(), name="player-create"),
    path("players/me/stream/", streams.player_stream, name="player-stream"),
    path("kinds/", kinds.KindListApi.as_view(), name="kind-list"),
    path("bots/", kinds.BotListApi.as_view(), name="bot-list"),
    path("games/", games.GameListCreateApi.as_view(), name="game-list"),
    path("games/<uuid:game_id>/", games.GameDetailApi.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/state/", games.GameStateApi.as_view(), name="game-state"),
    path("games/<uuid:game_id>/actions/", games.GameActionApi.as_view(), name="game-actions"),
    path("games/<uuid:game_id>/events/", streams.game_events, name="game-events"),
    path("games/<uuid:game_id>/stream/", streams.game_stream, name="game-stream"),
    path("games/<uuid:game_id>/replay/", games.GameReplayApi.as_view(), name="game-replay"),
    path("games/<uuid:game_id>/replay/<int:step>/", games.GameReplayStepApi.as_view(), name="game-replay-step"),
    path("games/<uuid:game_id>/export/", games.GameExportApi.as_view(), name="game-export"),
    path("tournaments/", tournaments.TournamentListCreateApi.as_view(), name="tournament-list"),
    path("tournaments/<uuid:tournament_id>/", tournaments.TournamentDetailApi.as_view(), name="tournament-detail"),
    path("tournaments/<uuid:tournament_id>/entrants/", tournaments.TournamentEntrantsApi.as_view(),
         name="tournament-entrants"),
    path("tournaments/<uuid:tournament_id>/start/", tournaments.TournamentStartApi.as_view(), name="tournament-start"),
    path("tournaments/<uuid:tournament_id>/cancel/", tournaments.TournamentCancelApi.as_view(),
         name="tournament-cancel"),
    path("tournaments/<uuid:tournament_id>/rounds/", tournaments.TournamentRoundsApi.as_view(),
         name="tournament-rounds"),
    path("tournaments/<uuid:tournament_id>/standings/", tournaments.TournamentStandingsApi.as_view(),
         name="tournament-standings"),
    path("tournaments/<uuid:tournament_id>/standings.csv", tournaments.TournamentStandingsCsvApi.as_view(),
         name="tournament-standings-csv"),
    path("ratings/<str:kind>/", tournaments.RatingLeaderboardApi.as_view(), name="rating-leaderboard"),
    path("players/<int:player_id>/ratings/", tournaments.PlayerRatingsApi.as_view(), name="player-ratings"),
]
