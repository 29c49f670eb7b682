"""Real concurrent writers on PostgreSQL: threads, each on a connection of its own."""

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest

from scoring import store
from scoring.events import HandStarted, MoveRecorded
from scoring.models import StoredEvent
from scoring.store import AppendResult, ConcurrencyConflict

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

Spawn = Callable[..., Future[Any]]
START = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)
ROUNDS = 50
UNPATCHED_STREAM_VERSION = store.stream_version


def race(spawn: Spawn, stream: str, key: str | None = None) -> list[AppendResult | ConcurrencyConflict]:
    """Two writers append to `stream` at version 1 at the same moment; what each one got."""
    barrier = threading.Barrier(2)

    def writer(n: int) -> AppendResult | ConcurrencyConflict:
        move = MoveRecorded(move={"kind": "PlayCard", "seat": n, "card": "AC"})
        barrier.wait(timeout=10)
        try:
            return store.append(stream, [move], expected_version=1, idempotency_key=key)
        except ConcurrencyConflict as conflict:
            return conflict

    futures = [spawn(writer, n) for n in range(2)]
    return [f.result(timeout=30) for f in futures]


def assert_one_won_one_conflicted(stream: str, outcomes: list[AppendResult | ConcurrencyConflict]) -> None:
    won = [o for o in outcomes if isinstance(o, AppendResult)]
    lost = [o for o in outcomes if isinstance(o, ConcurrencyConflict)]
    assert len(won) == 1 and len(lost) == 1, outcomes
    assert (lost[0].expected, lost[0].actual) == (1, 2)
    rows = list(StoredEvent.objects.filter(stream_id=stream).order_by("version"))
    assert [r.version for r in rows] == [1, 2]
    assert rows[1].position == won[0].positions[0]


def test_two_writers_at_the_same_version_one_wins_the_other_conflicts(spawn: Spawn) -> None:
    for n in range(ROUNDS):
        stream = f"race-{n}"
        store.append(stream, [START], expected_version=0)

        assert_one_won_one_conflicted(stream, race(spawn, stream))

    assert StoredEvent.objects.count() == 2 * ROUNDS


def without_the_lock_both_pass_the_version_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Take the lock away and hold each writer after its first version read until the other has read
    too: both then insert, and only the unique constraints are left to stop the second one."""
    both_read = threading.Barrier(2)
    read_once = threading.local()

    def version_then_wait(stream_id: str) -> int:
        version = UNPATCHED_STREAM_VERSION(stream_id)
        if not getattr(read_once, "done", False):
            read_once.done = True
            both_read.wait(timeout=10)
        return version

    monkeypatch.setattr(store, "_lock_appends", lambda: None)
    monkeypatch.setattr(store, "stream_version", version_then_wait)


def start_without_the_store(stream: str) -> None:
    # Version 1 goes straight into the table: store.append would stop at the patched version check.
    StoredEvent.objects.create(
        stream_id=stream, version=1, event_type="HandClosed", schema_version=1, payload={}
    )


def test_without_the_lock_the_unique_constraint_still_turns_a_race_into_a_conflict(
    spawn: Spawn, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(10):
        without_the_lock_both_pass_the_version_check(monkeypatch)
        stream = f"race-{n}"
        start_without_the_store(stream)

        assert_one_won_one_conflicted(stream, race(spawn, stream))


def test_concurrent_retries_with_one_idempotency_key_append_once(spawn: Spawn) -> None:
    for n in range(ROUNDS):
        stream = f"retry-{n}"
        store.append(stream, [START], expected_version=0)

        first, second = race(spawn, stream, key=f"req-{n}")

        assert isinstance(first, AppendResult) and first == second
        assert store.stream_version(stream) == 2


def test_concurrent_retries_are_recognised_by_the_constraint_without_the_lock(
    spawn: Spawn, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(10):
        without_the_lock_both_pass_the_version_check(monkeypatch)
        stream = f"retry-{n}"
        start_without_the_store(stream)

        first, second = race(spawn, stream, key=f"req-{n}")

        assert isinstance(first, AppendResult) and first == second
        assert UNPATCHED_STREAM_VERSION(stream) == 2
