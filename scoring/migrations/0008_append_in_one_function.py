"""The append function in one piece: the checks, the ordering lock, the hashes and the insert in the one
PL/pgSQL function, with no nested call to ``scoring_insert_chained`` (which stays, for starting several
streams at once) and no arrays built only to pass it. The stream hash of the event at the expected
version is read by the check that the event is there. A single event goes in by a plain ``VALUES`` row.

Same contract as migration 0007's: nothing is written unless the key is unused and the stream is at
the expected version; what can only become true once is checked before the lock, whether the stream has
moved on after it; the hashes are chained under the lock.
"""

from importlib import import_module

from django.db import migrations

ZERO = "'\\x" + "00" * 32 + "'::bytea"

INSTALL = f"""
CREATE OR REPLACE FUNCTION scoring_append_events(
    p_stream varchar, p_expected integer, p_key varchar, p_types varchar[], p_schemas smallint[],
    p_payloads jsonb[], p_at timestamptz, p_by varchar, p_digests bytea[], p_lock bigint
) RETURNS SETOF bigint AS $$
DECLARE
    k integer := cardinality(p_types);
    stream_head bytea := {ZERO};
    log_head bytea;
    stream_hashes bytea[] := '{{}}';
    log_hashes bytea[] := '{{}}';
    written integer;
BEGIN
    IF p_expected > 0 THEN
        SELECT coalesce(e.stream_hash, {ZERO}) INTO stream_head FROM scoring_storedevent e
        WHERE e.stream_id = p_stream AND e.version = p_expected;
        IF NOT FOUND THEN
            RETURN;
        END IF;
    END IF;
    IF k = 1 THEN
        -- One row: a used key or a stream that has moved on is a conflict on one of the unique indexes,
        -- (stream, key) or (stream, version), and the insert writes nothing; no probe needed for them.
        IF p_lock IS NOT NULL THEN
            PERFORM pg_advisory_xact_lock(p_lock);
        END IF;
        SELECT e.log_hash INTO log_head FROM scoring_storedevent e ORDER BY e.position DESC LIMIT 1;
        stream_head := sha256(stream_head || p_digests[1]);
        RETURN QUERY
        INSERT INTO scoring_storedevent (stream_id, version, event_type, schema_version, payload,
                                         recorded_at, recorded_by, idempotency_key, batch_size,
                                         stream_hash, log_hash)
        VALUES (p_stream, p_expected + 1, p_types[1], p_schemas[1], p_payloads[1], p_at, p_by, p_key, 1,
                stream_head, sha256(coalesce(log_head, {ZERO}) || stream_head))
        ON CONFLICT DO NOTHING
        RETURNING position;
        RETURN;
    END IF;
    -- Several rows: a conflict on a later row only would write the first ones, so both are checked.
    IF p_key IS NOT NULL AND EXISTS (
           SELECT 1 FROM scoring_storedevent WHERE stream_id = p_stream AND idempotency_key = p_key) THEN
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
    -- Under the ordering lock every earlier append has committed: the last row is the one to follow.
    SELECT e.log_hash INTO log_head FROM scoring_storedevent e ORDER BY e.position DESC LIMIT 1;
    log_head := coalesce(log_head, {ZERO});
    FOR i IN 1 .. k LOOP
        stream_head := sha256(stream_head || p_digests[i]);
        log_head := sha256(log_head || stream_head);
        stream_hashes[i] := stream_head;
        log_hashes[i] := log_head;
    END LOOP;
    -- Rows go in array order (ORDER BY n), so positions follow the order the log hashes were chained in.
    RETURN QUERY
    INSERT INTO scoring_storedevent AS e (stream_id, version, event_type, schema_version, payload,
                                          recorded_at, recorded_by, idempotency_key, batch_size,
                                          stream_hash, log_hash)
    SELECT p_stream, p_expected + n, t, sc, pl, p_at, p_by, CASE WHEN n = 1 THEN p_key END, k, sh, lh
    FROM unnest(p_types, p_schemas, p_payloads, stream_hashes, log_hashes) WITH ORDINALITY
         AS r(t, sc, pl, sh, lh, n)
    ORDER BY n
    ON CONFLICT DO NOTHING
    RETURNING e.position;
    -- Without the lock (never in use), a racing append can take some of the versions first: then the
    -- whole statement fails, so that nothing is half written.
    GET DIAGNOSTICS written = ROW_COUNT;
    IF written > 0 AND written < k THEN
        RAISE EXCEPTION 'an append to % was half written by a race', p_stream
            USING ERRCODE = 'serialization_failure';
    END IF;
END;
$$ LANGUAGE plpgsql VOLATILE;
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INSTALL, params=None)


def remove(apps, schema_editor):
    """Back to migration 0007's two functions."""
    if schema_editor.connection.vendor == "postgresql":
        before = import_module("scoring.migrations.0007_hash_chain")
        schema_editor.execute(before.REMOVE, params=None)
        schema_editor.execute(before.INSTALL, params=None)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0007_hash_chain")]

    operations = [migrations.RunPython(install, remove)]
