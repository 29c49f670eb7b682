"""The site as `make serve` runs it (nginx in front of gunicorn), started for a test and stopped after."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def nginx_missing() -> str | None:
    """Why the served stack cannot have nginx here, or None when it can."""
    if shutil.which("nginx") or Path("/usr/sbin/nginx").exists():
        return None
    return "nginx is not installed and could not be (make proxy, as root: apt install nginx)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    port: int
    run_dir: Path
    log: Path
    pid: int  # make's, the leader of the session all the served processes belong to

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@contextmanager
def served(env: Mapping[str, str] | None = None, timeout: float = 180.0) -> Iterator[Served]:
    """`make serve` on a free port, with a SQLite database of its own (unless ``env`` names another)."""
    run_dir = Path(tempfile.mkdtemp(prefix="segnapunti-serve-"))
    run_dir.chmod(0o755)  # nginx's workers (www-data when started as root) reach their buffers there
    port = free_port()
    log = run_dir / "serve.log"
    full = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "served-test-only",
        "ALLOWED_HOSTS": "127.0.0.1",
        "HTTPS": "false",
        "DATABASE_URL": f"sqlite:///{run_dir / 'db.sqlite3'}",
        "BIND": f"127.0.0.1:{port}",
        "RUN_DIR": str(run_dir),
        **(env or {}),
    }
    full.pop("DJANGO_SETTINGS_MODULE", None)
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["make", "--no-print-directory", "serve"],
            cwd=ROOT,
            env=full,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_until_up(process, f"http://127.0.0.1:{port}/", timeout, log)
        yield Served(port, run_dir, log, process.pid)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        shutil.rmtree(run_dir, ignore_errors=True)


def _wait_until_up(process: subprocess.Popen[bytes], url: str, timeout: float, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"make serve stopped: {log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"make serve did not answer within {timeout:g} s: {log.read_text()[-3000:]}")
