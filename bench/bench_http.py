"""Time recording over HTTP as a club night does it: the site exactly as `make serve` runs it (the
command itself: nginx in front of gunicorn with segnapunti/gunicorn.conf.py and its threads, nginx
keeping the access log) serving the API on PostgreSQL, and N tables recording at once, each a scorer
posting one legal move after the other (the deal first, then every call and card, the next hand when
one ends). Prints the moves recorded per second and the latency of a move (median, p99) for each number
of tables, and how long the store's ordering lock was held, sampled from pg_locks during the load, and
where the processor time went per move (gunicorn, nginx, PostgreSQL's backends, this script's clients),
read from /proc before and after each load.

By default the tables run a closed loop (each posts its next move as soon as the last is answered), which
measures the most the server can record: the tables' latency is then set by the queue they make
(Little's law: N tables at X moves/s wait N / X seconds a move on average, whatever the server). With
``--rate R`` they run an open loop instead: R moves a second offered in all, each table's moves arriving
at random (Poisson) times, and a move's latency counted from when it was due; this measures the latency a
given load meets.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_http.py \\
        [--tables 4,32] [--seconds 20] [--workers 2] [--threads 4] [--gunicorn-args "--worker-class sync"] \\
        [--sample-every 10] [--rate 120]

--workers and --threads go to make serve as WEB_CONCURRENCY and WEB_THREADS, --gunicorn-args as
GUNICORN_CMD_ARGS: the way the README sizes production. It creates a throwaway database next to the one
DATABASE_URL names and drops it at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))  # its neighbours, also when a test loads it by its path
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("HTTPS", "false")  # gunicorn is reached in plain HTTP on loopback here

import django  # noqa: E402

django.setup()

from bench_engine import play as play_hand  # noqa: E402  (the engine benchmark's random legal hand)
from django.db import connection, connections  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from clubs.models import Club, Membership, Player  # noqa: E402
from scoring.log.store import APPEND_LOCK_KEY  # noqa: E402
from scoring.rules import get_game, move_to_dict  # noqa: E402
from scoring.services import match_create  # noqa: E402
from tests.segnapunti.served import served  # noqa: E402

GAME = "tressette"


def database_url(db: dict[str, Any]) -> str:
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Client:
    """One scorer's connection to the server, kept alive between moves as a browser keeps it.

    HTTP/1.1 written and read on the socket directly: a request is one ``sendall`` of its bytes, an answer
    its status line, the two headers that matter (Content-Length or chunked, Connection) and its body.
    The script shares the server's two cores, so what its clients spend is taken from the server: Python's
    ``http.client`` (its headers parsed by the ``email`` package) and the lock sampler's cursor cost this
    script 0.35-0.62 ms of processor a move, beside the server's 3.3-3.9 ms; with this client, the hands
    played ahead and the sampler on libpq's call, 0.15-0.28 ms (docs/performance.md, issue 29)."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.head = (
            f"Host: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAuthorization: Token {token}\r\n"
        ).encode()
        self.sock: socket.socket | None = None
        self.pending = b""  # bytes read past the last answer (none, as one request is in flight at a time)

    def connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.pending = sock, b""
        return sock

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock = None

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        data = json.dumps(body).encode()
        request = b"".join(
            (
                b"POST ",
                path.encode(),
                b" HTTP/1.1\r\n",
                self.head,
                b"Content-Length: %d\r\n\r\n" % len(data),
                data,
            )
        )
        for attempt in range(2):
            sock = self.sock or self.connect()
            try:
                sock.sendall(request)
                status, payload, keep = self.answer(sock)
            except (ConnectionError, EOFError):
                self.close()  # the server closed an idle connection: open another
                if attempt:
                    raise
                continue
            if not keep:
                self.close()
            return status, json.loads(payload or b"{}")
        raise AssertionError("unreachable")

    def read(self, sock: socket.socket) -> None:
        chunk = sock.recv(65536)
        if not chunk:
            raise EOFError("the server closed the connection")
        self.pending += chunk

    def answer(self, sock: socket.socket) -> tuple[int, bytes, bool]:
        """The status, the body and whether the connection stays open, of the answer read from ``sock``."""
        while (end := self.pending.find(b"\r\n\r\n")) < 0:
            self.read(sock)
        head, self.pending = self.pending[:end].decode("latin-1"), self.pending[end + 4 :]
        lines = head.split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip().lower()
        keep = headers.get("connection") != "close"
        if headers.get("transfer-encoding") == "chunked":
            parts = []
            while True:
                while (eol := self.pending.find(b"\r\n")) < 0:
                    self.read(sock)
                size = int(self.pending[:eol].split(b";")[0], 16)
                while len(self.pending) < eol + 2 + size + 2:
                    self.read(sock)
                parts.append(self.pending[eol + 2 : eol + 2 + size])
                self.pending = self.pending[eol + 2 + size + 2 :]
                if not size:
                    return status, b"".join(parts), keep
        length = int(headers.get("content-length", "0"))
        while len(self.pending) < length:
            self.read(sock)
        payload, self.pending = self.pending[:length], self.pending[length:]
        return status, payload, keep


class Table(threading.Thread):
    """A scorer at one table: posts every move of its hands, one after the other. The hands are played
    on the engine here, before the load where :meth:`prepare` was called (so that choosing moves during
    the load takes no processor from the server), as they come otherwise."""

    def __init__(
        self, port: int, token: str, match_id: int, seed: int, until: float, every: float = 0.0
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.match_id, self.until = port, token, match_id, until
        self.every = every  # open loop: the mean seconds between two moves of this table (0: closed loop)
        self.begin = 0.0  # open loop: when the load begins (time.perf_counter()), the same for every table
        self.rng = random.Random(seed)
        self.pacing = random.Random(seed + 1_000_003)  # the arrivals, apart from the moves chosen
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.game = get_game(GAME)
        self.client = Client(port, token)
        self.hands: dict[int, list[list[dict[str, Any]]]] = {}  # by dealer: hands played ahead, in turn

    def play(self, dealer: int) -> list[dict[str, Any]]:
        """A random legal hand dealt by ``dealer``: its moves from the deal to the last card, as posted."""
        _, moves = play_hand(self.game, self.rng, 4, dealer=dealer)
        return [move_to_dict(move) for move in moves]

    def prepare(self, moves: int) -> None:
        """Play ahead the hands that ``moves`` moves take at least, for each dealer in turn."""
        dealt = 0
        while dealt < moves:
            for dealer in range(4):
                hand = self.play(dealer)
                self.hands.setdefault(dealer, []).append(hand)
                dealt += len(hand)

    def hand(self, dealer: int) -> list[dict[str, Any]]:
        ahead = self.hands.get(dealer)
        return ahead.pop(0) if ahead else self.play(dealer)

    def due(self, last: float) -> float:
        """When this table sends its next move. Closed loop: at once. Open loop: after an exponential
        wait (a Poisson stream of moves, as independent tables make), counted from when the last move
        was due, not from when its answer came: a slow answer does not slow the arrivals, and the wait
        for a late move counts in its latency (no coordinated omission)."""
        if not self.every:
            return time.perf_counter()
        due = last + self.pacing.expovariate(1 / self.every)
        pause = due - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        return due

    def run(self) -> None:
        number, version, dealer = 1, 1, 0
        # Open loop: the first move is due a random wait after the load begins, like every later one (the
        # arrivals are memoryless, so the tables are out of step from the start). It used to be counted from
        # up to one mean wait before this thread even ran: about a third of the tables' first moves were
        # late before they could be sent, by up to 320 ms at 100 moves/s (32 tables), and 9 and 13 of the
        # 29 moves above the p99 in two runs of 3,000 moves; the lighter the load, the later they were.
        started = self.begin
        while time.monotonic() < self.until:
            for move in self.hand(dealer):
                started = self.due(started)
                if time.monotonic() >= self.until:
                    return
                status, body = self.client.post(
                    f"/api/matches/{self.match_id}/hands/{number}/moves/",
                    {"move": move, "expected_version": version},
                )
                self.latencies.append(time.perf_counter() - started)
                if status != 201:
                    self.errors.append(f"{status} {body}")
                    return
                version = body["version"]
            if time.monotonic() >= self.until:
                return
            status, body = self.client.post(f"/api/matches/{self.match_id}/hands/", {})
            if status != 201:  # the match is over: the next table's evening starts
                return
            number, version, dealer = body["number"], body["version"], body["dealer"]


class LockSampler(threading.Thread):
    """Polls pg_locks about every `interval` seconds: how often the ordering lock is held, and for how many
    samples in a row by the same transaction (a hold seen twice lasted at least one interval). Every
    10 ms by default: a share of time needs no more, and polling every millisecond cost the machine
    0.2-0.4 ms of processor per move (the sampler's backend) and the script as much again, beside the
    load it measured. Each hold's own length is bench_lock.py's to measure, on the server's clock."""

    def __init__(self, url: str, interval: float = 0.01) -> None:
        super().__init__(daemon=True)
        self.url, self.interval = url, interval
        self.samples = self.held = self.long_holds = 0
        self.stop, self.ready = threading.Event(), threading.Event()
        self.backend_pid = 0

    def run(self) -> None:
        import psycopg
        from psycopg import pq

        sql = (
            "SELECT virtualtransaction FROM pg_locks WHERE locktype = 'advisory' AND granted"
            f" AND classid = 0 AND objid = {APPEND_LOCK_KEY} AND objsubid = 1"
            # An advisory lock is per database, and pg_locks shows the whole server's.
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        last = None
        with psycopg.connect(self.url, autocommit=True) as conn:
            self.backend_pid = conn.info.backend_pid
            # The query sent on libpq's own call, without a cursor: psycopg's cursor machinery cost this
            # script more than the clients' HTTP (profiled under load), processor taken from the server.
            pgconn, query = conn.pgconn, sql.encode()
            self.ready.set()
            while not self.stop.is_set():
                result = pgconn.exec_(query)
                self.samples += 1
                if result.status != pq.ExecStatus.TUPLES_OK:
                    raise RuntimeError(f"sampling pg_locks: {result.error_message.decode()}")
                holder = result.get_value(0, 0) if result.ntuples else None
                if holder is not None:
                    self.held += 1
                    if holder == last:
                        self.long_holds += 1
                last = holder
                time.sleep(self.interval)


def cpu_seconds(session: int, database: str, sampler_backend: int) -> dict[str, float]:
    """Processor time (user + system) used so far by each part of the set-up, from Linux's /proc: make
    serve's processes (its session: gunicorn and nginx), PostgreSQL's backends serving the benchmark's
    database (the lock sampler's apart) and this script (the tables' clients and the sampler). Other
    engineers' processes are left out. Empty where there is no /proc."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    parts: dict[str, float] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        pid, used = int(entry.name), (int(fields[11]) + int(fields[12])) / tick
        if pid == os.getpid():
            part = "this script"
        elif session and int(fields[3]) == session:
            part = "nginx" if name == "nginx" else "gunicorn"
        elif command.startswith("postgres: ") and f" {database} " in command:
            part = "lock sampler's backend" if pid == sampler_backend else "PostgreSQL"
        else:
            continue
        parts[part] = parts.get(part, 0.0) + used
    return parts


def run_load(
    port: int,
    token: str,
    club: Club,
    players: list[Player],
    tables: int,
    seconds: float,
    db_url: str,
    session: int = 0,
    sample_every: float = 0.01,
    rate: float = 0.0,
) -> str:
    matches = [
        match_create(club=club, game=GAME, seats=players[i % 3 : i % 3 + 4], options={"target": 1000})
        for i in range(tables)
    ]
    connections.close_all()
    every = tables / rate if rate else 0.0
    workers = [Table(port, token, m.pk, seed=i, until=0.0, every=every) for i, m in enumerate(matches)]
    for w in workers:  # more moves than the fastest server here could take (1,000 a second)
        w.prepare(int(1000 * seconds / tables) + 1)
    until = time.monotonic() + seconds  # the load starts now, with every hand played ahead
    for w in workers:
        w.until = until
    sampler = LockSampler(db_url, interval=sample_every)
    sampler.start()
    sampler.ready.wait(timeout=10)
    database = connection.settings_dict["NAME"]
    cpu_before = cpu_seconds(session, database, sampler.backend_pid)
    started = time.perf_counter()
    for w in workers:  # a moment for the threads to start, so that no move is due before its table runs
        w.begin = started + 0.05
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - started
    cpu_after = cpu_seconds(session, database, sampler.backend_pid)
    sampler.stop.set()
    sampler.join()
    latencies = [x for w in workers for x in w.latencies]
    errors = [e for w in workers for e in w.errors]
    if errors:
        return f"{tables:>6} tables: {len(errors)} errors, first: {errors[0][:200]}"
    p99 = statistics.quantiles(latencies, n=100)[98] * 1000
    median = statistics.median(latencies) * 1000
    held = sampler.held / max(sampler.samples, 1)
    per_move = held * elapsed / len(latencies) * 1000
    line = (
        f"{tables:>6} {len(latencies):>8} {len(latencies) / elapsed:>10.0f} {median:>10.1f} {p99:>10.1f}"
        f" {held * 100:>9.1f}% {per_move:>10.3f} {sampler.long_holds:>9} {sampler.samples:>8}"
    )
    used = {part: cpu_after[part] - cpu_before.get(part, 0.0) for part in cpu_after}
    if used:
        moves = len(latencies)
        each = ", ".join(f"{part} {used[part] / moves * 1000:.2f}" for part in sorted(used))
        line += (
            f"\n{'':>6} processor ms per move: {each}; in all {sum(used.values()) / moves * 1000:.2f},"
            f" of the {os.cpu_count()} cores' {elapsed * (os.cpu_count() or 1) / moves * 1000:.2f}"
        )
    return line


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


@contextmanager
def make_serve(extra_env: dict[str, str] | None = None) -> Iterator[tuple[int, str, int]]:
    """``make serve`` itself (the same migrations, static files, nginx and gunicorn settings as
    production, HTTPS expected as in production) on the current database, as the tests start it
    (``tests/segnapunti/served.py``), with ``extra_env`` added. Yields the port, what it said while
    starting, and its session (the process group of its processes, for counting their processor time)."""
    connections.close_all()  # the server migrates this database: nothing of ours may hold it
    env = {
        "DATABASE_URL": database_url(connection.settings_dict),
        "HTTPS": os.environ.get("HTTPS", "true"),
        **(extra_env or {}),
    }
    with served(env) as site:
        yield site.port, site.log.read_text(), site.pid


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", default="1,4,32", help="how many tables record at once, in turn")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each load lasts")
    parser.add_argument("--workers", type=int, default=0, help="WEB_CONCURRENCY (default: make serve's)")
    parser.add_argument("--threads", type=int, default=0, help="WEB_THREADS (default: make serve's)")
    parser.add_argument("--gunicorn-args", default="", help="GUNICORN_CMD_ARGS, e.g. '--worker-class sync'")
    parser.add_argument("--sample-every", type=float, default=10.0, help="ms between two looks at pg_locks")
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="open loop: moves per second offered in all, spread over the tables as Poisson arrivals"
        " (default 0: closed loop, each table posting its next move as soon as the last is answered)",
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("note: the targets are for PostgreSQL; this runs on", connection.vendor)
    db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        club = Club.objects.create(name="Bench club")
        from django.contrib.auth.models import User

        scorer = User.objects.create(username="bench-director")
        Membership.objects.create(club=club, user=scorer, role=Membership.Role.DIRECTOR)
        token = Token.objects.create(user=scorer).key
        players = [Player.objects.create(club=club, name=f"Player {i}") for i in range(8)]
        sizes = {
            "WEB_CONCURRENCY": args.workers,
            "WEB_THREADS": args.threads,
            "GUNICORN_CMD_ARGS": args.gunicorn_args,
        }
        extra = {name: str(value) for name, value in sizes.items() if value}
        with make_serve(extra) as (port, said, session):
            kinds = [line.split("Using worker: ")[1] for line in said.splitlines() if "Using worker" in line]
            kind = kinds[0] if kinds else "?"
            proxy = "nginx in front" if "nginx is not installed" not in said else "NO nginx (not installed)"
            sizing = " ".join(f"{name}={value}" for name, value in extra.items()) or "its defaults"
            print(f"make serve ({proxy}; gunicorn worker {kind}; {sizing}), {connection.vendor}")
            loop = f"open loop, {args.rate:g} moves/s offered" if args.rate else "closed loop"
            print(f"{GAME}, {args.seconds:g} s a load, {loop}; load average before: {load_average()}")
            print(
                f"{'tables':>6} {'moves':>8} {'moves/s':>10} {'median ms':>10} {'p99 ms':>10}"
                f" {'lock held':>10} {'ms/move':>10} {'2+ in row':>9} {'samples':>8}"
            )
            db_url = database_url(connection.settings_dict)
            every = args.sample_every / 1000
            for tables in (int(t) for t in args.tables.split(",")):
                line = run_load(
                    port, token, club, players, tables, args.seconds, db_url, session, every, args.rate
                )
                print(line, flush=True)
            print(f"load average after: {load_average()}")
    finally:
        connections.close_all()
        connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
