"""Time the opening of a round, and what it costs every other club:

1. a 40-player round opening, its seating kept since the registrations (as a worker plans it): p95 of
   ``round_open`` over several tournaments, beside the planning itself;
2. another club's moves (single appends to the log, each its own transaction, as a table records a
   move) while a round of 2,000 players opens: p99 and worst wait, beside the same moves with no round
   opening; the figure that matters is on PostgreSQL, where appends take the log's ordering lock;
3. the planner alone at 40, 2,000 and 10,000 players (the rounds ahead as ``round_open`` plans them);
4. a registration at 10 and at 10,000 players registered (the request, with a broker: the ranking is
   the worker's, timed beside it).

Runs against a throwaway test database created next to the one DATABASE_URL names:

    .venv/bin/python bench/bench_round_open.py [--tournaments 20] [--big 2000] [--huge 10000]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/seg_bench .venv/bin/python bench/bench_round_open.py
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ.setdefault("DEBUG", "false")  # as in production: no query log
os.environ.setdefault("SECRET_KEY", "bench-only")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, connections, transaction  # noqa: E402

from clubs.models import Club, Membership, Player  # noqa: E402
from scoring.log import store  # noqa: E402
from scoring.log.events import HandStarted, MoveRecorded  # noqa: E402
from segnapunti.celery import app as celery_app  # noqa: E402
from tournaments import projections, services  # noqa: E402
from tournaments.models import Registration, Tournament  # noqa: E402
from tournaments.plan.seating import plan_seating  # noqa: E402

ROUNDS = 6  # rounds planned for each tournament


def quantile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def club_with(n: int, tag: str) -> tuple[Club, Any]:
    club = Club.objects.create(name=f"Circolo {tag}")
    director = get_user_model().objects.create_user(username=f"director-{tag}")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    Player.objects.bulk_create([Player(club=club, name=f"Giocatore {tag} {i}") for i in range(n)])
    return club, director


def tournament_with(n: int, tag: str, game: str = "barbu") -> tuple[Tournament, Any]:
    """A tournament with n players registered (the rows written at once: the set-up is not timed)."""
    club, director = club_with(n, tag)
    t = services.tournament_create(
        club=club, name=f"Torneo {tag}", games=[game], rounds_planned=ROUNDS, actor=director, seed=7
    )
    Registration.objects.bulk_create([Registration(tournament=t, player=p) for p in club.players.all()])
    with transaction.atomic():
        projections.standings_refresh(t)
    return t, director


def round_openings(count: int) -> dict[str, float]:
    planning, opening = [], []
    for i in range(count):
        t, director = tournament_with(40, f"q{i}")
        start = time.perf_counter()
        services.seating_prepare(tournament_id=t.pk)  # the worker's turn after the registrations
        planning.append(time.perf_counter() - start)
        t.refresh_from_db()
        start = time.perf_counter()
        services.round_open(tournament=t, expected_version=t.version, actor=director)
        opening.append(time.perf_counter() - start)
    return {
        "open_p50": statistics.median(opening),
        "open_p95": quantile(opening, 95),
        "plan_p50": statistics.median(planning),
        "plan_max": max(planning),
    }


def other_club_moves(stop: Any, out: Any, tag: str) -> None:
    """Another club's table, in a process of its own (as another web worker would be, with no share of
    this one's interpreter lock): one move appended at a time, each its own transaction."""
    waits: list[float] = []
    try:
        n = 0
        while not stop.is_set():
            stream, version = f"other-club-{tag}-{n // 40}", n % 40
            start = time.perf_counter()
            if version == 0:
                started = HandStarted(game="tressette", options={}, seats=("a", "b", "c", "d"), dealer=0)
                store.append(stream, [started], expected_version=0)
            else:
                played = MoveRecorded(move={"type": "play", "seat": n % 4, "card": "1C"})
                store.append(stream, [played], expected_version=version)
            waits.append(time.perf_counter() - start)
            n += 1
            time.sleep(0.002)
    finally:
        connection.close()
        out.put(waits)


def _watched(tag: str, work: Any) -> list[float]:
    """Run ``work`` while another club records moves; the waits of its moves."""
    connections.close_all()  # the child must not share this process's connection
    stop = multiprocessing.Event()
    out: multiprocessing.Queue[list[float]] = multiprocessing.Queue()
    other = multiprocessing.Process(target=other_club_moves, args=(stop, out, tag))
    other.start()
    time.sleep(0.5)
    try:
        work()
    finally:
        stop.set()
    waits: list[float] = out.get()
    other.join()
    return waits


def big_round(players: int) -> dict[str, float]:
    t, director = tournament_with(players, "big")
    services.seating_prepare(tournament_id=t.pk)
    t.refresh_from_db()
    quiet = _watched("quiet", lambda: time.sleep(3))
    elapsed: list[float] = []

    def open_it() -> None:
        start = time.perf_counter()
        services.round_open(tournament=t, expected_version=t.version, actor=director)
        elapsed.append(time.perf_counter() - start)

    during = _watched("during", open_it)
    return {
        "open_seconds": elapsed[0],
        "quiet_p99": quantile(quiet, 99),
        "during_p99": quantile(during, 99),
        "during_max": max(during),
        "moves": len(during),
    }


def planner(sizes: list[int]) -> list[tuple[int, int, float, float, int]]:
    out = []
    for n in sizes:
        rounds = max(1, min(ROUNDS, services.PLAN_SEATS // n))
        plan = plan_seating(
            players=list(range(n)),
            table_sizes=(4,),
            rounds=rounds,
            seed=1,
            budget_seconds=settings.SEATING_BUDGET_SECONDS,
        )
        out.append((n, rounds, plan.seconds, settings.SEATING_BUDGET_SECONDS, plan.repeats))
    return out


def registration(players: int) -> tuple[float, float]:
    """A registration's request (the ranking queued for a worker), and the worker's ranking."""
    t, director = tournament_with(players, f"reg{players}")
    late = Player.objects.create(club=t.club, name=f"Ritardatario {players}")
    settings.CELERY_TASK_ALWAYS_EAGER = False
    celery_app.conf.task_always_eager = False  # queued to the in-memory broker: nobody runs it here
    try:
        t.refresh_from_db()
        start = time.perf_counter()
        done = services.player_register(tournament=t, player=late, expected_version=t.version, actor=director)
        request = time.perf_counter() - start
    finally:
        settings.CELERY_TASK_ALWAYS_EAGER = True
        celery_app.conf.task_always_eager = True
    start = time.perf_counter()
    projections.standings_registered(tournament_id=t.pk, registration_id=done.pk)
    return request, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=20, help="40-player round openings timed")
    parser.add_argument("--big", type=int, default=2000, help="players of the round other clubs wait on")
    parser.add_argument("--huge", type=int, default=10000, help="the largest planner and registration case")
    args = parser.parse_args()
    if settings.CELERY_BROKER_URL != "memory://":
        sys.exit("run without CELERY_BROKER_URL: the bench queues to the in-memory broker")
    with tempfile.TemporaryDirectory() as tmp:
        if connection.vendor == "sqlite":
            connection.settings_dict["TEST"]["NAME"] = str(Path(tmp) / "bench.sqlite3")
        db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            print(f"database: {connection.vendor}; planner budget {settings.SEATING_BUDGET_SECONDS:g} s")
            print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            opened = round_openings(args.tournaments)
            print(
                f"40-player round, seating kept: open p50 {opened['open_p50'] * 1000:.0f} ms, "
                f"p95 {opened['open_p95'] * 1000:.0f} ms (planning ahead p50 {opened['plan_p50']:.2f} s, "
                f"max {opened['plan_max']:.2f} s, {args.tournaments} tournaments)",
                flush=True,
            )
            big = big_round(args.big)
            print(
                f"{args.big}-player round opened in {big['open_seconds']:.1f} s; another club's moves: "
                f"p99 {big['during_p99'] * 1000:.1f} ms, worst {big['during_max'] * 1000:.1f} ms "
                f"over {big['moves']} moves (quiet p99 {big['quiet_p99'] * 1000:.1f} ms)",
                flush=True,
            )
            for n, rounds, seconds, budget, repeats in planner([40, args.big, args.huge]):
                print(
                    f"planner, {n} players at 4 for {rounds} rounds: {seconds:.2f} s "
                    f"(budget {budget:g} s), {repeats} repeats",
                    flush=True,
                )
            for n in (10, args.huge):
                request, worker = registration(n)
                print(
                    f"registration at {n} players: request {request * 1000:.1f} ms; "
                    f"worker's ranking {worker * 1000:.0f} ms",
                    flush=True,
                )
            print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        finally:
            connections.close_all()
            connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
