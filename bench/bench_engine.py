"""Time the rule engine: how fast each game plays and replays a hand, and how much memory a replay holds.

Pure Python, no database. For each game it deals and plays random legal hands (the cost of asking
``legal_moves`` and then ``apply`` at every step, as the table page does), then folds the same hands
again with ``replay`` (the cost of every projection read), and measures the peak memory of one replay
that keeps every intermediate state (what the replay viewer asks for):

    .venv/bin/python bench/bench_engine.py [--hands 200] [--seed 1]
"""

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.rules import game_names, get_game, replay  # noqa: E402
from scoring.rules.moves import Move  # noqa: E402


def play(game: Any, rng: random.Random, seats: int) -> tuple[int, list[Move]]:
    dealer = rng.randrange(seats)
    state = game.initial_state(None, seats=seats, dealer=dealer)
    deal = game.random_deal(state, rng)
    moves: list[Move] = [deal]
    state = game.apply(state, deal).state
    while not state.over:
        move = rng.choice(game.legal_moves(state))
        state = game.apply(state, move).state
        moves.append(move)
    return dealer, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="random hands per game and seat count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    header = ("game", "hands", "moves", "play hands/s", "replay moves/s", "peak KiB")
    print(f"{header[0]:<18} {header[1]:>6} {header[2]:>7} {header[3]:>13} {header[4]:>15} {header[5]:>9}")
    for name in game_names():
        game = get_game(name)
        for seats in game.seat_counts:
            rng = random.Random(args.seed)
            start = time.perf_counter()
            hands = [play(game, rng, seats) for _ in range(args.hands)]
            played = time.perf_counter() - start
            count = sum(len(m) for _, m in hands)
            start = time.perf_counter()
            for dealer, moves in hands:
                replay(game, moves, seats=seats, dealer=dealer)
            folded = time.perf_counter() - start
            longest = max(hands, key=lambda h: len(h[1]))
            tracemalloc.start()
            replay(game, longest[1], seats=seats, dealer=longest[0])
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            label = f"{name} ({seats})"
            print(
                f"{label:<18} {args.hands:>6} {count:>7} {args.hands / played:>13.0f} "
                f"{count / folded:>15.0f} {peak / 1024:>9.0f}"
            )


if __name__ == "__main__":
    main()
