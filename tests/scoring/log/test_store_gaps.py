"""A reader tailing the store by global position must never skip an event that commits late.

Positions come from a sequence, handed out when a row is inserted, not when its transaction commits. If
two appends could be open at once, position N+1 might commit first; a reader that has moved past it
would never look at N again. The store serialises appends so that this cannot happen, and these tests
show both the guarantee and that the harness does catch a reader that skips events.
"""

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import transaction

from scoring.log import store
from scoring.log.events import MoveRecorded

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

Spawn = Callable[..., Future[Any]]
Tag = tuple[int, int]

WRITERS = 8
APPENDS_PER_WRITER = 300
ROLLBACK_ONE_IN = 20
MAX_DELAY_S = 0.002


class RolledBack(Exception):
    pass


def tag_of(recorded: store.RecordedEvent) -> Tag:
    assert isinstance(recorded.event, MoveRecorded)
    return (recorded.event.move["writer"], recorded.event.move["n"])


@dataclass
class Run:
    committed_at: dict[Tag, float] = field(default_factory=dict)
    rolled_back: set[Tag] = field(default_factory=set)
    seen_at: dict[Tag, float] = field(default_factory=dict)
    seen_in_order: list[Tag] = field(default_factory=list)

    @property
    def missed(self) -> set[Tag]:
        return set(self.committed_at) - set(self.seen_at)

    @property
    def worst_lag_s(self) -> float:
        return max(self.seen_at[t] - self.committed_at[t] for t in self.committed_at if t in self.seen_at)


def writer(w: int, run: Run, seed: int) -> None:
    """Append single-event batches to its own stream, pausing inside each transaction after the insert;
    one in ROLLBACK_ONE_IN transactions is rolled back on purpose."""
    rng = random.Random(seed)
    version = 0
    for n in range(APPENDS_PER_WRITER):
        rollback = rng.randrange(ROLLBACK_ONE_IN) == 0
        event = MoveRecorded(move={"writer": w, "n": n})
        try:
            with transaction.atomic():
                store.append(f"gap-{w}", [event], expected_version=version)
                time.sleep(rng.uniform(0, MAX_DELAY_S))
                if rollback:
                    raise RolledBack
        except RolledBack:
            run.rolled_back.add((w, n))
            continue
        run.committed_at[(w, n)] = time.monotonic()
        version += 1


def reader(run: Run, writers_done: threading.Event) -> None:
    """Tail the store the simple way: everything after the last position seen."""
    last = 0
    while True:
        finished = writers_done.is_set()  # read before polling, so the last poll sees every commit
        page = store.read_all_after(last, limit=500)
        now = time.monotonic()
        for recorded in page:
            run.seen_in_order.append(tag_of(recorded))
            run.seen_at.setdefault(tag_of(recorded), now)
            last = recorded.position
        if finished and not page:
            return
        if not page:
            time.sleep(0.0005)


def run_harness(spawn: Spawn) -> Run:
    run = Run()
    writers_done = threading.Event()
    tailing = spawn(reader, run, writers_done)
    writing = [spawn(writer, w, run, 1000 + w) for w in range(WRITERS)]
    for f in writing:
        f.result(timeout=120)
    writers_done.set()
    tailing.result(timeout=60)
    return run


def test_a_tailing_reader_misses_no_committed_event(spawn: Spawn) -> None:
    run = run_harness(spawn)

    assert len(run.committed_at) + len(run.rolled_back) == WRITERS * APPENDS_PER_WRITER
    assert run.rolled_back, "the harness should roll some appends back"
    assert run.missed == set()
    assert set(run.seen_at) == set(run.committed_at)
    assert len(run.seen_in_order) == len(run.committed_at), "no event read twice"
    assert run.worst_lag_s < 1.0, "a rolled-back append should not hold the reader up"


def test_the_same_harness_catches_the_skipped_events_when_appends_are_not_serialised(
    spawn: Spawn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "_lock_appends", lambda: None)

    run = run_harness(spawn)

    assert run.missed, "without the lock, some late commits should slip behind the reader"
    assert set(run.seen_at) <= set(run.committed_at)
    assert not set(run.seen_at) & run.rolled_back


def append_and_hold(spawn: Spawn, stream: str, commit: threading.Event) -> Future[store.AppendResult]:
    """Append one event in another thread and keep its transaction open until `commit` is set.

    Returns once the event is inserted (and has its position), not yet committed."""
    inserted = threading.Event()

    def hold() -> store.AppendResult:
        with transaction.atomic():
            result = store.append(stream, [MoveRecorded(move={"n": 1})], expected_version=0)
            inserted.set()
            assert commit.wait(timeout=10)
        return result

    held = spawn(hold)
    assert inserted.wait(timeout=10)
    return held


def test_without_the_lock_a_late_commit_is_skipped(spawn: Spawn, monkeypatch: pytest.MonkeyPatch) -> None:
    # The failure spelt out, step by step, with two explicit transactions.
    monkeypatch.setattr(store, "_lock_appends", lambda: None)
    commit = threading.Event()
    slow = append_and_hold(spawn, "slow", commit)
    fast = store.append("fast", [MoveRecorded(move={"n": 2})], expected_version=0)

    first_poll = store.read_all_after(0)
    commit.set()
    slow_position = slow.result(timeout=10).positions[0]
    second_poll = store.read_all_after(first_poll[-1].position)

    assert slow_position < fast.positions[0]
    assert [r.stream_id for r in first_poll] == ["fast"]
    assert second_poll == []  # the reader has moved past "slow" for good
    assert [r.stream_id for r in store.read_all_after(0)] == ["slow", "fast"]


def test_with_the_lock_a_second_append_waits_for_the_first_to_commit(spawn: Spawn) -> None:
    commit = threading.Event()
    slow = append_and_hold(spawn, "slow", commit)
    fast = spawn(store.append, "fast", [MoveRecorded(move={"n": 2})], expected_version=0)

    time.sleep(0.3)
    assert not fast.done(), "the second append should be waiting for the lock"
    assert store.read_all_after(0) == []
    commit.set()
    slow_position = slow.result(timeout=10).positions[0]
    fast_position = fast.result(timeout=10).positions[0]

    assert slow_position < fast_position
    assert [r.stream_id for r in store.read_all_after(0)] == ["slow", "fast"]
