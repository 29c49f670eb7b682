"""Time the event store: single appends from 1 and 4 writers (rate and p99 latency), appends in batches of
50, catching up with every stream (a tailing reader: the first read after the writes, then again), and
reading one stream.

Runs against a throwaway test database created next to the one DATABASE_URL names (SQLite or
PostgreSQL), so it never touches real data:

    .venv/bin/python bench/bench_store.py [--appends 2000] [--json]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_store.py

With --json it prints the figures as one JSON object (bench/bench_vs_eventsourcing.py reads it).
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ.setdefault("DEBUG", "false")  # as in production: no query log
os.environ.setdefault("SECRET_KEY", "bench-only")

import django  # noqa: E402

django.setup()

from django.db import connection, connections  # noqa: E402

from scoring.log import store  # noqa: E402
from scoring.log.events import HandStarted, MoveRecorded  # noqa: E402

START = HandStarted(game="tressette", options={"target": 31}, seats=("a", "b", "c", "d"), dealer=0)
BATCH = 50


def move(n: int) -> MoveRecorded:
    return MoveRecorded(move={"type": "play", "seat": n % 4, "card": f"{n % 7 + 1}C"})


def p99(latencies: list[float]) -> float:
    return statistics.quantiles(latencies, n=100)[98] if len(latencies) > 1 else latencies[0]


def single_appends(writer: int, appends: int, latencies: list[float]) -> None:
    """One writer appending one event at a time to streams of 40 moves, as tables record moves."""
    try:
        for n in range(appends):
            stream, version = f"single-{writer}-{n // 40}", n % 40
            start = time.perf_counter()
            if version == 0:
                store.append(stream, [START], expected_version=0, idempotency_key=f"k{n}")
            else:
                store.append(stream, [move(n)], expected_version=version, idempotency_key=f"k{n}")
            latencies.append(time.perf_counter() - start)
    finally:
        connections.close_all()


def _writer_process(writer: int, appends: int, start_at: Any, out: Any) -> None:
    connections.close_all()  # the parent's connection is not this process's to use
    start_at.wait()
    latencies: list[float] = []
    single_appends(writer, appends, latencies)
    out.put(latencies)


def writers(count: int, appends: int) -> dict[str, float]:
    """``count`` writers at once, each a process of its own (as the web server's workers are), with its
    own connection: ``appends`` single appends in all."""
    context = multiprocessing.get_context("fork")
    start_at, out = context.Event(), context.Queue()
    connections.close_all()
    procs = [
        context.Process(target=_writer_process, args=(1000 * count + w, appends // count, start_at, out))
        for w in range(count)
    ]
    for p in procs:
        p.start()
    time.sleep(0.5)  # every process connected and waiting
    start = time.perf_counter()
    start_at.set()
    every = [x for _ in procs for x in out.get(timeout=600)]
    elapsed = time.perf_counter() - start
    for p in procs:
        p.join()
    return {"per_s": len(every) / elapsed, "p99_ms": p99(every) * 1000, "count": len(every)}


def batches(appends: int) -> dict[str, float]:
    streams = max(1, appends // BATCH)
    start = time.perf_counter()
    for s in range(streams):
        store.append(f"batch-{s}", [START, *(move(n) for n in range(BATCH - 1))], expected_version=0)
    elapsed = time.perf_counter() - start
    return {"per_s": streams * BATCH / elapsed, "count": streams * BATCH}


def catch_up(page: int = 1000) -> dict[str, float]:
    last, count = 0, 0
    start = time.perf_counter()
    while batch := store.read_all_after(last, limit=page):
        last = batch[-1].position
        count += len(batch)
    elapsed = time.perf_counter() - start
    return {"per_s": count / elapsed, "count": count}


def read_streams(streams: int) -> dict[str, float]:
    start = time.perf_counter()
    for s in range(streams):
        store.read_stream(f"batch-{s}")
    elapsed = time.perf_counter() - start
    return {"per_s": streams / elapsed, "count": streams}


def run(appends: int) -> dict[str, Any]:
    # Each workload starts with Python's garbage collected (gc.collect() before it), so that none pays
    # for a full collection the allocations of the one before made due; bench_vs_eventsourcing.py does
    # the same on the other side. Without it, one full collection of this process (Django's objects
    # included, about 45 ms) fell in the second catch-up or not, from run to run.
    figures: dict[str, Any] = {"database": connection.vendor}
    gc.collect()
    figures["single_1_writer"] = writers(1, appends // 2)
    gc.collect()
    figures["single_4_writers"] = writers(4, appends)
    gc.collect()
    figures["batch_50"] = batches(appends * 5)
    # Catching up twice, right after the writes and nothing read between: the first pass is the first
    # read of those rows (PostgreSQL sets their hint bits), the second finds them as the first left them.
    # bench_vs_eventsourcing.py does the same on the other side, so that cold is compared with cold.
    gc.collect()
    figures["catch_up"] = catch_up()
    gc.collect()
    figures["catch_up_again"] = catch_up()
    gc.collect()
    figures["read_stream"] = read_streams(max(1, appends * 5 // BATCH))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--appends", type=int, default=2000, help="single appends by the 4 writers")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if connection.vendor == "sqlite":
            # Django's test databases are in memory on SQLite; a file is what the service really uses.
            connection.settings_dict["TEST"]["NAME"] = str(Path(tmp) / "bench.sqlite3")
        db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            figures = run(args.appends)
        finally:
            connections.close_all()
            connection.creation.destroy_test_db(db_name, verbosity=0)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"database: {figures['database']}")
    labels = {
        "single_1_writer": "single appends, 1 writer",
        "single_4_writers": "single appends, 4 writers",
        "batch_50": f"appends of {BATCH} events",
        "read_stream": "read_stream (50 events)",
        "catch_up": "catch-up, pages of 1000, first read",
        "catch_up_again": "catch-up, read again",
    }
    for key, label in labels.items():
        f = figures[key]
        unit = "streams" if key == "read_stream" else "events"
        line = f"{label:<30} {f['count']:>8} {unit:<7} {f['per_s']:>10.0f} {unit}/s"
        if "p99_ms" in f:
            line += f"   p99 {f['p99_ms']:.2f} ms"
        print(line)


if __name__ == "__main__":
    main()
