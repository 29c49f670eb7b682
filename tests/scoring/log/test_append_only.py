import pytest
from django.db import DatabaseError, connection, transaction

from scoring.log import store
from scoring.log.events import HandStarted
from scoring.models import AppendOnlyError, StoredEvent

pytestmark = pytest.mark.django_db

START = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)


@pytest.fixture
def stored() -> StoredEvent:
    store.append("hand-1", [START], expected_version=0)
    return StoredEvent.objects.get()


def test_a_stored_event_cannot_be_saved_again(stored: StoredEvent) -> None:
    stored.payload = {"game": "scopa"}
    with pytest.raises(AppendOnlyError):
        stored.save()


def test_a_stored_event_cannot_be_deleted(stored: StoredEvent) -> None:
    with pytest.raises(AppendOnlyError):
        stored.delete()


def test_stored_events_cannot_be_updated_or_deleted_in_bulk(stored: StoredEvent) -> None:
    with pytest.raises(AppendOnlyError):
        StoredEvent.objects.filter(stream_id="hand-1").update(event_type="Nothing")
    with pytest.raises(AppendOnlyError):
        StoredEvent.objects.all().delete()
    assert store.read_stream("hand-1")[0].event == START


@pytest.mark.postgres
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE scoring_storedevent SET payload = '{}'::jsonb",
        "UPDATE scoring_storedevent SET stream_id = 'elsewhere' WHERE version = 1",
        "DELETE FROM scoring_storedevent",
        "DELETE FROM scoring_storedevent WHERE stream_id = 'hand-1'",
    ],
)
def test_postgresql_rejects_update_and_delete_whatever_the_client(stored: StoredEvent, sql: str) -> None:
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as c:
        c.execute(sql)

    assert store.read_stream("hand-1")[0].event == START


@pytest.mark.postgres
def test_postgresql_still_accepts_inserts_through_raw_sql(stored: StoredEvent) -> None:
    with connection.cursor() as c:
        c.execute(
            "INSERT INTO scoring_storedevent (stream_id, version, event_type, schema_version, payload,"
            " recorded_at, recorded_by, batch_size) VALUES ('hand-1', 2, 'HandClosed', 1, '{}', now(), '', 1)"
        )

    assert store.stream_version("hand-1") == 2
