"""One event appended by a function of its own, taking each field as a plain value rather than an array of
one (issue 29): the client has no arrays to build and send, the server none to read. A move, the busiest
write, is always one event. Several events still go through ``scoring_append_events`` (migration 0008).

Same contract, same steps, same hashes as that function's one-event branch: the stream hash of the
event at the expected version is read first (nothing is written if there is none); then the ordering
lock, the log's last hash, the two hashes chained, and the insert, which writes nothing if the version
or the key is taken (a conflict on one of the unique indexes).
"""

from django.db import migrations

ZERO = "'\\x" + "00" * 32 + "'::bytea"

INSTALL = f"""
CREATE FUNCTION scoring_append_event(
    p_stream varchar, p_expected integer, p_key varchar, p_type varchar, p_schema smallint,
    p_payload jsonb, p_at timestamptz, p_by varchar, p_digest bytea, p_lock bigint
) RETURNS SETOF bigint AS $$
DECLARE
    stream_head bytea := {ZERO};
    log_head bytea;
BEGIN
    IF p_expected > 0 THEN
        SELECT coalesce(e.stream_hash, {ZERO}) INTO stream_head FROM scoring_storedevent e
        WHERE e.stream_id = p_stream AND e.version = p_expected;
        IF NOT FOUND THEN
            RETURN;
        END IF;
    END IF;
    IF p_lock IS NOT NULL THEN
        PERFORM pg_advisory_xact_lock(p_lock);
    END IF;
    -- Under the ordering lock every earlier append has committed: the last row is the one to follow.
    SELECT e.log_hash INTO log_head FROM scoring_storedevent e ORDER BY e.position DESC LIMIT 1;
    stream_head := sha256(stream_head || p_digest);
    RETURN QUERY
    INSERT INTO scoring_storedevent (stream_id, version, event_type, schema_version, payload,
                                     recorded_at, recorded_by, idempotency_key, batch_size,
                                     stream_hash, log_hash)
    VALUES (p_stream, p_expected + 1, p_type, p_schema, p_payload, p_at, p_by, p_key, 1,
            stream_head, sha256(coalesce(log_head, {ZERO}) || stream_head))
    ON CONFLICT DO NOTHING
    RETURNING position;
END;
$$ LANGUAGE plpgsql VOLATILE;
"""

REMOVE = """
DROP FUNCTION IF EXISTS scoring_append_event(
    varchar, integer, varchar, varchar, smallint, jsonb, timestamptz, varchar, bytea, bigint);
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INSTALL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(REMOVE, params=None)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0011_match_abandoned")]

    operations = [migrations.RunPython(install, remove)]
