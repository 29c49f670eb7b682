"""The event store: append to a stream and read it back, nothing else.

Ordering guarantee. Every append runs in one transaction. On PostgreSQL it first takes a transaction-level
advisory lock (one constant key for all streams), so appends commit one after the other, in the order of
their global positions: a reader polling "position > last seen" can never see position N+1 while N is
still to commit, and so never skips an event that commits late. Rolled-back appends leave holes in the
positions, which readers simply step over. On SQLite the same holds because every transaction begins
with BEGIN IMMEDIATE (see settings), which takes the database's single write lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from scoring.events import Event, decode, from_stored, to_payload
from scoring.models import StoredEvent

# pg_advisory_xact_lock key serialising appends: any constant will do, as long as nothing else uses it.
APPEND_LOCK_KEY = 0x5E67A9


class ConcurrencyConflict(Exception):
    """The stream is not at the version the writer expected: somebody else appended first."""

    def __init__(self, stream_id: str, expected: int, actual: int) -> None:
        super().__init__(f"stream {stream_id!r} is at version {actual}, not the expected {expected}")
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class AppendResult:
    """What one append wrote: the stream versions `from_version`..`to_version` at `positions`, and when."""

    stream_id: str
    from_version: int
    to_version: int
    positions: tuple[int, ...]
    recorded_at: datetime


@dataclass(frozen=True)
class RecordedEvent:
    """A typed event as read back from the store, with where and when it was written."""

    position: int
    stream_id: str
    version: int
    event: Event
    recorded_at: datetime
    recorded_by: str


def append(
    stream_id: str,
    events: Sequence[Event],
    *,
    expected_version: int,
    idempotency_key: str | None = None,
    actor: str | None = None,
) -> AppendResult:
    """Append `events` to the stream at `expected_version` (0 for a new stream), all or nothing.

    Raises ConcurrencyConflict when the stream is at another version. When `idempotency_key` was already
    used on this stream, appends nothing and returns the result of the append that used it.
    """
    if not events:
        raise ValueError("nothing to append")
    if idempotency_key == "":
        raise ValueError("an idempotency key cannot be empty")
    with transaction.atomic():
        _lock_appends()
        if idempotency_key is not None and (done := _result_for_key(stream_id, idempotency_key)):
            return done
        actual = stream_version(stream_id)
        if actual != expected_version:
            raise ConcurrencyConflict(stream_id, expected_version, actual)
        rows = _rows(stream_id, events, expected_version, idempotency_key, actor or "")
        try:
            with transaction.atomic():
                StoredEvent.objects.bulk_create(rows)
        except IntegrityError:
            # Unreachable while appends are serialised, kept as the last line of defence: the unique
            # constraints, not the lock, are what make a concurrent writer fail instead of overwriting.
            if idempotency_key is not None and (done := _result_for_key(stream_id, idempotency_key)):
                return done
            raise ConcurrencyConflict(stream_id, expected_version, stream_version(stream_id)) from None
    return AppendResult(
        stream_id=stream_id,
        from_version=expected_version + 1,
        to_version=expected_version + len(rows),
        positions=tuple(row.position for row in rows),
        recorded_at=rows[-1].recorded_at,
    )


def stream_version(stream_id: str) -> int:
    """The version of the stream's last event; 0 for a stream with no events."""
    found = StoredEvent.objects.filter(stream_id=stream_id).aggregate(v=Max("version"))["v"]
    return int(found or 0)


def read_stream(stream_id: str) -> list[RecordedEvent]:
    """The stream's events in version order, upcast to their current classes."""
    return [_recorded(row) for row in StoredEvent.objects.filter(stream_id=stream_id).order_by("version")]


READ_FIELDS = (
    "position",
    "stream_id",
    "version",
    "event_type",
    "schema_version",
    "payload",
    "recorded_at",
    "recorded_by",
)


def read_streams(stream_ids: Sequence[str]) -> dict[str, list[RecordedEvent]]:
    """Several streams at once (one query): each stream's events in version order, by stream id.

    Reads plain rows rather than model instances: a rebuild reads every event of a league this way.
    """
    out: dict[str, list[RecordedEvent]] = {stream_id: [] for stream_id in stream_ids}
    rows = (
        StoredEvent.objects.filter(stream_id__in=list(stream_ids))
        .order_by("stream_id", "version")
        .values_list(*READ_FIELDS)
    )
    for position, stream_id, version, event_type, schema_version, payload, recorded_at, recorded_by in rows:
        out[stream_id].append(
            RecordedEvent(
                position=position,
                stream_id=stream_id,
                version=version,
                event=decode(event_type, schema_version, payload),
                recorded_at=recorded_at,
                recorded_by=recorded_by,
            )
        )
    return out


def read_all_after(position: int, limit: int = 1000) -> list[RecordedEvent]:
    """Up to `limit` events of every stream with a global position above `position`, in position order."""
    rows = StoredEvent.objects.filter(position__gt=position).order_by("position")[:limit]
    return [_recorded(row) for row in rows]


def result_for_key(stream_id: str, idempotency_key: str) -> AppendResult | None:
    """The result of the append that used this idempotency key on this stream, if one did."""
    return _result_for_key(stream_id, idempotency_key)


def _lock_appends() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK_KEY])


def _rows(
    stream_id: str, events: Sequence[Event], expected_version: int, key: str | None, actor: str
) -> list[StoredEvent]:
    now = timezone.now()
    return [
        StoredEvent(
            stream_id=stream_id,
            version=expected_version + i,
            event_type=event.type,
            schema_version=event.version,
            payload=to_payload(event),
            recorded_at=now,
            recorded_by=actor,
            idempotency_key=key if i == 1 else None,
            batch_size=len(events),
        )
        for i, event in enumerate(events, start=1)
    ]


def _result_for_key(stream_id: str, key: str) -> AppendResult | None:
    first = StoredEvent.objects.filter(stream_id=stream_id, idempotency_key=key).first()
    if first is None:
        return None
    last_version = first.version + first.batch_size - 1
    positions = (
        StoredEvent.objects.filter(stream_id=stream_id, version__gte=first.version, version__lte=last_version)
        .order_by("version")
        .values_list("position", flat=True)
    )
    return AppendResult(
        stream_id=stream_id,
        from_version=first.version,
        to_version=last_version,
        positions=tuple(positions),
        recorded_at=first.recorded_at,
    )


def _recorded(row: StoredEvent) -> RecordedEvent:
    return RecordedEvent(
        position=row.position,
        stream_id=row.stream_id,
        version=row.version,
        event=from_stored(row),
        recorded_at=row.recorded_at,
        recorded_by=row.recorded_by,
    )
