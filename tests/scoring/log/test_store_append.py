import pytest
from django.db import transaction

from common.errors import ConcurrencyConflict
from scoring.log import store
from scoring.log.events import HandClosed, HandStarted, MoveRecorded
from scoring.log.store import AppendResult
from scoring.models import StoredEvent

pytestmark = pytest.mark.django_db

START = HandStarted(
    game="tressette", options={"target": 21}, seats=("anna", "bruno", "carla", "dario"), dealer=0
)


def play(seat: int, card: str) -> MoveRecorded:
    return MoveRecorded(move={"kind": "PlayCard", "seat": seat, "card": card})


def test_it_starts_a_new_stream_at_version_one() -> None:
    result = store.append("hand-1", [START], expected_version=0)

    assert result.stream_id == "hand-1"
    assert (result.from_version, result.to_version) == (1, 1)
    assert store.stream_version("hand-1") == 1


def test_it_appends_a_batch_with_consecutive_versions_and_increasing_positions() -> None:
    store.append("hand-1", [START], expected_version=0)

    result = store.append("hand-1", [play(1, "AC"), play(2, "3C"), play(3, "7C")], expected_version=1)

    assert (result.from_version, result.to_version) == (2, 4)
    assert len(result.positions) == 3
    assert list(result.positions) == sorted(result.positions)
    rows = StoredEvent.objects.filter(stream_id="hand-1").order_by("version")
    assert [row.version for row in rows] == [1, 2, 3, 4]
    assert [row.position for row in rows][1:] == list(result.positions)


def test_it_stores_type_schema_version_payload_and_actor() -> None:
    store.append("hand-1", [START, play(1, "AC")], expected_version=0, actor="arbiter")

    first, second = StoredEvent.objects.filter(stream_id="hand-1").order_by("version")
    assert (first.event_type, first.schema_version) == ("HandStarted", 2)
    assert first.payload == {
        "game": "tressette",
        "options": {"target": 21},
        "seats": ["anna", "bruno", "carla", "dario"],
        "dealer": 0,
        "context": {},
    }
    assert (second.event_type, second.schema_version) == ("MoveRecorded", 2)
    assert {first.recorded_by, second.recorded_by} == {"arbiter"}
    assert first.recorded_at == second.recorded_at


def test_it_raises_a_conflict_carrying_the_expected_and_actual_versions() -> None:
    store.append("hand-1", [START, play(1, "AC")], expected_version=0)

    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("hand-1", [play(2, "3C")], expected_version=1)

    assert (caught.value.stream_id, caught.value.expected, caught.value.actual) == ("hand-1", 1, 2)
    assert "version 2" in str(caught.value) and "expected 1" in str(caught.value)


def test_a_conflicting_append_writes_nothing() -> None:
    store.append("hand-1", [START], expected_version=0)

    with pytest.raises(ConcurrencyConflict):
        store.append("hand-1", [play(1, "AC"), play(2, "3C")], expected_version=0)

    assert StoredEvent.objects.filter(stream_id="hand-1").count() == 1


def test_expecting_a_version_ahead_of_the_stream_is_a_conflict_too() -> None:
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("hand-1", [START], expected_version=3)

    assert (caught.value.expected, caught.value.actual) == (3, 0)


def test_streams_keep_their_own_versions() -> None:
    store.append("hand-1", [START], expected_version=0)
    store.append("hand-2", [START, HandClosed()], expected_version=0)

    assert store.stream_version("hand-1") == 1
    assert store.stream_version("hand-2") == 2
    assert store.stream_version("hand-3") == 0


def test_it_refuses_an_empty_batch() -> None:
    with pytest.raises(ValueError, match="nothing to append"):
        store.append("hand-1", [], expected_version=0)


def test_an_append_inside_a_transaction_that_rolls_back_leaves_nothing() -> None:
    class Abandon(Exception):
        pass

    with pytest.raises(Abandon), transaction.atomic():
        store.append("hand-1", [START], expected_version=0)
        raise Abandon

    assert store.stream_version("hand-1") == 0
    appended = store.append("hand-1", [START], expected_version=0)
    stored = StoredEvent.objects.get()
    assert appended == AppendResult("hand-1", 1, 1, (stored.position,), stored.recorded_at)
