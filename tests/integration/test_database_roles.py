"""The production roles of docker/postgres/roles.sql, and the triggers of the game head: what a compromised
application (`SET ROLE tavolo_app`) cannot do to the log or to a game's set-up, and that the same role is
enough to play, run tournaments and rate games.

Each test runs in one transaction that is rolled back: the roles the SQL file creates go with it."""

from __future__ import annotations

import importlib
import random
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

from games.models import Event, Game, IdempotencyRecord, Notification, Seat, Snapshot
from tests.conftest import create_game, play_randomly
from tests.tournaments.test_running import Queued, round_games, run
from tournaments import services as tournaments
from tournaments import tasks
from tournaments.models import RatingChange, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

ROLES_SQL = Path(__file__).resolve().parents[2] / "docker" / "postgres" / "roles.sql"


def sql(statement: str, params: list | None = None) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def refused(statement: str, params: list | None = None, *, match: str) -> None:
    """The statement fails with `match` in the error and changes nothing (its savepoint is rolled back)."""
    with pytest.raises(DatabaseError, match=match), transaction.atomic():
        sql(statement, params)


@contextmanager
def as_app():
    sql("SET ROLE tavolo_app")
    try:
        yield
    finally:
        sql("RESET ROLE")


@pytest.fixture
def roles(db) -> None:
    with connection.cursor() as cursor:
        cursor.execute(ROLES_SQL.read_text())  # the file as an administrator runs it, after the migrations


@pytest.fixture
def game(ann, bob) -> dict:
    return create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="ab" * 32)


@pytest.fixture
def queued() -> Queued:
    """The rating and advance jobs recorded in the outbox and not done yet."""
    return Queued()


# -- the application role -------------------------------------------------------------------------------
def test_the_app_role_reads_and_appends_the_log_but_holds_no_other_power(roles):
    privileges = sql("""
        SELECT t, p, has_table_privilege('tavolo_app', t, p)
        FROM unnest(ARRAY['games_event', 'games_notification']) t,
             unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER', 'REFERENCES']) p""")
    assert {(t, p) for t, p, held in privileges if held} == {
        ("games_event", "SELECT"), ("games_event", "INSERT"),
        ("games_notification", "SELECT"), ("games_notification", "INSERT")}
    assert sql("SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, rolreplication FROM pg_roles "
               "WHERE rolname = 'tavolo_app'") == [(False, False, False, False, False)]
    assert sql("SELECT count(*) FROM pg_class WHERE pg_has_role('tavolo_app', relowner, 'USAGE')") == [(0,)]
    assert sql("SELECT pg_has_role('tavolo_app', 'tavolo_owner', 'MEMBER')") == [(False,)]
    assert sql("SELECT has_table_privilege('tavolo_app', 'django_migrations', 'INSERT, UPDATE, DELETE')") == \
        [(False,)]


@pytest.mark.parametrize(("statement", "match"), [
    ("UPDATE games_event SET type = 'forged' WHERE game_id = %s", "permission denied"),
    ("DELETE FROM games_event WHERE game_id = %s", "permission denied"),
    ("TRUNCATE games_event", "permission denied"),
    ("UPDATE games_notification SET kind = 'forged'", "permission denied"),
    ("DELETE FROM games_notification", "permission denied"),
    ("TRUNCATE games_notification", "permission denied"),
    ("SET session_replication_role = replica", "permission denied"),
    ("ALTER TABLE games_event DISABLE TRIGGER event_append_only", "must be owner"),
    ("ALTER TABLE games_event DISABLE TRIGGER ALL", "must be owner"),
    ("DROP TRIGGER event_append_only ON games_event", "must be owner"),
    ("DROP TRIGGER game_head_guard ON games_game", "must be owner"),
    ("CREATE OR REPLACE FUNCTION tavolo_refuse_change() RETURNS trigger LANGUAGE plpgsql "
     "AS 'BEGIN RETURN NEW; END'", "must be owner|permission denied"),
    ("ALTER TABLE games_game ENABLE REPLICA TRIGGER game_head_guard", "must be owner"),
    ("CREATE TEMP TABLE games_event (game_id uuid)", "permission denied"),
    ("INSERT INTO django_migrations (app, name, applied) VALUES ('games', '9999_skip', now())", "permission denied"),
])
def test_the_app_role_cannot_rewrite_the_log_or_switch_the_guards_off(roles, game, statement, match):
    before = list(Event.objects.filter(game_id=game["id"]).values_list("seq", "type", "data"))
    with as_app():
        assert sql("SELECT current_user") == [("tavolo_app",)]
        refused(statement, [game["id"]] if "%s" in statement else None, match=match)
    assert list(Event.objects.filter(game_id=game["id"]).values_list("seq", "type", "data")) == before
    assert sql("SELECT count(*) FROM pg_trigger WHERE tgname = 'event_append_only' AND tgenabled = 'A'") == [(1,)]


def test_truncate_is_refused_by_the_trigger_to_a_role_that_holds_the_privilege_but_not_the_table(roles, game):
    """The owner may truncate (it could drop the triggers anyway; Django's test flush does): nobody else."""
    sql("GRANT TRUNCATE ON games_event, games_notification TO tavolo_app")
    sql("SET CONSTRAINTS ALL IMMEDIATE")  # check this transaction's foreign keys now: TRUNCATE waits for none
    with as_app():
        refused("TRUNCATE games_event", match="games_event is append-only: TRUNCATE refused to tavolo_app")
        refused("TRUNCATE games_notification", match="games_notification is append-only: TRUNCATE refused")
    assert Event.objects.filter(game_id=game["id"]).exists()

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        sql("TRUNCATE games_event, games_notification")
        assert not Event.objects.exists() and not Notification.objects.exists()
        raise Undo
    assert Event.objects.filter(game_id=game["id"]).exists()


# -- the game head --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("assignment", "column"), [
    ("seed = repeat('0', 64)", "seed"),
    ("seed_sha256 = repeat('0', 64)", "seed_sha256"),
    ("decks = '[[\"AS\", \"2S\"]]'::jsonb", "decks"),
    ("kind = 'muscio'", "kind"),
    ("options = options || '{\"turn_limit\": 1}'::jsonb", "options"),
    ("seat_count = 3", "seat_count"),
    ("rules_version = rules_version + 1", "rules_version"),
    ("created_at = created_at - interval '1 day'", "created_at"),
    ("id = gen_random_uuid()", "id"),
])
def test_what_a_game_was_created_with_never_changes(roles, game, assignment, column):
    before = Game.objects.filter(pk=game["id"]).values().get()
    with as_app():
        refused(f"UPDATE games_game SET {assignment} WHERE id = %s", [game["id"]],
                match=f"games_game.{column} never changes")
    assert Game.objects.filter(pk=game["id"]).values().get() == before


def test_the_head_moves_only_forward_and_an_ended_game_stays_ended(roles, game):
    version = Game.objects.get(pk=game["id"]).version
    with as_app():
        refused("UPDATE games_game SET version = version - 1 WHERE id = %s", [game["id"]],
                match="version never decreases")
        # what the services write is allowed
        sql("UPDATE games_game SET sealed = true, updated_at = now(), to_act = '[1]' WHERE id = %s", [game["id"]])
        sql("UPDATE games_game SET version = version + 1, status = 'finished', result = '{\"winners\": [0]}' "
            "WHERE id = %s", [game["id"]])
        refused("UPDATE games_game SET status = 'active' WHERE id = %s", [game["id"]],
                match="a finished game keeps its status and result")
        refused("UPDATE games_game SET status = 'aborted' WHERE id = %s", [game["id"]],
                match="a finished game keeps its status and result")
        refused("UPDATE games_game SET result = '{\"winners\": [1]}' WHERE id = %s", [game["id"]],
                match="a finished game keeps its status and result")
        sql("UPDATE games_game SET sealed = false WHERE id = %s", [game["id"]])  # unsealing stays possible
    head = Game.objects.get(pk=game["id"])
    assert (head.version, head.status, head.result, head.sealed) == (version + 1, "finished", {"winners": [0]}, False)


def test_a_game_with_events_cannot_be_deleted(roles, game, ann):
    with as_app():
        refused("DELETE FROM games_game WHERE id = %s", [game["id"]], match="has events: it cannot be deleted")
        blank = Game.objects.create(kind="spite-and-malice", seat_count=2, seed="cd" * 32, seed_sha256="0" * 64)
        Seat.objects.create(game=blank, index=0, player=ann.model)
        blank.delete()  # nothing logged yet: it may go, with its seats
    assert Game.objects.filter(pk=game["id"]).exists() and not Game.objects.filter(pk=blank.id).exists()


# -- the app role is enough ------------------------------------------------------------------------------
def test_players_games_tournaments_and_ratings_work_under_the_app_role(roles, make_player, queued, settings):
    settings.SNAPSHOT_EVERY = 5
    with as_app():
        ann, bob = make_player("ann"), make_player("bob")
        game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="5e" * 32, turn_seconds=600)
        state = ann.get(f"/api/v1/games/{game['id']}/state/").json()
        mover = ann if state["seat"] in state["to_act"] else bob
        state = mover.get(f"/api/v1/games/{game['id']}/state/").json()
        body = {"action": state["legal_actions"][0], "expected_version": state["version"]}
        first = mover.post(f"/api/v1/games/{game['id']}/actions/", body, HTTP_IDEMPOTENCY_KEY="k1")
        again = mover.post(f"/api/v1/games/{game['id']}/actions/", body, HTTP_IDEMPOTENCY_KEY="k1")
        assert first.status_code == again.status_code == 201 and first.json() == again.json()
        play_randomly({0: ann, 1: bob}, game["id"], random.Random(3))
        assert ("rate", game["id"]) in queued
        assert tasks.rate_game.run(game["id"]) is True
        assert ann.get(f"/api/v1/games/{game['id']}/export/").json()["verification"]["ok"] is True
        tournament = tournaments.tournament_create(organiser=None, kind="spite-and-malice", format="duplicate")
        for _ in range(4):
            tournaments.tournament_register(tournament_id=tournament.id, by=None, bot="random")
        tournament = run(tournaments.tournament_start(tournament_id=tournament.id, by=None), queued)
        assert sql("SELECT current_user") == [("tavolo_app",)]
    assert Game.objects.get(pk=game["id"]).status == "finished"
    assert RatingChange.objects.filter(game_id=game["id"]).count() == 2
    assert IdempotencyRecord.objects.filter(key="k1").count() == 1
    assert Snapshot.objects.filter(game_id=game["id"]).exists()
    assert Notification.objects.filter(player=ann.model, kind="game_finished").exists()
    assert tournament.status == Tournament.Status.FINISHED
    assert all(not g.sealed and g.status == "finished" for r in (1, 2) for g in round_games(tournament, r))


# -- the migration ----------------------------------------------------------------------------------------
def test_the_migration_replaces_the_pgtrigger_triggers_and_takes_back_write_privileges_on_the_log(roles):
    """As on a database migrated before: django-pgtrigger's objects, and a role granted everything on the log."""
    migration = importlib.import_module("games.migrations.0005_append_only_guards")
    with connection.cursor() as cursor:
        cursor.execute(migration.BACKWARD)
        cursor.execute("""
            CREATE FUNCTION public._pgtrigger_should_ignore(trigger_name name) RETURNS boolean
                LANGUAGE sql AS 'SELECT false';
            CREATE FUNCTION pgtrigger_event_append_only_ea7b0() RETURNS trigger LANGUAGE plpgsql
                AS 'BEGIN RAISE EXCEPTION ''pgtrigger: Cannot update or delete''; END';
            CREATE TRIGGER pgtrigger_event_append_only_ea7b0 BEFORE UPDATE OR DELETE ON games_event
                FOR EACH ROW EXECUTE FUNCTION pgtrigger_event_append_only_ea7b0();
            GRANT ALL ON games_event, games_notification, django_migrations TO tavolo_app, PUBLIC;""")
        cursor.execute(migration.FORWARD)
    assert sql("SELECT count(*) FROM pg_proc WHERE proname LIKE '%pgtrigger%'") == [(0,)]
    assert sorted(sql("SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = 'games_event'::regclass "
                      "AND NOT tgisinternal")) == [("event_append_only", "A"), ("event_no_truncate", "A")]
    held = sql("""
        SELECT r, t, p FROM unnest(ARRAY['tavolo_app', 'public']) r,
                            unnest(ARRAY['games_event', 'games_notification', 'django_migrations']) t,
                            unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p
        WHERE has_table_privilege(r, t, p)""")
    assert {(t, p) for r, t, p in held if r == "tavolo_app"} == {
        ("games_event", "SELECT"), ("games_event", "INSERT"), ("games_notification", "SELECT"),
        ("games_notification", "INSERT"), ("django_migrations", "SELECT")}
    assert {p for r, t, p in held if r == "public"} <= {"SELECT", "INSERT"}
