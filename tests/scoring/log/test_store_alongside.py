"""The read models written in the append's own statement, and the commit sent with it (PostgreSQL)."""

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
