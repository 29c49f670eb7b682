"""bench/bench_http.py's own parts (issue 29): the open loop (no move is due before the load begins: a
third of the tables' first moves used to be counted late before their thread ran, by up to one mean
wait), the client's reading of each framing of an answer (length, chunked, the connection closed), and
the hands played ahead of the load, which replay legally through the engine."""

import http.server
import importlib.util
import json
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def load_bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_http", ROOT / "bench" / "bench_http.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class AnsweredAtOnce:
    """A server that answers every move at once, so that a move's latency is only how late it was sent."""

    def __init__(self) -> None:
        self.version = 1

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.version += 1
        return 201, {"version": self.version}


def test_each_table_first_move_is_due_after_the_load_begins() -> None:
    bench = load_bench()
    every = 0.5  # 32 tables at 64 moves/s
    until = time.monotonic() + 0.8
    tables = [
        bench.Table(port=1, token="-", match_id=1, seed=seed, until=until, every=every) for seed in range(16)
    ]
    begin = time.perf_counter() + 0.05
    for table in tables:
        table.client = AnsweredAtOnce()
        table.begin = begin
        table.start()
    for table in tables:
        table.join()

    firsts = [table.latencies[0] for table in tables if table.latencies]
    assert len(firsts) >= 8  # most tables' first move came within the load
    # Counted from up to one mean wait before the load, about a third of them were 0-500 ms late.
    assert max(firsts) < 0.1


class Answers(http.server.BaseHTTPRequestHandler):
    """Answers a move as the site would, its body framed one way or another by the path asked."""

    protocol_version = "HTTP/1.1"
    seen: list[tuple[str, dict[str, Any], str]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Answers.seen.append((self.path, body, self.headers["Authorization"]))
        payload = json.dumps({"version": body["expected_version"] + 1, "path": self.path}).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        if self.path.endswith("/chunked/"):
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(0, len(payload), 7):
                piece = payload[i : i + 7]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
            return
        self.send_header("Content-Length", str(len(payload)))
        if self.path.endswith("/close/"):
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


def test_the_client_reads_each_framing_and_opens_a_new_connection_when_told() -> None:
    bench = load_bench()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answers)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Answers.seen = []
    try:
        client = bench.Client(server.server_address[1], "tok")
        answers = [
            client.post(path, {"move": {"type": "play", "card": "3C"}, "expected_version": v})
            for v, path in enumerate(["/a/", "/b/chunked/", "/c/close/", "/d/", "/e/chunked/"])
        ]
    finally:
        server.shutdown()
        server.server_close()
    assert answers == [
        (201, {"version": 1, "path": "/a/"}),
        (201, {"version": 2, "path": "/b/chunked/"}),
        (201, {"version": 3, "path": "/c/close/"}),
        (201, {"version": 4, "path": "/d/"}),
        (201, {"version": 5, "path": "/e/chunked/"}),
    ]
    assert [(path, body["expected_version"], auth) for path, body, auth in Answers.seen] == [
        ("/a/", 0, "Token tok"),
        ("/b/chunked/", 1, "Token tok"),
        ("/c/close/", 2, "Token tok"),
        ("/d/", 3, "Token tok"),
        ("/e/chunked/", 4, "Token tok"),
    ]


def test_hands_played_ahead_are_whole_legal_hands_used_in_turn() -> None:
    bench = load_bench()
    table = bench.Table(port=1, token="-", match_id=1, seed=3, until=0.0)
    table.prepare(200)
    ahead = {dealer: list(hands) for dealer, hands in table.hands.items()}
    assert sorted(ahead) == [0, 1, 2, 3] and sum(len(h) for hs in ahead.values() for h in hs) >= 200
    from scoring.rules import move_from_dict

    game = bench.get_game(bench.GAME)
    for dealer, hands in ahead.items():
        for moves in hands:
            state = game.initial_state({}, seats=4, dealer=dealer)
            for move in moves:
                assert not state.over
                state = game.apply(state, move_from_dict(move)).state
            assert state.over
    assert table.hand(2) is ahead[2][0] and table.hand(2) is ahead[2][1]
    table.hands = {}
    assert table.hand(1)[0]["type"] == "deal"  # none left ahead: played as it comes
