"""Appends of several events as migration 0013 writes them (issue 29): the key's unique index holds only
keyed rows, a new stream's stream hashes come from the client, and the rows go in by a plain INSERT."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from scoring.log import chain, store
from scoring.log.events import Event, HandStarted, MoveRecorded, payload_json
from scoring.models import StoredEvent

pytestmark = pytest.mark.django_db

START = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)


def move(n: int) -> MoveRecorded:
    return MoveRecorded(move={"type": "play", "seat": n % 4, "card": f"{n % 10 + 1}C"}, verdicts=())


def test_a_key_is_unique_in_its_stream_and_rows_without_one_are_not_held_to_it() -> None:
    store.append("s-1", [START, move(1), move(2)], expected_version=0, idempotency_key="k")
    store.append("s-1", [move(3), move(4)], expected_version=3)
    assert StoredEvent.objects.filter(idempotency_key__isnull=True).count() == 4

    with pytest.raises(IntegrityError), transaction.atomic():
        StoredEvent.objects.create(stream_id="s-1", version=6, event_type="T", schema_version=1, payload={},
                                   idempotency_key="k")  # fmt: skip
    StoredEvent.objects.create(stream_id="s-2", version=1, event_type="T", schema_version=1, payload={},
                               idempotency_key="k")  # fmt: skip


def test_the_key_index_holds_only_keyed_rows() -> None:
    catalogue = (
        "SELECT indexdef FROM pg_indexes WHERE indexname = %s"
        if connection.vendor == "postgresql"
        else "SELECT sql FROM sqlite_master WHERE name = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(catalogue, ["storedevent_stream_idempotency_key"])
        (definition,) = cursor.fetchone()
    assert "idempotency_key IS NOT NULL" in definition.replace('"', "")


@pytest.mark.postgres
def test_new_and_begun_streams_chain_as_the_hashes_define_them() -> None:
    """A new stream's stream hashes sent by the client, a begun stream's chained by the server: both are
    the chain of scoring/log/chain.py, recomputed here from the rows."""
    store.append("s-1", [START, move(1), move(2)], expected_version=0, idempotency_key="k", actor="ada")
    store.append("s-2", [START], expected_version=0)
    store.append("s-1", [move(3), move(4), move(5)], expected_version=3, actor="bea")

    rows = list(store.chained_rows())
    found = chain.verify(rows)

    assert found.broken is None and found.events == 7
    first = rows[0]
    own = chain.digest("s-1", 1, "HandStarted", START.version, first.recorded_at_us, "ada", "k", 3,
                       first.payload)  # fmt: skip
    assert first.stream_hash == chain.link(chain.GENESIS, own)


def _old_append(stream: str, events: Sequence[Event], expected: int) -> None:
    """An append through migration 0008's function, as every append of several events was written before
    0013 (the function is put back beside the new one for this test's transaction only)."""
    old = import_module("scoring.migrations.0008_append_in_one_function")
    now = store.timezone.now()
    digests = store._digests(stream, events, expected, None, "old", now)
    with connection.cursor() as cursor:
        cursor.execute(old.INSTALL)
        cursor.execute(
            "SELECT * FROM scoring_append_events(%s::varchar, %s::integer, NULL::varchar, %s::varchar[],"
            " %s::smallint[], %s::jsonb[], %s::timestamptz, 'old'::varchar, %s::bytea[], %s::bigint)",
            [stream, expected, [e.type for e in events], [e.version for e in events],
             [payload_json(e) for e in events], now, digests, store.APPEND_LOCK_KEY],
        )  # fmt: skip
        assert len(cursor.fetchall()) == len(events)


@pytest.mark.postgres
def test_rows_written_before_0013_and_after_it_verify_as_one_log() -> None:
    _old_append("s-1", [START, move(1), move(2)], 0)
    _old_append("s-2", [START, move(1)], 0)
    store.append("s-1", [move(3), move(4)], expected_version=3)
    store.append("s-3", [START, move(5)], expected_version=0)
    _old_append("s-3", [move(6), move(7)], 2)
    store.append("s-2", [move(8)], expected_version=2)

    found = chain.verify(store.chained_rows())

    assert found.broken is None and (found.events, found.streams) == (12, 3)


@pytest.mark.postgres
@pytest.mark.parametrize(
    "digests, hashes, expected",
    [
        ("given", "given", 0),  # both
        (None, None, 0),  # neither
        (None, "given", 1),  # a begun stream's stream hashes: the client does not know its head
        ("short", None, 0),  # one digest missing
    ],
)
def test_the_function_refuses_hashes_it_cannot_use(
    digests: str | None, hashes: str | None, expected: int
) -> None:
    events = [START, move(1)] if expected == 0 else [move(1), move(2)]
    if expected:
        store.append("s-1", [START], expected_version=0)
    now = store.timezone.now()
    own = store._digests("s-1", events, expected, None, "", now)
    values = {"given": own, "short": own[:1], None: None}
    refused = pytest.raises(DatabaseError, match="one digest per event")
    with refused, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
                "SELECT * FROM scoring_append_events(%s::varchar, %s::integer, NULL::varchar, %s::varchar[],"
                " %s::smallint[], %s::jsonb[], %s::timestamptz, ''::varchar, %s::bytea[], %s::bytea[],"
                " %s::bigint)",
                ["s-1", expected, [e.type for e in events], [e.version for e in events],
                 [payload_json(e) for e in events], now, values[digests],
                 chain.stream_links(chain.GENESIS, own) if hashes else None, store.APPEND_LOCK_KEY],
            )  # fmt: skip
    assert StoredEvent.objects.filter(stream_id="s-1").count() == (1 if expected else 0)


@pytest.mark.postgres
def test_a_row_written_around_the_lock_fails_the_whole_append() -> None:
    """The function finds the next version free under the lock; a row written around the store at a later
    version is then a unique violation, and none of the append's rows stays."""
    store.append("s-1", [START], expected_version=0)
    StoredEvent.objects.create(stream_id="s-1", version=3, event_type="T", schema_version=1, payload={})

    with pytest.raises(IntegrityError), transaction.atomic():
        store.append("s-1", [move(1), move(2), move(3)], expected_version=1)

    assert sorted(StoredEvent.objects.filter(stream_id="s-1").values_list("version", flat=True)) == [1, 3]
