"""How PostgreSQL reads the log for a tailing reader while the table has no statistics yet (a new database,
before autovacuum has analysed it), and the text columns' limits the database still holds (issue 29,
migration 0014)."""

from __future__ import annotations

import pytest
from django.db import DataError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring.log import store
from scoring.log.events import HandStarted
from scoring.models import TEXT_LENGTHS, StoredEvent

pytestmark = pytest.mark.django_db

START = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)


def _tailing_read_sql() -> str:
    """The statement ``read_all_after`` sends, with its position in the text."""
    store.append("s-1", [START], expected_version=0)
    with CaptureQueriesContext(connection) as captured:
        store.read_all_after(0, limit=1000)
    (query,) = captured.captured_queries
    sql = str(query["sql"])
    assert "$1" in sql and "$2" not in sql  # bound on the server: the position is its one parameter
    return sql.replace("$1", "0")


def _plan(sql: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql)
        return "\n".join(line for (line,) in cursor.fetchall())


def _unanalysed(table: str, lengths_in_types: bool) -> None:
    """A copy of the log's table with 20,000 rows and no statistics (a temporary table is never vacuumed
    nor analysed); ``lengths_in_types``: its text columns typed as they were before migration 0014."""
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TEMPORARY TABLE {table} (LIKE scoring_storedevent INCLUDING ALL)")
        if lengths_in_types:
            for name, longest in TEXT_LENGTHS.items():
                cursor.execute(f"ALTER TABLE {table} ALTER COLUMN {name} TYPE varchar({longest})")
        cursor.execute(
            f"INSERT INTO {table} (stream_id, version, event_type, schema_version, payload, recorded_at,"
            " recorded_by, batch_size)"
            " SELECT 'match-' || (n / 40) || '-hand-1', n % 40 + 1, 'MoveRecorded', 2,"
            ' \'{"move": {"type": "play", "seat": 1, "card": "7C"}, "verdicts": []}\', now(), \'scorer\', 1'
            " FROM generate_series(1, 20000) AS n"
        )
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
        assert cursor.fetchone()[0] < 0  # no statistics


@pytest.mark.postgres
def test_a_tailing_reader_walks_the_primary_key_of_a_table_never_analysed() -> None:
    """The page is read along the primary key; with the types as they were before 0014, the same
    statement scanned and sorted the whole table."""
    sql = _tailing_read_sql()
    _unanalysed("unanalysed", lengths_in_types=False)
    _unanalysed("unanalysed_before", lengths_in_types=True)

    plan = _plan(sql.replace("scoring_storedevent", "unanalysed"))
    assert "Index Scan using unanalysed_pkey" in plan and "Seq Scan" not in plan, plan
    assert "Seq Scan" in _plan(sql.replace("scoring_storedevent", "unanalysed_before"))


@pytest.mark.parametrize("name", sorted(TEXT_LENGTHS))
def test_the_database_still_refuses_a_text_longer_than_its_column_allows(name: str) -> None:
    fields = {"stream_id": "s-1", "version": 1, "event_type": "T", "schema_version": 1, "payload": {}}
    longest = TEXT_LENGTHS[name]
    StoredEvent.objects.create(**{**fields, "stream_id": "s-0", name: "é" * longest})

    with pytest.raises((IntegrityError, DataError)), transaction.atomic():
        StoredEvent.objects.create(**{**fields, name: "é" * (longest + 1)})
