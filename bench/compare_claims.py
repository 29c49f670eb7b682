"""Compare the claim solver with an earlier version of itself on the same positions (issue 26).

Both versions are loaded in one process and run one after the other on each position, so that the load of
a shared machine falls on both alike. The answers must be identical (verdict, ``best``, ``careless``, the
bounds, the line and what it gives: all but the nodes and the time), and the new line, replayed through the
engine, must give what the new answer says it gives. The script prints, per game and number of tricks left,
the nodes and the CPU seconds of the whole set:

    .venv/bin/python bench/compare_claims.py OLD.py [COUNT] [--tricks 5,7] [--games ...] [--seed 7]

``OLD.py``: the earlier ``scoring/rules/claims.py``, e.g. ``git show main:scoring/rules/claims.py > old.py``.
"""

import argparse
import gc
import importlib.util
import random
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_claims import GAMES  # noqa: E402  (the games and seat counts bench_claims.py times)

from scoring.rules import claims as new  # noqa: E402
from scoring.rules import get_game  # noqa: E402
from scoring.rules.claims import play_line, random_claim, random_position, result_value  # noqa: E402

EFFORT = ("nodes", "elapsed_ms")  # what may differ between two versions giving the same answer


def same(a: dict[str, object], b: dict[str, object]) -> bool:
    return {k: v for k, v in a.items() if k not in EFFORT} == {k: v for k, v in b.items() if k not in EFFORT}


def load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("scoring.rules._claims_old", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("count", nargs="?", type=int, default=40)
    parser.add_argument("--tricks", default="5,7")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    old = load(args.old)
    rng = random.Random(args.seed)
    print(
        f"{'game':<11} {'tricks':>6} {'n':>4} {'nodes old':>10} {'nodes new':>10} "
        f"{'cpu old':>8} {'cpu new':>8}"
    )
    differ = 0
    for key in args.games.split(","):
        name, seats = GAMES[key]
        game = get_game(name)
        for tricks in (int(t) for t in args.tricks.split(",")):
            n = nodes_old = nodes_new = 0
            cpu_old = cpu_new = 0.0
            while n < args.count:
                found = random_position(game, rng, tricks_left=tricks, seats=seats)
                if found is None:
                    continue
                state, _moves = found
                claim = random_claim(game, state, rng)
                answers = []
                questions = []
                for module in (old, new):
                    q = module.question(game, state, claim)
                    questions.append(q)
                    gc.collect()
                    start = time.process_time()
                    answer = module.solve(q, budget=1e9)
                    spent = time.process_time() - start
                    answers.append((answer, spent))
                (a, ta), (b, tb) = answers
                if "line" in b:
                    end = play_line(game, state, b["line"])
                    if not end.over or result_value(game, state, end, questions[1]) != b["line_result"]:
                        print("LINE DOES NOT REPLAY", key, tricks, n, flush=True)
                        differ += 1
                if not same(a, b):
                    differ += 1
                    print(
                        "DIFFERENT",
                        key,
                        tricks,
                        n,
                        a["verdict"],
                        a["best"],
                        a["careless"],
                        "->",
                        b["verdict"],
                        b["best"],
                        b["careless"],
                        flush=True,
                    )
                nodes_old += a["nodes"]
                nodes_new += b["nodes"]
                cpu_old += ta
                cpu_new += tb
                n += 1
            print(
                f"{key:<11} {tricks:>6} {n:>4} {nodes_old:>10,} {nodes_new:>10,} "
                f"{cpu_old:>8.2f} {cpu_new:>8.2f}",
                flush=True,
            )
    print("different answers:", differ)
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
