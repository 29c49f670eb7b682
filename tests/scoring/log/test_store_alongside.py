"""The read models written in the append's own statement, and the commit sent with it (PostgreSQL)."""

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest
from django.db import connection, transaction

from common.errors import ConcurrencyConflict
from scoring.log import store
from scoring.log.events import HandStarted, MoveRecorded

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

Spawn = Callable[..., Future[Any]]
START = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)
MOVE = MoveRecorded(move={"kind": "PlayCard", "seat": 0, "card": "AC"})


@pytest.fixture
def notes() -> Any:
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE alongside_note (stream varchar PRIMARY KEY, position bigint, n integer)")
    yield
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE alongside_note")


def note(stream: str, n: int) -> store.Alongside:
    sql = "UPDATE alongside_note SET position = {position}, n = %s WHERE stream = %s"
    return store.Alongside(sql, [n, stream])


def noted(stream: str) -> tuple[int, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT position, n FROM alongside_note WHERE stream = %s", [stream])
        position, n = cursor.fetchone()
    return int(position), int(n)


def seed(stream: str) -> None:
    store.append(stream, [START], expected_version=0)
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO alongside_note VALUES (%s, 0, 0)", [stream])


def test_the_update_goes_in_with_the_events_and_names_their_position(notes: None) -> None:
    seed("s1")

    with transaction.atomic():
        done = store.append("s1", [MOVE], expected_version=1, alongside=[note("s1", 7)], commit=True)

    assert noted("s1") == (done.positions[-1], 7)


def test_on_a_conflict_nothing_is_written_not_even_alongside(notes: None) -> None:
    seed("s2")

    with pytest.raises(ConcurrencyConflict), transaction.atomic():
        store.append("s2", [MOVE], expected_version=5, alongside=[note("s2", 7)], commit=True)

    assert noted("s2") == (0, 0)
    assert store.stream_version("s2") == 1


def test_the_outermost_transaction_is_committed_with_the_append(notes: None, spawn: Spawn) -> None:
    """Another connection sees the event as soon as append returns, before the atomic block ends: the
    COMMIT went with the statement, so the ordering lock was not held while this thread ran on."""
    seed("s3")
    seen: list[int] = []

    with transaction.atomic():
        store.append("s3", [MOVE], expected_version=1, alongside=[note("s3", 1)], commit=True)
        seen.append(spawn(store.stream_version, "s3").result(timeout=10))
        # and the lock is free: another append on another stream does not wait for this block to end
        other = spawn(store.append, "s3-other", [START], expected_version=0)
        other.result(timeout=10)

    assert seen == [2]


def test_inside_an_enclosing_transaction_nothing_is_committed_early(notes: None, spawn: Spawn) -> None:
    seed("s4")
    seen: list[int] = []

    with transaction.atomic(), transaction.atomic():
        store.append("s4", [MOVE], expected_version=1, alongside=[note("s4", 1)], commit=True)
        seen.append(spawn(store.stream_version, "s4").result(timeout=10))

    assert seen == [1]
    assert store.stream_version("s4") == 2


def test_without_commit_the_lock_is_held_to_the_end_of_the_block(spawn: Spawn) -> None:
    store.append("s5", [START], expected_version=0)

    with transaction.atomic():
        store.append("s5", [MOVE], expected_version=1)
        other = spawn(store.append, "s5-other", [START], expected_version=0)
        with pytest.raises(TimeoutError):
            other.result(timeout=0.5)
    other.result(timeout=10)


def first(stream: str, n: int) -> store.Alongside:
    """An update sent ahead of the append (it does not read the position)."""
    return store.Alongside("UPDATE alongside_note SET n = %s WHERE stream = %s", [n, stream], first=True)


def test_an_update_sent_first_is_committed_with_the_append(notes: None) -> None:
    seed("f1")

    with transaction.atomic():
        done = store.append("f1", [MOVE], expected_version=1, alongside=[first("f1", 3)], commit=True)

    assert store.stream_version("f1") == 2
    assert noted("f1") == (0, 3)
    assert done.positions == (store.read_stream("f1")[-1].position,)


def test_an_update_sent_first_is_rolled_back_when_the_version_is_stale(notes: None) -> None:
    seed("f2")

    with pytest.raises(ConcurrencyConflict) as refused, transaction.atomic():
        store.append("f2", [MOVE], expected_version=5, alongside=[first("f2", 3), note("f2", 4)], commit=True)

    assert refused.value.actual == 1
    assert noted("f2") == (0, 0)
    assert store.stream_version("f2") == 1


def test_an_update_sent_first_is_rolled_back_when_the_key_was_used(notes: None) -> None:
    seed("f3")
    earlier = store.append("f3", [MOVE], expected_version=1, idempotency_key="k")

    with transaction.atomic():
        again = store.append(
            "f3", [MOVE], expected_version=2, idempotency_key="k", alongside=[first("f3", 3)], commit=True
        )
        # the transaction goes on after the rollback: what it reads and writes now is kept
        with connection.cursor() as cursor:
            cursor.execute("UPDATE alongside_note SET position = 9 WHERE stream = 'f3'")

    assert again == earlier
    assert noted("f3") == (9, 0)
    assert store.stream_version("f3") == 2


def test_inside_an_enclosing_transaction_an_update_sent_first_runs_after_the_insert(notes: None) -> None:
    seed("f4")

    with transaction.atomic(), transaction.atomic():
        done = store.append(
            "f4", [MOVE], expected_version=1, alongside=[first("f4", 3), note("f4", 4)], commit=True
        )
    with pytest.raises(ConcurrencyConflict), transaction.atomic(), transaction.atomic():
        store.append("f4", [MOVE], expected_version=1, alongside=[first("f4", 5)], commit=True)

    assert noted("f4") == (done.positions[-1], 3)  # note's n = 4, then first's 3, as the updates ran


def test_an_update_sent_first_runs_before_the_ordering_lock_is_taken(notes: None, spawn: Spawn) -> None:
    """While the update sent first waits for its row (another transaction holds it), the append has not
    taken the ordering lock: another stream's append goes through meanwhile. Written after the insert,
    under the lock, it would have held every other append up."""
    seed("f5")
    holding, release = threading.Event(), threading.Event()

    def hold_the_row() -> None:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1 FROM alongside_note WHERE stream = 'f5' FOR UPDATE")
            holding.set()
            release.wait(timeout=20)

    def append_behind_it() -> store.AppendResult:
        with transaction.atomic():
            return store.append("f5", [MOVE], expected_version=1, alongside=[first("f5", 3)], commit=True)

    holder = spawn(hold_the_row)
    assert holding.wait(timeout=10)
    waiting = spawn(append_behind_it)
    time.sleep(0.3)  # the append's message is sent and waits for the row
    try:
        assert not waiting.done()
        spawn(store.append, "f5-other", [START], expected_version=0).result(timeout=5)
    finally:
        release.set()
    holder.result(timeout=10)
    waiting.result(timeout=10)
    assert noted("f5") == (0, 3)
    assert store.stream_version("f5") == 2


def test_a_benchmark_can_time_the_lock_each_append_holds(
    notes: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed("f6")
    monkeypatch.setattr(store, "lock_holds", [])
    with transaction.atomic():
        done = store.append("f6", [MOVE], expected_version=1, alongside=[first("f6", 3)], commit=True)
    holds = store.lock_holds
    assert holds is not None

    assert done.positions == (store.read_stream("f6")[-1].position,)
    assert noted("f6") == (0, 3)
    assert len(holds) == 1 and 0 < holds[0] < 5


def test_an_append_committed_with_its_message_is_on_disk_when_the_store_returns(
    notes: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The append's own commit does not wait for the disk (the ordering lock is freed first); the message's
    # last statement commits a WAL record of its own synchronously, after it. The store returns only then:
    # the WAL is flushed at least to that record, which lies after the append's commit.
    seed("f7")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_insert_lsn()::text")
        before = cursor.fetchone()[0]
    monkeypatch.setattr(store, "flushed_to", [])
    with transaction.atomic():
        store.append("f7", [MOVE], expected_version=1, alongside=[first("f7", 3)], commit=True)
    marks = store.flushed_to
    assert marks is not None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT %s::pg_lsn > %s::pg_lsn, pg_current_wal_flush_lsn() >= %s::pg_lsn",
            [marks[0], before, marks[0]],
        )
        after_the_append, flushed = cursor.fetchone()
        # The commit without waiting for the disk was the append's transaction's alone.
        cursor.execute("SHOW synchronous_commit")
        setting = cursor.fetchone()[0]
    assert len(marks) == 1 and after_the_append and flushed
    assert setting == "on"
    assert noted("f7") == (0, 3)
    assert store.stream_version("f7") == 2


def test_an_append_that_inserts_nothing_leaves_no_flush_and_the_session_synchronous(
    notes: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed("f8")
    monkeypatch.setattr(store, "flushed_to", [])
    with pytest.raises(ConcurrencyConflict), transaction.atomic():
        store.append("f8", [MOVE], expected_version=0, alongside=[first("f8", 3)], commit=True)
    marks = store.flushed_to
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        setting = cursor.fetchone()[0]
    assert marks == []
    assert setting == "on"
    assert noted("f8") == (0, 0)
