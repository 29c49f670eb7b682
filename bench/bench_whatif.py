"""Time the what-ifs (issue 28): a 28-hand Barbù match (and a match of each other game) scored again under
other options, and a league re-ranked under another precedence and re-scored under other game options,
beside the league's rebuild.

The matches are random legal play, imported into the database as a club imports a record file, and
timed as the API and the compare page ask (the stored results beside the what-if side), three times:
"cold", with no fold of the match kept in the process (the first what-if of the match in a worker: the
folds the service kept with the finished hands, HandFinal, serve where the options allow); "none kept",
with those set aside too (every hand folded from the log, as for a hand no fold was kept with); and
"kept", after one what-if of the match under its own options in the process (the hands' kept folds
scored again where the options differ only in score-only ones; folded again otherwise). Also as they
asked before issue 28's speed work (the match exported, parsed, folded twice) and as ``manage.py
rescore`` does with the file. The league is bench_standings.py's (one recorded round of Tarocchi copied
round after round). All of it on a throwaway database next to the one DATABASE_URL names (use
PostgreSQL: the targets are for it):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_whatif.py

``--sizes ""`` times the matches only.

Targets: a 28-hand match re-scored in at most 20 ms; a 10,000-match league re-ranked under another
precedence in at most 1 s; re-scored under other game options in at most the rebuild's time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_standings import League  # noqa: E402  (sets Django up)
from django.db import connection  # noqa: E402

from clubs.models import Club  # noqa: E402
from common.batch import gc_paused  # noqa: E402
from scoring import selectors, services  # noqa: E402
from scoring.hands import foldcache, whatif  # noqa: E402
from scoring.hands.fold import MoveEntry  # noqa: E402
from scoring.hands.records import export_match  # noqa: E402
from scoring.hands.whatif import rescore  # noqa: E402
from scoring.models import HandFinal  # noqa: E402
from scoring.rules import get_game  # noqa: E402
from segnapunti.celery import app as celery_app  # noqa: E402
from tournaments import projections  # noqa: E402
from tournaments.whatif import standings_whatif  # noqa: E402

# A match of each game (seats, hands, the options it is recorded with), and the options it is re-scored
# under: the first changes nothing (every hand stands); the others change only the scoring (score-only
# options: Barbù's only one says who deals next, which changes no score) or play (marked "play").
MATCHES: dict[str, tuple[int, int, dict[str, Any], list[dict[str, Any]]]] = {
    "barbu": (
        4,
        28,
        {},
        [
            {},
            {"dealer_rotation": "seven_in_a_row"},
            {"mp_trump_obligation": "must_trump"},
            {"early_end": "never"},
        ],
    ),
    # Played to 1,000 points: 28 deals.
    "tressette": (
        4,
        28,
        {"target": 1000},
        [{}, {"rounding": "traditional"}, {"declaration_window": "first_three_tricks"}],
    ),
    "tarocchi": (3, 12, {}, [{}, {"fuggitivo_last_trick": "lost"}, {"must_overtrump": True}]),
    "hombre_it": (3, 12, {}, [{}, {"stake": 2}, {"n_matadors": 3}]),
    "lhombre": (3, 12, {}, [{}, {"odd_chips": "integer"}, {"espadille_force": True}]),
}


def random_match(
    name: str, seats: int, hands: int, options: dict[str, Any], rng: random.Random
) -> dict[str, Any]:
    """A match record of up to `hands` random legal hands, each dealt with its match context (fewer when
    the match is over before)."""
    game = get_game(name)
    values = game.ruleset.validate(options)
    results: list[Any] = []
    played = []
    dealer = 0
    for _ in range(hands):
        state = game.initial_state(
            options, seats=seats, dealer=dealer, context=game.match_context(values, seats, results)
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
        if game.match_result(values, seats, results).finished:
            break
    return export_match(name, options, [f"P{i}" for i in range(seats)], "anticlockwise", played)


def timed(
    run: Callable[[], Any], repeat: int, setup: Callable[[], Any] | None = None
) -> tuple[float, float, float]:
    """The median and the max of `repeat` runs, in ms (one run first, not counted: the caches warm), and
    the median of this process's CPU time per run (on a loaded machine, wall time is mostly waiting for
    a core; CPU time leaves that out, and PostgreSQL's own time with it). `setup` runs before each run,
    untimed."""
    if setup:
        setup()
    run()
    timings, cpu = [], []
    for _ in range(repeat):
        if setup:
            setup()
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        timings.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(timings), max(timings), statistics.median(cpu)


def matches(repeat: int) -> None:
    """Each match imported as a club would (services.match_import), then compared as the API and the
    page do (selectors.match_rescore: the hands read from the log, the stored results beside one fold);
    as they did before (the match exported to a record, the record parsed and checked, folded twice);
    and as ``manage.py rescore`` does with the record file (parsed and checked, folded twice)."""
    columns = "".join(f" {c:>24}" for c in ("cold ms", "none kept ms", "kept ms", "before ms", "file ms"))
    print(f"{'match re-scored':<60} {'hands':>5} {'moves':>6}{columns}")
    print(f"{'':<60} {'':>5} {'':>6}" + f" {'median':>8}{'max':>8}{'cpu':>8}" * 5)
    rng = random.Random(1)
    club = Club.objects.create(name="What-if bench club")
    for name, (seats, hands, recorded, variants) in MATCHES.items():
        record = random_match(name, seats, hands, recorded, rng)
        match = services.match_import(club=club, record=record)
        played = len(record["hands"])
        moves = sum(len(h["moves"]) + 1 for h in record["hands"])
        game = get_game(name)
        values = game.ruleset.validate(recorded)
        for options in variants:
            run = partial(selectors.match_rescore, match, options)
            cold = timed(run, repeat, setup=_forget)
            folded = _unkept(match, partial(timed, run, repeat, setup=_forget))
            kept = timed(run, repeat, setup=partial(_kept, match))
            before = timed(partial(gc_paused()(_before), match, options), repeat)
            filed = timed(partial(gc_paused()(rescore), record, options), repeat)
            refused = selectors.match_rescore(match, options)["refused"]
            play = game.play_changes(values, game.ruleset.validate({**recorded, **options}))
            shown = f"{name} {json.dumps(options)}" + (" play" if play else "")
            if refused:
                shown += f" (refused: hand {refused['hand']})"
            timings = (cold, folded, kept, before, filed)
            cells = "".join(f" {t[0]:>8.1f}{t[1]:>8.1f}{t[2]:>8.1f}" for t in timings)
            print(f"{shown:<60} {played:>5} {moves:>6}{cells}")


def _forget() -> None:
    """No fold of any hand kept in this process: neither a what-if's nor the recording's."""
    whatif.forget()
    foldcache.clear()


def _unkept(match: Any, timing: Callable[[], tuple[float, float, float]]) -> tuple[float, float, float]:
    """`timing` with the folds the service keeps with the match's finished hands (HandFinal) set aside:
    every hand folded from the log, as when none was kept (put back after)."""
    rows = list(HandFinal.objects.filter(hand__match=match))
    HandFinal.objects.filter(hand__match=match).delete()
    try:
        return timing()
    finally:
        HandFinal.objects.bulk_create(rows)


def _kept(match: Any) -> None:
    """The match's hands folded once by a what-if under its own options, and kept."""
    _forget()
    selectors.match_rescore(match, {})


def _before(match: Any, options: dict[str, Any]) -> dict[str, Any]:
    """What selectors.match_rescore did before: the match as a record file, compared as the file is."""
    return rescore(selectors.match_export(match), options)


def league(sizes: tuple[int, ...], turns: int) -> None:
    """At each size, in turn (`turns` times, so that the load of a shared machine falls on both alike):
    the rebuild, the what-if under another precedence, the what-if under other Tarocchi options."""
    print(f"\ndatabase: {connection.vendor}; the league of bench_standings.py")
    heads = f"{'rebuild s (cpu)':>16} {'other precedence s':>19} {'other options s (cpu)':>22}"
    print(f"{'matches':>8} {heads} {'moved':>6}")
    built = League()
    for size in sizes:
        built.grow_to(size)
        for _ in range(turns):
            start, start_cpu = time.perf_counter(), time.process_time()
            projections.standings_rebuild(tournament_id=built.t.pk)
            rebuild, rebuild_cpu = time.perf_counter() - start, time.process_time() - start_cpu
            start = time.perf_counter()
            ranked = standings_whatif(built.t, {"tiebreaks": ["average_rank", "total", "lot"]})
            precedence = time.perf_counter() - start
            start, start_cpu = time.perf_counter(), time.process_time()
            standings_whatif(built.t, {"game_options": {"tarocchi": {"fuggitivo_last_trick": "lost"}}})
            options, options_cpu = time.perf_counter() - start, time.process_time() - start_cpu
            print(
                f"{built.matches:>8} {rebuild:>8.2f} ({rebuild_cpu:>5.2f}) {precedence:>19.3f} "
                f"{options:>14.2f} ({options_cpu:>5.2f}) {ranked['moved']:>6}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed re-scorings of each match")
    parser.add_argument(
        "--sizes", default="100,1000,10000", help="league sizes in matches (empty: the matches only)"
    )
    parser.add_argument("--turns", type=int, default=2, help="league timings at each size, in turn")
    args = parser.parse_args()
    celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = True
    with tempfile.TemporaryDirectory() as tmp:
        if connection.vendor == "sqlite":
            connection.settings_dict["TEST"]["NAME"] = str(Path(tmp) / "bench.sqlite3")
        db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
            print(f"database: {connection.vendor}; load average {load}")
            matches(args.repeat)
            if args.sizes:
                league(tuple(int(s) for s in args.sizes.split(",")), args.turns)
        finally:
            connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
