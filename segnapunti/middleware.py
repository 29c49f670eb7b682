"""Limits applied to every request before any view reads it, and the Content-Security-Policy every
answer carries."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext


class RequestSizeLimit:
    """Refuse a body larger than the limit, from its declared length, before anything reads it.

    ``REQUEST_MAX_BYTES`` for every request; ``RECORD_MAX_BYTES`` for the record endpoints (a season's
    match record is larger than any move). Django reads a WSGI body no further than its declared length,
    so checking the length bounds what a parser can be made to read. The API answers in its error shape.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        raw = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(raw)
        except ValueError:
            length = -1
        limit = (
            settings.RECORD_MAX_BYTES
            if request.path.startswith("/api/records/")
            else settings.REQUEST_MAX_BYTES
        )
        if length < 0 or length > limit:
            if length < 0:
                message = gettext("the Content-Length header is not a number")
            else:
                message = gettext(
                    "the request body is {length} bytes, more than the {limit} this address takes"
                ).format(length=length, limit=limit)
            if request.path.startswith("/api/"):
                code = "request.malformed" if length < 0 else "request.too_large"
                return JsonResponse(
                    {"code": code, "message": message, "field": None}, status=400 if length < 0 else 413
                )
            return HttpResponse(message, status=400 if length < 0 else 413, content_type="text/plain")
        return self.get_response(request)


class ContentSecurityPolicy:
    """Send ``settings.CONTENT_SECURITY_POLICY`` with every answer that has none of its own.

    The pages keep to it: scripts and styles come from the site's own static files, never inline (no
    ``<script>`` body, no ``style=`` attribute, no ``onclick=``), so an injected one is not run.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = "; ".join(
            f"{directive} {' '.join(sources)}"
            for directive, sources in settings.CONTENT_SECURITY_POLICY.items()
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.policy
        return response


class PageMessages(MessageMiddleware):
    """Django's messages (a note shown on the next page: "registered.") for the pages, not the API: its
    answers are JSON and show none, and on its path, a scorer's every move, setting up the messages'
    storage for each request and looking at it again for each answer is work for nothing (issue 29)."""

    def process_request(self, request: HttpRequest) -> None:
        if not request.path_info.startswith("/api/"):
            super().process_request(request)
