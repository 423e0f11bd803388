from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments and ratings. Their models keep the `games` app label (see `tournaments.models`)."""

    name = "tournaments"
    label = "tournaments"

    def ready(self) -> None:
        from games import hooks
        from tournaments import subscribers

        hooks.subscribe(subscribers.rate_finished_game, order=20)
        hooks.subscribe(subscribers.advance_tournament_of_game, order=30)
