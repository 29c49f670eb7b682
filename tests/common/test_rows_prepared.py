"""Statements prepared once per connection (``common.rows.execute_message``, issue 29): the reads and the
append of a move are sent as ``EXECUTE`` of statements prepared on the connection the first time, in the
same message, and read exactly what the statements read as text; the names never outlive what the
server keeps (a rollback of the driver's own, which deallocates every statement of the session; a
message that failed before its ``PREPARE`` ran)."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import DatabaseError, connection, connections, transaction
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from common import rows
from common.rows import execute_message, instance_sets, instances
from scoring.log import chain, store
from scoring.models import Hand, Match
from scoring.services import match_create
from tests.scoring.api_support import play, service_record
from tests.scoring.factories import ClubFactory, member

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

HANDS = f"SELECT * FROM {Hand._meta.db_table} WHERE match_id = %s"
MATCHES = f"SELECT m.*, 1 AS one FROM {Match._meta.db_table} m WHERE m.id = %s"


@pytest.fixture(autouse=True)
def postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's prepared statements")


@pytest.fixture
def match() -> Match:
    club = ClubFactory()
    member(club, "director")
    return match_create(club=club, game="tressette", seats=["a", "b", "c", "d"], options={"target": 21})


def fields(instance: Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def sent(trace: Path) -> list[str]:
    """The text of each simple-query message the client sent, from libpq's trace."""
    return [
        line.split("\t", 4)[-1].strip().strip('"')
        for line in trace.read_text().splitlines()
        if "\tF\t" in line and "\tQuery\t" in line
    ]


@pytest.fixture
def traced(tmp_path: Path) -> Iterator[Path]:
    db = connections["default"]
    db.ensure_connection()
    raw = db.connection
    trace = tmp_path / "trace"
    with trace.open("w") as out:
        raw.pgconn.trace(out.fileno())
        try:
            yield trace
        finally:
            raw.pgconn.untrace()


def names_on_server() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements WHERE name LIKE 'segnapunti%%'")
        return {name for (name,) in cursor.fetchall()}


def test_placeholders_are_numbered_for_prepare_and_a_literal_percent_kept() -> None:
    assert rows._numbered("SELECT %s, '%%', %b::bytea WHERE x = %s") == (
        "SELECT $1, '%%', $2::bytea WHERE x = $3",
        3,
    )
    prepared = rows.Prepared()
    text, making = rows.message(prepared, ["SELECT %s AS a", "SET LOCAL x TO y", "SELECT 1"])
    assert making == 2
    assert text == (
        "PREPARE segnapunti_0_0 AS SELECT $1 AS a; PREPARE segnapunti_0_1 AS SELECT 1; "
        "EXECUTE segnapunti_0_0(%s); SET LOCAL x TO y; EXECUTE segnapunti_0_1"
    )
    assert rows.message(prepared, ["SELECT 1", "SELECT %s AS a"]) == (
        "EXECUTE segnapunti_0_1; EXECUTE segnapunti_0_0(%s)",
        0,
    )
    prepared.forget()
    assert rows.message(prepared, ["SELECT 1"]) == (
        "PREPARE segnapunti_1_0 AS SELECT 1; EXECUTE segnapunti_1_0",
        1,
    )
    assert rows.message(None, ["SELECT 1", "COMMIT"]) == ("SELECT 1; COMMIT", 0)


def test_prepared_once_then_executed_and_read_as_the_text_reads(match: Match, traced: Path) -> None:
    plain = instance_sets([(Hand, HANDS, [match.pk]), (Match, MATCHES, [match.pk])])
    first = instance_sets([(Hand, HANDS, [match.pk]), (Match, MATCHES, [match.pk])], prepare=True)
    again = instance_sets([(Hand, HANDS, [match.pk]), (Match, MATCHES, [match.pk + 1])], prepare=True)
    alone = instances(Hand, (HANDS, MATCHES), [match.pk, match.pk], then=(then := []), prepare=True)

    assert [fields(r) for r in first[0]] == [fields(r) for r in plain[0]] == [fields(r) for r in alone]
    assert [fields(r) for r in first[1]] == [fields(r) for r in plain[1]]
    assert first[1][0].one == 1 and again[1] == [] and len(then) == 1 and len(then[0]) == 1
    messages = [m for m in sent(traced) if "pg_prepared_statements" not in m]
    assert len(messages) == 4 and "segnapunti_" not in messages[0]
    if messages[1].startswith("PREPARE"):  # else prepared by an earlier test on this connection
        assert messages[1].count("PREPARE segnapunti_") == 2
    assert all(m.startswith("EXECUTE segnapunti_") for m in messages[2:])
    assert str(match.pk + 1) in messages[2]
    assert len(names_on_server()) >= 2


def test_djangos_own_cursor_sends_the_statements_as_written(match: Match) -> None:
    with CaptureQueriesContext(connection) as seen:
        got = instances(Match, MATCHES, [match.pk], prepare=True)
    assert got[0].pk == match.pk
    assert [q["sql"].startswith("SELECT m.*, 1 AS one") for q in seen.captured_queries] == [True]


def test_the_drivers_rollback_drops_every_statement_and_they_are_prepared_again(
    match: Match, traced: Path
) -> None:
    import psycopg

    instances(Match, MATCHES, [match.pk], prepare=True)
    assert names_on_server()
    raw = connections["default"].connection
    with transaction.atomic():
        with psycopg.Cursor(raw) as own:  # the driver prepares a statement of its own...
            for _ in range(3):
                own.execute("SELECT %s::int", [1], prepare=True)
        transaction.set_rollback(True)  # ...so a rollback makes it deallocate every one of the session
    assert not names_on_server()

    got = instances(Match, MATCHES, [match.pk], prepare=True)  # not "prepared statement ... does not exist"
    assert got[0].pk == match.pk
    assert names_on_server()
    assert [m for m in sent(traced) if "pg_prepared_statements" not in m][-1].startswith(
        "PREPARE segnapunti_"
    )


ONLY_HERE = MATCHES + " AND 2 = 2"  # a statement no other test prepares on the connection


def test_a_message_that_failed_before_its_prepare_ran_forgets_the_names(match: Match) -> None:
    import psycopg

    with transaction.atomic():
        raw = connections["default"].connection.cursor()  # the driver's own: Django's checks set aside
        with pytest.raises(psycopg.errors.DivisionByZero):
            raw.execute("SELECT 1 / 0")
        with pytest.raises(psycopg.errors.InFailedSqlTransaction):  # nothing of it is run, PREPARE included
            execute_message(raw, [ONLY_HERE], [match.pk], prepare=True)
        transaction.set_rollback(True)

    got = instances(Match, ONLY_HERE, [match.pk], prepare=True)  # prepared now, under a new name
    assert got[0].pk == match.pk


def test_statements_deallocated_by_someone_else_fail_once_then_are_prepared_again(match: Match) -> None:
    instances(Match, MATCHES, [match.pk], prepare=True)
    with rows._cursor(connections["default"]) as cursor:
        cursor.execute("DEALLOCATE ALL")
    with pytest.raises(DatabaseError, match="does not exist"), transaction.atomic():
        instances(Match, MATCHES, [match.pk], prepare=True)
    assert instances(Match, MATCHES, [match.pk], prepare=True)[0].pk == match.pk


@pytest.mark.django_db(transaction=True)
def test_a_move_is_written_with_prepared_statements_as_the_fold_writes_it(match: Match, traced: Path) -> None:
    # transaction=True: the append is committed in its own message only in the outermost transaction.
    hand = Hand.objects.select_related("match").get(match=match, number=1)
    moves = play(hand, seed=5).moves
    hand = service_record(hand, moves)
    stored = Hand.objects.get(pk=hand.pk)
    events = store.read_stream(stored.stream_id)
    assert stored.version == len(moves) + 1 == len(events)  # the hand's start, then every move
    assert stored.position == events[-1].position and stored.status == Hand.Status.OVER
    checked = chain.verify(store.chained_rows())
    assert checked.broken is None and checked.events >= len(events)
    writes = [m for m in sent(traced) if "; COMMIT; " in m]
    assert len(writes) == len(moves)
    # Prepared once on the connection (by the first move, or an earlier test); the last move finishes the
    # hand and also writes the match's sheet and the hand's seal: a statement of another shape.
    assert all("PREPARE" not in m for m in writes[1:-1])
    # Each: the hand's row (at the end the match's sheet too), the append, then after the COMMIT the flush.
    assert all(m.count("EXECUTE segnapunti_") >= 3 for m in writes)
    assert all(m.split("; COMMIT; ")[1].startswith("EXECUTE segnapunti_") for m in writes)


class _OtherDriver:
    """A driver connection as another psycopg version would give it: its libpq connection, no statement
    manager of psycopg 3.3's (``_prepared``)."""

    def __init__(self, real: Any) -> None:
        self.pgconn = real.pgconn


class _OtherCursor:
    """A cursor of that driver: what ``execute_message`` uses of one, sent on the real connection."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.connection = _OtherDriver(real.connection)

    def execute(self, sql: str, params: list[Any]) -> None:
        self.real.execute(sql, params)

    def nextset(self) -> bool | None:
        return self.real.nextset()

    def fetchall(self) -> list[Any]:
        return self.real.fetchall()


NOWHERE_ELSE = MATCHES + " AND 3 = 3"  # a statement no other test sends


def test_a_driver_without_psycopgs_statement_manager_sends_the_statements_as_text(
    match: Match, traced: Path
) -> None:
    import psycopg

    db = connections["default"]
    with psycopg.ClientCursor(db.connection) as real:
        cursor = _OtherCursor(real)
        assert rows.preparing(cursor) is None
        execute_message(cursor, [NOWHERE_ELSE, NOWHERE_ELSE], [match.pk, match.pk + 1], prepare=True)
        first = cursor.fetchall()
        assert cursor.nextset()
        second = cursor.fetchall()
    assert [row[0] for row in first] == [match.pk] and second == []
    ours = [m for m in sent(traced) if "3 = 3" in m]
    assert len(ours) == 1 and "PREPARE" not in ours[0] and "EXECUTE" not in ours[0]
    assert ours[0].count("AND 3 = 3") == 2
