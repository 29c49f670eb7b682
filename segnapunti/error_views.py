"""What a 400, 403, 404, 500 or 503 looks like: the API's error body under ``/api/``, a page in the site's
layout that says why everywhere else (never Django's bare or debug pages). A 500 whose cause is the
database not answering (a connection refused or cut) is a 503 with ``Retry-After``, in the reader's
language: nothing was written, and trying again shortly is the right thing to do."""

from __future__ import annotations

import sys
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

RETRY_AFTER_SECONDS = 5

_WHY = {
    400: ("request.invalid", _("Bad request"), _("The request could not be read.")),
    403: ("permission_denied", _("Not allowed"), _("Your role does not allow this.")),
    404: ("not_found", _("Not found"), _("There is nothing at this address.")),
    500: (
        "server.error",
        _("Something went wrong"),
        _("The error has been logged; nothing was half-written."),
    ),
    503: (
        "service.unavailable",
        _("Not available just now"),
        _("The database is not answering: nothing was written. Try again in a few seconds."),
    ),
}


def _answer(request: HttpRequest, status: int, detail: str | None = None) -> HttpResponse:
    code, title, why = _WHY[status]
    message = str(detail or why)
    if request.path.startswith("/api/"):
        return JsonResponse({"code": code, "message": message, "field": None}, status=status)
    context = {"status": status, "title": str(title), "message": message}
    try:
        # With the request: the site's header (who is signed in, the language switch) as on every page.
        page = render_to_string("error.html", context, request=request)
    except Exception:  # a 500 page must render even when the request's context cannot (the cause)
        page = render_to_string("error.html", context)
    return HttpResponse(page, status=status)


def _detail(exception: Any) -> str | None:
    text = str(exception) if exception is not None else ""
    # Django's resolver puts its internal dictionary in a 404's text: not for visitors.
    return text if text and not text.startswith("{") else None


def bad_request(request: HttpRequest, exception: Any = None) -> HttpResponse:
    return _answer(request, 400)


def permission_denied(request: HttpRequest, exception: Any = None) -> HttpResponse:
    return _answer(request, 403, _detail(exception))


def page_not_found(request: HttpRequest, exception: Any = None) -> HttpResponse:
    return _answer(request, 404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django calls this while the exception is being handled: its cause is at hand."""
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        # The locale middleware may not have run (or its language may not have been kept): the reader's.
        with translation.override(translation.get_language_from_request(request)):
            response = _answer(request, 503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return _answer(request, 500)
