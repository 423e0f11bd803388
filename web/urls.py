from django.urls import path

from web import views

app_name = "web"
urlpatterns = [
    path("", views.home, name="home"),
    path("rules/<slug:kind>/", views.rules, name="rules"),
    path("signin/", views.sign_in, name="signin"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/<uuid:game_id>/", views.game_table, name="game-table"),
    path("games/<uuid:game_id>/replay/", views.game_replay, name="game-replay"),
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/new/", views.tournament_new, name="tournament-new"),
    path("tournaments/<uuid:tournament_id>/", views.tournament_detail, name="tournament-detail"),
    path("players/<int:player_id>/", views.player_detail, name="player-detail"),
]
