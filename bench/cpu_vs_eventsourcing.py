"""Processor time per event, the store against the `eventsourcing` library's database-function mode: for
each workload of ``bench_vs_eventsourcing.py`` (single appends from one writer, appends of 50 events,
catching up with every event twice, the first read right after the writes and then again), the
microseconds of processor used per event by the client process and by its PostgreSQL backend, read
from ``/proc/<pid>/schedstat`` (nanoseconds on a core) and the client's ``time.process_time``. Work
counted this way moves far less with the machine's load than a rate does.

The two sides run in turn, ``--rounds`` times, each on a fresh table (the store: a throwaway test
database; the library: a table of its own in another throwaway database), so that both start from the
same state. The library is installed into a throwaway environment as bench_vs_eventsourcing.py does,
or taken from ``--es-python``.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/cpu_vs_eventsourcing.py
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

# Shared by both sides (the library's runs without the project): processor time of this process and of
# a backend, in nanoseconds.
PROBE = r"""
import gc, os, time
def _backend_ns(pid):
    with open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[0])
def measure(backend, work, events):
    # Microseconds of processor per event: (client, server), from a collected heap on both sides.
    gc.collect()
    server, client = _backend_ns(backend), time.process_time_ns()
    work()
    client, server = time.process_time_ns() - client, _backend_ns(backend) - server
    return {"client_us": client / events / 1000, "server_us": server / events / 1000, "events": events}
"""

THEIRS = (
    PROBE
    + r"""
import json, sys, uuid
from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

host, port, user, dbname, singles, batches = sys.argv[1:7]
singles, batches = int(singles), int(batches)
BATCH = 50
ds = PostgresDatastore(dbname, host, port, user, "", enable_db_functions=True)
table = f"es_cpu_{uuid.uuid4().hex[:8]}"
r = PostgresApplicationRecorder(ds, events_table_name=table)
r.create_table()
with ds.get_connection() as conn:
    backend = conn.execute("SELECT pg_backend_pid()").fetchone()["pg_backend_pid"]

def state(n):
    return json.dumps({"move": {"type": "play", "seat": n % 4, "card": f"{n % 7 + 1}C"}}).encode()

def single():
    ids = {}
    for n in range(singles):
        oid = ids.setdefault(n // 40, uuid.uuid4())
        r.insert_events([StoredEvent(oid, n % 40 + 1, "MoveRecorded", state(n))])

def batch():
    for s in range(batches):
        oid = uuid.uuid4()
        r.insert_events([StoredEvent(oid, v, "MoveRecorded", state(v)) for v in range(1, BATCH + 1)])

def catch_up():
    last = 0
    while page := r.select_notifications(last + 1, 1000):
        last = page[-1].id

# The library's pool hands out one connection here (one thread): the backend measured is that one.
figures = {}
figures["single"] = measure(backend, single, singles)
figures["batch_50"] = measure(backend, batch, batches * BATCH)
total = singles + batches * BATCH
figures["catch_up"] = measure(backend, catch_up, total)
figures["catch_up_again"] = measure(backend, catch_up, total)
with ds.transaction(commit=True) as curs:
    curs.execute(f"DROP TABLE {table}")
print(json.dumps(figures))
"""
)

OURS = (
    PROBE
    + r"""
import json, os, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "bench-only")
import django
django.setup()
from django.db import connection
from scoring.log import store
from bench_store import START, BATCH, move

if not store.__file__.startswith(os.path.realpath(sys.argv[1])):
    raise SystemExit(f"the store imported is {store.__file__}, not the checkout's at {sys.argv[1]}")

singles, batches = int(sys.argv[2]), int(sys.argv[3])
name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
try:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]

    def single():  # as bench_store.single_appends: streams of 40, a key each
        for n in range(singles):
            stream, version = f"single-{n // 40}", n % 40
            event = START if version == 0 else move(n)
            store.append(stream, [event], expected_version=version, idempotency_key=f"k{n}")

    def batch():  # as bench_store.batches
        for s in range(batches):
            store.append(f"batch-{s}", [START, *(move(n) for n in range(BATCH - 1))], expected_version=0)

    def catch_up():  # as bench_store.catch_up
        last = 0
        while page := store.read_all_after(last, limit=1000):
            last = page[-1].position

    figures = {}
    figures["single"] = measure(backend, single, singles)
    figures["batch_50"] = measure(backend, batch, batches * BATCH)
    total = singles + batches * BATCH
    figures["catch_up"] = measure(backend, catch_up, total)
    figures["catch_up_again"] = measure(backend, catch_up, total)
finally:
    connection.close()
    connection.creation.destroy_test_db(name, verbosity=0)
print(json.dumps(figures))
"""
)

WORKLOADS = (
    ("single", "single appends, 1 writer"),
    ("batch_50", "appends of 50 events"),
    ("catch_up", "catch-up, first read"),
    ("catch_up_again", "catch-up, read again"),
)


def run(python: str, code: str, args: list[str], cwd: str | None = None) -> dict[str, Any]:
    done = subprocess.run([python, "-c", code, *args], capture_output=True, text=True, check=False, cwd=cwd)
    if done.returncode:
        raise SystemExit(f"a side's run failed:\n{done.stderr}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    from bench_vs_eventsourcing import admin, median, throwaway_env

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--singles", type=int, default=1000, help="single appends, one writer")
    parser.add_argument("--batches", type=int, default=200, help="appends of 50 events")
    parser.add_argument("--rounds", type=int, default=3, help="each side measured this many times, in turn")
    parser.add_argument("--es-python", help="a Python with eventsourcing[postgres] 9.5 installed")
    parser.add_argument("--only", choices=("ours", "es"), help="measure one side only")
    parser.add_argument("--before", help="another checkout of the project, measured too, in turn")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database: the comparison is on PostgreSQL")
    url = urlparse(os.environ["DATABASE_URL"])
    where = [url.hostname or "127.0.0.1", str(url.port or 5432), url.username or "postgres"]
    sizes = [str(args.singles), str(args.batches)]
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "ours": [], "es": []}
    with tempfile.TemporaryDirectory() as tmp:
        es_python = args.es_python
        if not es_python and args.only != "ours":
            print("installing eventsourcing into a throwaway environment ...", flush=True)
            es_python = str(throwaway_env(Path(tmp) / "es"))
        database = f"es_cpu_{os.getpid()}"
        admin(f'CREATE DATABASE "{database}"')
        try:
            for i in range(args.rounds):
                print(f"round {i + 1}, load average {load()}", flush=True)
                if args.only != "es" and args.before:
                    runs["before"].append(run(sys.executable, OURS, [args.before, *sizes], cwd=args.before))
                if args.only != "es":
                    runs["ours"].append(run(sys.executable, OURS, [str(ROOT), *sizes], cwd=str(ROOT)))
                if args.only != "ours":
                    assert es_python
                    runs["es"].append(run(es_python, THEIRS, [*where, database, *sizes]))
        finally:
            admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    print(f"load average {load()}")
    print(f"µs of processor per event, median of {args.rounds} (range); client + server = in all")
    for key, label in WORKLOADS:
        sides = (("before", "segnapunti before"), ("ours", "segnapunti"), ("es", "es + db functions"))
        for side, name in sides:
            if not runs[side]:
                continue
            parts = []
            for part in ("client_us", "server_us"):
                values = [r[key][part] for r in runs[side]]
                parts.append(f"{median(values):6.1f} ({min(values):.1f}-{max(values):.1f})")
            total = median([r[key]["client_us"] + r[key]["server_us"] for r in runs[side]])
            print(f"{label:<26} {name:<18} client {parts[0]}  server {parts[1]}  in all {total:6.1f}")


if __name__ == "__main__":
    main()
