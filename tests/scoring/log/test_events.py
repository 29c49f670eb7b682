from dataclasses import FrozenInstanceError, dataclass

import pytest

from scoring.log import events, store
from scoring.log.events import (
    Event,
    HandClosed,
    HandStarted,
    MoveRecorded,
    MoveUndone,
    RulingRecorded,
    UnknownEventType,
    UnreadableSchemaVersion,
    decode,
    event_class,
    to_payload,
    upcast,
)
from scoring.models import StoredEvent

EXAMPLES: list[Event] = [
    HandStarted(game="tarocchi", options={"variant": "piemontese"}, seats=("a", "b", "c"), dealer=2),
    MoveRecorded(
        move={"kind": "PlayCard", "seat": 0, "card": "XXI"},
        verdicts=({"code": "revoke", "seat": 0},),
    ),
    MoveUndone(of_version=3, reason="card shown by mistake"),
    RulingRecorded(refs=(3, 4), rule="revoke", reason="failed to follow suit", rectification={"points": -3}),
    HandClosed(),
]


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: e.type)
def test_every_event_survives_a_round_trip_through_its_payload(event: Event) -> None:
    payload = to_payload(event)

    assert decode(event.type, event.version, payload) == event


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: e.type)
def test_every_event_is_registered_under_its_type(event: Event) -> None:
    assert event_class(event.type) is type(event)


def test_events_are_immutable() -> None:
    with pytest.raises(FrozenInstanceError):
        HandClosed().__setattr__("type", "x")
    with pytest.raises(FrozenInstanceError):
        MoveUndone(of_version=1, reason="x").of_version = 2  # type: ignore[misc]


def test_payloads_are_plain_json_values() -> None:
    assert to_payload(EXAMPLES[0]) == {
        "game": "tarocchi",
        "options": {"variant": "piemontese"},
        "seats": ["a", "b", "c"],
        "dealer": 2,
        "context": {},
    }


def test_an_unknown_type_is_an_error() -> None:
    with pytest.raises(UnknownEventType):
        decode("CardsBurnt", 1, {})


def test_a_payload_newer_than_the_code_is_an_error() -> None:
    with pytest.raises(UnreadableSchemaVersion, match="newer"):
        decode("MoveRecorded", 3, {"move": {}})


def test_a_missing_upcaster_is_an_error() -> None:
    with pytest.raises(UnreadableSchemaVersion, match="no upcaster for MoveUndone v0"):
        upcast("MoveUndone", 0, {})


def test_a_type_name_cannot_be_registered_twice() -> None:
    @dataclass(frozen=True)
    class Impostor(Event):
        type = "HandClosed"

    with pytest.raises(ValueError, match="already registered"):
        events.register(Impostor)


def test_move_recorded_v1_is_upcast_to_a_wrapped_move() -> None:
    assert upcast("MoveRecorded", 1, {"seat": 2, "card": "7C"}) == {
        "move": {"type": "play", "seat": 2, "card": "7C"},
        "verdicts": [],
    }


@pytest.mark.django_db
def test_a_stored_v1_row_reads_back_as_the_current_move_recorded() -> None:
    # A row as the first prototype wrote it, never rewritten since.
    StoredEvent.objects.create(
        stream_id="hand-1",
        version=1,
        event_type="MoveRecorded",
        schema_version=1,
        payload={"seat": 2, "card": "7C"},
    )

    (read,) = store.read_stream("hand-1")

    assert read.event == MoveRecorded(move={"type": "play", "seat": 2, "card": "7C"}, verdicts=())
    assert StoredEvent.objects.get().payload == {"seat": 2, "card": "7C"}


def test_hand_started_v1_is_upcast_with_an_empty_match_context() -> None:
    v1 = {"game": "tressette", "options": {}, "seats": ["A", "B", "C", "D"], "dealer": 0}
    assert upcast("HandStarted", 1, v1) == {**v1, "context": {}}


@pytest.mark.django_db
def test_a_stored_v1_hand_start_reads_back_with_an_empty_match_context() -> None:
    StoredEvent.objects.create(
        stream_id="hand-1",
        version=1,
        event_type="HandStarted",
        schema_version=1,
        payload={"game": "barbu", "options": {}, "seats": ["a", "b", "c", "d"], "dealer": 3},
    )

    (read,) = store.read_stream("hand-1")

    assert read.event == HandStarted(
        game="barbu", options={}, seats=("a", "b", "c", "d"), dealer=3, context={}
    )
