"""Queuing a task never holds up a request: with the broker unreachable it gives up quickly, says so in
the log, and leaves the work to the catch-up; the rebuild command does what the rebuild task does."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.tournaments.support import club_with_players, finish_round, open_round, tournament
from tournaments.models import Standings

ROOT = Path(__file__).resolve().parents[2]

QUEUE_ONE = """
import time, django
django.setup()
from tournaments import tasks
start = time.perf_counter()
queued = tasks.enqueue(tasks.catch_up)
print(queued, round(time.perf_counter() - start, 2))
"""


def test_with_the_broker_down_queuing_gives_up_quickly_and_the_request_goes_on() -> None:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "segnapunti.settings",
        "CELERY_BROKER_URL": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "DATABASE_URL": "sqlite:///:memory:",
        "DEBUG": "true",
    }
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", QUEUE_ONE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )

    assert done.returncode == 0, done.stderr
    queued, seconds = done.stdout.split()
    assert queued == "False" and float(seconds) < 10
    assert "could not queue tournaments.tasks.catch_up" in done.stderr
    assert time.perf_counter() - start < 30


@pytest.mark.django_db
def test_the_rebuild_command_rebuilds_the_standings_and_the_ratings() -> None:
    club = club_with_players(3)
    t = tournament(club)
    finish_round(open_round(t, club.director), seed=3)  # no commit hooks: the standings are behind
    assert all(r["tables"] == 0 for r in Standings.objects.get(tournament=t).data["rows"])

    out = StringIO()
    call_command("standings_rebuild", "--tournament", str(t.pk), "--ratings", stdout=out)

    assert all(r["tables"] == 1 for r in Standings.objects.get(tournament=t).data["rows"])
    assert "standings up to log position" in out.getvalue() and "ratings rebuilt" in out.getvalue()
    with pytest.raises(CommandError, match="no tournament 999"):
        call_command("standings_rebuild", "--tournament", "999")
