"""Production serving holds slow and idle clients: 100 of them open while ordinary requests keep their
pace (issue 25: 16 slowloris connections used to freeze gunicorn alone). And what else the served stack
does in front of Django: malformed requests answered, the access log kept."""

from __future__ import annotations

import contextlib
import http.client
import re
import socket
import statistics
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.segnapunti.served import Served, nginx_missing, served

pytestmark = pytest.mark.skipif(nginx_missing() is not None, reason=nginx_missing() or "")

SLOW = 100
LOAD_SECONDS = 12.0


class SlowClients:
    """Connections that hold the server without finishing: a third send their headers a byte at a time
    (slowloris), a third declare a body and send it a byte at a time, a third finish one request and then
    idle on the kept-alive connection."""

    def __init__(self, port: int, count: int) -> None:
        self.port, self.count = port, count
        self.sockets: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._trickle, daemon=True)

    def __enter__(self) -> SlowClients:
        for n in range(self.count):
            s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            kind = n % 3
            if kind == 0:
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            elif kind == 1:
                s.sendall(
                    b"POST /api/matches/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 100000\r\n\r\n{"
                )
            else:
                s.sendall(b"GET /api/matches/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            self.sockets.append(s)
        self.thread.start()
        return self

    def _trickle(self) -> None:
        while not self.stop.wait(1.0):
            for n, s in enumerate(self.sockets):
                if n % 3 == 2:
                    continue  # idle
                with contextlib.suppress(OSError):  # dropped by the server for being slow: allowed
                    s.sendall(b"X-a: b\r\n" if n % 3 == 0 else b" ")

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        for s in self.sockets:
            s.close()


def ordinary_requests(site: Served, seconds: float, clients: int = 4) -> tuple[list[float], list[str]]:
    """Clients reading pages and the API one request after the other; each request's time, and failures."""
    latencies: list[float] = []
    failures: list[str] = []
    until = time.monotonic() + seconds
    paths = ["/", "/api/matches/", "/clubs/"]

    def client(n: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=10)
        i = n
        while time.monotonic() < until:
            path = paths[i % len(paths)]
            i += 1
            started = time.perf_counter()
            try:
                conn.request("GET", path)
                answer = conn.getresponse()
                answer.read()
                status = answer.status
            except (OSError, http.client.HTTPException) as error:
                failures.append(f"{path}: {error!r}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=10)
                continue
            latencies.append(time.perf_counter() - started)
            if status >= 400:
                failures.append(f"{path}: {status}")
        conn.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, failures


@pytest.fixture(scope="module")
def site() -> Iterator[Served]:
    with served() as running:
        yield running


def test_a_hundred_slow_clients_leave_ordinary_requests_within_a_second(site: Served) -> None:
    with SlowClients(site.port, SLOW):
        latencies, failures = ordinary_requests(site, LOAD_SECONDS)

    assert not failures, failures[:5]
    assert len(latencies) >= 50, "too few requests went through"
    p99 = statistics.quantiles(latencies, n=100)[98]
    assert p99 <= 1.0, f"p99 {p99:.3f} s over {len(latencies)} requests"


def test_a_malformed_content_length_on_the_api_gets_the_api_s_json_400(site: Served) -> None:
    for path, json_expected in (("/api/matches/", True), ("/clubs/", False)):
        with socket.create_connection(("127.0.0.1", site.port), timeout=5) as s:
            request = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 12abc\r\n\r\n"
            s.sendall(request.encode())
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400"), head
        if json_expected:
            assert b"Content-Type: application/json" in head
            assert b'"code": "request.malformed"' in body
        else:
            assert b"<html" not in body.lower()


def _get(site: Served, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", site.port, timeout=10)
    try:
        connection.request("GET", path, headers={"User-Agent": "access-log-probe"})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def _lines_naming(path: Path, marker: str, within: float = 5.0) -> list[str]:
    """The lines of ``path`` that name ``marker``, once there are any (nginx flushes its log each second)."""
    deadline = time.monotonic() + within
    while True:
        lines = [line for line in path.read_text().splitlines() if marker in line] if path.exists() else []
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.2)


def test_nginx_keeps_the_access_log_with_the_time_taken_and_gunicorn_writes_none(site: Served) -> None:
    marker = f"probe-{uuid.uuid4().hex}"
    assert _get(site, f"/?{marker}") == 200

    lines = _lines_naming(site.run_dir / "access.log", marker)
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith("127.0.0.1 - - [")
    assert f'"GET /?{marker} HTTP/1.1" 200 ' in line
    assert '"access-log-probe"' in line
    assert re.search(r" rt=\d+\.\d{3} urt=\d+\.\d{3}$", line), line
    # gunicorn's own line would be in make serve's output: it is off behind nginx.
    assert marker not in site.log.read_text()


def test_gunicorn_alone_keeps_the_access_log_on_its_output() -> None:
    with served({"NGINX": "/nonexistent/nginx"}) as alone:
        marker = f"probe-{uuid.uuid4().hex}"
        assert _get(alone, f"/?{marker}") == 200
        lines = _lines_naming(alone.log, marker)
        assert not (alone.run_dir / "access.log").exists()
    assert len(lines) == 1, lines
    assert f'"GET /?{marker} HTTP/1.1" 200 ' in lines[0]
