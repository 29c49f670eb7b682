"""With the database not answering (its port closed), a page is a 503 in the reader's language, not a
500; the API says the same in its error shape."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

ASK = """
import json, django
django.setup()
from django.test import Client
client = Client(raise_request_exception=False)
out = []
for path, language in (("/", "it"), ("/", "fr"), ("/clubs/", "en"), ("/api/matches/", "it")):
    answer = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    out.append([path, language, answer.status_code, answer.get("Retry-After"), answer["Content-Type"],
                answer.content.decode()])
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def answers() -> list[list[object]]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "segnapunti.settings",
        "DATABASE_URL": "postgres://segnapunti@127.0.0.1:1/segnapunti",  # nothing listens on port 1
        "DEBUG": "false",
        "SECRET_KEY": "test-only",
        "ALLOWED_HOSTS": "testserver",
        "HTTPS": "false",
    }
    done = subprocess.run(
        [sys.executable, "-c", ASK], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout.splitlines()[-1]))


def test_a_page_is_a_503_in_the_reader_s_language(answers: list[list[object]]) -> None:
    pages = {(a[0], a[1]): a for a in answers}
    italian, french, english = pages["/", "it"], pages["/", "fr"], pages["/clubs/", "en"]

    for page in (italian, french, english):
        assert page[2] == 503
        assert page[3] == "5"
        assert str(page[4]).startswith("text/html")
    assert "Il database non risponde" in str(italian[5])
    assert "La base de données ne répond pas" in str(french[5])
    assert "The database is not answering" in str(english[5])


def test_the_api_says_503_in_its_error_shape(answers: list[list[object]]) -> None:
    api = next(a for a in answers if a[0] == "/api/matches/")

    assert api[2] == 503
    assert json.loads(str(api[5]))["code"] == "service.unavailable"
