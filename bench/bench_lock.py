"""How long a move holds the store's global ordering lock, on PostgreSQL, through the services (no HTTP):
W writers record moves at once, each at its own table, as processes (gunicorn's sync workers) or as
threads of one process (gthread). Two ways to end a move's transaction are compared:

- with the append: the hand's row and sheet written in the append's statement, the COMMIT sent in the
  same message (what the service does);
- after it: the COMMIT sent by Python once the append has returned (what it did before issue 29).

For each it prints the moves per second, the time from sending the append to knowing it committed
(median and p99: an upper bound on each move's hold, measured in the writer), the share of time the
lock was held, sampled from pg_locks every 10 ms, divided by the moves (the mean hold), and,
for the COMMIT sent with the append, each move's hold as the server's clock measured it (median and p99:
from the moment the statement has the lock to the end of the commit, ``store.lock_holds``).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_lock.py \\
        [--writers 4] [--seconds 10] [--model process,thread] [--no-flush]

``--no-flush`` turns synchronous_commit off for the writers' sessions: no commit then waits for the
disk. With the COMMIT sent after the append, the hold then shows the work under the lock apart from the
flush. With the append, the flush is not under the lock anyway (the store commits without waiting for
the disk and makes the commit durable with the message's last statement, after the lock is free: see
``store._execute_and_commit``), so the hold should not change; only the writer's wait does.

It creates a throwaway database next to the one DATABASE_URL names and drops it at the end.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-only")

import django  # noqa: E402

django.setup()

from django.db import connection, connections, transaction  # noqa: E402

from clubs.models import Club, Player  # noqa: E402
from scoring import services  # noqa: E402
from scoring.log import store  # noqa: E402
from scoring.models import Match  # noqa: E402
from scoring.rules import get_game, move_to_dict  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_http import LockSampler, database_url  # noqa: E402

GAME = "tressette"
_timing = threading.local()


def timed_append(original: Any, with_append: bool, out: list[float]) -> Any:
    """store.append, timed from its call to the moment this writer knows the transaction committed."""

    def append(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        done = original(*args, **kwargs)
        if with_append:
            out.append(time.perf_counter() - started)
        else:
            transaction.on_commit(lambda: out.append(time.perf_counter() - started))
        return done

    return append


NO_FLUSH = False


def play(match_id: int, seed: int, until: float) -> int:
    """Record moves at one table until ``until``; how many."""
    if NO_FLUSH:
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")
    rng = random.Random(seed)
    game = get_game(GAME)
    match = Match.objects.get(pk=match_id)
    moves = 0
    hand = match.hands.order_by("-number").first()  # match_create starts the first hand
    while time.monotonic() < until:
        if hand is None:
            hand = services.hand_start(match=match)
        state = game.initial_state({}, seats=4, dealer=hand.dealer)
        move: Any = game.random_deal(state, rng)
        while time.monotonic() < until:
            outcome = services.move_record(hand=hand, move=move_to_dict(move), expected_version=hand.version)
            hand, moves = outcome.hand, moves + 1
            state = game.apply(state, move).state
            if state.over:
                break
            move = rng.choice(game.legal_moves(state))
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return moves
        hand = None
    return moves


def writer(match_id: int, seed: int, until: float, with_append: bool, out: list[float]) -> int:
    try:
        return play(match_id, seed, until)
    finally:
        connections.close_all()


def _process(match_id: int, seed: int, until: float, with_append: bool, queue: Any) -> None:
    connections.close_all()
    times: list[float] = []
    holds: list[float] = []
    setup(with_append, times, holds)
    moves = writer(match_id, seed, until, with_append, times)
    queue.put((moves, times, holds))


def setup(with_append: bool, times: list[float], holds: list[float] | None) -> None:
    store.append = timed_append(ORIGINAL_APPEND, with_append, times)
    store._outermost = ORIGINAL_OUTERMOST if with_append else (lambda db: False)
    store.lock_holds = holds if with_append else None


ORIGINAL_APPEND = store.append
ORIGINAL_OUTERMOST = store._outermost


def run(model: str, writers: int, seconds: float, with_append: bool, club: Club, seats: list[Player]) -> str:
    matches = [
        services.match_create(club=club, game=GAME, seats=seats, options={"target": 1000}).pk
        for _ in range(writers)
    ]
    connections.close_all()
    sampler = LockSampler(database_url(connection.settings_dict))
    sampler.daemon = True
    sampler.start()
    until = time.monotonic() + seconds
    started = time.perf_counter()
    times: list[float] = []
    holds: list[float] = []
    moves = 0
    if model == "process":
        context = multiprocessing.get_context("fork")
        queue = context.Queue()
        procs = [
            context.Process(target=_process, args=(m, i, until, with_append, queue))
            for i, m in enumerate(matches)
        ]
        for p in procs:
            p.start()
        for _ in procs:
            n, t, h = queue.get(timeout=seconds + 120)
            moves, times, holds = moves + n, times + t, holds + h
        for p in procs:
            p.join()
    else:
        setup(with_append, times, holds)
        counts: list[int] = []
        threads = [
            threading.Thread(target=lambda m=m, i=i: counts.append(writer(m, i, until, with_append, times)))
            for i, m in enumerate(matches)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        moves = sum(counts)
        setup(True, [], None)
    elapsed = time.perf_counter() - started
    sampler.stop.set()
    sampler.join()
    held = sampler.held / max(sampler.samples, 1)
    times.sort()
    p99 = times[int(len(times) * 0.99)] if times else 0.0
    how = "with the append" if with_append else "after it"
    holds.sort()
    server = (
        f" {statistics.median(holds) * 1000:>9.3f} {holds[int(len(holds) * 0.99)] * 1000:>9.3f}"
        if holds
        else f" {'-':>9} {'-':>9}"
    )
    return (
        f"{model:>8} {how:>16} {moves / elapsed:>8.0f} {statistics.median(times) * 1000:>9.3f}"
        f" {p99 * 1000:>9.3f} {held * 100:>8.1f}% {held * elapsed / max(moves, 1) * 1000:>9.3f}{server}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--model", default="process,thread")
    parser.add_argument("--no-flush", action="store_true", help="commits do not wait for the disk")
    parser.add_argument("--commit", default="with,after", help="with: the COMMIT sent with the append")
    args = parser.parse_args()
    global NO_FLUSH
    NO_FLUSH = args.no_flush
    if connection.vendor != "postgresql":
        raise SystemExit("the ordering lock is PostgreSQL's: set DATABASE_URL to a PostgreSQL database")
    db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        club = Club.objects.create(name="Bench club")
        seats = [Player.objects.create(club=club, name=f"Player {i}") for i in range(4)]
        flush = "; synchronous_commit off (no flush)" if args.no_flush else ""
        said = f"{args.writers} writers, {args.seconds:g} s each{flush}"
        print(f"{said}; load average before: {os.getloadavg()}")
        print(
            f"{'model':>8} {'COMMIT sent':>16} {'moves/s':>8} {'median ms':>9} {'p99 ms':>9}"
            f" {'held':>9} {'ms/move':>9} {'hold p50':>9} {'hold p99':>9}"
        )
        for model in args.model.split(","):
            for with_append in (c == "with" for c in args.commit.split(",")):
                print(run(model, args.writers, args.seconds, with_append, club, seats), flush=True)
        print(f"load average after: {os.getloadavg()}")
    finally:
        connections.close_all()
        connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
