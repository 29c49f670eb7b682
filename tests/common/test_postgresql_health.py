"""``common.postgresql``: the kept connection's health check looks at its socket, on a real PostgreSQL.

A quiet connection passes without a round trip; one the server has closed (``pg_terminate_backend``)
is noticed and replaced before use; a connection with something to read goes to Django's ``SELECT 1``.
"""

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, connections
from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQLDatabaseWrapper

from common.postgresql.base import DatabaseWrapper

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def kept() -> Iterator[DatabaseWrapper]:
    """A connection of its own, made as the settings make one (health checks on), and connected."""
    made = connections.create_connection("default")
    assert isinstance(made, DatabaseWrapper)
    made.ensure_connection()
    yield made
    made.close()


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each time Django's own check (``SELECT 1``) runs, the backend's pid it ran on."""
    seen: list[int] = []
    plain = PostgreSQLDatabaseWrapper.is_usable

    def counting(self: Any) -> bool:
        seen.append(self.connection.info.backend_pid)
        return bool(plain(self))

    monkeypatch.setattr(PostgreSQLDatabaseWrapper, "is_usable", counting)
    return seen


def new_request(wrapper: DatabaseWrapper) -> None:
    """What Django does for a kept connection when a request starts, then before its first statement."""
    wrapper.close_if_unusable_or_obsolete()
    assert wrapper.health_check_enabled and not wrapper.health_check_done
    wrapper.close_if_health_check_failed()


def pid(wrapper: DatabaseWrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def until(condition: Any, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_the_settings_use_this_backend_for_postgresql() -> None:
    assert connection.settings_dict["ENGINE"] == "common.postgresql"
    assert isinstance(connections["default"], DatabaseWrapper)
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True


def test_a_quiet_connection_passes_without_a_round_trip(kept: DatabaseWrapper, asked: list[int]) -> None:
    before = pid(kept)
    for _ in range(3):
        new_request(kept)
        assert kept.health_check_done
        assert pid(kept) == before
    assert asked == []
    # The raw psycopg connection is still there for code that uses it directly (the store's cursors).
    with kept.connection.cursor() as raw:
        raw.execute("SELECT 41 + 1")
        assert raw.fetchone() == (42,)


def test_a_connection_the_server_closed_is_noticed_and_replaced(kept: DatabaseWrapper) -> None:
    killed = pid(kept)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [killed])
        assert cursor.fetchone() == (True,)
    # The server's goodbye reaches the socket a moment after the call returns.
    assert until(lambda: not kept.socket_is_quiet())

    new_request(kept)
    assert kept.connection is None  # closed by the check, not met by a statement
    assert pid(kept) != killed  # the next statement opens a new connection and runs


def test_something_to_read_sends_the_check_to_select_1_which_keeps_a_good_connection(
    kept: DatabaseWrapper, asked: list[int]
) -> None:
    before = pid(kept)
    with kept.cursor() as cursor:
        cursor.execute("LISTEN health_test")
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("NOTIFY health_test")
    finally:
        other.close()
    assert until(lambda: not kept.socket_is_quiet())

    new_request(kept)
    assert asked == [before]  # the socket had something: Django's own check ran, and passed
    assert kept.connection is not None and pid(kept) == before


def test_a_connection_closed_on_this_side_is_not_quiet(kept: DatabaseWrapper) -> None:
    assert kept.socket_is_quiet()
    kept.connection.close()
    assert not kept.socket_is_quiet()
    new_request(kept)
    assert kept.connection is None
    assert pid(kept) > 0
