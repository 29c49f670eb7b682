"""What the tests of the tournament pages share: a signed-in browser per persona, the text of a page as
a reader sees it, and the messages a redirect leaves for the next page."""

from __future__ import annotations

import html
import re
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from scoring.models import StoredEvent


def browser(user: User | None) -> Client:
    """A client signed in as ``user`` (anonymous for None), reading English pages."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def text(response: Any) -> str:
    """The page's visible text: tags dropped, entities decoded, spaces collapsed."""
    body = response.content.decode()
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body))).strip()


def follow(client: Client, response: Any) -> Any:
    """Post/redirect/get: the redirect a successful post answers with, then the page it leads to."""
    assert response.status_code == 302, (response.status_code, text(response)[:500])
    return client.get(response["Location"])


def log_size() -> int:
    return StoredEvent.objects.count()
