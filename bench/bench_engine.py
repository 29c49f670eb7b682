"""Time the rule engine: moves per second in both recording modes, a whole Barbù match, and memory.

Pure Python, no database. For each game and seat count it deals and plays random legal hands (the cost
of asking ``legal_moves`` and then ``apply`` at every step, as the table page does), then folds the same
hands again into their last state, as a projection does: once as recorded with the deal and once as
recorded without it (the moves-only mode). It also folds and scores a complete 28-hand Barbù match (each
hand with its match context, then the match sheet), and measures the peak memory of one ``replay`` that
keeps every intermediate state (what the replay viewer asks for). Each figure is the best of
``--repeat`` runs, so that a busy machine shows the engine's speed rather than its neighbours':

    .venv/bin/python bench/bench_engine.py [--hands 200] [--seed 1] [--repeat 5]

Target (issue 12): at least 100,000 moves/s per core for every game in both modes; the 28-hand Barbù
match in at most 20 ms.
"""

import argparse
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.rules import HandResult, game_names, get_game, replay  # noqa: E402
from scoring.rules.moves import Move  # noqa: E402

TARGET_MOVES = 100_000
TARGET_MATCH_MS = 20.0


def play(
    game: Any, rng: random.Random, seats: int, context: Any = None, dealer: int | None = None
) -> tuple[int, list[Move]]:
    dealer = rng.randrange(seats) if dealer is None else dealer
    state = game.initial_state(None, seats=seats, dealer=dealer, context=context)
    deal = game.random_deal(state, rng)
    moves: list[Move] = [deal]
    state = game.apply(state, deal).state
    while not state.over:
        move = rng.choice(game.legal_moves(state))
        state = game.apply(state, move).state
        moves.append(move)
    return dealer, moves


def final(game: Any, moves: list[Move], *, seats: int, dealer: int, context: Any = None) -> Any:
    """Fold the moves into the hand's last state, as a projection does (``replay`` also keeps every
    intermediate state, for the replay viewer: its memory is measured below)."""
    state = game.initial_state(None, seats=seats, dealer=dealer, context=context)
    apply = game.apply
    for move in moves:
        state = apply(state, move).state
    return state


def best(runs: int, work: Callable[[], object]) -> float:
    """The shortest of ``runs`` timings of ``work``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def barbu_match(rng: random.Random) -> list[tuple[int, dict[str, Any], list[Move]]]:
    """A complete Barbù match of random legal hands: (dealer, context, moves) for each of the 28 hands."""
    game = get_game("barbu")
    hands: list[tuple[int, dict[str, Any], list[Move]]] = []
    results: list[HandResult] = []
    dealer = 0
    for _ in range(28):
        context = game.match_context({}, 4, results)
        _, moves = play(game, rng, 4, context=context, dealer=dealer)
        final = replay(game, moves, seats=4, dealer=dealer, context=context).final
        result = game.result(final)
        hands.append((dealer, context, moves))
        results.append(result)
        dealer = game.next_dealer({}, 4, dealer, result)
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="random hands per game and seat count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the best is printed")
    args = parser.parse_args()
    header = ("game", "moves", "play hands/s", "deal known moves/s", "moves-only moves/s", "peak KiB")
    print(f"{header[0]:<16} {header[1]:>7} {header[2]:>13} {header[3]:>19} {header[4]:>19} {header[5]:>9}")
    slowest = float("inf")
    for name in game_names():
        game = get_game(name)
        for seats in game.seat_counts:
            rng = random.Random(args.seed)
            start = time.perf_counter()
            hands = [play(game, rng, seats) for _ in range(args.hands)]
            played = time.perf_counter() - start
            blind = [(dealer, game.moves_only(moves)) for dealer, moves in hands]
            count = sum(len(m) for _, m in hands)

            def fold(records: list[tuple[int, list[Move]]], game: Any = game, seats: int = seats) -> None:
                for dealer, moves in records:
                    final(game, moves, seats=seats, dealer=dealer)

            known = count / best(args.repeat, partial(fold, hands))
            unknown = count / best(args.repeat, partial(fold, blind))
            slowest = min(slowest, known, unknown)
            longest = max(hands, key=lambda h: len(h[1]))
            tracemalloc.start()
            replay(game, longest[1], seats=seats, dealer=longest[0])
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            label = f"{name} ({seats})"
            print(
                f"{label:<16} {count:>7} {args.hands / played:>13.0f} {known:>19.0f} {unknown:>19.0f} "
                f"{peak / 1024:>9.0f}"
            )

    game = get_game("barbu")
    match = barbu_match(random.Random(args.seed))
    moves = sum(len(m) for _, _, m in match)

    def whole_match() -> None:
        results = [game.result(final(game, m, seats=4, dealer=d, context=c)) for d, c, m in match]
        game.match_result({}, 4, results)

    took = best(args.repeat, whole_match) * 1000
    print()
    print(f"barbu, a 28-hand match ({moves} moves) replayed and scored: {took:.1f} ms")
    print(
        f"targets: every game >= {TARGET_MOVES:,} moves/s in both modes "
        f"({'met' if slowest >= TARGET_MOVES else 'NOT met'}: slowest {slowest:,.0f}); "
        f"the Barbù match <= {TARGET_MATCH_MS:.0f} ms ({'met' if took <= TARGET_MATCH_MS else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
