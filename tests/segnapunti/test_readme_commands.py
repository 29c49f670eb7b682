"""Every command line the README shows runs as written, in a clean environment.

The commands are read from the README itself (its code blocks, and the inline commands that start with
``make``, ``.venv/bin/`` or ``manage.py``), so that a command added there without being run here fails
:func:`test_every_command_the_readme_shows_is_run_here`. Each runs in a copy of the project (the files git
knows, the virtualenv shared) with nothing in its environment but ``PATH``, ``HOME`` and what the command
line itself sets. Where the README writes a placeholder (``...``, ``FILE``) or a name that another run on
this machine could hold (a database, a role, a Redis database), the test fills in one of its own and says
so in :data:`FILLED`.

Servers (``make run``, ``make serve``, a worker) are started, asked for a page or seen ready, then
stopped. The PostgreSQL commands run in the suite's PostgreSQL pass (marked ``postgres``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

PROJECT = Path(settings.BASE_DIR)
README = PROJECT / "README.md"
REDIS_URL = r"redis://127\.0\.0\.1:6379/\d+"
SERVER_START_SECONDS = 300
WORKER = (
    r"DEBUG=true CELERY_BROKER_URL=\S+ DATABASE_URL=\.\.\. "
    r"\.venv/bin/celery -A segnapunti worker -B --loglevel=INFO"
)
SUITE_WORKER = (
    r"DEBUG=true DATABASE_URL=\S+/test_segnapunti DATABASE_CONN_MAX_AGE=0 "
    r"\.venv/bin/celery -A segnapunti worker &"
)  # make run migrates and loads the demo first: minutes on a loaded machine

# What the README leaves to the reader, and what this test puts there.
FILLED = {
    "FILE": "docs/examples/tressette-hand.json",
    "...": "a value of the test's own (a password, a URL, the other variables of the line above)",
    "segnapunti (a database or role name)": "a name of the test's own, dropped afterwards",
    "redis://127.0.0.1:6379/N": "an empty Redis database of the test's own",
}


# ---- reading the README ------------------------------------------------------------------------------
def readme_commands(text: str) -> list[str]:
    """The command lines the README shows: each line of its code blocks (continuations joined) and each
    inline command, in order, once each."""
    found: list[str] = []
    for block in re.findall(r"```(?:bash|sh)?\n(.*?)```", text, re.S):
        found += [line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip()]
    lines = re.sub(r"\\\n\s*", " ", text).splitlines()
    in_fence = False
    for line in lines:
        if line.startswith("```"):
            in_fence = not in_fence
        elif (
            not in_fence
            and line.startswith("    ")
            and line.strip()
            and not line.lstrip().startswith(("|", "-"))
        ):
            found.append(line.strip())
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    for span in re.findall(r"`([^`]+)`", prose):
        span = " ".join(span.split())
        if re.match(r"(make [a-z]|\.venv/bin/|manage\.py [a-z])", span):
            found.append(span)
    return [" ".join(c.split()) for c in dict.fromkeys(found)]


# Each README command (a pattern over the whole line) and the test that runs it.
COVERED: list[tuple[str, str]] = [
    (r"make run", "test_make_run_serves_the_demo"),
    (r"make run PORT=\d+", "test_make_run_serves_the_demo"),
    (r"make test", "(this suite: .ci/run runs `make test` as written)"),
    (r"\.venv/bin/pytest", "(this suite: .ci/run runs it on PostgreSQL as written)"),
    (r"export DATABASE_URL=\S+ CELERY_BROKER_URL=\S+", "(this suite's PostgreSQL pass: .ci/run)"),
    (
        SUITE_WORKER,
        "test_the_workers_start_as_written",
    ),
    (r"createdb -h 127\.0\.0\.1 -U postgres segnapunti", "test_make_run_on_postgresql_and_a_real_broker"),
    (r"DATABASE_URL=postgres://\S+ make run", "test_make_run_on_postgresql_and_a_real_broker"),
    (r"CELERY_BROKER_URL=redis://\S+ make run", "test_make_run_on_postgresql_and_a_real_broker"),
    (
        WORKER,
        "test_the_workers_start_as_written",
    ),
    (r"make worker", "test_the_workers_start_as_written"),
    (r"\.venv/bin/python manage\.py replay FILE", "test_the_record_commands_run_as_written"),
    (r"\.venv/bin/python manage\.py rescore FILE --options .*", "test_the_record_commands_run_as_written"),
    (r"\.venv/bin/python manage\.py adjudicate FILE", "test_the_record_commands_run_as_written"),
    (r"\.venv/bin/python manage\.py seating_plan .*", "test_the_record_commands_run_as_written"),
    (r"manage\.py verify_log", "test_the_record_commands_run_as_written"),
    (r"manage\.py check --deploy", "test_make_serve_in_production_as_written"),
    (r"manage\.py grant_app_role", "test_the_two_postgresql_roles_as_written"),
    (r"make serve", "test_make_serve_in_production_as_written"),
    (r"DEBUG=false SECRET_KEY=\.\.\. .* make serve", "test_make_serve_in_production_as_written"),
    (r"psql -c \"CREATE ROLE .*", "test_the_two_postgresql_roles_as_written"),
    (r"psql -c \"CREATE DATABASE .*", "test_the_two_postgresql_roles_as_written"),
    (
        r"DATABASE_OWNER_URL=\S+ DATABASE_URL=\S+ \.\.\. make serve",
        "test_the_two_postgresql_roles_as_written",
    ),
    (r"make messages", "test_make_lint_and_make_messages_run_as_written"),
    (r"make lint", "test_make_lint_and_make_messages_run_as_written"),
    (r"make proxy", "test_make_lint_and_make_messages_run_as_written"),
    (r"manage\.py verify_projections", "test_the_record_commands_run_as_written"),
    (r"manage\.py standings_rebuild --ratings", "test_the_record_commands_run_as_written"),
    (r"make bench", "test_make_bench_runs_as_written"),
]


def test_every_command_the_readme_shows_is_run_here() -> None:
    commands = readme_commands(README.read_text(encoding="utf-8"))
    tests = {name for _, name in COVERED}
    here = {name for name in dir(sys.modules[__name__]) if name.startswith("test_")}

    assert "make run" in commands and "make test" in commands  # the reading finds what it should
    uncovered = [c for c in commands if not any(re.fullmatch(p, c) for p, _ in COVERED)]
    assert uncovered == [], "README commands no test runs: add them to COVERED"
    assert {t for t in tests if t.startswith("test_")} <= here


# ---- a clean copy of the project ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's files as git knows them (committed or new, not ignored), with their times kept so
    that make sees nothing to reinstall, and the virtualenv shared."""
    root = tmp_path_factory.mktemp("clone") / "segnapunti"
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=PROJECT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source = PROJECT / name
        if source.is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, root / name)
    (root / ".venv").symlink_to(PROJECT / ".venv")
    # The copy must never reinstall into the shared virtualenv (that would point its editable install at
    # this temporary copy): make's inputs are given a time before the install's.
    installed = PROJECT / ".venv" / ".installed"
    if installed.exists():
        before = installed.stat().st_mtime - 1
        for name in ("pyproject.toml", "constraints.txt"):
            os.utime(root / name, (before, before))
    return root


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "LANG": "C.UTF-8", **extra}


def run(
    line: str, cwd: Path, env: dict[str, str], timeout: float = 600, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """A README line through bash, as a reader would paste it."""
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, input=stdin
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A README line that serves, started in its own process group and stopped with it."""

    def __init__(self, line: str, cwd: Path, env: dict[str, str], log: Path) -> None:
        self.log = log
        self.out = log.open("w")
        self.process = subprocess.Popen(
            ["bash", "-c", line],
            cwd=cwd,
            env=env,
            stdout=self.out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, ready: re.Pattern[str] | str, seconds: float = SERVER_START_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if re.search(ready, self.text()):
                return
            if self.process.poll() is not None:
                pytest.fail(
                    f"stopped with {self.process.returncode} before it was ready:\n{self.text()[-3000:]}"
                )
            time.sleep(0.5)
        pytest.fail(f"not ready in {seconds} s:\n{self.text()[-3000:]}")

    def get(
        self, url: str, headers: dict[str, str] | None = None, seconds: float = SERVER_START_SECONDS
    ) -> tuple[int, str, dict[str, str]]:
        """The first answer to `url` (retried while the server is not listening yet)."""
        deadline = time.monotonic() + seconds
        opener = urllib.request.build_opener(NoRedirect)
        while True:
            try:
                with opener.open(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
                    return r.status, r.read().decode(errors="replace"), dict(r.headers)
            except urllib.error.HTTPError as e:
                if e.code in (502, 503) and time.monotonic() < deadline and self.process.poll() is None:
                    time.sleep(1)  # nginx is up and gunicorn not yet: nginx says so, and we ask again
                    continue
                return e.code, e.read().decode(errors="replace"), dict(e.headers)
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if self.process.poll() is not None:
                    pytest.fail(f"stopped with {self.process.returncode}:\n{self.text()[-3000:]}")
                if time.monotonic() > deadline:
                    pytest.fail(f"{url} never answered:\n{self.text()[-3000:]}")
                time.sleep(1)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.out.close()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


@pytest.fixture(autouse=True)
def once_per_ci_run(request: pytest.FixtureRequest) -> None:
    """The commands that use no PostgreSQL run in a copy with databases of their own, whatever the suite's
    database: .ci/run runs them in its SQLite pass only, and the PostgreSQL ones in its PostgreSQL pass."""
    from django.db import connection

    if connection.vendor == "postgresql" and request.node.get_closest_marker("postgres") is None:
        pytest.skip("uses no test database: run in the SQLite pass")


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def readme_line(pattern: str) -> str:
    """The README's line matching `pattern`, as written there (the test fails if it is gone)."""
    for line in readme_commands(README.read_text(encoding="utf-8")):
        if re.fullmatch(pattern, line):
            return line
    pytest.fail(f"the README shows no command like {pattern!r}")


def redis_db() -> Iterator[str]:
    """An empty Redis database of this test's own (flushed afterwards)."""
    for n in range(15, 0, -1):
        size = subprocess.run(["redis-cli", "-n", str(n), "dbsize"], capture_output=True, text=True)
        if size.returncode == 0 and size.stdout.strip() == "0":
            yield f"redis://127.0.0.1:6379/{n}"
            subprocess.run(["redis-cli", "-n", str(n), "flushdb"], capture_output=True)
            return
    pytest.skip("no empty Redis database (1-15) on 127.0.0.1:6379")


@pytest.fixture
def broker() -> Iterator[str]:
    if (
        shutil.which("redis-cli") is None
        or subprocess.run(["redis-cli", "ping"], capture_output=True).returncode
    ):
        pytest.skip("needs Redis on 127.0.0.1:6379")
    yield from redis_db()


# ---- the commands ------------------------------------------------------------------------------------
def test_the_record_commands_run_as_written(copy: Path, tmp_path: Path) -> None:
    # Nothing set: no DEBUG, no SECRET_KEY (these commands take a local key of their own).
    env = clean_env(tmp_path)
    example = FILLED["FILE"]

    replay = run(readme_line(r"\.venv/bin/python manage\.py replay FILE").replace("FILE", example), copy, env)
    assert replay.returncode == 0, replay.stderr
    assert "tressette" in replay.stdout.lower()
    piped = run(".venv/bin/python manage.py replay -", copy, env, stdin=(copy / example).read_text())
    assert piped.returncode == 0 and piped.stdout == replay.stdout

    what_if = run(
        readme_line(r"\.venv/bin/python manage\.py rescore FILE --options .*").replace("FILE", example),
        copy,
        env,
    )
    assert what_if.returncode == 0, what_if.stderr
    assert '"what_if": true' in what_if.stdout and '"rounding"' in what_if.stdout

    claim = "docs/examples/tressette-claim.json"
    decided = run(
        readme_line(r"\.venv/bin/python manage\.py adjudicate FILE").replace("FILE", claim), copy, env
    )
    assert decided.returncode == 0, decided.stderr
    assert json.loads(decided.stdout)["verdict"] in ("holds", "holds_with_best_play", "fails")

    seating = run(readme_line(r"\.venv/bin/python manage\.py seating_plan .*"), copy, env)
    assert seating.returncode == 0, seating.stderr
    assert "round 7" in seating.stdout.lower() or "7" in seating.stdout

    migrate = run(".venv/bin/python manage.py migrate --noinput -v 0", copy, env)
    assert migrate.returncode == 0, migrate.stderr
    club = run(
        ".venv/bin/python manage.py shell -c "
        "\"from clubs.models import Club; print(Club.objects.create(name='Readme').pk)\"",
        copy,
        env,
    )
    assert club.returncode == 0, club.stderr
    imported = run(f".venv/bin/python manage.py import_record {example} --club Readme", copy, env)
    assert imported.returncode == 0, imported.stderr
    exported = run(".venv/bin/python manage.py export_record --match 1 -o exported.json", copy, env)
    assert exported.returncode == 0, exported.stderr
    assert (copy / "exported.json").exists()
    again = run(".venv/bin/python manage.py replay exported.json", copy, env)
    assert again.returncode == 0, again.stderr
    assert '"game": "tressette"' in again.stdout  # the match holding the imported hand, replayed

    rebuilt = run(".venv/bin/python manage.py standings_rebuild --ratings", copy, env)
    assert rebuilt.returncode == 0, rebuilt.stderr
    projected = run(".venv/bin/python manage.py verify_projections", copy, env)
    assert projected.returncode == 0, projected.stdout + projected.stderr
    assert projected.stdout.startswith("ok")
    verified = run(".venv/bin/python manage.py verify_log", copy, env)
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith("ok:")
    assert (copy / ".secret_key").exists()  # the local key these commands made


def test_make_run_serves_the_demo(copy: Path, tmp_path: Path, servers: list[Server]) -> None:
    # `make run` as written listens on 8000, which another program may hold here: the README's own
    # `make run PORT=...` form picks a free one.
    assert readme_line(r"make run") == "make run"
    port = free_port()
    server = Server(f"make run PORT={port}", copy, clean_env(tmp_path), tmp_path / "run.log")
    servers.append(server)

    status, body, _ = server.get(f"http://127.0.0.1:{port}/")
    assert status == 200, body[:2000]
    status, body, _ = server.get(f"http://127.0.0.1:{port}/tournaments/1/events/")
    assert status == 200, body[:2000]
    assert "Lega del martedì" in body
    status, _, headers = server.get(f"http://127.0.0.1:{port}/favicon.ico")
    assert status == 301 and headers["Location"].endswith("favicon.svg")
    status, _, _ = server.get(f"http://127.0.0.1:{port}{headers['Location']}")
    assert status == 200
    assert not re.search(r"favicon\.ico HTTP/1\.1\" 404", server.text())


@pytest.mark.postgres
def test_make_run_on_postgresql_and_a_real_broker(
    copy: Path, tmp_path: Path, servers: list[Server], broker: str
) -> None:
    name = f"readme_{os.getpid()}"
    create = readme_line(r"createdb -h 127\.0\.0\.1 -U postgres segnapunti")
    on_postgres = readme_line(r"DATABASE_URL=postgres://\S+ make run")
    with_broker = readme_line(r"CELERY_BROKER_URL=redis://\S+ make run")
    env = clean_env(tmp_path)
    run(f"dropdb --if-exists -h 127.0.0.1 -U postgres {name}", copy, env)
    try:
        made = run(create.replace("segnapunti", name), copy, env)
        assert made.returncode == 0, made.stderr
        port = free_port()
        line = f"{on_postgres.replace('/segnapunti ', f'/{name} ')} PORT={port}"
        server = Server(line, copy, env, tmp_path / "pg.log")
        servers.append(server)
        status, body, _ = server.get(f"http://127.0.0.1:{port}/tournaments/1/standings/")
        assert status == 200 and "Lega del martedì" in body
        server.stop()

        port = free_port()
        line = f"{re.sub(REDIS_URL, broker, with_broker)} PORT={port}"
        queued = Server(line, copy, env, tmp_path / "broker.log")
        servers.append(queued)
        status, _, _ = queued.get(f"http://127.0.0.1:{port}/")
        assert status == 200
    finally:
        for server in servers:
            server.stop()
        run(f"dropdb --if-exists -h 127.0.0.1 -U postgres {name}", copy, env)


def test_the_workers_start_as_written(copy: Path, tmp_path: Path, servers: list[Server], broker: str) -> None:
    database = f"sqlite:///{tmp_path / 'worker.sqlite3'}"
    env = clean_env(tmp_path)
    migrate = run(
        ".venv/bin/python manage.py migrate --noinput -v 0",
        copy,
        {**env, "DEBUG": "true", "DATABASE_URL": database},
    )
    assert migrate.returncode == 0, migrate.stderr

    line = readme_line(WORKER)
    line = re.sub(REDIS_URL, broker, line).replace("DATABASE_URL=...", f"DATABASE_URL={database}")
    worker = Server(line, copy, env, tmp_path / "worker.log")
    servers.append(worker)
    worker.wait_for(r"ready\.")
    worker.wait_for(r"beat: Starting")  # -B: the beat runs in the worker
    worker.stop()

    made = Server(
        f"DEBUG=true CELERY_BROKER_URL={broker} DATABASE_URL={database} make worker",
        copy,
        env,
        tmp_path / "make.log",
    )
    servers.append(made)
    made.wait_for(r"ready\.")
    made.wait_for(r"beat: Starting")
    made.stop()

    # The test-suite form (a worker on the test database) differs only in its variables and the `&`.
    suite = readme_line(SUITE_WORKER)
    suite = re.sub(r"DATABASE_URL=\S+", f"DATABASE_URL={database}", suite).rstrip("& ")
    background = Server(f"CELERY_BROKER_URL={broker} {suite}", copy, env, tmp_path / "suite.log")
    servers.append(background)
    background.wait_for(r"\[queues\]")  # its banner (it logs warnings only: no "ready" line)
    deadline = time.monotonic() + SERVER_START_SECONDS
    while True:
        ping = run(
            ".venv/bin/celery -A segnapunti inspect ping --timeout 5",
            copy,
            {**env, "DEBUG": "true", "CELERY_BROKER_URL": broker},
        )
        if "pong" in ping.stdout or time.monotonic() > deadline:
            break
    assert "pong" in ping.stdout, ping.stdout + ping.stderr + background.text()[-2000:]


def test_make_serve_in_production_as_written(
    copy: Path, tmp_path: Path, servers: list[Server], broker: str
) -> None:
    production = readme_line(r"DEBUG=false SECRET_KEY=\.\.\. .* make serve")
    port = free_port()
    key = "readme-" + "k" * 50
    database = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    line = production.replace("SECRET_KEY=...", f"SECRET_KEY={key}").replace(
        "ALLOWED_HOSTS=club.example.org", "ALLOWED_HOSTS=club.example.org,127.0.0.1"
    )
    line = re.sub(r"DATABASE_URL=\S+", f"DATABASE_URL={database}", line)
    line = re.sub(REDIS_URL, broker, line)
    line = re.sub(r"BIND=\S+", f"BIND=127.0.0.1:{port}", line)
    env = clean_env(tmp_path)
    host = {"Host": "club.example.org"}
    # As written, reached in plain HTTP: HTTPS is expected, so the site sends the reader there.
    server = Server(line, copy, env, tmp_path / "serve.log")
    servers.append(server)
    status, _, headers = server.get(f"http://127.0.0.1:{port}/tournaments/", headers=host)
    assert status == 301 and headers["Location"].startswith("https://club.example.org/")
    server.stop()
    # Behind the proxy that terminates TLS and speaks plain HTTP to nginx, as the README says to set it.
    behind_tls = Server(f"FORWARDED_PROTO=https {line}", copy, env, tmp_path / "serve-tls.log")
    servers.append(behind_tls)
    status, body, headers = behind_tls.get(f"http://127.0.0.1:{port}/tournaments/", headers=host)
    assert status == 200, body[:2000]
    assert "Strict-Transport-Security" in headers
    behind_tls.stop()

    check = run(
        ".venv/bin/python manage.py check --deploy --fail-level WARNING",
        copy,
        {**env, "SECRET_KEY": key, "ALLOWED_HOSTS": "club.example.org", "DATABASE_URL": database},
    )
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.postgres
def test_the_two_postgresql_roles_as_written(
    copy: Path, tmp_path: Path, servers: list[Server], broker: str
) -> None:
    suffix = str(os.getpid())
    owner, app, name = f"readme_owner_{suffix}", f"readme_app_{suffix}", f"readme_serve_{suffix}"
    psql = "psql -h 127.0.0.1 -U postgres -d postgres"
    env = clean_env(tmp_path)

    def names(line: str) -> str:
        line = line.replace("segnapunti_owner", owner).replace("PASSWORD '...'", "PASSWORD 'pw'")
        return re.sub(r"\bsegnapunti\b", app, line).replace(f"DATABASE {app} OWNER", f"DATABASE {name} OWNER")

    def drop() -> None:
        run(f'{psql} -c "DROP DATABASE IF EXISTS {name} WITH (FORCE)"', copy, env)
        run(f'{psql} -c "DROP ROLE IF EXISTS {app}" -c "DROP ROLE IF EXISTS {owner}"', copy, env)

    drop()
    try:
        for pattern in (r"psql -c \"CREATE ROLE .*", r"psql -c \"CREATE DATABASE .*"):
            done = run(names(readme_line(pattern)).replace("psql", psql, 1), copy, env)
            assert done.returncode == 0, done.stderr
        line = readme_line(r"DATABASE_OWNER_URL=\S+ DATABASE_URL=\S+ \.\.\. make serve")
        line = line.replace("segnapunti_owner:...@", f"{owner}:pw@").replace("segnapunti:...@", f"{app}:pw@")
        line = line.replace("/segnapunti ", f"/{name} ")
        port = free_port()
        rest = (
            f"DEBUG=false SECRET_KEY=readme-{'k' * 50} HTTPS=false ALLOWED_HOSTS=127.0.0.1 "
            f"CELERY_BROKER_URL={broker} BIND=127.0.0.1:{port}"
        )
        server = Server(
            line.replace(" ... make serve", f" {rest} make serve"), copy, env, tmp_path / "roles.log"
        )
        servers.append(server)
        status, body, _ = server.get(f"http://127.0.0.1:{port}/tournaments/")
        assert status == 200, body[:2000]
        assert "grant" in server.text().lower() or "granted" in server.text().lower()
        server.stop()
        # The service's own role: no UPDATE on the event log.
        refused = run(
            f'psql -h 127.0.0.1 -U {app} -d {name} -c "UPDATE scoring_storedevent SET version = version"',
            copy,
            {**env, "PGPASSWORD": "pw"},
        )
        assert refused.returncode != 0 and "permission denied" in refused.stderr
    finally:
        for server in servers:
            server.stop()
        drop()


def test_make_lint_and_make_messages_run_as_written(copy: Path, tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    proxy = run(readme_line(r"make proxy"), copy, env)  # nginx is there (or installed, as root)
    assert proxy.returncode == 0, proxy.stdout + proxy.stderr
    lint = run(readme_line(r"make lint"), copy, env)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    messages = run(readme_line(r"make messages"), copy, env)
    assert messages.returncode == 0, messages.stdout + messages.stderr
    check = run(".venv/bin/python -m segnapunti.catalogues check", copy, env)
    assert check.returncode == 0, check.stdout + check.stderr


def test_make_bench_runs_as_written(copy: Path, tmp_path: Path) -> None:
    if os.environ.get("SEGNAPUNTI_README_BENCH") != "1":
        pytest.skip("make bench takes minutes: SEGNAPUNTI_README_BENCH=1 runs it")
    done = run(readme_line(r"make bench"), copy, clean_env(tmp_path), timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "moves/s" in done.stdout
