import pytest

from common.errors import ConcurrencyConflict
from scoring.log import store
from scoring.log.events import HandStarted, MoveRecorded
from scoring.models import StoredEvent

pytestmark = pytest.mark.django_db

START = HandStarted(game="scopa", options={}, seats=("anna", "bruno"), dealer=1)
MOVES = [MoveRecorded(move={"kind": "PlayCard", "seat": 0, "card": c}) for c in ("7D", "KS")]


def test_a_retry_with_the_same_key_returns_the_original_result_and_appends_nothing() -> None:
    store.append("hand-1", [START], expected_version=0)
    original = store.append("hand-1", MOVES, expected_version=1, idempotency_key="req-1")

    retry = store.append("hand-1", MOVES, expected_version=1, idempotency_key="req-1")

    assert retry == original
    assert (original.from_version, original.to_version) == (2, 3)
    assert StoredEvent.objects.filter(stream_id="hand-1").count() == 3


def test_a_retry_is_recognised_after_the_stream_has_moved_on() -> None:
    original = store.append("hand-1", [START], expected_version=0, idempotency_key="req-1")
    store.append("hand-1", MOVES, expected_version=1, idempotency_key="req-2")

    assert store.append("hand-1", [START], expected_version=0, idempotency_key="req-1") == original
    assert store.stream_version("hand-1") == 3


def test_only_the_first_event_of_an_append_carries_the_key() -> None:
    store.append("hand-1", [START, *MOVES], expected_version=0, idempotency_key="req-1")

    keys = list(StoredEvent.objects.order_by("version").values_list("idempotency_key", flat=True))
    assert keys == ["req-1", None, None]


def test_the_same_key_on_another_stream_is_another_append() -> None:
    first = store.append("hand-1", [START], expected_version=0, idempotency_key="req-1")
    second = store.append("hand-2", [START], expected_version=0, idempotency_key="req-1")

    assert first.positions != second.positions
    assert StoredEvent.objects.count() == 2


def test_appends_without_a_key_are_never_taken_for_retries() -> None:
    store.append("hand-1", [START], expected_version=0)
    store.append("hand-1", MOVES[:1], expected_version=1)
    store.append("hand-1", MOVES[1:], expected_version=2)

    assert store.stream_version("hand-1") == 3


def test_an_empty_key_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        store.append("hand-1", [START], expected_version=0, idempotency_key="")


def test_a_single_event_retried_at_the_head_of_its_stream_is_the_original_append() -> None:
    """One event, its key used by the append that made the stream's head, and the head as the expected
    version: the retry writes nothing (not a new event at the next version) and gets the original back."""
    store.append("hand-1", [START], expected_version=0)
    original = store.append("hand-1", MOVES[:1], expected_version=1, idempotency_key="req-1")

    retry = store.append("hand-1", MOVES[1:], expected_version=2, idempotency_key="req-1")

    assert retry == original
    assert store.stream_version("hand-1") == 2


def test_refused_and_retried_single_appends_leave_the_hash_chains_whole() -> None:
    """A refused or repeated single append writes nothing, so the next one chains on the last written."""
    from scoring.log import chain

    store.append("hand-1", [START], expected_version=0, idempotency_key="req-0")
    store.append("hand-1", MOVES[:1], expected_version=1, idempotency_key="req-1")
    store.append("hand-1", MOVES[:1], expected_version=1, idempotency_key="req-1")  # a retry
    with pytest.raises(ConcurrencyConflict):
        store.append("hand-1", MOVES[1:], expected_version=1, idempotency_key="req-2")  # stale
    with pytest.raises(ConcurrencyConflict):
        store.append("hand-1", MOVES[1:], expected_version=5, idempotency_key="req-3")  # ahead
    store.append("hand-1", MOVES[1:], expected_version=2, idempotency_key="req-2")

    rows = list(store.chained_rows())
    assert [r.version for r in rows] == [1, 2, 3]
    assert chain.verify(rows).broken is None
