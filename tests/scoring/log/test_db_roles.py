"""Two database roles (issue 13, item 5): the owner runs migrations; the service connects as a role that
`manage.py grant_app_role` leaves able to record a whole hand, and unable to rewrite the log: no UPDATE,
DELETE or TRUNCATE on the event table, and no way to set its trigger aside."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.test import RequestFactory

from common.throttles import LoginNameThrottle
from scoring.log import chain, store
from scoring.log.events import HandStarted
from tests.scoring.api_support import People, open_match, play, service_record

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ROLE = "segnapunti_app_test"
START = HandStarted(game="barbu", options={}, seats=("a", "b", "c", "d"), dealer=0)


@pytest.fixture
def as_app_role() -> Iterator[None]:
    """The rest of the test runs as the application's role. CREATE ROLE is transactional: the test's
    rollback takes the role away again."""
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {ROLE} NOLOGIN")
    call_command("grant_app_role", ROLE, stdout=StringIO())
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL ROLE {ROLE}")
    yield
    with connection.cursor() as cursor:
        cursor.execute("RESET ROLE")


def refused(sql: str) -> str:
    """The error the database gives the app role for ``sql`` (inside a savepoint, so the test goes on)."""
    with pytest.raises(DatabaseError) as failed, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    return str(failed.value)


def test_the_app_role_records_and_reads_a_whole_hand(people: People, as_app_role: None) -> None:
    match, hand = open_match(people, "tressette", seats=4)
    hand = service_record(hand, play(hand, seed=3).moves, people.scorer)

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == ROLE
    assert hand.status == "over"
    assert chain.verify(store.chained_rows()).broken is None


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE scoring_storedevent SET payload = '{}'::jsonb",
        "DELETE FROM scoring_storedevent",
        "TRUNCATE scoring_storedevent",
        "ALTER TABLE scoring_storedevent DISABLE TRIGGER scoring_storedevent_append_only",
        "DROP TRIGGER scoring_storedevent_append_only ON scoring_storedevent",
        "DROP TABLE scoring_storedevent",
    ],
)
def test_the_app_role_cannot_rewrite_the_log(sql: str, as_app_role: None) -> None:
    store.append("hand-1", [START], expected_version=0)

    message = refused(sql)

    assert "permission denied" in message or "must be owner" in message, message
    assert [e.event for e in store.read_stream("hand-1")] == [START]
    assert chain.verify(store.chained_rows()).broken is None


def test_the_grants_leave_the_event_table_to_select_and_insert(as_app_role: None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT privilege_type FROM information_schema.role_table_grants"
            " WHERE grantee = %s AND table_name = 'scoring_storedevent' ORDER BY 1",
            [ROLE],
        )
        assert [row[0] for row in cursor.fetchall()] == ["INSERT", "SELECT"]


def test_grant_app_role_names_a_missing_role() -> None:
    with pytest.raises(CommandError, match="there is no role"):
        call_command("grant_app_role", "nobody_at_all_here", stdout=StringIO())


def test_grant_app_role_takes_the_role_from_the_service_s_database_url() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {ROLE} NOLOGIN")
    out = StringIO()

    call_command("grant_app_role", "--user-of", f"postgres://{ROLE}@127.0.0.1:5432/club", stdout=out)

    assert f"{ROLE}: " in out.getvalue()
    with pytest.raises(CommandError, match="name the role"):
        call_command("grant_app_role", "--user-of", "postgres://127.0.0.1/club", stdout=StringIO())


def test_the_app_role_counts_sign_ins_in_the_database_cache(as_app_role: None) -> None:
    """The throttles count in the cache table (issue 25): the service's role reads, writes, updates and
    culls it."""
    request = RequestFactory().post("/accounts/login/", {"username": "mario", "password": "x"})
    answers = [LoginNameThrottle().allow_request(request, None) for _ in range(11)]  # type: ignore[arg-type]
    cache.clear()

    assert answers == [True] * 10 + [False]
