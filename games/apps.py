from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import clocks, hooks
        from games.caches import ReadCaches
        from games.rows import RowReads

        self.caches = ReadCaches()  # this process's read caches (games.caches)
        self.rows = RowReads()  # the hot one-row reads, written once per database (games.rows)

        hooks.subscribe(clocks.clock_check, order=10)
