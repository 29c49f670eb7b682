"""N single appends from one writer, as ``cpu_vs_eventsourcing.py`` makes them (streams of 40, a key each),
for counting the client's instructions: the store's on the (migrated) database DATABASE_URL names, or,
with ``--eventsourcing``, the library's database-function mode on that database, run by a Python that
has ``eventsourcing[postgres]`` 9.5 (this mode imports nothing of the project). Count each side under
callgrind at two sizes and take the difference, so that starting up cancels out:

    for n in 100 1100; do DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME PYTHONHASHSEED=0 \\
        valgrind --tool=callgrind .venv/bin/python bench/count_appends.py $n; done
    for n in 100 1100; do DATABASE_URL=... PYTHONHASHSEED=0 valgrind --tool=callgrind \\
        ES_PYTHON bench/count_appends.py --eventsourcing $n; done

The store's appends go to fresh stream names each run; the library's to a table made and dropped here.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from pathlib import Path
from urllib.parse import urlparse


def state(n: int) -> bytes:
    return json.dumps({"move": {"type": "play", "seat": n % 4, "card": f"{n % 7 + 1}C"}}).encode()


def theirs(appends: int) -> None:
    from eventsourcing.persistence import StoredEvent  # type: ignore[import-not-found]
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore  # type: ignore[import-not-found]

    url = urlparse(os.environ["DATABASE_URL"])
    where = (url.hostname or "127.0.0.1", str(url.port or 5432), url.username or "postgres")
    datastore = PostgresDatastore(url.path.lstrip("/"), *where, "", enable_db_functions=True)
    table = f"es_count_{uuid.uuid4().hex[:8]}"
    recorder = PostgresApplicationRecorder(datastore, events_table_name=table)
    recorder.create_table()
    try:
        ids: dict[int, uuid.UUID] = {}
        for n in range(appends):
            oid = ids.setdefault(n // 40, uuid.uuid4())
            recorder.insert_events([StoredEvent(oid, n % 40 + 1, "MoveRecorded", state(n))])
    finally:
        with datastore.transaction(commit=True) as cursor:
            cursor.execute(f"DROP TABLE {table}")


def ours(appends: int) -> None:
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    sys.path.insert(0, str(root / "bench"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only")
    import django

    django.setup()
    from bench_store import START, move
    from django.db import connection

    from scoring.log import store

    run = uuid.uuid4().hex[:8]
    try:
        for n in range(appends):
            stream, version = f"count-{run}-{n // 40}", n % 40
            event = START if version == 0 else move(n)
            store.append(stream, [event], expected_version=version, idempotency_key=f"k{n}")
    finally:
        connection.close()


if __name__ == "__main__":
    if sys.argv[1] == "--eventsourcing":
        theirs(int(sys.argv[2]))
    else:
        ours(int(sys.argv[1]))
