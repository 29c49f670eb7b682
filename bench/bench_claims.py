"""Time the claim solver (issue 26): random positions per game at 3, 5, 7 and 9 tricks left.

Pure Python, no database, one core. For each game (Tressette at 4 and at 3, Barbù's trick contracts,
Italian Hombre, L'Hombre, Tarocchi) and each number of tricks left it plays random hands up to a claim,
makes a random claim in the game's own terms (all the rest, or a split: some hold, some fail) and times
the whole answer (verdict, best and careless values, the line). It prints the mean, p50, p99 and max in
milliseconds of wall-clock time, the p99 of the process's CPU time (what the answer cost on its core, less
disturbed by other work on a shared machine), the mean and max nodes and the verdicts ("undecided": the
budget ran out before the verdict):

    .venv/bin/python bench/bench_claims.py [COUNT] [--tricks 3,5,7,9] [--games ...] [--seed 1] [--budget 2]

Targets: at most 5 tricks left p99 <= 20 ms; at most 7 tricks left p99 <= 250 ms; whole hands within the
budget (answers beyond it are "undecided", counted here).
"""

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.rules import get_game  # noqa: E402
from scoring.rules.claims import question, random_claim, random_position, solve  # noqa: E402

GAMES = {
    "tressette4": ("tressette", 4),
    "tressette3": ("tressette", 3),
    "barbu": ("barbu", 4),
    "hombre_it": ("hombre_it", 3),
    "lhombre": ("lhombre", 3),
    "tarocchi": ("tarocchi", 3),
}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=1000, help="positions per game and trick count")
    parser.add_argument("--tricks", default="3,5,7,9")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=2.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(
        f"{'game':<11} {'tricks':>6} {'n':>5} {'mean':>8} {'p50':>8} {'p99':>8} {'max':>8} "
        f"{'cpu p99':>8} {'nodes':>8} {'max nodes':>9}  verdicts"
    )
    for key in args.games.split(","):
        name, seats = GAMES[key]
        game = get_game(name)
        for tricks in (int(t) for t in args.tricks.split(",")):
            times: list[float] = []
            cpu: list[float] = []
            nodes: list[int] = []
            verdicts: Counter[str] = Counter()
            while len(times) < args.count:
                found = random_position(game, rng, tricks_left=tricks, seats=seats)
                if found is None:
                    continue
                state, _moves = found
                q = question(game, state, random_claim(game, state, rng))
                start, start_cpu = time.perf_counter(), time.process_time()
                answer = solve(q, budget=args.budget)
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
                nodes.append(answer["nodes"])
                verdicts[answer["verdict"]] += 1
            print(
                f"{key:<11} {tricks:>6} {len(times):>5} {statistics.fmean(times):>8.2f} "
                f"{percentile(times, 0.5):>8.2f} {percentile(times, 0.99):>8.2f} {max(times):>8.2f} "
                f"{percentile(cpu, 0.99):>8.2f} "
                f"{statistics.fmean(nodes):>8.0f} {max(nodes):>9}  "
                + " ".join(f"{v}={c}" for v, c in sorted(verdicts.items())),
                flush=True,
            )


if __name__ == "__main__":
    main()
