"""The store's statements are prepared on the server once a connection has sent them twice (PostgreSQL,
``prepare_threshold`` in settings): later appends are only bound and run, with the same results."""

import pytest
from django.db import connection

from common.errors import ConcurrencyConflict
from scoring.log import chain, store
from scoring.log.events import HandStarted, MoveRecorded

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

START = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)


def move(n: int) -> MoveRecorded:
    return MoveRecorded(move={"kind": "PlayCard", "seat": n % 4, "card": f"{n % 7 + 1}C"})


def prepared_appends() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        return [s for (s,) in cursor.fetchall() if "scoring_append_event(" in s]


def test_the_append_is_prepared_after_its_second_call_and_still_checks_and_chains() -> None:
    store.append("p1", [START], expected_version=0)
    assert prepared_appends() == []

    store.append("p1", [move(1)], expected_version=1, idempotency_key="k1")
    store.append("p1", [move(2)], expected_version=2)
    assert len(prepared_appends()) == 1

    # The prepared statement keeps the contract: a stale version is refused, a used key answers the same.
    with pytest.raises(ConcurrencyConflict):
        store.append("p1", [move(3)], expected_version=1)
    again = store.append("p1", [move(1)], expected_version=1, idempotency_key="k1")
    assert (again.from_version, again.to_version) == (2, 2)
    assert [e.version for e in store.read_stream("p1")] == [1, 2, 3]
    verified = chain.verify(store.chained_rows())
    assert verified.broken is None
    assert verified.events == 3
