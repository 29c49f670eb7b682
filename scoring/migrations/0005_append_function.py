"""On PostgreSQL, an append is one call of a function: it takes the ordering lock, checks the stream's
version and the idempotency key with a snapshot taken after the lock, and inserts. One round trip, the
lock held on the server only (to the commit), and never a half-written append. Nothing on SQLite, where
the store inserts with one guarded statement (its writers are serialised by BEGIN IMMEDIATE)."""

from django.db import migrations

INSTALL = """
CREATE FUNCTION scoring_append_events(
    p_stream varchar, p_expected integer, p_key varchar, p_types varchar[], p_schemas smallint[],
    p_payloads jsonb[], p_at timestamptz, p_by varchar, p_lock bigint
) RETURNS SETOF bigint AS $$
DECLARE
    written integer;
BEGIN
    IF p_lock IS NOT NULL THEN
        PERFORM pg_advisory_xact_lock(p_lock);
    END IF;
    -- Each statement below sees what was committed before the lock was taken.
    IF EXISTS (SELECT 1 FROM scoring_storedevent WHERE stream_id = p_stream AND version > p_expected)
       OR (p_expected > 0 AND NOT EXISTS (
           SELECT 1 FROM scoring_storedevent WHERE stream_id = p_stream AND version = p_expected))
       OR (p_key IS NOT NULL AND EXISTS (
           SELECT 1 FROM scoring_storedevent WHERE stream_id = p_stream AND idempotency_key = p_key)) THEN
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

REMOVE = "DROP FUNCTION IF EXISTS scoring_append_events(varchar, integer, varchar, varchar[], smallint[], jsonb[], timestamptz, varchar, bigint);"


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INSTALL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(REMOVE, params=None)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0004_hand_position_ruled_against")]

    operations = [migrations.RunPython(install, remove)]
