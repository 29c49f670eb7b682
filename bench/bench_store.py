"""Time the event store: appends (one event and batches), reading a stream, tailing every stream.

Runs against a throwaway test database created next to the one DATABASE_URL names (SQLite or
PostgreSQL), so it never touches real data:

    .venv/bin/python bench/bench_store.py [--streams 200] [--moves 40]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_store.py
"""

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from scoring import store  # noqa: E402
from scoring.events import HandStarted, MoveRecorded  # noqa: E402

START = HandStarted(game="tressette", options={"target": 31}, seats=("a", "b", "c", "d"), dealer=0)


def move(n: int) -> MoveRecorded:
    return MoveRecorded(move={"kind": "PlayCard", "seat": n % 4, "card": f"{n % 10 + 1}C"})


def timed(label: str, count: int, unit: str, fn: Callable[[], object]) -> None:
    start = time.perf_counter()
    fn()
    elapsed = time.perf_counter() - start
    print(f"{label:<40} {count:>7} {unit:<7} {elapsed:8.3f} s {count / elapsed:>10.0f} {unit}/s")


def single_appends(streams: int, moves: int) -> None:
    for s in range(streams):
        store.append(f"single-{s}", [START], expected_version=0)
        for n in range(moves):
            store.append(f"single-{s}", [move(n)], expected_version=n + 1, idempotency_key=f"k{n}")


def batch_appends(streams: int, moves: int) -> None:
    for s in range(streams):
        store.append(f"batch-{s}", [START, *(move(n) for n in range(moves))], expected_version=0)


def single_appends_retry(moves: int) -> None:
    for n in range(moves):
        store.append("single-0", [move(n)], expected_version=n + 1, idempotency_key=f"k{n}")


def read_streams(streams: int) -> None:
    for s in range(streams):
        store.read_stream(f"single-{s}")


def tail_all(page: int) -> None:
    last = 0
    while batch := store.read_all_after(last, limit=page):
        last = batch[-1].position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=200, help="streams (hands) to write")
    parser.add_argument("--moves", type=int, default=40, help="moves per hand")
    args = parser.parse_args()
    streams, moves = args.streams, args.moves
    with tempfile.TemporaryDirectory() as tmp:
        if connection.vendor == "sqlite":
            # Django's test databases are in memory on SQLite; a file is what the service really uses.
            connection.settings_dict["TEST"]["NAME"] = str(Path(tmp) / "bench.sqlite3")
        run(streams, moves)


def run(streams: int, moves: int) -> None:
    events = streams * (moves + 1)
    db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(f"database: {connection.vendor} ({db_name})")
        timed("append, one event per call", events, "events", lambda: single_appends(streams, moves))
        timed(f"append, {moves + 1} events per call", events, "events", lambda: batch_appends(streams, moves))
        timed("read_stream", streams, "streams", lambda: read_streams(streams))
        timed("read_all_after, pages of 1000", 2 * events, "events", lambda: tail_all(1000))
        timed("retry with a used idempotency key", moves, "calls", lambda: single_appends_retry(moves))
    finally:
        connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
