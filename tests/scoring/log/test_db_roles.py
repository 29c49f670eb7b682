"""Two database roles (issue 13, item 5): the owner runs migrations; the service connects as a role that
`manage.py grant_app_role` leaves able to record a whole hand and run a tournament round, and unable to
rewrite the log: no UPDATE, DELETE or TRUNCATE on the event table, and no way to set its trigger aside.
Nor can it forge what decides a result (issue 25): no UPDATE of a seat, of a match's game or options, of a
hand's stream or of a table's players (docs/security.md)."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.test import RequestFactory

from common.throttles import LoginNameThrottle
from scoring.log import chain, store
from scoring.log.events import HandStarted
from tests.scoring.api_support import People, open_match, play, service_record
from tests.tournaments.support import close_round, club_with_players, finish_match, open_round, tournament
from tournaments import projections, services
from tournaments.models import Standings

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


def test_the_app_role_records_and_reads_a_whole_hand(
    people: People, as_app_role: None, django_capture_on_commit_callbacks: Any
) -> None:
    match, hand = open_match(people, "tressette", seats=4)
    hand = service_record(hand, play(hand, seed=3).moves, people.scorer)
    # And a tournament round, its standings and ratings projected, rebuilt and checked against the log.
    club = club_with_players(9, tag="-app")
    t = tournament(club)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = open_round(t, club.director)
        tables = list(rnd.tables.select_related("match").order_by("number"))
        for table in tables[1:]:
            finish_match(table.match, seed=table.number)
        t.refresh_from_db()
        services.table_abandon(
            tournament=t,
            round_number=1,
            table_number=1,
            reason="late",
            expected_version=t.version,
            actor=club.director,
        )
        close_round(t, rnd, club.director)
    projections.standings_rebuild(tournament_id=t.pk)
    projections.ratings_rebuild(game="tarocchi")
    out = StringIO()
    try:
        call_command("verify_projections", stdout=out)
    except CommandError:
        pytest.fail(out.getvalue())

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == ROLE
    assert hand.status == "over"
    rows = Standings.objects.get(tournament=t).data["rows"]
    assert sorted(r["tables"] for r in rows) == [0, 0, 0, 1, 1, 1, 1, 1, 1]
    assert out.getvalue().startswith("ok: ")
    assert chain.verify(store.chained_rows()).broken is None


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE scoring_matchseat SET player_id = NULL",
        "UPDATE scoring_matchseat SET name = 'someone else'",
        "DELETE FROM scoring_matchseat",
        "UPDATE scoring_match SET options = '{\"deals\": 9}'::jsonb",
        "UPDATE scoring_match SET game = 'barbu'",
        "DELETE FROM scoring_match",
        "UPDATE scoring_hand SET stream_id = 'match-0-hand-1'",
        "UPDATE scoring_hand SET dealer = 1",
        "DELETE FROM scoring_hand",
        "UPDATE tournaments_table SET players = '[]'::jsonb",
        "UPDATE tournaments_table SET match_id = 1",
        "UPDATE tournaments_sitout SET score = '99'",
        "UPDATE tournaments_tournament SET seed = 1",
        "TRUNCATE tournaments_standings",
    ],
)
def test_the_app_role_cannot_forge_what_decides_a_result(people: People, as_app_role: None, sql: str) -> None:
    open_match(people, "tressette", seats=4)

    message = refused(sql)

    assert "permission denied" in message, message


def test_the_app_role_may_update_the_columns_the_service_updates(people: People, as_app_role: None) -> None:
    match, _ = open_match(people, "tressette", seats=4)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE scoring_match SET title = 'Friday' WHERE id = %s", [match["id"]])
        cursor.execute("SELECT title FROM scoring_match WHERE id = %s", [match["id"]])
        assert cursor.fetchone()[0] == "Friday"


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
