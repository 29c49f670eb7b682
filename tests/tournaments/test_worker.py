"""The standings built by a real Celery worker on the real broker (CI starts one on the test database).

The first test goes the way a club night goes: a match finishes, its standings come back through the API.
The second kills a worker in the middle of the update (SIGKILL, while the update waits on a lock this
test holds) and starts another: the task comes back from the broker and the standings end up right, the
match counted once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections, transaction

from tests.scoring.api_support import client_for
from tests.tournaments.support import club_with_players, finish_match, open_round, tournament
from tournaments import projections
from tournaments.models import Standings, StandingsContribution

ROOT = Path(__file__).resolve().parents[2]


def wait_for(check: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.3)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def counted_tables(tournament_id: int) -> int:
    rows = client_for(None).get(f"/api/tournaments/{tournament_id}/standings/").json()["rows"]
    return sum(r["tables"] for r in rows)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_match_that_finishes_is_in_the_standings_the_worker_builds() -> None:
    club = club_with_players(3)
    t = tournament(club, published=True)
    table = open_round(t, club.director).tables.select_related("match").get()

    finish_match(table.match, seed=11)  # commits: the update is queued for the worker

    assert wait_for(lambda: counted_tables(t.pk) == 3, 60, "the worker's standings")
    standings = Standings.objects.get(tournament=t)
    assert standings.position == table.match.hands.order_by("-position").first().position  # type: ignore[union-attr]


def database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def worker_queue(settings: Any) -> Iterator[Callable[[str], subprocess.Popen[bytes]]]:
    """Start workers of our own on a queue of our own (the tournaments' tasks are routed to it)."""
    queue = f"killtest-{uuid.uuid4().hex[:8]}"
    settings.TOURNAMENTS_QUEUE = queue
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str) -> subprocess.Popen[bytes]:
        # The queue in their environment too: what they queue themselves (the catch-up a worker runs when
        # it starts) stays with them, away from any other worker on the broker.
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_VISIBILITY_TIMEOUT": "3",
            "TOURNAMENTS_QUEUE": queue,
        }
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "segnapunti",
            "worker",
            "-Q",
            queue,
            "--pool=solo",
            "--concurrency=1",
            f"--hostname={name}-{queue}@%h",
            "--loglevel=INFO",
        ]
        proc = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def waiting_on_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


@pytest.mark.postgres
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_update_loses_nothing_and_counts_nothing_twice(
    worker_queue: Callable[[str], subprocess.Popen[bytes]],
) -> None:
    club = club_with_players(3)
    t = tournament(club)
    table = open_round(t, club.director).tables.select_related("match").get()
    standings_id = Standings.objects.get(tournament=t).pk
    first = worker_queue("a")
    holding, release = threading.Event(), threading.Event()

    def hold_the_standings() -> None:
        # Another connection locks the standings row: the worker's update will wait for it, mid-task.
        try:
            with transaction.atomic():
                Standings.objects.select_for_update().get(pk=standings_id)
                holding.set()
                release.wait(timeout=120)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_standings)
    holder.start()
    try:
        assert holding.wait(timeout=10)
        finish_match(table.match, seed=12)  # commits; the update goes to the first worker
        wait_for(waiting_on_a_lock, 60, "the first worker to start the update")
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        killed_at = time.monotonic()
    finally:
        release.set()
        holder.join(timeout=30)
    # The killed worker's transaction rolls back: nothing of the match is counted yet.
    wait_for(lambda: waiting_on_a_lock() == 0, 30, "the killed worker's session to end")
    assert not StandingsContribution.objects.filter(tournament=t, match=table.match).exists()

    time.sleep(max(0.0, 3.5 - (time.monotonic() - killed_at)))  # past the visibility timeout
    worker_queue("b")

    wait_for(
        lambda: StandingsContribution.objects.filter(tournament=t, match=table.match).exists(),
        90,
        "the second worker to run the task again",
    )
    data = Standings.objects.get(tournament=t).data
    table.match.refresh_from_db()
    totals = dict(zip(table.players, table.match.sheet["totals"], strict=True))
    assert {r["player"]: r["values"]["total"] for r in data["rows"]} == totals
    assert all(r["tables"] == 1 for r in data["rows"])
    before = Standings.objects.get(tournament=t)
    projections.standings_rebuild(tournament_id=t.pk)
    after = Standings.objects.get(tournament=t)
    assert (after.ledger, after.data, after.position) == (before.ledger, before.data, before.position)
