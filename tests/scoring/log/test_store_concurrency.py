"""Real concurrent writers on PostgreSQL: threads, each on a connection of its own."""

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest
from django.db import transaction

from common.errors import ConcurrencyConflict
from scoring.log import store
from scoring.log.events import HandStarted, MoveRecorded
from scoring.log.store import AppendResult
from scoring.models import StoredEvent

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

Spawn = Callable[..., Future[Any]]
START = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)
ROUNDS = 50


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


def held_then_raced(
    spawn: Spawn, monkeypatch: pytest.MonkeyPatch, stream: str, key: str | None
) -> tuple[AppendResult, AppendResult | ConcurrencyConflict]:
    """Take the lock away; the first writer inserts and holds its transaction open while the second
    appends the same version: the second's version check cannot see the first's insert yet, so only the
    unique constraints (which make it wait for the first to commit) are left to stop it."""
    monkeypatch.setattr(store, "_lock_appends", lambda: None)
    inserted, commit = threading.Event(), threading.Event()

    def first() -> AppendResult:
        with transaction.atomic():
            move = MoveRecorded(move={"kind": "PlayCard", "seat": 0, "card": "AC"})
            done = store.append(stream, [move], expected_version=1, idempotency_key=key)
            inserted.set()
            assert commit.wait(timeout=10)
        return done

    def second() -> AppendResult | ConcurrencyConflict:
        move = MoveRecorded(move={"kind": "PlayCard", "seat": 0 if key else 1, "card": "AC"})
        try:
            return store.append(stream, [move], expected_version=1, idempotency_key=key)
        except ConcurrencyConflict as conflict:
            return conflict

    held = spawn(first)
    assert inserted.wait(timeout=10)
    racing = spawn(second)
    time.sleep(0.3)
    assert not racing.done(), "the second insert should wait on the first one's uncommitted row"
    commit.set()
    return held.result(timeout=10), racing.result(timeout=10)


def test_without_the_lock_the_unique_constraint_still_turns_a_race_into_a_conflict(
    spawn: Spawn, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(10):
        stream = f"race-{n}"
        store.append(stream, [START], expected_version=0)

        won, lost = held_then_raced(spawn, monkeypatch, stream, key=None)

        assert isinstance(lost, ConcurrencyConflict) and (lost.expected, lost.actual) == (1, 2)
        assert [e.version for e in store.read_stream(stream)] == [1, 2]
        assert store.read_stream(stream)[1].position == won.positions[0]


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
        stream = f"retry-{n}"
        store.append(stream, [START], expected_version=0)

        first, second = held_then_raced(spawn, monkeypatch, stream, key=f"req-{n}")

        assert isinstance(second, AppendResult) and first == second
        assert store.stream_version(stream) == 2
