import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from segnapunti import settings

PROJECT = Path(settings.BASE_DIR)


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("TRUE", True), ("on", True), ("no", False), ("0", False)]
)
def test_envbool_reads_the_usual_spellings(monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool) -> None:
    monkeypatch.setenv("SOME_FLAG", raw)

    assert settings.envbool("SOME_FLAG", not expected) is expected


def test_envbool_falls_back_to_the_default_when_unset_or_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOME_FLAG", raising=False)
    assert settings.envbool("SOME_FLAG", True) is True
    monkeypatch.setenv("SOME_FLAG", "")
    assert settings.envbool("SOME_FLAG", False) is False


def test_envbool_refuses_anything_else(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_FLAG", "maybe")

    with pytest.raises(ImproperlyConfigured, match="SOME_FLAG='maybe' is not a boolean"):
        settings.envbool("SOME_FLAG", True)


def test_envint_refuses_what_is_not_an_integer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_NUMBER", "12")
    assert settings.envint("SOME_NUMBER", 0) == 12
    monkeypatch.setenv("SOME_NUMBER", "twelve")
    with pytest.raises(ImproperlyConfigured, match="not an integer"):
        settings.envint("SOME_NUMBER", 0)


def test_envlist_splits_on_commas(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_HOSTS", " a.example , b.example,, ")

    assert settings.envlist("SOME_HOSTS", []) == ["a.example", "b.example"]


def load_settings(
    shown: str = "s.DEBUG, s.ALLOWED_HOSTS, s.CELERY_TASK_ALWAYS_EAGER, s.DATABASES", **env: str
) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter with exactly these variables set (and PATH), and print
    ``shown`` (settings named ``s.X``)."""
    code = f"import segnapunti.settings as s; print({shown})"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT,
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_debug_is_off_unless_asked_for(tmp_path: Path) -> None:
    # Nothing set at all: DEBUG is off, so serving insists on a secret key rather than showing debug
    # pages (with the database and broker URLs in them) to whoever makes a request fail.
    bare = load_settings(SEGNAPUNTI_SERVES="1", LOCAL_SECRET_KEY_FILE=str(tmp_path / "key"))
    assert bare.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in bare.stderr
    assert not (tmp_path / "key").exists()

    done = load_settings(SECRET_KEY="s3cret", SEGNAPUNTI_SERVES="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("False [] True")


def test_a_command_run_by_hand_keeps_a_local_key_of_its_own(tmp_path: Path) -> None:
    # replay, verify_log, export_record... run as the README writes them, with nothing set: they take a
    # random key made on first use into a file only its owner reads, and the same key every time after.
    key_file = tmp_path / "key"
    first = load_settings("s.SECRET_KEY", LOCAL_SECRET_KEY_FILE=str(key_file))
    again = load_settings("s.SECRET_KEY", LOCAL_SECRET_KEY_FILE=str(key_file))

    assert first.returncode == 0, first.stderr
    key = first.stdout.strip()
    assert len(key) >= 50 and key == again.stdout.strip() == key_file.read_text().strip()
    assert key_file.stat().st_mode & 0o777 == 0o600
    other = load_settings("s.SECRET_KEY", LOCAL_SECRET_KEY_FILE=str(tmp_path / "other"))
    assert other.stdout.strip() != key


def test_the_settings_say_when_the_key_is_the_local_one(tmp_path: Path) -> None:
    # What is sealed for the service to open again (a finished hand's kept fold) is written only under the
    # service's own key: the settings tell a command run by hand without it from one given it.
    key_file = str(tmp_path / "key")
    shown = "s.SECRET_KEY_IS_LOCAL"
    assert load_settings(shown, LOCAL_SECRET_KEY_FILE=key_file).stdout.strip() == "True"
    given = load_settings(shown, SECRET_KEY="s3cret", LOCAL_SECRET_KEY_FILE=key_file)
    assert given.stdout.strip() == "False"
    assert load_settings(shown, DEBUG="true", LOCAL_SECRET_KEY_FILE=key_file).stdout.strip() == "False"


def test_what_serves_never_takes_the_local_key(tmp_path: Path) -> None:
    # The WSGI entry point (gunicorn), a Celery worker and runserver all count as serving.
    key_file = tmp_path / "key"
    env = {"PATH": os.environ.get("PATH", ""), "LOCAL_SECRET_KEY_FILE": str(key_file)}
    for code in ("import segnapunti.wsgi", "import sys; sys.argv = ['celery']; import segnapunti.settings"):
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=PROJECT, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode != 0, code
        assert "SECRET_KEY must be set when DEBUG is off" in done.stderr, code
    served = subprocess.run(
        [sys.executable, "manage.py", "runserver", "--noreload", "127.0.0.1:1"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "SECRET_KEY must be set when DEBUG is off" in served.stderr
    assert not key_file.exists()


def test_the_development_defaults_need_no_services() -> None:
    done = load_settings(DEBUG="true")

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("True ['127.0.0.1', 'localhost'] True")
    assert "sqlite3" in done.stdout and "db.sqlite3" in done.stdout


def deploy_check(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=PROJECT,
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "SECRET_KEY": "k" * 20 + "-production-secret-0123456789-abcdefgh",
    "ALLOWED_HOSTS": "club.example",
}


def test_with_debug_off_the_deployment_checks_pass_with_no_warning() -> None:
    # HTTPS by default: secure cookies, HSTS, the redirect to https.
    done = deploy_check(**PRODUCTION)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_plain_http_on_a_local_network_is_an_explicit_choice_the_checks_point_out() -> None:
    done = deploy_check(**PRODUCTION, HTTPS="false")

    assert done.returncode != 0
    assert "SECURE_SSL_REDIRECT" in done.stderr and "SESSION_COOKIE_SECURE" in done.stderr


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off() -> None:
    done = load_settings(DEBUG="false", SEGNAPUNTI_SERVES="1")

    assert done.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set when DEBUG is off" in done.stderr


def test_one_variable_each_switches_to_postgresql_and_a_real_broker() -> None:
    done = load_settings(
        DEBUG="false",
        SECRET_KEY="s3cret",
        ALLOWED_HOSTS="segnapunti.example",
        DATABASE_URL="postgres://u:p@db.example:5432/segnapunti",
        CELERY_BROKER_URL="redis://cache.example:6379/0",
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("False ['segnapunti.example'] False")
    assert "common.postgresql" in done.stdout and "db.example" in done.stdout


def test_a_malformed_variable_stops_start_up() -> None:
    done = load_settings(DEBUG="sometimes")

    assert done.returncode != 0
    assert "DEBUG='sometimes' is not a boolean" in done.stderr


def test_the_throttles_count_in_the_database_or_in_redis_when_one_is_named() -> None:
    backend = "s.CACHES['default']['BACKEND']"
    local = load_settings(backend, DEBUG="true")
    shared = load_settings(backend, DEBUG="true", CACHE_URL="redis://127.0.0.1:6379/2")
    wrong = load_settings(backend, DEBUG="true", CACHE_URL="memcached://x")

    assert local.stdout.strip().endswith("DatabaseCache")  # shared by every process, not each its own
    assert shared.stdout.strip().endswith("RedisCache")
    assert wrong.returncode != 0 and "is not a Redis URL" in wrong.stderr


def test_only_the_loopback_is_a_trusted_proxy_unless_told_and_a_bad_one_stops_start_up() -> None:
    proxies = "s.TRUSTED_PROXIES"
    default = load_settings(proxies, DEBUG="true")
    chosen = load_settings(proxies, DEBUG="true", TRUSTED_PROXIES="10.0.0.0/8, 192.0.2.1")
    wrong = load_settings(proxies, DEBUG="true", TRUSTED_PROXIES="10.0.0.0/33")

    assert default.stdout.strip().endswith("['127.0.0.1', '::1']")
    assert chosen.stdout.strip().endswith("['10.0.0.0/8', '192.0.2.1']")
    assert wrong.returncode != 0 and "TRUSTED_PROXIES" in wrong.stderr
