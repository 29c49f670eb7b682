"""Django's messages are set up for the pages and left out of the API (segnapunti.middleware.PageMessages)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from segnapunti.middleware import PageMessages


def served(path: str) -> tuple[HttpRequest, HttpResponse]:
    """A request through the session's middleware and this one, to a view that adds a message when it
    can; the request and the answer."""

    def view(request: HttpRequest) -> HttpResponse:
        messages.success(request, "registered.", fail_silently=True)
        return HttpResponse("ok")

    request = RequestFactory().get(path)
    response = SessionMiddleware(PageMessages(view))(request)
    return request, response


def test_a_page_keeps_its_message_for_the_next_page() -> None:
    request, response = served("/matches/")

    assert [str(m) for m in messages.get_messages(request)] == ["registered."]
    assert "messages" in response.cookies


def test_the_api_sets_no_messages_up() -> None:
    request, response = served("/api/matches/")

    assert not hasattr(request, "_messages")
    assert "messages" not in response.cookies
    assert list(messages.get_messages(request)) == []
