"""Tables that scored offline for an hour send their queues at once when the network returns (issue 27).

Each table plays 60 minutes of Tressette offline (by default 1,200 moves: a move every 3 s; 20 tables make
24,000 moves), queued as the table page queues them: each move with its own idempotency key. When the
network returns, every table sends its queue at the same moment, each through its own connection, with
the requests the page sends: each move with its key and its expected version (the version the queue was
built on plus the move's position). The page sends the queue of the hand on screen in one request
(``POST .../moves/queue/``: the moves with their keys and the version the queue was built on; the
server records them one after the other); ``--per-move`` sends one request a move (``POST .../moves/``)
instead. A table's hour holds many hands, and the next hand is started between them (``POST
.../hands/``), as the scorer does once a hand is sent.

Then the log is read back: every queued move must be there once, in the order of the queue (0 lost, 0
duplicated, 0 reordered), and every queue sent within 60 s. Against ``make serve`` on PostgreSQL, started
as ``bench/bench_http.py`` starts it (nginx in front of gunicorn, its settings), on a throwaway database.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/seg_bench .venv/bin/python bench/bench_offline.py \\
        [--tables 20] [--moves 1200] [--lose-every 0] [--per-move]

--lose-every N makes every Nth request's answer lost on its way back (the request reached the server,
the client never heard): the client sends it again, with the same key and expected version.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_http import (  # noqa: E402  (sets Django up)
    GAME,
    load_average,
    make_serve,
)
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, connections  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from clubs.models import Club, Membership, Player  # noqa: E402
from scoring.models import Hand  # noqa: E402
from scoring.rules import get_game, move_to_dict  # noqa: E402
from scoring.rules.moves import Move  # noqa: E402
from scoring.selectors import hand_audit  # noqa: E402
from scoring.services import match_create  # noqa: E402

TARGET_S = 60.0


def offline_hour(seed: int, moves: int) -> list[list[dict[str, Any]]]:
    """The moves a table keyed offline, hand by hand (the dealer moves on one seat a hand)."""
    game, rng = get_game(GAME), random.Random(seed)
    hands: list[list[dict[str, Any]]] = []
    dealer, total = 0, 0
    while total < moves:
        state = game.initial_state({}, seats=4, dealer=dealer)
        move: Move = game.random_deal(state, rng)
        hand: list[dict[str, Any]] = []
        while total < moves:
            hand.append(move_to_dict(move))
            total += 1
            state = game.apply(state, move).state
            if state.over:
                break
            move = rng.choice(game.legal_moves(state))
        hands.append(hand)
        dealer = (dealer + 1) % 4
    return hands


class Queue(threading.Thread):
    """One table's page when the network returns: its queue sent in order, each move with its key and
    expected version; an answer that does not come back is a resend of the same request."""

    def __init__(
        self,
        port: int,
        token: str,
        match_id: int,
        table: int,
        hands: list[list[dict[str, Any]]],
        lose_every: int,
        go: threading.Event,
        per_move: bool,
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.match_id, self.table = port, token, match_id, table
        self.hands, self.lose_every, self.go, self.per_move = hands, lose_every, go, per_move
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.sent = self.resent = self.requests = 0
        self.latencies: list[float] = []
        self.elapsed = 0.0
        self.errors: list[str] = []

    def post(self, path: str, body: dict[str, Any], *, losable: bool = True) -> tuple[int, dict[str, Any]]:
        headers = {"Content-Type": "application/json", "Authorization": f"Token {self.token}"}
        while True:
            self.requests += 1
            try:
                self.conn.request("POST", path, json.dumps(body), headers)
                response = self.conn.getresponse()
                data = response.read()
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                self.resent += 1
                continue
            if losable and self.lose_every and self.requests % self.lose_every == 0:
                self.resent += 1  # the answer is lost: the same request again
                continue
            return response.status, json.loads(data or b"{}")

    def send_each(self, number: int, moves: list[dict[str, Any]], base: int) -> bool:
        """The moves one request each (POST .../moves/), each expecting the version the last answer gave."""
        for position, move in enumerate(moves):
            began = time.perf_counter()
            status, body = self.post(
                f"/api/matches/{self.match_id}/hands/{number}/moves/",
                {"move": move, "expected_version": base, "idempotency_key": self.key(number, position)},
            )
            self.latencies.append(time.perf_counter() - began)
            if status not in (200, 201):
                self.errors.append(f"hand {number} move {position}: {status} {body}")
                return False
            base = body["version"]
            self.sent += 1
        return True

    def send_queue(self, number: int, moves: list[dict[str, Any]], base: int) -> bool:
        """The hand's queue in one request (POST .../moves/queue/), as the page sends it: the move at
        position i expects base + i."""
        began = time.perf_counter()
        status, body = self.post(
            f"/api/matches/{self.match_id}/hands/{number}/moves/queue/",
            {
                "expected_version": base,
                "moves": [{"move": m, "idempotency_key": self.key(number, i)} for i, m in enumerate(moves)],
            },
        )
        self.latencies.append(time.perf_counter() - began)
        if status != 200 or body.get("refused") or len(body.get("recorded", ())) != len(moves):
            self.errors.append(f"hand {number} queue: {status} {str(body)[:300]}")
            return False
        self.sent += len(moves)
        return True

    def key(self, number: int, position: int) -> str:
        return f"bench-{self.table}-{number}-{position}"

    def run(self) -> None:
        self.go.wait()
        started = time.perf_counter()
        base = 1  # the hand's version when its queue was built: HandStarted
        for number, moves in enumerate(self.hands, start=1):
            if number > 1:
                # Not a queued move (the page starts a hand online): its answer is never lost here.
                status, body = self.post(f"/api/matches/{self.match_id}/hands/", {}, losable=False)
                if status != 201 or body["number"] != number:
                    self.errors.append(f"next hand: {status} {body}")
                    return
                base = body["version"]
            if self.per_move:
                ok = self.send_each(number, moves, base)
            else:
                ok = self.send_queue(number, moves, base)
            if not ok:
                return
        self.elapsed = time.perf_counter() - started


def check_log(match_id: int, hands: list[list[dict[str, Any]]]) -> tuple[int, int, int]:
    """Lost, duplicated and reordered moves: the log of each hand against its queue."""
    lost = duplicated = reordered = 0
    for number, queued in enumerate(hands, start=1):
        hand = Hand.objects.filter(match_id=match_id, number=number).first()
        logged = (
            [e["payload"]["move"] for e in hand_audit(hand) if e["type"] == "MoveRecorded"] if hand else []
        )
        keys = [json.dumps(m, sort_keys=True) for m in logged]
        wanted = [json.dumps(m, sort_keys=True) for m in queued]
        lost += sum(1 for k in wanted if k not in keys)
        duplicated += len(keys) - len(set(keys))
        if [k for k in keys if k in wanted] != [k for k in wanted if k in keys]:
            reordered += 1
    return lost, duplicated, reordered


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=1200, help="moves a table keyed offline (an hour)")
    parser.add_argument("--lose-every", type=int, default=0, help="lose the answer of every Nth request")
    parser.add_argument(
        "--per-move", action="store_true", help="one request a move (POST .../moves/), not a hand's queue"
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("note: the target is for PostgreSQL; this runs on", connection.vendor)
    queues = [offline_hour(seed, args.moves) for seed in range(args.tables)]
    db_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        club = Club.objects.create(name="Bench club")
        director = User.objects.create(username="bench-director")
        Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
        token = Token.objects.create(user=director).key
        players = [Player.objects.create(club=club, name=f"Player {i}") for i in range(8)]
        matches = [
            match_create(club=club, game=GAME, seats=players[i % 3 : i % 3 + 4], options={"target": 10000})
            for i in range(args.tables)
        ]
        with make_serve() as (port, said, _session):
            proxy = "nginx in front" if "nginx is not installed" not in said else "NO nginx"
            total = sum(len(h) for q in queues for h in q)
            how = (
                "one request a move (moves/)" if args.per_move else "a hand's queue a request (moves/queue/)"
            )
            print(
                f"make serve ({proxy}), {connection.vendor}; {how}; {args.tables} tables, "
                f"{total} moves queued ({args.moves} a table), "
                f"answers lost: every {args.lose_every or '-'}th request"
            )
            print(f"load average before: {load_average()}")
            go = threading.Event()
            workers = [
                Queue(port, token, m.pk, i, queues[i], args.lose_every, go, args.per_move)
                for i, m in enumerate(matches)
            ]
            for w in workers:
                w.start()
            started = time.perf_counter()
            go.set()
            for w in workers:
                w.join()
            wall = time.perf_counter() - started
            print(f"load average after: {load_average()}")
            errors = [e for w in workers for e in w.errors]
            for e in errors[:5]:
                print("ERROR", e[:300])
            lost = duplicated = reordered = 0
            for w, m in zip(workers, matches, strict=True):
                a, b, c = check_log(m.pk, queues[w.table])
                lost, duplicated, reordered = lost + a, duplicated + b, reordered + c
            latencies = [x for w in workers for x in w.latencies]
            slowest = max(w.elapsed for w in workers)
            print(
                f"sent {sum(w.sent for w in workers)} moves in {wall:.1f} s ({total / wall:.0f} moves/s); "
                f"requests {sum(w.requests for w in workers)}, resent {sum(w.resent for w in workers)}"
            )
            if latencies:
                print(
                    f"a request: median {statistics.median(latencies) * 1000:.1f} ms, "
                    f"p99 {statistics.quantiles(latencies, n=100)[98] * 1000:.1f} ms"
                )
            print(
                f"each queue sent in: fastest {min(w.elapsed for w in workers):.1f} s, "
                f"slowest {slowest:.1f} s "
                f"(target {TARGET_S:.0f} s: {'met' if slowest <= TARGET_S and not errors else 'NOT met'})"
            )
            print(
                f"log check: {lost} lost, {duplicated} duplicated, {reordered} hands reordered "
                f"({'clean' if not (lost or duplicated or reordered) else 'NOT clean'})"
            )
    finally:
        connections.close_all()
        connection.creation.destroy_test_db(db_name, verbosity=0)


if __name__ == "__main__":
    main()
