"""Time the seating planner: the design cases (where a seating with no repeated meeting exists), then a
sweep of evenings from 6 to 60 players at tables of 3 and of 4, each printed with the repeats found, the
lower bound and the time. Pure Python, no database:

    .venv/bin/python bench/bench_seating.py [--budget 9] [--sweep-budget 2] [--rounds 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.plan.seating import plan_seating  # noqa: E402

DESIGNS = ((15, 3, 7), (16, 4, 5), (32, 4, 9), (9, 3, 4), (21, 3, 10))


def line(n: int, sizes: tuple[int, ...], rounds: int, seed: int, budget: float) -> str:
    start = time.perf_counter()
    plan = plan_seating(
        players=list(range(n)), table_sizes=sizes, rounds=rounds, seed=seed, budget_seconds=budget
    )
    elapsed = time.perf_counter() - start
    size = ",".join(str(s) for s in sizes)
    out = sum(len(r.sit_outs) for r in plan.rounds)
    return (
        f"{n:>7} {size:>5} {rounds:>6} {plan.repeats:>7} {plan.lower_bound:>7} {out:>8} {elapsed:>8.2f} "
        f"{'yes' if plan.optimal else 'no':>8}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--budget", type=float, default=9.0, help="seconds per design case")
    parser.add_argument("--sweep-budget", type=float, default=2.0, help="seconds per sweep case")
    parser.add_argument("--rounds", type=int, default=6, help="rounds of each sweep evening")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = ("players", "table", "rounds", "repeats", "bound", "sit-outs", "seconds", "at bound")
    header = " ".join(f"{name:>{width}}" for name, width in zip(names, (7, 5, 6, 7, 7, 8, 8, 8), strict=True))
    print("design cases")
    print(header)
    for n, k, r in DESIGNS:
        print(line(n, (k,), r, args.seed, args.budget), flush=True)
    print(f"\nsweep: {args.rounds} rounds, {args.sweep_budget:g} s budget each")
    print(header)
    for n in range(6, 61):
        for sizes in ((3,), (4,)):
            print(line(n, sizes, args.rounds, args.seed, args.sweep_budget), flush=True)


if __name__ == "__main__":
    main()
