"""The event store side by side with the `eventsourcing` library's PostgreSQL recorder, same machine,
same PostgreSQL, same workloads: single appends from 1 and 4 writer processes (rate, p99), appends of
50 events, and catching up with every event (pages of 1000), each side twice in the same way: the first
read of the rows right after the writes (cold: PostgreSQL sets their hint bits), then again (warm).
Both sides collect Python's garbage before each workload, so that no workload pays for the one before.
Prints each figure and our ratio to theirs.

The library is installed into a throwaway virtual environment by this script (it is no dependency of the
project); its recorder is measured as it ships, and with its optional database functions. The two are
not the same guarantee: as it ships, an insert first locks the events table (``LOCK TABLE ... IN
EXCLUSIVE MODE``), so positions commit in order, as ours do; its database function inserts without that
lock, so a later position can commit before an earlier one and a tailing reader can pass over an event.
Both are peers here: the first ratio compares like with like (ordered commits on both sides); the second
is against the library's fastest, unordered mode, which the store must match while keeping its order.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_vs_eventsourcing.py
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent

# The same workloads as bench_store.py, written against eventsourcing's recorder. Run by the throwaway
# environment's Python; prints one JSON object.
THEIRS = r"""
import gc, json, multiprocessing, statistics, sys, time, uuid
from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

host, port, user, dbname, appends, functions = sys.argv[1:7]
appends, functions = int(appends), functions == "1"
BATCH = 50

def recorder(table):
    ds = PostgresDatastore(dbname, host, port, user, "", enable_db_functions=functions)
    r = PostgresApplicationRecorder(ds, events_table_name=table)
    return r

def state(n):
    return json.dumps({"move": {"type": "play", "seat": n % 4, "card": f"{n % 7 + 1}C"}}).encode()

def single(table, writer, count, out, start_at):
    r = recorder(table)
    start_at.wait()
    lat = []
    ids = {}
    for n in range(count):
        stream, version = n // 40, n % 40 + 1
        oid = ids.setdefault(stream, uuid.uuid4())
        t = time.perf_counter()
        event = StoredEvent(oid, version, "MoveRecorded", state(n))
        r.insert_events([event])
        lat.append(time.perf_counter() - t)
    out.put(lat)

def writers(table, count, appends):
    ctx = multiprocessing.get_context("fork")
    start_at, out = ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=single, args=(table, w, appends // count, out, start_at)) for w in range(count)
    ]
    for p in procs:
        p.start()
    time.sleep(1.0)
    t = time.perf_counter()
    start_at.set()
    every = [x for _ in procs for x in out.get(timeout=600)]
    elapsed = time.perf_counter() - t
    for p in procs:
        p.join()
    p99 = statistics.quantiles(every, n=100)[98] * 1000
    return {"per_s": len(every) / elapsed, "p99_ms": p99, "count": len(every)}

table = f"es_bench_{uuid.uuid4().hex[:8]}"
main = recorder(table)
main.create_table()
figures = {}
# As bench_store.py: each workload starts with Python's garbage collected.
gc.collect()
figures["single_1_writer"] = writers(table, 1, appends // 2)
gc.collect()
figures["single_4_writers"] = writers(table, 4, appends)
n = appends * 5 // BATCH
gc.collect()
t = time.perf_counter()
for s in range(n):
    oid = uuid.uuid4()
    main.insert_events([StoredEvent(oid, v, "MoveRecorded", state(v)) for v in range(1, BATCH + 1)])
figures["batch_50"] = {"per_s": n * BATCH / (time.perf_counter() - t), "count": n * BATCH}
def catch_up():
    last, count = 0, 0
    t = time.perf_counter()
    while True:
        page = main.select_notifications(last + 1, 1000)
        if not page:
            break
        last = page[-1].id
        count += len(page)
    return {"per_s": count / (time.perf_counter() - t), "count": count}

# As bench_store.py: the first read right after the writes, then the same again.
gc.collect()
figures["catch_up"] = catch_up()
gc.collect()
figures["catch_up_again"] = catch_up()
with main.datastore.transaction(commit=True) as curs:
    curs.execute(f"DROP TABLE {table}")
print(json.dumps(figures))
"""

FIGURES = (
    ("single_1_writer", "single appends, 1 writer"),
    ("single_4_writers", "single appends, 4 writers"),
    ("batch_50", "appends of 50 events"),
    ("catch_up", "catch-up, first read"),
    ("catch_up_again", "catch-up, read again"),
)


def throwaway_env(where: Path) -> Path:
    venv.EnvBuilder(with_pip=True).create(where)
    python = where / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "eventsourcing[postgres]==9.5.*"],
        check=True,
    )
    return python


def ours(appends: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_store.py"), "--appends", str(appends), "--json"],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "DEBUG": "false", "SECRET_KEY": "bench-only"},
    )
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def theirs(python: Path, database: str, appends: int, functions: bool) -> dict[str, Any]:
    url = urlparse(os.environ["DATABASE_URL"])
    args = [url.hostname or "127.0.0.1", str(url.port or 5432), url.username or "postgres", database]
    done = subprocess.run(
        [str(python), "-c", THEIRS, *args, str(appends), "1" if functions else "0"],
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"eventsourcing's run failed:\n{done.stderr}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def admin(sql: str) -> None:
    """A statement on the server's maintenance database (to create and drop the library's database)."""
    import psycopg

    url = urlparse(os.environ["DATABASE_URL"])
    dsn = f"host={url.hostname or '127.0.0.1'} port={url.port or 5432} user={url.username or 'postgres'}"
    with psycopg.connect(f"{dsn} dbname=postgres", autocommit=True) as conn:
        conn.execute(sql.encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--appends", type=int, default=2000, help="single appends by the 4 writers")
    parser.add_argument("--rounds", type=int, default=3, help="each side measured this many times, in turn")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database: the comparison is on PostgreSQL")
    with tempfile.TemporaryDirectory() as tmp:
        print("installing eventsourcing into a throwaway environment ...", flush=True)
        python = throwaway_env(Path(tmp) / "es")
        runs: dict[str, list[dict[str, Any]]] = {"ours": [], "es": [], "es_functions": []}
        database = f"es_bench_{os.getpid()}"
        admin(f'CREATE DATABASE "{database}"')
        try:
            for _ in range(args.rounds):  # in turn, so that a drift of the machine's speed hits both
                runs["ours"].append(ours(args.appends))
                runs["es"].append(theirs(python, database, args.appends, functions=False))
                runs["es_functions"].append(theirs(python, database, args.appends, functions=True))
        finally:
            admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    print(f"PostgreSQL, median of {args.rounds} runs each, events per second (p99 of single appends)")
    heads = ("segnapunti", "eventsourcing", "ratio", "es + db functions", "ratio")
    print(f"{'':<28} {heads[0]:>12} {heads[1]:>14} {heads[2]:>7} {heads[3]:>18} {heads[4]:>7}")
    for key, label in FIGURES:
        mine = median([r[key]["per_s"] for r in runs["ours"]])
        es = median([r[key]["per_s"] for r in runs["es"]])
        esf = median([r[key]["per_s"] for r in runs["es_functions"]])
        print(f"{label:<28} {mine:>12.0f} {es:>14.0f} {mine / es:>6.2f}x {esf:>18.0f} {mine / esf:>6.2f}x")
        if key.startswith("single"):
            p_mine = median([r[key]["p99_ms"] for r in runs["ours"]])
            p_es = median([r[key]["p99_ms"] for r in runs["es"]])
            p_esf = median([r[key]["p99_ms"] for r in runs["es_functions"]])
            print(f"{'   p99 ms':<28} {p_mine:>12.2f} {p_es:>14.2f} {'':>7} {p_esf:>18.2f}")
    print("(eventsourcing's db functions insert without its table lock: positions may commit out of order)")


def median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


if __name__ == "__main__":
    main()
