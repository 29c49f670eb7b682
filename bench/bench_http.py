"""Time recording over HTTP as a club night does it: gunicorn (2 workers of 4 threads each, as
`make serve` runs it) serving the API on PostgreSQL, and N tables recording at once, each a scorer
posting one legal move after the other (the deal first, then every call and card, the next hand when
one ends). Prints the moves recorded per second and the latency of a move (median, p99) for each
number of tables.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_http.py \\
        [--tables 4,32] [--seconds 20] [--workers 2] [--threads 4]

It creates a throwaway database next to the one DATABASE_URL names and drops it at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("HTTPS", "false")  # gunicorn is reached in plain HTTP on loopback here

import django  # noqa: E402

django.setup()

from django.db import connection, connections  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from clubs.models import Club, Membership, Player  # noqa: E402
from scoring.rules import get_game, move_to_dict  # noqa: E402
from scoring.rules.moves import Move  # noqa: E402
from scoring.services import match_create  # noqa: E402

GAME = "tressette"


def database_url(db: dict[str, Any]) -> str:
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    """One scorer's connection to the server, kept alive between moves as a browser keeps it."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        headers = {"Content-Type": "application/json", "Authorization": f"Token {self.token}"}
        for attempt in range(2):
            try:
                self.conn.request("POST", path, json.dumps(body), headers)
                response = self.conn.getresponse()
                return response.status, json.loads(response.read() or b"{}")
            except (http.client.HTTPException, ConnectionError):
                if attempt:
                    raise
                self.conn.close()  # the server closed an idle connection: open another
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        raise AssertionError("unreachable")


class Table(threading.Thread):
    """A scorer at one table: plays the hand on the engine here and posts every move."""

    def __init__(self, port: int, token: str, match_id: int, seed: int, until: float) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.match_id, self.until = port, token, match_id, until
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.game = get_game(GAME)
        self.client = Client(port, token)

    def run(self) -> None:
        number, version, dealer = 1, 1, 0
        while time.monotonic() < self.until:
            state = self.game.initial_state({}, seats=4, dealer=dealer)
            move: Move = self.game.random_deal(state, self.rng)
            while True:
                started = time.perf_counter()
                status, body = self.client.post(
                    f"/api/matches/{self.match_id}/hands/{number}/moves/",
                    {"move": move_to_dict(move), "expected_version": version},
                )
                self.latencies.append(time.perf_counter() - started)
                if status != 201:
                    self.errors.append(f"{status} {body}")
                    return
                version = body["version"]
                state = self.game.apply(state, move).state
                if state.over or time.monotonic() >= self.until:
                    break
                move = self.rng.choice(self.game.legal_moves(state))
            if time.monotonic() >= self.until:
                return
            status, body = self.client.post(f"/api/matches/{self.match_id}/hands/", {})
            if status != 201:  # the match is over: the next table's evening starts
                return
            number, version, dealer = body["number"], body["version"], body["dealer"]


def run_load(port: int, token: str, club: Club, players: list[Player], tables: int, seconds: float) -> str:
    matches = [
        match_create(club=club, game=GAME, seats=players[i % 3 : i % 3 + 4], options={"target": 1000})
        for i in range(tables)
    ]
    connections.close_all()
    until = time.monotonic() + seconds
    workers = [Table(port, token, m.pk, seed=i, until=until) for i, m in enumerate(matches)]
    started = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - started
    latencies = [x for w in workers for x in w.latencies]
    errors = [e for w in workers for e in w.errors]
    if errors:
        return f"{tables:>6} tables: {len(errors)} errors, first: {errors[0][:200]}"
    p99 = statistics.quantiles(latencies, n=100)[98] * 1000
    median = statistics.median(latencies) * 1000
    return f"{tables:>6} {len(latencies):>8} {len(latencies) / elapsed:>10.0f} {median:>10.1f} {p99:>10.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", default="1,4,32", help="how many tables record at once, in turn")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each load lasts")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker (gthread)")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("note: the targets are for PostgreSQL; this runs on", connection.vendor)
    db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    server = None
    try:
        club = Club.objects.create(name="Bench club")
        from django.contrib.auth.models import User

        scorer = User.objects.create(username="bench-director")
        Membership.objects.create(club=club, user=scorer, role=Membership.Role.DIRECTOR)
        token = Token.objects.create(user=scorer).key
        players = [Player.objects.create(club=club, name=f"Player {i}") for i in range(8)]
        port = free_port()
        db = connection.settings_dict
        env = {
            **os.environ,
            "DATABASE_URL": database_url(db),
            "ALLOWED_HOSTS": "127.0.0.1",
            "DEBUG": "false",
            "LOG_LEVEL": "WARNING",
        }
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "segnapunti.wsgi",
                "--workers",
                str(args.workers),
                "--bind",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        workers = f"{args.workers} workers x {args.threads} threads"
        print(f"gunicorn, {workers}, {connection.vendor}; {GAME}, {args.seconds:g} s a load")
        print(f"{'tables':>6} {'moves':>8} {'moves/s':>10} {'median ms':>10} {'p99 ms':>10}")
        for tables in (int(t) for t in args.tables.split(",")):
            print(run_load(port, token, club, players, tables, args.seconds), flush=True)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        connections.close_all()
        connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
