"""``common.rows.instances``: the same instances as ``Model.objects.raw`` for a statement written out."""

from typing import Any

import pytest
from django.db import ProgrammingError, connection, connections, transaction
from django.db.models import Model
from django.db.transaction import TransactionManagementError

from common import rows
from common.rows import instance_sets, instances
from scoring.models import Hand, Match
from scoring.services import match_create
from tests.scoring.factories import ClubFactory, member

pytestmark = pytest.mark.django_db


def fields(instance: Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def match() -> Match:
    club = ClubFactory()
    member(club, "director")
    made = match_create(club=club, game="tressette", seats=["a", "b", "c", "d"], options={"target": 21})
    Match.objects.filter(pk=made.pk).update(sheet={"totals": [3, 1], "finished": False}, title="Finale")
    return made


def test_the_instances_hold_what_raw_gives_json_and_times_included(match: Match) -> None:
    # Columns in another order than the model's fields, and one that is no field (kept as is).
    sql = f"SELECT 7 AS seven, h.* FROM {Hand._meta.db_table} h WHERE h.match_id = %s"
    mine = instances(Hand, sql, [match.pk])
    theirs = list(Hand.objects.raw(sql, [match.pk]))

    assert len(mine) == 1
    assert fields(mine[0]) == fields(theirs[0])
    assert mine[0].seven == 7
    assert mine[0]._state.adding is False and mine[0]._state.db == "default"

    sql = f"SELECT m.*, 'director' AS viewer_role FROM {Match._meta.db_table} m WHERE m.id = %s"
    got = instances(Match, sql, [match.pk])[0]
    assert fields(got) == fields(next(iter(Match.objects.raw(sql, [match.pk]))))
    assert got.sheet == {"totals": [3, 1], "finished": False}  # JSON decoded, as the ORM does
    assert got.options == {"target": 21}
    assert got.created_at.tzinfo is not None
    assert got.viewer_role == "director"


def test_no_row_is_an_empty_list_and_a_field_left_out_is_refused(match: Match) -> None:
    table = Match._meta.db_table
    assert instances(Match, f"SELECT * FROM {table} WHERE id = %s", [match.pk + 1000]) == []
    with pytest.raises(ValueError, match="does not select title"):
        instances(Match, f"SELECT id, club_id FROM {table} WHERE id = %s", [match.pk])


def test_several_reads_at_once_are_each_read_alone(match: Match) -> None:
    hands, matches = (
        f"SELECT * FROM {Hand._meta.db_table} WHERE match_id = %s",
        f"SELECT m.*, 1 AS one FROM {Match._meta.db_table} m WHERE m.id = %s",
    )
    got = instance_sets([(Hand, hands, [match.pk]), (Match, matches, [match.pk]), (Match, matches, [0])])

    assert [len(rows) for rows in got] == [1, 1, 0]
    assert fields(got[0][0]) == fields(instances(Hand, hands, [match.pk])[0])
    assert fields(got[1][0]) == fields(instances(Match, matches, [match.pk])[0])
    assert got[1][0].one == 1


def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    return execute(sql, params, many, context)


def test_the_kept_cursor_reads_what_djangos_reads(match: Match) -> None:
    sql = f"SELECT * FROM {Hand._meta.db_table} WHERE match_id = %s"
    kept = instances(Hand, sql, [match.pk])
    with connection.execute_wrapper(counted):  # Django must see the statement: its own cursor
        wrapped = instances(Hand, sql, [match.pk])
    assert fields(kept[0]) == fields(wrapped[0])
    if connection.vendor != "postgresql":
        return
    cursor = connections["default"].__dict__[rows._KEPT].cursors["django"]
    instances(Hand, sql, [match.pk])
    again = connections["default"].__dict__[rows._KEPT].cursors["django"]
    assert again is cursor and not cursor.closed  # used again

    with pytest.raises(ProgrammingError), transaction.atomic():  # the driver's error, as Django's
        instances(Hand, f"SELECT * FROM {Hand._meta.db_table} WHERE no_such_column = %s", [1])
    assert fields(instances(Hand, sql, [match.pk])[0]) == fields(kept[0])


@pytest.mark.django_db(transaction=True)
def test_a_new_connection_gets_a_new_cursor() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's kept cursor")
    sql = f"SELECT * FROM {Match._meta.db_table} WHERE id = %s"
    instances(Match, sql, [0])
    old = connections["default"].__dict__[rows._KEPT].cursors["django"]
    connection.close()
    assert instances(Match, sql, [0]) == []
    new = connections["default"].__dict__[rows._KEPT].cursors["django"]
    assert new is not old and old.connection.closed and not new.closed


def test_a_broken_transaction_is_refused_before_the_read(match: Match) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's kept cursor")
    with transaction.atomic():
        connection.needs_rollback = True
        with pytest.raises(TransactionManagementError):
            instances(Match, f"SELECT * FROM {Match._meta.db_table} WHERE id = %s", [match.pk])
        connection.needs_rollback = False


@pytest.mark.django_db(transaction=True)
def test_the_begin_goes_in_the_message_of_a_transactions_first_read(tmp_path: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's kept cursor")
    import psycopg
    from psycopg.pq import TransactionStatus

    club = ClubFactory()
    made = match_create(club=club, game="tressette", seats=["a", "b", "c", "d"], options={"target": 21})
    db = connections["default"]
    db.ensure_connection()
    raw = db.connection
    sql = f"SELECT * FROM {Hand._meta.db_table} WHERE match_id = %s FOR UPDATE"
    other = psycopg.connect(**db.get_connection_params(), autocommit=True)
    trace = tmp_path / "trace"
    with trace.open("w") as out:
        raw.pgconn.trace(out.fileno())
        try:
            with transaction.atomic():
                (hand,) = instances(Hand, sql, [made.pk])
                assert raw.pgconn.transaction_status == TransactionStatus.INTRANS
                assert fields(hand) == fields(Hand.objects.get(pk=hand.pk))
                with pytest.raises(psycopg.errors.LockNotAvailable):  # locked until the block ends
                    other.execute(
                        f"SELECT 1 FROM {Hand._meta.db_table} WHERE id = %s FOR UPDATE NOWAIT", [hand.pk]
                    )
                Hand.objects.filter(pk=hand.pk).update(flagged=True)
                transaction.set_rollback(True)
        finally:
            raw.pgconn.untrace()
    assert raw.pgconn.transaction_status == TransactionStatus.IDLE
    assert Hand.objects.get(pk=hand.pk).flagged is False  # rolled back with the transaction
    other.execute(f"SELECT 1 FROM {Hand._meta.db_table} WHERE id = %s FOR UPDATE NOWAIT", [hand.pk])
    other.close()
    sent = [
        line.split("\t", 4)[-1].strip().strip('"')
        for line in trace.read_text().splitlines()
        if "\tF\t" in line and "\tQuery\t" in line
    ]
    assert sent[0].startswith("BEGIN; SELECT * FROM")  # one message: no BEGIN of its own before it
    assert "BEGIN" not in sent
    assert sent[-1] == "ROLLBACK"

    with transaction.atomic():  # already in a transaction: nothing added
        Match.objects.filter(pk=made.pk).update(title="y")
        trace.write_text("")
        with trace.open("w") as out:
            raw.pgconn.trace(out.fileno())
            try:
                instances(Hand, sql, [made.pk])
            finally:
                raw.pgconn.untrace()
    assert "BEGIN" not in trace.read_text()
