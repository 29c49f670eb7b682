"""A database made by the code before clubs became an app of its own migrates with nothing lost.

The fixtures are dumps of databases that main made at a26aa89 (``migrate`` then ``load_demo``: the demo
club, its players and members, a recorded match of every game, a published league with three rounds,
its standings and ratings), one for SQLite and one for PostgreSQL (``fixtures/README.md``). Each test
restores its dump into a database of its own, reads every row of the tables the move concerns, runs the
real ``manage.py migrate`` and ``manage.py verify_log`` on it, and reads the rows again under the new
table names: every club, player, membership, match, seat, hand, event (hashes included), standings and
rating row must be exactly as it was (the log gains one MatchOpened per match, after the rest).
"""

from __future__ import annotations

import gzip
import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"

# Each table the move could touch, before -> after (the three moved models change name, the rest not).
TABLES = {
    "tournaments_club": "clubs_club",
    "tournaments_player": "clubs_player",
    "tournaments_membership": "clubs_membership",
    "scoring_match": "scoring_match",
    "scoring_matchseat": "scoring_matchseat",
    "scoring_match_scorers": "scoring_match_scorers",
    "scoring_hand": "scoring_hand",
    "scoring_storedevent": "scoring_storedevent",
    "tournaments_tournament": "tournaments_tournament",
    "tournaments_registration": "tournaments_registration",
    "tournaments_round": "tournaments_round",
    "tournaments_table": "tournaments_table",
    "tournaments_sitout": "tournaments_sitout",
    "tournaments_standings": "tournaments_standings",
    "tournaments_standingscontribution": "tournaments_standingscontribution",
    "tournaments_ratingbook": "tournaments_ratingbook",
    "tournaments_playerrating": "tournaments_playerrating",
    "tournaments_ratedmatch": "tournaments_ratedmatch",
    "tournaments_ratinghistory": "tournaments_ratinghistory",
}
# Rows the dumps are known to hold: a check that the comparison compares something.
AT_LEAST = {
    "clubs_club": 1,
    "clubs_player": 12,
    "clubs_membership": 3,
    "scoring_storedevent": 1000,
    "tournaments_standings": 1,
    "tournaments_playerrating": 10,
}

Rows = dict[str, list[tuple[Any, ...]]]


def manage(database_url: str, *args: str) -> str:
    """Run ``manage.py`` as an operator would, on the given database; its output."""
    env = {**os.environ, "DEBUG": "true", "DATABASE_URL": database_url}
    env.pop("CELERY_BROKER_URL", None)
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def read_all(query: Callable[[str], list[tuple[Any, ...]]], names: list[str]) -> Rows:
    return {name: query(f'SELECT * FROM "{name}" ORDER BY 1') for name in names}


def check_migration(database_url: str, query: Callable[[str], list[tuple[Any, ...]]]) -> None:
    before = read_all(query, list(TABLES))
    manage(database_url, "migrate", "--noinput")
    after = read_all(query, list(TABLES.values()))
    events = "scoring_storedevent"
    for old, new in TABLES.items():
        if new != events:
            # Columns a later migration adds come after the old ones (a match's abandon_reason): the
            # old ones keep every value.
            width = len(before[old][0]) if before[old] else 0
            assert [row[:width] for row in after[new]] == before[old], f"{old} -> {new} changed"
    # The log keeps every event it held, and gains one MatchOpened per match, in match order (scoring's
    # migration 0010, issue 25): the seats and options the rows held, now in the log.
    kept, added = after[events][: len(before[events])], after[events][len(before[events]) :]
    assert kept == before[events]
    matches = [row[0] for row in after["scoring_match"]]
    assert [(row[1], row[3]) for row in added] == [(f"match-{pk}", "MatchOpened") for pk in matches]
    for name, least in AT_LEAST.items():
        assert len(after[name]) >= least, f"{name} holds {len(after[name])} rows"
    content_types = {row[1:] for row in query("SELECT id, app_label, model FROM django_content_type")}
    assert {("clubs", "club"), ("clubs", "player"), ("clubs", "membership")} <= content_types
    assert not {("tournaments", "club"), ("tournaments", "player")} & content_types
    assert manage(database_url, "verify_log").startswith("ok: ")
    # The standings' stored English sentences changed since (why-above values that differ, both draws of
    # a lot): an upgraded database gets them at its next update, or at once from a rebuild.
    manage(database_url, "standings_rebuild", "--ratings")
    assert manage(database_url, "verify_projections").startswith("ok: ")
    assert "No changes detected" in manage(database_url, "makemigrations", "--check", "--dry-run")


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "main.sqlite3"
    with gzip.open(FIXTURES / "main-a26aa89.sqlite.sql.gz", "rt") as dump, sqlite3.connect(path) as db:
        db.executescript(dump.read())
    yield path


def test_a_sqlite_database_made_before_the_move_migrates_with_every_row_unchanged(sqlite_file: Path) -> None:
    def query(sql: str) -> list[tuple[Any, ...]]:
        with sqlite3.connect(sqlite_file) as db:
            return db.execute(sql).fetchall()

    check_migration(f"sqlite:///{sqlite_file}", query)


@pytest.fixture
def postgres_database() -> Iterator[str]:
    """A database of its own beside the test database, restored from the PostgreSQL dump; its URL."""
    import psycopg

    if shutil.which("psql") is None:
        pytest.skip("needs psql to restore the dump")
    params = connection.settings_dict
    name = f"segnapunti_migration_{uuid.uuid4().hex[:12]}"
    server = f"postgres://{params['USER']}@{params['HOST'] or '127.0.0.1'}:{params['PORT'] or 5432}"
    password = params["PASSWORD"] or None
    with psycopg.connect(f"{server}/postgres", autocommit=True, password=password) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        with gzip.open(FIXTURES / "main-a26aa89.postgres.sql.gz", "rb") as dump:
            env = {**os.environ, "PGPASSWORD": params["PASSWORD"] or ""}
            subprocess.run(
                ["psql", "-q", "-v", "ON_ERROR_STOP=1", f"{server}/{name}"],
                input=dump.read(),
                env=env,
                check=True,
                capture_output=True,
                timeout=300,
            )
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True, password=password) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.postgres
def test_a_postgresql_database_made_before_the_move_migrates_with_every_row_unchanged(
    postgres_database: str,
) -> None:
    import psycopg

    def query(sql: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(postgres_database) as db:
            return db.execute(sql).fetchall()

    check_migration(postgres_database, query)
