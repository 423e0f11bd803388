-- Tavolo's PostgreSQL roles, least privilege.
--
--   tavolo_owner  owns the tables and runs the migrations (python manage.py migrate).
--   tavolo_app    what the web, worker and beat processes connect as: no superuser, no ownership; reads and
--                 writes the tables, but on the event log and the notifications only SELECT and INSERT.
--
-- Run it as a superuser in Tavolo's database (psql -v ON_ERROR_STOP=1 -d tavolo -f roles.sql), before or
-- after the migrations: it is idempotent. Set the passwords apart (ALTER ROLE ... PASSWORD ...).
--
-- What the application role cannot do, whatever code runs under it: UPDATE, DELETE or TRUNCATE the log
-- (no privilege, and the triggers of migration 0004_append_only_guards refuse UPDATE and DELETE to every
-- role); drop, disable or replace a trigger (only the owner can); SET session_replication_role, which
-- needs a superuser (and the triggers are ENABLE ALWAYS anyway); rewrite a game's seed, decks, kind or
-- options, lower its version or reopen a finished game (trigger); write the migration record.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'tavolo_owner') THEN
        CREATE ROLE tavolo_owner LOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'tavolo_app') THEN
        CREATE ROLE tavolo_app LOGIN;
    END IF;
END $$;
ALTER ROLE tavolo_owner NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
ALTER ROLE tavolo_app NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;

-- This database only: both may connect, nobody else by default, and nobody creates temporary tables.
DO $$
BEGIN
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO tavolo_owner, tavolo_app', current_database());
END $$;

-- The owner creates the tables; the application only uses them.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE, CREATE ON SCHEMA public TO tavolo_owner;
GRANT USAGE ON SCHEMA public TO tavolo_app;

-- Tables the owner creates later (every migration): read and write...
ALTER DEFAULT PRIVILEGES FOR ROLE tavolo_owner IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO tavolo_app;
ALTER DEFAULT PRIVILEGES FOR ROLE tavolo_owner IN SCHEMA public
    GRANT USAGE, SELECT ON SEQUENCES TO tavolo_app;
-- ... and the tables already there (this file run after the migrations).
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO tavolo_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO tavolo_app;

-- ... except the log, append-only: SELECT and INSERT. Migration 0004_append_only_guards revokes the same
-- from every role but the owner, so tables created after this file ran are covered too; so is the
-- migration record, which a role able to write could use to make a later migration be skipped.
DO $$
BEGIN
    IF to_regclass('public.games_event') IS NOT NULL THEN
        REVOKE UPDATE, DELETE, TRUNCATE ON public.games_event FROM tavolo_app;
    END IF;
    IF to_regclass('public.games_notification') IS NOT NULL THEN
        REVOKE UPDATE, DELETE, TRUNCATE ON public.games_notification FROM tavolo_app;
    END IF;
    IF to_regclass('public.django_migrations') IS NOT NULL THEN
        REVOKE ALL ON public.django_migrations FROM tavolo_app;
    END IF;
END $$;
