from django.apps import AppConfig


class BotsConfig(AppConfig):
    """Bot seats: the policies (pure), and the services and tasks that play a bot's turn."""

    name = "bots"
    label = "bots"

    def ready(self) -> None:
        from bots import subscribers
        from games import hooks

        hooks.subscribe(subscribers.bot_turn, order=0)  # first: on the critical path of a bot's reply
