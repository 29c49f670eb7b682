"""The processor a move costs the web worker, measured in one process: moves posted to the real WSGI
application (every middleware, DRF, the service, psycopg's client side), as gunicorn calls it, one
after the other at a few tables, on PostgreSQL (or SQLite). No HTTP server, no threads: what is left is
the worker's own work per move, which a shared machine's load changes far less than a rate.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME .venv/bin/python bench/profile_move.py \\
        [--moves 400] [--warmup 40] [--tables 4] [--profile FILE] [--queries]

The database named must be migrated (``manage.py migrate``); each run adds a club, a director with a
token and its tables to it. Prints the worker's processor time per move (user + system, from
``time.process_time``) and its PostgreSQL backend's (from /proc), the statements Django sent per move,
and the load average. ``--profile FILE`` runs cProfile with a processor-time timer over the measured
moves and writes its statistics to FILE (``python -m pstats FILE``); ``--queries`` prints each
statement of one move. For instructions, count two sizes under callgrind and take the difference:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p \\
        .venv/bin/python bench/profile_move.py --moves 40 --warmup 40
    (the same with --moves 0; the difference is 40 moves)

Counting the statements installs an execute wrapper, and with one the store makes a new wrapped cursor
for each statement instead of using the ones it keeps (so that Django sees each): ``--bare`` counts
none and runs the moves as gunicorn does.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import io
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("HTTPS", "false")
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.db import connection, connections  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from clubs.models import Club, Membership, Player  # noqa: E402
from scoring.rules import get_game, move_to_dict  # noqa: E402
from scoring.services import match_create  # noqa: E402

GAME = "tressette"


class Table:
    """A scorer at one table: plays the hand on the engine here and posts each move in turn."""

    def __init__(self, app: Any, token: str, match_id: int, seed: int, server: str = "") -> None:
        self.app, self.token, self.match_id = app, token, match_id
        host, _, port = server.partition(":")
        self.server = http.client.HTTPConnection(host, int(port), timeout=30) if server else None
        self.rng = random.Random(seed)
        self.game = get_game(GAME)
        self.number, self.version, self.dealer = 1, 1, 0
        self.state: Any = None
        self.move: Any = None

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        raw = json.dumps(body).encode()
        if self.server is not None:
            headers = {"Content-Type": "application/json", "Authorization": f"Token {self.token}"}
            self.server.request("POST", path, raw, headers)
            response = self.server.getresponse()
            return response.status, json.loads(response.read() or b"{}")
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": path,
            "SCRIPT_NAME": "",
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1",
            "HTTP_AUTHORIZATION": f"Token {self.token}",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(raw)),
            "wsgi.input": io.BytesIO(raw),
            "wsgi.errors": sys.stderr,
            "wsgi.url_scheme": "http",
            "wsgi.version": (1, 0),
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        answer: list[str] = []
        chunks = self.app(environ, lambda status, headers, exc_info=None: answer.append(status))
        content = b"".join(chunks)
        if hasattr(chunks, "close"):
            chunks.close()
        return int(answer[0].split()[0]), json.loads(content or b"{}")

    def step(self) -> None:
        """Post the next move (starting the next hand first when the last one ended)."""
        if self.state is None:
            self.state = self.game.initial_state({}, seats=4, dealer=self.dealer)
            self.move = self.game.random_deal(self.state, self.rng)
        path = f"/api/matches/{self.match_id}/hands/{self.number}/moves/"
        code, body = self.post(path, {"move": move_to_dict(self.move), "expected_version": self.version})
        if code != 201:
            raise SystemExit(f"move refused: {code} {body}")
        self.version = body["version"]
        self.state = self.game.apply(self.state, self.move).state
        if not self.state.over:
            self.move = self.rng.choice(self.game.legal_moves(self.state))
            return
        code, body = self.post(f"/api/matches/{self.match_id}/hands/", {})
        if code != 201:
            raise SystemExit(f"next hand refused: {code} {body}")
        self.number, self.version, self.dealer = body["number"], body["version"], body["dealer"]
        self.state = None


def backend_seconds(pid: int) -> float:
    """Processor time (user + system) used so far by a PostgreSQL backend on this machine; 0 if unknown."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--moves", type=int, default=400, help="moves measured")
    parser.add_argument("--warmup", type=int, default=40, help="moves posted before measuring")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--profile", default="", help="write cProfile's statistics (processor time) here")
    parser.add_argument("--server", default="", help="HOST:PORT: post to this server instead, over HTTP")
    parser.add_argument("--server-pids", default="", help="the server's processes, for their processor time")
    parser.add_argument("--queries", action="store_true", help="print the statements of one move")
    parser.add_argument(
        "--bare",
        action="store_true",
        help="count no statements: no execute wrapper, which makes the store (and anything else that"
        " keeps its cursors) make new wrapped ones for Django to see each statement; with it the moves"
        " run as under gunicorn",
    )
    args = parser.parse_args()

    club = Club.objects.create(name=f"Profile club {time.time_ns()}")
    user = User.objects.create(username=f"profile-{time.time_ns()}")
    Membership.objects.create(club=club, user=user, role=Membership.Role.DIRECTOR)
    token = Token.objects.create(user=user).key
    players = [Player.objects.create(club=club, name=f"Player {i}") for i in range(4)]
    matches = [
        match_create(club=club, game=GAME, seats=players, options={"target": 10000}).pk
        for _ in range(args.tables)
    ]
    connections.close_all()
    app = get_wsgi_application()
    tables = [Table(app, token, m, seed=i, server=args.server) for i, m in enumerate(matches)]
    for i in range(args.warmup):
        tables[i % len(tables)].step()
    if args.queries:
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as seen:
            tables[0].step()
        for query in seen.captured_queries:
            print(query["sql"][:300])
    connection.ensure_connection()
    backend = connection.connection.info.backend_pid if connection.vendor == "postgresql" else 0
    count = [0]

    def counting(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        count[0] += 1
        return execute(sql, params, many, context)

    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)
    pids = [int(p) for p in args.server_pids.split()]
    before_server = sum(backend_seconds(p) for p in pids)
    before_backend = backend_seconds(backend)
    with contextlib.nullcontext() if args.bare else connection.execute_wrapper(counting):
        started = time.process_time()
        if profiler:
            profiler.enable()
        for i in range(args.moves):
            tables[i % len(tables)].step()
        if profiler:
            profiler.disable()
        used = time.process_time() - started
    used_backend = backend_seconds(backend) - before_backend
    used_server = sum(backend_seconds(p) for p in pids) - before_server
    if profiler:
        profiler.dump_stats(args.profile)
    n = max(args.moves, 1)
    where = f"{args.moves} moves at {args.tables} tables on {connection.vendor}"
    if pids:
        said = f"the server's processes {used_server / n * 1000:.3f} ms of processor per move"
    else:
        said = (
            f"worker {used / n * 1000:.3f} ms of processor per move, its backend"
            f" {used_backend / n * 1000:.3f} ms; "
            + (
                "statements not counted (--bare)"
                if args.bare
                else f"{count[0] / n:.2f} statements per move through Django"
            )
        )
    print(f"{where}: {said}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
