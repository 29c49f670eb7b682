"""A worker recording many moves keeps the memory it started with: records moves through the service,
as the API does, match after match, and prints the process's resident memory every so often (at 10,000
and 100,000 moves among others). The kept folds are bounded (scoring/hands/foldcache.py); nothing else grows.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_memory.py
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-only")

import django  # noqa: E402

django.setup()

from django.db import connection, connections  # noqa: E402

from clubs.models import Club  # noqa: E402
from scoring import services  # noqa: E402
from scoring.hands import foldcache  # noqa: E402
from scoring.models import Hand, Match  # noqa: E402
from scoring.rules import Move, get_game, move_to_dict  # noqa: E402
from scoring.signals import match_changed  # noqa: E402

GAME = "tressette"


def rss_mib() -> float:
    """The resident memory of this process now (from /proc; the peak where /proc is not there)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--moves", type=int, default=100_000)
    args = parser.parse_args()
    match_changed.disconnect(dispatch_uid="tournaments.match_changed")  # the worker's job, not this one's
    db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        club = Club.objects.create(name="Bench club")
        game = get_game(GAME)
        rng = random.Random(1)
        marks = sorted({1_000, 10_000, 25_000, 50_000, 100_000, args.moves})
        print(f"database: {connection.vendor}; {GAME}, moves recorded through the service")
        print(f"{'moves':>8} {'RSS MiB':>8} {'kept folds':>10} {'moves/s':>8}")
        done, started = 0, time.perf_counter()
        tables = 0
        while done < args.moves:
            match = services.match_create(
                club=club, game=GAME, seats=["A", "B", "C", "D"], options={"target": 1000}
            )
            tables += 1
            hand = match.hands.get()
            for _ in range(3):  # three hands at each table
                state = game.initial_state({}, seats=4, dealer=hand.dealer)
                move: Move = game.random_deal(state, rng)
                while True:
                    hand = services.move_record(
                        hand=hand, move=move_to_dict(move), expected_version=hand.version
                    ).hand
                    done += 1
                    if done in marks:
                        rate = done / (time.perf_counter() - started)
                        print(f"{done:>8} {rss_mib():>8.1f} {foldcache.size():>10} {rate:>8.0f}", flush=True)
                    state = game.apply(state, move).state
                    if state.over or done >= args.moves:
                        break
                    move = rng.choice(game.legal_moves(state))
                if done >= args.moves:
                    break
                hand = services.hand_start(match=Match.objects.get(pk=match.pk))
        print(f"{tables} tables; {Hand.objects.count()} hands")
    finally:
        connections.close_all()
        connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
