"""Time importing match records: a Barbù evening of 7, 14 and 28 hands (moves per second, so that the
time can be seen to grow linearly with the hands), and how long another table waits to record a move
while a 28-hand record is being imported (the longest wait of a writer appending as fast as it can).

Runs against a throwaway test database created next to the one DATABASE_URL names:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_import.py
"""

from __future__ import annotations

import os
import random
import sys
import threading
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
from scoring.hands.fold import MoveEntry  # noqa: E402
from scoring.hands.records import export_match  # noqa: E402
from scoring.log import store  # noqa: E402
from scoring.log.events import MoveRecorded  # noqa: E402
from scoring.rules import HandResult, get_game  # noqa: E402
from scoring.rules.moves import Move  # noqa: E402
from scoring.services import match_import  # noqa: E402
from scoring.signals import match_changed  # noqa: E402

SEATS = ("Anna", "Bruno", "Carla", "Dario")


def barbu_record(hands: int, seed: int) -> tuple[dict[str, object], int]:
    """A Barbù match record played at random on the engine (each hand with the match so far as its
    context, as the service starts it), and the number of moves in it."""
    game = get_game("barbu")
    rng = random.Random(seed)
    options = game.ruleset.validate({})
    results: list[HandResult] = []
    bodies: list[tuple[int, list[MoveEntry]]] = []
    dealer, count = 0, 0
    for _ in range(hands):
        context = game.match_context(options, 4, results)
        state = game.initial_state(options, seats=4, dealer=dealer, context=context)
        moves: list[Move] = [game.random_deal(state, rng)]
        state = game.apply(state, moves[0]).state
        while not state.over:
            moves.append(rng.choice(game.legal_moves(state)))
            state = game.apply(state, moves[-1]).state
        result = game.result(state)
        results.append(result)
        bodies.append((dealer, [MoveEntry(i, m) for i, m in enumerate(moves)]))
        count += len(moves)
        dealer = game.next_dealer(options, 4, dealer, result)
    return export_match("barbu", {}, SEATS, "clockwise", bodies), count


def timed_import(club: Club, hands: int, seed: int) -> tuple[int, float]:
    record, moves = barbu_record(hands, seed)
    start = time.perf_counter()
    match_import(club=club, record=record)
    return moves, time.perf_counter() - start


def longest_wait_during_import(club: Club) -> tuple[float, float, int]:
    """Another table appends one move after another while a 28-hand record is imported: its longest
    wait for an append, its median, and how many it made."""
    record, _ = barbu_record(28, seed=99)
    done = threading.Event()
    waits: list[float] = []

    def other_table() -> None:
        try:
            store.append(
                "other-table",
                [MoveRecorded(move={"type": "play", "seat": 0, "card": "AC"})],
                expected_version=0,
            )
            version = 1
            while not done.is_set():
                start = time.perf_counter()
                store.append(
                    "other-table",
                    [MoveRecorded(move={"type": "play", "seat": 0, "card": "AC"})],
                    expected_version=version,
                )
                waits.append(time.perf_counter() - start)
                version += 1
        finally:
            connections.close_all()

    writer = threading.Thread(target=other_table)
    writer.start()
    time.sleep(0.2)
    match_import(club=club, record=record)
    time.sleep(0.2)
    done.set()
    writer.join()
    waits.sort()
    return waits[-1], waits[len(waits) // 2], len(waits)


def main() -> None:
    # A finished match queues the standings and ratings update for a worker; with no broker here it
    # would run in this process and be counted as import time: it is not the import's.
    match_changed.disconnect(dispatch_uid="tournaments.match_changed")
    db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        club = Club.objects.create(name="Bench club")
        print(f"database: {connection.vendor}; Barbù match records of random legal hands")
        print(f"{'hands':>6} {'moves':>7} {'seconds':>9} {'moves/s':>9} {'ms a hand':>10}")
        timed_import(club, 2, seed=0)  # warm-up: imports, caches
        for hands in (7, 14, 28):
            moves, elapsed = timed_import(club, hands, seed=hands)
            rate, per_hand = moves / elapsed, elapsed / hands * 1000
            print(f"{hands:>6} {moves:>7} {elapsed:>9.3f} {rate:>9.0f} {per_hand:>10.1f}")
        worst, median, count = longest_wait_during_import(club)
        print(
            f"another table during a 28-hand import: {count} appends, median {median * 1000:.1f} ms, "
            f"longest {worst * 1000:.1f} ms"
        )
    finally:
        connections.close_all()
        connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
