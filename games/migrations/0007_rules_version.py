"""`Game.rules_version`: the rules version of its kind a game is played by (docs/rules-versions.md).

Every game created before this migration was played by the rules every kind then had: version 1. In PostgreSQL
the head guard of 0005_append_only_guards is replaced by the same function with `rules_version` among the
columns that never change once a game is created (the trigger itself is kept; backward restores the old body).
"""

from django.db import migrations, models

GUARD = r"""
CREATE OR REPLACE FUNCTION tavolo_guard_game_head() RETURNS trigger LANGUAGE plpgsql AS $$
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
        {rules_version}
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
"""

FORWARD = GUARD.replace(
    "{rules_version}", "WHEN NEW.rules_version IS DISTINCT FROM OLD.rules_version THEN 'rules_version'")
BACKWARD = GUARD.replace("{rules_version}", "")


def _on_postgresql(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql, params=None)  # no parameters: % kept as is

    return run


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0006_outbox_jobs"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rules_version",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.RunPython(_on_postgresql(FORWARD), _on_postgresql(BACKWARD)),
    ]
