"""The cursors an append keeps on its connection (PostgreSQL): made once per driver connection and used
again, replaced when the connection is, passed over wherever Django must see each statement, and with
Django's handling of errors, so that a failed append leaves the log as it was."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, connection, connections, transaction
from django.db.backends.utils import CursorWrapper
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common import rows
from common.errors import ConcurrencyConflict
from scoring.log import chain, store
from scoring.log.events import HandStarted, MoveRecorded
from scoring.models import StoredEvent

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

START = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)


def move(n: int) -> MoveRecorded:
    return MoveRecorded(move={"kind": "PlayCard", "seat": n % 4, "card": f"{n % 7 + 1}C"})


def kept() -> Any:
    """The cursors kept on this thread's connection (the store's and the reads'), or None before any
    statement made them."""
    return connections["default"].__dict__.get(rows._KEPT)


def appends_sent(queries: list[dict[str, Any]]) -> list[str]:
    return [q["sql"] for q in queries if "scoring_append_event" in q["sql"]]


def log() -> list[tuple[str, int]]:
    return [(e.stream_id, e.version) for e in store.read_all_after(0)]


def test_one_cursor_serves_every_append_on_a_connection() -> None:
    store.append("k1", [START], expected_version=0)
    first = kept()
    assert first is not None
    assert first.raw is connection.connection

    store.append("k1", [move(1)], expected_version=1, idempotency_key="a")
    store.append("k2", [START, move(2)], expected_version=0)
    with transaction.atomic():
        store.append("k1", [move(3)], expected_version=2, commit=True)

    assert kept() is first
    assert not first.cursors["server"].closed and not first.cursors["client"].closed
    assert log() == [("k1", 1), ("k1", 2), ("k2", 1), ("k2", 2), ("k1", 3)]


def test_the_reads_and_the_appends_keep_their_cursors_in_one_place() -> None:
    # One keeper per connection: the append's cursor and the reads' (common.rows) side by side, each
    # made once, and all of them left behind with the connection they belong to.
    store.append("o1", [START], expected_version=0)
    sql = f"SELECT * FROM {StoredEvent._meta.db_table} WHERE stream_id = %s ORDER BY version"
    assert [e.version for e in rows.instances(StoredEvent, sql, ["o1"])] == [1]
    with transaction.atomic():
        store.append("o1", [move(1)], expected_version=1, commit=True)
    both = kept()
    assert both is not None and both.raw is connection.connection
    assert set(both.cursors) == {"server", "django", "client"}
    made = dict(both.cursors)

    assert [e.version for e in rows.instances(StoredEvent, sql, ["o1"])] == [1, 2]
    store.append("o1", [move(2)], expected_version=2)
    assert kept() is both and both.cursors == made

    connection.close()
    assert [e.version for e in rows.instances(StoredEvent, sql, ["o1"])] == [1, 2, 3]
    assert kept() is not both and set(kept().cursors) == {"django"}
    assert all(cursor.closed or cursor.connection.closed for cursor in made.values())


def test_a_closed_connection_gets_new_cursors_on_its_successor() -> None:
    store.append("c1", [START], expected_version=0)
    before = kept()
    connection.close()

    store.append("c1", [move(1)], expected_version=1)

    after = kept()
    assert after is not before
    assert after.raw is connection.connection
    assert before.raw.closed and not after.raw.closed
    assert [e.version for e in store.read_stream("c1")] == [1, 2]


def test_a_connection_the_server_dropped_fails_once_and_is_replaced() -> None:
    store.append("d1", [START], expected_version=0)
    before = kept()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()

    # The failure comes out as Django's error, and marks the connection for its health check, which then
    # closes it: the next append has a new connection and new cursors.
    with pytest.raises(DatabaseError):
        store.append("d1", [move(1)], expected_version=1)
    assert connection.errors_occurred
    connection.close_if_unusable_or_obsolete()
    store.append("d1", [move(1)], expected_version=1)

    assert kept() is not before
    assert kept().raw is connection.connection
    assert [e.version for e in store.read_stream("d1")] == [1, 2]


def test_counted_statements_are_still_counted() -> None:
    store.append("q1", [START], expected_version=0)  # the cursors are kept from here on
    assert kept() is not None

    with CaptureQueriesContext(connection) as captured:
        store.append("q1", [move(1)], expected_version=1)
        with transaction.atomic():
            store.append("q1", [move(2)], expected_version=2, commit=True)

    sent = appends_sent(captured.captured_queries)
    assert len(sent) == 2
    # The client-bound message: the statement, the commit and the statement that makes it durable.
    assert "; COMMIT; " in sent[1] and sent[1].endswith(store._FLUSH)


def test_an_execute_wrapper_sees_the_append() -> None:
    store.append("w1", [START], expected_version=0)
    seen: list[str] = []

    def spy(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        store.append("w1", [move(1)], expected_version=1)

    assert len([s for s in seen if "scoring_append_event" in s]) == 1


def test_a_connection_shared_between_threads_gets_a_cursor_per_statement() -> None:
    store.append("t1", [START], expected_version=0)
    db = connections["default"]
    db.inc_thread_sharing()
    try:
        with store._cursor(db, kept=True) as cursor:
            assert isinstance(cursor, CursorWrapper)  # Django's own, closed at the block's end
            assert cursor.cursor is not kept().cursors["server"]
        store.append("t1", [move(1)], expected_version=1)
    finally:
        db.dec_thread_sharing()
    assert [e.version for e in store.read_stream("t1")] == [1, 2]


def test_a_failed_append_raises_djangos_error_and_leaves_the_log_as_it_was() -> None:
    store.append("e1", [START], expected_version=0)
    before = log()
    broken = store.Alongside("UPDATE no_such_table SET x = 1 WHERE y = %s", [1])

    with pytest.raises(DatabaseError) as raised, transaction.atomic():
        store.append("e1", [move(1)], expected_version=1, alongside=[broken])
    assert type(raised.value).__module__ == "django.db.utils"  # not the driver's own class
    assert log() == before

    # The same cursor goes on: the next append on the connection is written.
    store.append("e1", [move(1)], expected_version=1)
    assert log() == [*before, ("e1", 2)]


def test_an_integrity_error_comes_out_as_djangos() -> None:
    # A stream name past the store's limit is refused by a check constraint.
    with pytest.raises(IntegrityError):
        store.append("x" * 500, [START], expected_version=0)
    assert log() == []


def test_a_broken_transaction_refuses_the_next_append() -> None:
    store.append("b1", [START], expected_version=0)
    broken = store.Alongside("UPDATE no_such_table SET x = 1 WHERE y = %s", [1])
    with transaction.atomic():
        # A block without a savepoint that ends in an error leaves the whole transaction to roll back.
        with pytest.raises(DatabaseError), transaction.atomic(savepoint=False):
            store.append("b1", [move(1)], expected_version=1, alongside=[broken])
        # Django's rule, kept by the store's own cursor: no more statements in that transaction.
        with pytest.raises(TransactionManagementError):
            store.append("b1", [move(1)], expected_version=1)
    assert log() == [("b1", 1)]


def test_nothing_appended_with_the_commit_rolls_back_the_updates_sent_first() -> None:
    store.append("n1", [START], expected_version=0)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE kept_note (stream varchar PRIMARY KEY, n integer)")
        cursor.execute("INSERT INTO kept_note VALUES ('n1', 0)")
    try:
        first = store.Alongside("UPDATE kept_note SET n = n + 1 WHERE stream = %s", ["n1"], first=True)
        for _ in range(2):  # twice: the kept cursor is used again after the failed message
            with pytest.raises(ConcurrencyConflict), transaction.atomic():
                store.append("n1", [move(1)], expected_version=5, alongside=[first], commit=True)
        with transaction.atomic():
            store.append("n1", [move(1)], expected_version=1, alongside=[first], commit=True)
        with connection.cursor() as cursor:
            cursor.execute("SELECT n FROM kept_note")
            assert cursor.fetchone() == (1,)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE kept_note")
    assert log() == [("n1", 1), ("n1", 2)]


# One step of a random run: which stream, how far the expected version is from the stream's, whether
# the append carries a key (one used before on that stream, or a new one), and how many events.
STEPS = st.lists(
    st.tuples(
        st.integers(0, 2),
        st.sampled_from([0, 0, 0, -1, 1]),
        st.sampled_from([None, "new", "old"]),
        st.integers(1, 3),
    ),
    min_size=1,
    max_size=12,
)


def run_steps(prefix: str, steps: list[tuple[int, int, str | None, int]]) -> list[Any]:
    """Play the steps on streams named after ``prefix``; what each append answered."""
    versions = [0, 0, 0]
    keys: list[list[str]] = [[], [], []]
    out: list[Any] = []
    for n, (s, off, key_kind, size) in enumerate(steps):
        stream = f"{prefix}-{s}"
        key = None
        if key_kind == "new" or (key_kind == "old" and not keys[s]):
            key = f"key{n}"
        elif key_kind == "old":
            key = keys[s][-1]
        events = [START] if versions[s] == 0 else []
        events += [move(n + i) for i in range(size - len(events))]
        try:
            done = store.append(
                stream, events, expected_version=max(versions[s] + off, 0), idempotency_key=key
            )
        except ConcurrencyConflict as e:
            out.append(("conflict", e.expected, e.actual))
            continue
        if key is not None and key not in keys[s]:
            keys[s].append(key)
        versions[s] = max(versions[s], done.to_version)
        out.append((done.from_version, done.to_version, len(done.positions)))
    out.append([[(e.version, e.event.type) for e in store.read_stream(f"{prefix}-{s}")] for s in range(3)])
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS, run=st.integers(0, 10**9))
def test_the_kept_cursor_answers_as_djangos_wrapped_cursor(steps: list[Any], run: int) -> None:
    kept_side = run_steps(f"kept{run}", steps)
    connection.force_debug_cursor = True  # every statement logged: the plain, wrapped cursor
    try:
        plain_side = run_steps(f"plain{run}", steps)
    finally:
        connection.force_debug_cursor = False
    assert kept_side == plain_side
    assert chain.verify(store.chained_rows()).broken is None


def test_a_backend_subclass_of_djangos_gets_the_same_kept_cursors() -> None:
    from django.db.backends.postgresql.base import DatabaseWrapper

    class Subclass(DatabaseWrapper):  # as a project backend that changes, say, its health check
        def is_usable(self) -> bool:
            return self.connection is not None and super().is_usable()

    own = Subclass(connections["default"].settings_dict, "default")
    plain = connections["default"]
    connections["default"] = own
    try:
        store.append("s1", [START], expected_version=0)
        first = own.__dict__[rows._KEPT]
        store.append("s1", [move(1)], expected_version=1)
        assert own.__dict__[rows._KEPT] is first
        assert first.raw is own.connection
        assert [e.version for e in store.read_stream("s1")] == [1, 2]
    finally:
        own.close()
        connections["default"] = plain
