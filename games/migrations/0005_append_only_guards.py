"""The log's guarantees, enforced by PostgreSQL itself for every role that can write to it.

- `games_event` and `games_notification`: no UPDATE or DELETE, for anyone (no session setting turns the
  trigger off, unlike the django-pgtrigger triggers this replaces, which `SET pgtrigger.ignore` skipped);
  no TRUNCATE except by a member of the table's owner (who could drop the triggers anyway; Django's test
  flush truncates as the owner).
- `games_game`, the head row: what the game was created with (id, kind, options, seat_count, seed,
  seed_sha256, decks, created_at) never changes, the version never decreases, and a finished or aborted
  game keeps its status and result. A game with events cannot be deleted.
- Only the owner keeps UPDATE, DELETE or TRUNCATE privileges on the log, and write privileges on
  django_migrations (docker/postgres/roles.sql gives the application role SELECT and INSERT on the log).

The triggers are ENABLE ALWAYS, so `SET session_replication_role = replica` (superusers only) does not skip
them either. On other databases this migration does nothing.
"""

from django.db import migrations

FORWARD = r"""
DROP TRIGGER IF EXISTS pgtrigger_event_append_only_ea7b0 ON games_event;
DROP TRIGGER IF EXISTS pgtrigger_notification_append_only_66a08 ON games_notification;
DROP FUNCTION IF EXISTS pgtrigger_event_append_only_ea7b0();
DROP FUNCTION IF EXISTS pgtrigger_notification_append_only_66a08();
DROP FUNCTION IF EXISTS public._pgtrigger_should_ignore(name);

CREATE FUNCTION tavolo_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP;
END $$;

CREATE FUNCTION tavolo_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_catalog.pg_has_role(current_user,
            (SELECT relowner FROM pg_catalog.pg_class WHERE oid = TG_RELID), 'MEMBER') THEN
        RAISE EXCEPTION '% is append-only: TRUNCATE refused to %, which does not own it',
            TG_TABLE_NAME, current_user;
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION tavolo_guard_game_head() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    fixed text;
BEGIN
    fixed := CASE
        WHEN NEW.id IS DISTINCT FROM OLD.id THEN 'id'
        WHEN NEW.kind IS DISTINCT FROM OLD.kind THEN 'kind'
        WHEN NEW.options IS DISTINCT FROM OLD.options THEN 'options'
        WHEN NEW.seat_count IS DISTINCT FROM OLD.seat_count THEN 'seat_count'
        WHEN NEW.seed IS DISTINCT FROM OLD.seed THEN 'seed'
        WHEN NEW.seed_sha256 IS DISTINCT FROM OLD.seed_sha256 THEN 'seed_sha256'
        WHEN NEW.decks IS DISTINCT FROM OLD.decks THEN 'decks'
        WHEN NEW.created_at IS DISTINCT FROM OLD.created_at THEN 'created_at'
    END;
    IF fixed IS NOT NULL THEN
        RAISE EXCEPTION 'games_game.% never changes (game %)', fixed, OLD.id;
    END IF;
    IF NEW.version < OLD.version THEN
        RAISE EXCEPTION 'games_game.version never decreases (game %: % to %)', OLD.id, OLD.version, NEW.version;
    END IF;
    IF OLD.status IN ('finished', 'aborted')
       AND (NEW.status IS DISTINCT FROM OLD.status OR NEW.result IS DISTINCT FROM OLD.result)
    THEN
        RAISE EXCEPTION 'a % game keeps its status and result (game %)', OLD.status, OLD.id;
    END IF;
    RETURN NEW;
END $$;

CREATE FUNCTION tavolo_keep_logged_game() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    logged boolean;
BEGIN
    EXECUTE format('SELECT EXISTS (SELECT FROM %I.games_event WHERE game_id = $1)', TG_TABLE_SCHEMA)
        INTO logged USING OLD.id;
    IF logged THEN
        RAISE EXCEPTION 'game % has events: it cannot be deleted', OLD.id;
    END IF;
    RETURN OLD;
END $$;

CREATE TRIGGER event_append_only BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION tavolo_refuse_change();
CREATE TRIGGER event_no_truncate BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION tavolo_refuse_truncate();
ALTER TABLE games_event ENABLE ALWAYS TRIGGER event_append_only, ENABLE ALWAYS TRIGGER event_no_truncate;

CREATE TRIGGER notification_append_only BEFORE UPDATE OR DELETE ON games_notification
    FOR EACH ROW EXECUTE FUNCTION tavolo_refuse_change();
CREATE TRIGGER notification_no_truncate BEFORE TRUNCATE ON games_notification
    FOR EACH STATEMENT EXECUTE FUNCTION tavolo_refuse_truncate();
ALTER TABLE games_notification ENABLE ALWAYS TRIGGER notification_append_only,
    ENABLE ALWAYS TRIGGER notification_no_truncate;

CREATE TRIGGER game_head_guard BEFORE UPDATE ON games_game
    FOR EACH ROW EXECUTE FUNCTION tavolo_guard_game_head();
CREATE TRIGGER game_keep_logged BEFORE DELETE ON games_game
    FOR EACH ROW EXECUTE FUNCTION tavolo_keep_logged_game();
ALTER TABLE games_game ENABLE ALWAYS TRIGGER game_head_guard, ENABLE ALWAYS TRIGGER game_keep_logged;

-- Privileges granted before this migration or by default privileges: on the log and on the migration record
-- (which a role able to write could use to make a later migration be skipped), only the owner may write
-- beyond INSERT (log) or at all (record), whoever else holds privileges there.
DO $$
DECLARE
    target record;
    grantee text;
BEGIN
    FOR target IN
        SELECT t.name::regclass AS rel, t.privileges
        FROM (VALUES ('games_event', 'UPDATE, DELETE, TRUNCATE'), ('games_notification', 'UPDATE, DELETE, TRUNCATE'),
                     ('django_migrations', 'INSERT, UPDATE, DELETE, TRUNCATE')) AS t (name, privileges)
    LOOP
        FOR grantee IN
            SELECT DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(r.rolname) END
            FROM pg_catalog.pg_class c
            CROSS JOIN LATERAL pg_catalog.aclexplode(c.relacl) a
            LEFT JOIN pg_catalog.pg_roles r ON r.oid = a.grantee
            WHERE c.oid = target.rel AND a.grantee <> c.relowner
              AND a.privilege_type = ANY (string_to_array(target.privileges, ', '))
        LOOP
            EXECUTE format('REVOKE %s ON %s FROM %s', target.privileges, target.rel, grantee);
        END LOOP;
    END LOOP;
END $$;
"""

BACKWARD = r"""
DROP TRIGGER IF EXISTS event_append_only ON games_event;
DROP TRIGGER IF EXISTS event_no_truncate ON games_event;
DROP TRIGGER IF EXISTS notification_append_only ON games_notification;
DROP TRIGGER IF EXISTS notification_no_truncate ON games_notification;
DROP TRIGGER IF EXISTS game_head_guard ON games_game;
DROP TRIGGER IF EXISTS game_keep_logged ON games_game;
DROP FUNCTION IF EXISTS tavolo_refuse_change();
DROP FUNCTION IF EXISTS tavolo_refuse_truncate();
DROP FUNCTION IF EXISTS tavolo_guard_game_head();
DROP FUNCTION IF EXISTS tavolo_keep_logged_game();
"""


def _on_postgresql(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)  # no parameters: one multi-statement string, % kept as is

    return run


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0004_consent_and_chosen_seeds'),
    ]

    operations = [
        migrations.RunPython(_on_postgresql(FORWARD), _on_postgresql(BACKWARD)),
    ]
