from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import clocks, hooks
        from games.caches import ReadCaches

        self.caches = ReadCaches()  # this process's read caches (games.caches)

        hooks.subscribe(clocks.clock_check, order=10)
