"""Time the what-ifs (issue 28): a 28-hand Barbù match (and a match of each other game) scored again under
other options, and a league re-ranked under another precedence and re-scored under other game options,
beside the league's rebuild.

The matches are random legal play (pure Python, no database). The league is bench_standings.py's (one
recorded round of Tarocchi copied round after round), on a throwaway database next to the one
DATABASE_URL names (use PostgreSQL: the targets are for it):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_whatif.py

Targets: a 28-hand match re-scored in at most 20 ms; a 10,000-match league re-ranked under another
precedence in at most 1 s; re-scored under other game options in at most the rebuild's time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_standings import League  # noqa: E402  (sets Django up)
from django.db import connection  # noqa: E402

from scoring.hands.fold import MoveEntry  # noqa: E402
from scoring.hands.records import export_match  # noqa: E402
from scoring.hands.whatif import rescore  # noqa: E402
from scoring.rules import get_game  # noqa: E402
from segnapunti.celery import app as celery_app  # noqa: E402
from tournaments import projections  # noqa: E402
from tournaments.whatif import standings_whatif  # noqa: E402

# A match of each game, and the options it is re-scored under (each changes scores or play).
MATCHES: dict[str, tuple[int, int, dict[str, Any]]] = {
    "barbu": (4, 28, {"early_end": "never"}),
    "tressette": (4, 12, {"rounding": "traditional"}),
    "tarocchi": (3, 12, {"fuggitivo_last_trick": "lost"}),
    "hombre_it": (3, 12, {"stake": 2}),
    "lhombre": (3, 12, {"odd_chips": "integer"}),
}


def random_match(name: str, seats: int, hands: int, rng: random.Random) -> dict[str, Any]:
    """A match record of random legal hands, each dealt with its match context."""
    game = get_game(name)
    values = game.ruleset.validate({})
    results: list[Any] = []
    played = []
    dealer = 0
    for _ in range(hands):
        state = game.initial_state(
            {}, seats=seats, dealer=dealer, context=game.match_context(values, seats, results)
        )
        deal = game.random_deal(state, rng)
        moves: list[Any] = [deal]
        state = game.apply(state, deal).state
        while not state.over:
            move = rng.choice(game.legal_moves(state))
            moves.append(move)
            state = game.apply(state, move).state
        result = game.result(state)
        results.append(result)
        played.append((dealer, [MoveEntry(i, m) for i, m in enumerate(moves)]))
        dealer = game.next_dealer(values, seats, dealer, result)
    return export_match(name, {}, [f"P{i}" for i in range(seats)], "anticlockwise", played)


def matches(repeat: int) -> None:
    print(f"{'match re-scored':<34} {'hands':>5} {'median ms':>10} {'max ms':>8}")
    rng = random.Random(1)
    for name, (seats, hands, options) in MATCHES.items():
        record = random_match(name, seats, hands, rng)
        timings = []
        for _ in range(repeat):
            start = time.perf_counter()
            rescore(record, options)
            timings.append((time.perf_counter() - start) * 1000)
        shown = f"{name} {options}"
        print(f"{shown:<34} {hands:>5} {statistics.median(timings):>10.1f} {max(timings):>8.1f}")


def league(sizes: tuple[int, ...]) -> None:
    print(f"\ndatabase: {connection.vendor}; the league of bench_standings.py")
    print(f"{'matches':>8} {'rebuild s':>10} {'other precedence s':>19} {'other options s':>16} {'moved':>6}")
    built = League()
    for size in sizes:
        built.grow_to(size)
        start = time.perf_counter()
        projections.standings_rebuild(tournament_id=built.t.pk)
        rebuild = time.perf_counter() - start
        start = time.perf_counter()
        ranked = standings_whatif(built.t, {"tiebreaks": ["average_rank", "total", "lot"]})
        precedence = time.perf_counter() - start
        start = time.perf_counter()
        standings_whatif(built.t, {"game_options": {"tarocchi": {"fuggitivo_last_trick": "lost"}}})
        options = time.perf_counter() - start
        print(
            f"{built.matches:>8} {rebuild:>10.2f} {precedence:>19.3f} {options:>16.2f} {ranked['moved']:>6}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed re-scorings of each match")
    parser.add_argument("--sizes", default="100,1000,10000", help="league sizes in matches")
    args = parser.parse_args()
    matches(args.repeat)
    celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = True
    with tempfile.TemporaryDirectory() as tmp:
        if connection.vendor == "sqlite":
            connection.settings_dict["TEST"]["NAME"] = str(Path(tmp) / "bench.sqlite3")
        db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            league(tuple(int(s) for s in args.sizes.split(",")))
        finally:
            connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
