"""Several events appended for less of the server's work (issue 29), with the same contract and the same
hashes as migration 0008's function:

- **The idempotency key's unique index holds only the rows that carry a key** (a partial index). Only
  the first event of an append carries one: an append of 50 events wrote 50 entries in that index, 49 of
  them for NULL keys that no uniqueness and no lookup ever uses. The constraint is the same: one key per
  stream.
- **The rows go in by a plain ``INSERT``, without ``ON CONFLICT DO NOTHING``.** Under the ordering lock
  the function has already found the key unused and the next version free, and nothing else writes, so
  nothing can conflict: the clause only cost a speculative insertion per row (every unique index probed
  before the insert, and a second WAL record to confirm it). A conflict can come only from a row written
  around the lock, and then the whole statement fails, as 0008's did when a race half wrote an append.
  One event still goes by ``scoring_append_event`` (migration 0012), whose insert is its check.
- **A new stream's stream hashes come from the client**, chained from 32 zero bytes as
  ``scoring/log/chain.py`` does (the client knows that head; for a stream that has begun it does not, and
  sends the digests as before). The server chains only the log hash, which needs the log's last event
  under the lock: one SHA-256 per event instead of two.

Rows written before keep their hashes: the chains are defined as before.
"""

from importlib import import_module

from django.db import migrations, models

ZERO = "'\\x" + "00" * 32 + "'::bytea"

INSTALL = f"""
DROP FUNCTION IF EXISTS scoring_append_events(
    varchar, integer, varchar, varchar[], smallint[], jsonb[], timestamptz, varchar, bytea[], bigint);

CREATE FUNCTION scoring_append_events(
    p_stream varchar, p_expected integer, p_key varchar, p_types varchar[], p_schemas smallint[],
    p_payloads jsonb[], p_at timestamptz, p_by varchar, p_digests bytea[], p_stream_hashes bytea[],
    p_lock bigint
) RETURNS SETOF bigint AS $$
DECLARE
    k integer := cardinality(p_types);
    stream_head bytea := {ZERO};
    log_head bytea;
    stream_hashes bytea[] := p_stream_hashes;
    log_hashes bytea[] := '{{}}';
BEGIN
    -- The digests (the server chains both hashes), or a new stream's stream hashes (only the log hash).
    IF (p_digests IS NULL) = (p_stream_hashes IS NULL) OR (p_stream_hashes IS NOT NULL AND p_expected <> 0)
       OR cardinality(coalesce(p_digests, p_stream_hashes)) <> k OR cardinality(p_schemas) <> k
       OR cardinality(p_payloads) <> k THEN
        RAISE EXCEPTION 'scoring_append_events takes one digest per event, or a new stream''s stream hashes'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_expected > 0 THEN
        SELECT coalesce(e.stream_hash, {ZERO}) INTO stream_head FROM scoring_storedevent e
        WHERE e.stream_id = p_stream AND e.version = p_expected;
        IF NOT FOUND THEN
            RETURN;
        END IF;
    END IF;
    IF p_key IS NOT NULL AND EXISTS (
           SELECT 1 FROM scoring_storedevent WHERE stream_id = p_stream AND idempotency_key = p_key) THEN
        RETURN;
    END IF;
    IF p_lock IS NOT NULL THEN
        PERFORM pg_advisory_xact_lock(p_lock);
    END IF;
    -- This statement sees what was committed before the lock was taken. Versions have no gap, so the
    -- stream has moved on exactly when the next version is there; and an append that used the key since
    -- the probe above wrote at the next version or later, so it is found here too.
    IF EXISTS (SELECT 1 FROM scoring_storedevent WHERE stream_id = p_stream AND version = p_expected + 1) THEN
        RETURN;
    END IF;
    -- Under the ordering lock every earlier append has committed: the last row is the one to follow.
    SELECT e.log_hash INTO log_head FROM scoring_storedevent e ORDER BY e.position DESC LIMIT 1;
    log_head := coalesce(log_head, {ZERO});
    IF stream_hashes IS NULL THEN
        stream_hashes := '{{}}';
        FOR i IN 1 .. k LOOP
            stream_head := sha256(stream_head || p_digests[i]);
            stream_hashes[i] := stream_head;
            log_head := sha256(log_head || stream_head);
            log_hashes[i] := log_head;
        END LOOP;
    ELSE
        FOR i IN 1 .. k LOOP
            log_head := sha256(log_head || stream_hashes[i]);
            log_hashes[i] := log_head;
        END LOOP;
    END IF;
    -- Rows go in array order (ORDER BY n), so positions follow the order the log hashes were chained in.
    -- No ON CONFLICT: nothing can conflict under the lock, and a row written around it fails the whole
    -- statement (a unique violation) rather than leave the append half written.
    RETURN QUERY
    INSERT INTO scoring_storedevent AS e (stream_id, version, event_type, schema_version, payload,
                                          recorded_at, recorded_by, idempotency_key, batch_size,
                                          stream_hash, log_hash)
    SELECT p_stream, p_expected + n, t, sc, pl, p_at, p_by, CASE WHEN n = 1 THEN p_key END, k, sh, lh
    FROM unnest(p_types, p_schemas, p_payloads, stream_hashes, log_hashes) WITH ORDINALITY
         AS r(t, sc, pl, sh, lh, n)
    ORDER BY n
    RETURNING e.position;
END;
$$ LANGUAGE plpgsql VOLATILE;
"""

REMOVE = """
DROP FUNCTION IF EXISTS scoring_append_events(
    varchar, integer, varchar, varchar[], smallint[], jsonb[], timestamptz, varchar, bytea[], bytea[],
    bigint);
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INSTALL, params=None)


def remove(apps, schema_editor):
    """Back to migration 0008's function."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(REMOVE, params=None)
        before = import_module("scoring.migrations.0008_append_in_one_function")
        schema_editor.execute(before.INSTALL, params=None)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0012_append_one_event")]

    operations = [
        migrations.RemoveConstraint(model_name="storedevent", name="storedevent_stream_idempotency_key"),
        migrations.AddConstraint(
            model_name="storedevent",
            constraint=models.UniqueConstraint(
                condition=models.Q(idempotency_key__isnull=False),
                fields=("stream_id", "idempotency_key"),
                name="storedevent_stream_idempotency_key",
            ),
        ),
        migrations.RunPython(install, remove),
    ]
