"""Every event carries a stream hash and a log hash (``scoring/log/chain.py``), so that a rewritten log shows.

Rows written before this migration are given their hashes here, in position order (the append-only
trigger is set aside for that one update, by the table's owner who runs migrations). On PostgreSQL
the hashes of new events are computed by the server, under the ordering lock, by the function
``scoring_insert_chained``, which both ways of appending call; the Python side sends each event's
digest.
"""

import json
from datetime import UTC, datetime, timedelta

from django.db import migrations, models

ZERO = "'\\x" + "00" * 32 + "'::bytea"

INSTALL = f"""
CREATE FUNCTION scoring_insert_chained(
    p_streams varchar[], p_versions integer[], p_types varchar[], p_schemas smallint[], p_payloads jsonb[],
    p_at timestamptz, p_by varchar, p_keys varchar[], p_sizes smallint[], p_digests bytea[],
    p_lock bigint, p_new_streams boolean
) RETURNS TABLE (r_position bigint, r_stream varchar, r_version integer) AS $$
DECLARE
    log_head bytea;
    stream_head bytea;
    stream_hashes bytea[] := '{{}}';
    log_hashes bytea[] := '{{}}';
BEGIN
    IF p_lock IS NOT NULL THEN
        PERFORM pg_advisory_xact_lock(p_lock);
    END IF;
    IF p_new_streams AND EXISTS (
           SELECT 1 FROM scoring_storedevent WHERE stream_id = ANY(p_streams)) THEN
        RETURN;
    END IF;
    -- Under the ordering lock every earlier append has committed: the last row is the one to follow.
    SELECT e.log_hash INTO log_head FROM scoring_storedevent e ORDER BY e.position DESC LIMIT 1;
    log_head := coalesce(log_head, {ZERO});
    FOR i IN 1 .. cardinality(p_digests) LOOP
        IF i = 1 OR p_streams[i] <> p_streams[i - 1] THEN
            stream_head := NULL;
            IF p_versions[i] > 1 THEN
                SELECT e.stream_hash INTO stream_head FROM scoring_storedevent e
                WHERE e.stream_id = p_streams[i] AND e.version = p_versions[i] - 1;
            END IF;
            stream_head := coalesce(stream_head, {ZERO});
        END IF;
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
    SELECT s, v, t, sc, pl, p_at, p_by, k, sz, sh, lh
    FROM unnest(p_streams, p_versions, p_types, p_schemas, p_payloads, p_keys, p_sizes, stream_hashes,
                log_hashes) WITH ORDINALITY AS r(s, v, t, sc, pl, k, sz, sh, lh, n)
    ORDER BY n
    ON CONFLICT DO NOTHING
    RETURNING e.position, e.stream_id, e.version;
END;
$$ LANGUAGE plpgsql VOLATILE;

DROP FUNCTION IF EXISTS scoring_append_events(
    varchar, integer, varchar, varchar[], smallint[], jsonb[], timestamptz, varchar, bigint);

CREATE FUNCTION scoring_append_events(
    p_stream varchar, p_expected integer, p_key varchar, p_types varchar[], p_schemas smallint[],
    p_payloads jsonb[], p_at timestamptz, p_by varchar, p_digests bytea[], p_lock bigint
) RETURNS SETOF bigint AS $$
DECLARE
    written integer;
    k integer := cardinality(p_types);
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
    SELECT c.r_position FROM scoring_insert_chained(
        array_fill(p_stream, ARRAY[k]),
        ARRAY(SELECT p_expected + n FROM generate_series(1, k) AS n),
        p_types, p_schemas, p_payloads, p_at, p_by,
        array_prepend(p_key, array_fill(NULL::varchar, ARRAY[k - 1])),
        array_fill(k::smallint, ARRAY[k]),
        p_digests, NULL, false) AS c;
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

REMOVE = """
DROP FUNCTION IF EXISTS scoring_append_events(
    varchar, integer, varchar, varchar[], smallint[], jsonb[], timestamptz, varchar, bytea[], bigint);
DROP FUNCTION IF EXISTS scoring_insert_chained(
    varchar[], integer[], varchar[], smallint[], jsonb[], timestamptz, varchar, varchar[], smallint[],
    bytea[], bigint, boolean);
"""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _micros(value):
    if isinstance(value, int):
        return value
    if not isinstance(value, datetime):
        value = datetime.fromisoformat(str(value))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return (value - _EPOCH) // timedelta(microseconds=1)


def backfill(apps, schema_editor):
    """Hash the rows already there, in position order."""
    from scoring.log import chain

    connection = schema_editor.connection
    postgres = connection.vendor == "postgresql"
    when = "(extract(epoch FROM recorded_at) * 1000000)::bigint" if postgres else "recorded_at"
    text = "payload::text" if postgres else "payload"
    columns = (
        f"position, stream_id, version, event_type, schema_version, {when}, recorded_by, idempotency_key,"
        f" batch_size, {text}"
    )
    log_head, heads, after = chain.GENESIS, {}, 0
    with connection.cursor() as cursor:
        if postgres:
            cursor.execute("ALTER TABLE scoring_storedevent DISABLE TRIGGER scoring_storedevent_append_only")
        while True:
            cursor.execute(
                f"SELECT {columns} FROM scoring_storedevent WHERE position > %s ORDER BY position LIMIT 2000",
                [after],
            )
            rows = cursor.fetchall()
            if not rows:
                break
            updates = []
            for position, stream, version, kind, schema, at, by, key, size, payload in rows:
                own = chain.digest(
                    stream, version, kind, schema, _micros(at), by, key, size, json.loads(payload)
                )
                stream_hash = chain.link(
                    heads.get(stream, chain.GENESIS) if version > 1 else chain.GENESIS, own
                )
                heads[stream] = stream_hash
                log_head = chain.link(log_head, stream_hash)
                updates.append((stream_hash, log_head, position))
            cursor.executemany(
                "UPDATE scoring_storedevent SET stream_hash = %s, log_hash = %s WHERE position = %s", updates
            )
            after = rows[-1][0]
        if postgres:
            cursor.execute("ALTER TABLE scoring_storedevent ENABLE TRIGGER scoring_storedevent_append_only")


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INSTALL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        from importlib import import_module

        schema_editor.execute(REMOVE, params=None)
        schema_editor.execute(
            import_module("scoring.migrations.0006_append_checks_before_lock").INSTALL, params=None
        )


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_append_checks_before_lock")]

    operations = [
        migrations.AddField(
            model_name="storedevent",
            name="stream_hash",
            field=models.BinaryField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="storedevent",
            name="log_hash",
            field=models.BinaryField(editable=False, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.RunPython(install, remove),
    ]
