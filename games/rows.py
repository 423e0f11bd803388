"""Model instances read with hand-written SQL, for the one-row reads that every authenticated game request
makes: the token with its user and player, and the game's head row.

Django compiles a queryset's SQL anew at every call. For these reads by key that costs several times the
database round trip (on a 2-core machine, 1.3-1.8 ms of Python against 0.3-0.4 ms for the same row read
here; docs/move-path.md). The SQL is written once per database from the models' own field lists, and every
value goes through the converters the ORM would apply, so the instances equal those `objects.get()` gives,
on PostgreSQL and on SQLite alike (tests/test_rows.py compares them field by field).

The written SQL and converters are held by the games app (`row_reads()`), like its read caches: they say
only how the models are laid out, so they never go stale.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connections
from django.db.models import Model
from rest_framework.authtoken.models import Token

from games.models import Game, Player


class Columns:
    """One model's concrete columns under a table alias: their SQL, and how a row's values become an instance."""

    def __init__(self, model: type[Model], alias: str, connection: Any) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.names = [field.attname for field in self.fields]
        quote = connection.ops.quote_name
        self.sql = ", ".join(f"{alias}.{quote(field.column)}" for field in self.fields)
        self.converters = [(i, converters) for i, field in enumerate(self.fields)
                           if (converters := connection.ops.get_db_converters(field.get_col(alias))
                               + field.get_db_converters(connection))]

    def __len__(self) -> int:
        return len(self.fields)

    def instance(self, values: list | tuple, connection: Any) -> Model:
        """The instance whose row holds `values` (in `sql`'s order), as the ORM would load it."""
        values = list(values)
        for i, converters in self.converters:
            for convert in converters:
                values[i] = convert(values[i], self.fields[i], connection)
        return self.model.from_db(connection.alias, self.names, values)


class Statements:
    """The two reads, written for one database."""

    def __init__(self, connection: Any) -> None:
        quote = connection.ops.quote_name
        user_model = get_user_model()
        self.game = Columns(Game, "g", connection)
        self.game_sql = (f"SELECT {self.game.sql} FROM {quote(Game._meta.db_table)} g "
                         f"WHERE g.{quote(Game._meta.pk.column)} = %s")
        self.token, self.user = Columns(Token, "t", connection), Columns(user_model, "u", connection)
        self.player = Columns(Player, "p", connection)
        user_pk = quote(user_model._meta.pk.column)
        self.token_sql = (
            f"SELECT {self.token.sql}, {self.user.sql}, {self.player.sql} FROM {quote(Token._meta.db_table)} t "
            f"JOIN {quote(user_model._meta.db_table)} u ON u.{user_pk} = t.{quote(Token.user.field.column)} "
            f"LEFT JOIN {quote(Player._meta.db_table)} p ON p.{quote(Player.user.field.column)} = u.{user_pk} "
            f"WHERE t.{quote(Token._meta.pk.column)} = %s")


class RowReads:
    """The statements for each database alias, written at first use."""

    def __init__(self) -> None:
        self._statements: dict[str, Statements] = {}

    def statements(self, connection: Any) -> Statements:
        written = self._statements.get(connection.alias)
        if written is None:
            written = self._statements[connection.alias] = Statements(connection)
        return written


def row_reads() -> RowReads:
    """This process's written statements, held by the games app (`GamesConfig.rows`)."""
    return apps.get_app_config("games").rows


def _one_row(connection: Any, sql: str, params: list) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def game_by_id(game_id: Any, using: str = "default") -> Game | None:
    """The game's row as it is now (its head), or None: what `Game.objects.get(pk=game_id)` loads."""
    connection = connections[using]
    written = row_reads().statements(connection)
    row = _one_row(connection, written.game_sql, [Game._meta.pk.get_db_prep_value(game_id, connection)])
    return written.game.instance(row, connection) if row is not None else None


def token_with_player(key: str, using: str = "default") -> Token | None:
    """The token of `key` with its user, and the user's player when it has one (`user.player`), in one
    statement: what `Token.objects.select_related("user__player").get(key=key)` loads."""
    connection = connections[using]
    written = row_reads().statements(connection)
    row = _one_row(connection, written.token_sql, [key])
    if row is None:
        return None
    users_from, players_from = len(written.token), len(written.token) + len(written.user)
    token = written.token.instance(row[:users_from], connection)
    user = written.user.instance(row[users_from:players_from], connection)
    player = (written.player.instance(row[players_from:], connection)
              if row[players_from] is not None else None)
    # The relations as select_related sets them, so following them asks nothing more.
    Token.user.field.set_cached_value(token, user)
    Player.user.field.remote_field.set_cached_value(user, player)
    if player is not None:
        Player.user.field.set_cached_value(player, user)
    return token
