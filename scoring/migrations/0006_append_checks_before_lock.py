"""The append function again, with the ordering lock held for less: what can only become true once
(the key has been used, the stream has reached the expected version) is checked before the lock, so the
serialised part is one probe (has the stream moved past the expected version?) and the insert.

A fact checked before the lock stays true after it: versions and keys are only ever added. The one
check that a racing append can change (the stream moving on) is still made after the lock."""

from django.db import migrations

INSTALL = """
CREATE OR REPLACE FUNCTION scoring_append_events(
    p_stream varchar, p_expected integer, p_key varchar, p_types varchar[], p_schemas smallint[],
    p_payloads jsonb[], p_at timestamptz, p_by varchar, p_lock bigint
) RETURNS SETOF bigint AS $$
DECLARE
    written integer;
BEGIN
    IF (p_key IS NOT NULL AND EXISTS (
           SELECT 1 FROM scoring_storedevent WHERE stream_id = p_stream AND idempotency_key = p_key))
       OR (p_expected > 0 AND NOT EXISTS (
           SELECT 1 FROM scoring_storedevent WHERE stream_id = p_stream AND version = p_expected)) THEN
        RETURN;
    END IF;
    IF p_lock IS NOT NULL THEN
        PERFORM pg_advisory_xact_lock(p_lock);
    END IF;
    -- This statement sees what was committed before the lock was taken. Versions have no gap, so the
    -- stream has moved on exactly when the next version is there.
    IF EXISTS (SELECT 1 FROM scoring_storedevent WHERE stream_id = p_stream AND version = p_expected + 1) THEN
        RETURN;
    END IF;
    RETURN QUERY
    INSERT INTO scoring_storedevent (stream_id, version, event_type, schema_version, payload, recorded_at,
                                     recorded_by, idempotency_key, batch_size)
    SELECT p_stream, p_expected + n::integer, t, s, pl, p_at, p_by,
           CASE WHEN n = 1 THEN p_key END, cardinality(p_types)
    FROM unnest(p_types, p_schemas, p_payloads) WITH ORDINALITY AS e(t, s, pl, n)
    ORDER BY n
    ON CONFLICT DO NOTHING
    RETURNING position;
    -- Without the lock (never in use), a racing append can take some of the versions first: then the
    -- whole statement fails, so that nothing is half written.
    GET DIAGNOSTICS written = ROW_COUNT;
    IF written > 0 AND written < cardinality(p_types) THEN
        RAISE EXCEPTION 'an append to % was half written by a race', p_stream
            USING ERRCODE = 'serialization_failure';
    END IF;
END;
$$ LANGUAGE plpgsql VOLATILE;
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INSTALL, params=None)


def previous(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        from importlib import import_module

        schema_editor.execute(
            import_module("scoring.migrations.0005_append_function").INSTALL.replace(
                "CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1
            ),
            params=None,
        )


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_append_function")]

    operations = [migrations.RunPython(install, previous)]
