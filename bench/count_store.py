"""A fixed workload of the event store, for counting instructions rather than timing (the machine's load
does not change a count): STREAMS streams of 10 single appends each, then each stream read once, on a
throwaway test database next to the one DATABASE_URL names. Count it under callgrind at two sizes and
take the difference, so that creating the database cancels out (docs/performance.md, "The layers move"):

    PYTHONHASHSEED=0 STREAMS=120 valgrind --tool=callgrind .venv/bin/python bench/count_store.py

It also runs on a checkout from before the layers moved (the store was ``scoring.store`` then).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-only")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402


def main() -> None:
    streams = int(os.environ.get("STREAMS", "50"))
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        try:
            from scoring.log import store
            from scoring.log.events import MoveRecorded
        except ImportError:  # a checkout from before the layers moved
            from scoring.events import MoveRecorded  # type: ignore[no-redef,import-not-found]

            from scoring import store  # type: ignore[no-redef,attr-defined]
        for s in range(streams):
            for v in range(10):
                move = MoveRecorded(move={"type": "play", "seat": v % 4, "card": "KS"}, verdicts=())
                store.append(f"bench-{s}", [move], expected_version=v)
        for s in range(streams):
            store.read_stream(f"bench-{s}")
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
