"""Sign-in throttling (issue 25, item 2): the sign-in page is throttled like the token endpoint, per user
name and per address; the address is read from X-Forwarded-For only when a trusted proxy handed the
request on; and the counts are shared by every process (the database cache by default)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.cache.backends.db import DatabaseCache
from django.db import connection
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from common.throttles import LoginNameThrottle, address_block, client_address

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
PER_NAME = 10  # THROTTLE_LOGIN_NAME's default, 10/min
PER_ADDRESS = 20  # THROTTLE_LOGIN's default, 20/min


@pytest.fixture(autouse=True)
def fresh_throttles(settings: pytest.FixtureRequest) -> Iterator[None]:
    # A fast hasher: each of these tests checks dozens of passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def mario() -> User:
    return User.objects.create_user("mario", password="segreto-di-mario")


def sign_in(client: Client, name: str, password: str, **extra: Any) -> int:
    return client.post(LOGIN, {"username": name, "password": password}, **extra).status_code


# ---- the page --------------------------------------------------------------------------------------------
def test_wrong_passwords_for_one_name_on_the_page_end_in_a_429(mario: User) -> None:
    client = Client()
    answers = [sign_in(client, "mario", f"guess-{i}", REMOTE_ADDR=f"10.0.0.{i}") for i in range(PER_NAME + 2)]

    assert answers[:PER_NAME] == [200] * PER_NAME  # the form again, saying the password is wrong
    assert answers[PER_NAME:] == [429, 429]
    # The right password too, from yet another address: the name is what counts.
    response = client.post(
        LOGIN, {"username": "mario", "password": "segreto-di-mario"}, REMOTE_ADDR="10.9.9.9"
    )
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "_auth_user_id" not in client.session


def test_the_name_is_counted_whatever_its_case_and_spaces(mario: User) -> None:
    client = Client()
    spellings = ["mario", "MARIO", " Mario ", "mArIo"]
    answers = [sign_in(client, spellings[i % 4], "x", REMOTE_ADDR=f"10.0.1.{i}") for i in range(PER_NAME + 1)]

    assert answers[-1] == 429


def test_many_names_from_one_address_end_in_a_429() -> None:
    client = Client()
    answers = [sign_in(client, f"user{i}", "x", REMOTE_ADDR="198.51.100.7") for i in range(PER_ADDRESS + 1)]

    assert answers[:PER_ADDRESS] == [200] * PER_ADDRESS and answers[PER_ADDRESS] == 429
    # Another address is not slowed down.
    assert sign_in(client, "someone", "x", REMOTE_ADDR="198.51.100.8") == 200


@pytest.mark.parametrize(
    ("language", "words"), [("it", "Troppi tentativi"), ("fr", "Trop de tentatives"), ("en", "Too many")]
)
def test_the_429_page_speaks_the_readers_language(mario: User, language: str, words: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    for _ in range(PER_NAME):
        sign_in(client, "mario", "x")

    response = client.post(LOGIN, {"username": "mario", "password": "x"})

    assert response.status_code == 429
    assert response["Content-Type"].startswith("text/html")
    assert words in response.content.decode()


def test_the_page_and_the_token_endpoint_share_their_counts(mario: User) -> None:
    page, api = Client(), APIClient()
    for i in range(PER_NAME // 2):
        assert sign_in(page, "mario", f"p{i}") == 200
        assert api.post("/api/auth/token/", {"username": "mario", "password": f"a{i}"}).status_code == 401

    assert sign_in(page, "mario", "again") == 429
    assert api.post("/api/auth/token/", {"username": "mario", "password": "again"}).status_code == 429


def test_a_right_password_signs_in_while_under_the_rate(mario: User) -> None:
    client = Client()
    for i in range(PER_NAME - 1):
        sign_in(client, "mario", f"guess-{i}")

    response = client.post(LOGIN, {"username": "mario", "password": "segreto-di-mario"})

    assert response.status_code == 302 and client.session["_auth_user_id"] == str(mario.pk)


def test_opening_the_page_is_not_counted() -> None:
    client = Client()
    for _ in range(PER_ADDRESS + 5):
        assert client.get(LOGIN).status_code == 200
    assert sign_in(client, "someone", "x") == 200


# ---- the address behind a proxy --------------------------------------------------------------------------
def test_rotating_x_forwarded_for_from_an_untrusted_peer_changes_nothing() -> None:
    client = Client()
    answers = [
        sign_in(client, f"user{i}", "x", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR=f"10.1.{i}.1")
        for i in range(PER_ADDRESS + 1)
    ]

    assert answers[PER_ADDRESS] == 429


def test_the_api_too_ignores_x_forwarded_for_from_an_untrusted_peer() -> None:
    client = APIClient()
    answers = [
        client.post(
            "/api/auth/token/",
            {"username": f"user{i}", "password": "x"},
            REMOTE_ADDR="203.0.113.5",
            HTTP_X_FORWARDED_FOR=f"10.1.{i}.1",
        ).status_code
        for i in range(PER_ADDRESS + 1)
    ]

    assert answers[PER_ADDRESS] == 429


def test_behind_the_trusted_proxy_the_client_is_the_rightmost_untrusted_address() -> None:
    client = Client()
    # The client prepends whatever it likes; the proxy on the loopback appends the address it saw.
    answers = [
        sign_in(
            client,
            f"user{i}",
            "x",
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"10.1.{i}.1, 198.51.100.7",
        )
        for i in range(PER_ADDRESS + 1)
    ]

    assert answers[PER_ADDRESS] == 429
    # Another client behind the same proxy is counted apart.
    assert sign_in(client, "x", "x", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.8") == 200


@pytest.mark.parametrize(
    ("proxies", "peer", "forwarded", "client"),
    [
        (["127.0.0.1", "::1"], "203.0.113.5", "1.2.3.4", "203.0.113.5"),
        (["127.0.0.1", "::1"], "127.0.0.1", "", "127.0.0.1"),
        (["127.0.0.1", "::1"], "127.0.0.1", "1.2.3.4, 5.6.7.8", "5.6.7.8"),
        (["127.0.0.1", "::1"], "::1", "2001:db8::7", "2001:db8::7"),
        (["127.0.0.1", "10.0.0.0/8"], "127.0.0.1", "1.2.3.4, 5.6.7.8, 10.2.3.4", "5.6.7.8"),
        (["127.0.0.1", "10.0.0.0/8"], "127.0.0.1", "10.0.0.9, 10.2.3.4", "10.0.0.9"),
        (["127.0.0.1"], "127.0.0.1", "not-an-address, 5.6.7.8", "5.6.7.8"),
        ([], "127.0.0.1", "5.6.7.8", "127.0.0.1"),
    ],
)
def test_the_client_address(
    settings: pytest.FixtureRequest, proxies: list[str], peer: str, forwarded: str, client: str
) -> None:
    settings.TRUSTED_PROXIES = proxies  # type: ignore[attr-defined]
    request = RequestFactory().get("/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded)

    assert client_address(request) == client


def test_rotating_ipv6_addresses_within_one_64_changes_nothing() -> None:
    client = Client()
    answers = [
        sign_in(client, f"user{i}", "x", REMOTE_ADDR=f"2001:db8:1:2::{i + 1:x}")
        for i in range(PER_ADDRESS + 1)
    ]

    assert answers[PER_ADDRESS] == 429
    assert sign_in(client, "x", "x", REMOTE_ADDR="2001:db8:1:3::1") == 200  # another line


@pytest.mark.parametrize(
    ("address", "block"),
    [
        ("198.51.100.7", "198.51.100.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
        ("not-an-address", "not-an-address"),
    ],
)
def test_what_one_client_is_counted_as(address: str, block: str) -> None:
    assert address_block(address) == block


# ---- counts shared between processes --------------------------------------------------------------------
def test_by_default_the_counts_are_kept_in_the_database_shared_by_every_process() -> None:
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
    assert settings.CACHE_TABLE in connection.introspection.table_names()


def test_two_cache_instances_share_one_count(mario: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes each have their own cache object: over the database they still add up."""
    first, second = DatabaseCache(settings.CACHE_TABLE, {}), DatabaseCache(settings.CACHE_TABLE, {})
    request = RequestFactory().post(LOGIN, {"username": "mario", "password": "x"})
    answers = []
    for i in range(PER_NAME + 1):
        monkeypatch.setattr(LoginNameThrottle, "cache", first if i % 2 else second)
        answers.append(LoginNameThrottle().allow_request(request, None))  # type: ignore[arg-type]

    assert answers == [True] * PER_NAME + [False]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_server_processes_add_up_their_counts(mario: User) -> None:
    """Two real processes on the same database each try 6 wrong passwords: the 11th answer overall is a
    429, where each process counting alone would have let all 12 through."""
    script = textwrap.dedent(
        """
        import django, os, sys
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
        django.setup()
        from django.test import Client
        client = Client()
        codes = [client.post("/accounts/login/", {"username": "mario", "password": "x"}).status_code
                 for _ in range(6)]
        print(" ".join(map(str, codes)))
        """
    )
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "true", "ALLOWED_HOSTS": "testserver"}
    env.pop("CACHE_URL", None)
    runs = [
        subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    codes = [int(c) for run in runs for c in run.communicate(timeout=120)[0].split()]

    assert sorted(codes) == [200] * PER_NAME + [429, 429]
