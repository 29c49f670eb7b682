"""Queuing a task never holds up a request: it is handed to a publisher thread at once, whether the
broker is down or hung; the publisher gives up, says so in the log, and leaves the work to the catch-up.
The rebuild command does what the rebuild task does."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.tournaments.support import club_with_players, finish_round, open_round, tournament
from tournaments.models import Standings

ROOT = Path(__file__).resolve().parents[2]

QUEUE_TWO = """
import time, django
django.setup()
from tournaments import tasks
start = time.perf_counter()
queued = [tasks.enqueue(tasks.match_changed_update, 1), tasks.enqueue(tasks.standings_rebuild, 1)]
handed = time.perf_counter() - start
drained = tasks.publisher_drain(120)
print(all(queued), round(handed, 3), drained, round(time.perf_counter() - start, 2))
"""


def queue_two(broker: str) -> tuple[float, float, str]:
    """Queue a match's update and a rebuild in a process of their own whose broker is ``broker``: how long
    the caller was held, how long the publisher took to give up, and the process's log."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "segnapunti.settings",
        "CELERY_BROKER_URL": broker,
        "DATABASE_URL": "sqlite:///:memory:",
        "DEBUG": "true",
    }
    done = subprocess.run(
        [sys.executable, "-c", QUEUE_TWO], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stderr
    queued, handed, drained, total = done.stdout.split()
    assert queued == "True" and drained == "True"
    return float(handed), float(total), done.stderr


@pytest.fixture
def hung_broker() -> Iterator[int]:
    """A TCP listener that takes every connection and never answers: a broker that hangs."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def take() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=take, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for s in held:
        s.close()
    server.close()


def test_with_the_broker_down_the_caller_goes_on_and_the_publisher_gives_up() -> None:
    handed, total, log = queue_two("redis://127.0.0.1:1/0")  # nothing listens on port 1

    assert handed < 0.5
    assert total < 30
    assert "could not queue tournaments.tasks.match_changed_update" in log
    assert "could not queue tournaments.tasks.standings_rebuild" in log


def test_with_the_broker_hung_the_caller_is_not_held(hung_broker: int) -> None:
    handed, total, log = queue_two(f"redis://127.0.0.1:{hung_broker}/0")

    assert handed < 0.5  # each used to hold the request for the socket timeouts: 5 s and more
    assert total > 1  # the broker did hang: giving up took the publisher its timeouts
    assert "could not queue tournaments.tasks.match_changed_update" in log


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
