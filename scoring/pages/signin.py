"""The sign-in page: Django's, counted against the same throttles as the token endpoint."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.throttles import login_wait


class SignInView(auth_views.LoginView):
    """Every posted sign-in counts, per address and per user name; once a rate is spent the page says
    so (429, in the reader's language, with ``Retry-After``) and the password is not even checked."""

    template_name = "scoring/login.html"
    next_page = "pages:club-list"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = login_wait(request, self)
        if wait is not None:
            return throttled_page(request, wait)
        return super().post(request, *args, **kwargs)


def throttled_page(request: HttpRequest, wait: float) -> HttpResponse:
    seconds = max(1, int(wait + 0.999))
    context = {
        "status": 429,
        "title": _("Too many attempts"),
        "message": ngettext(
            "Too many sign-in attempts. Try again in %(seconds)s second.",
            "Too many sign-in attempts. Try again in %(seconds)s seconds.",
            seconds,
        )
        % {"seconds": seconds},
    }
    response = render(request, "error.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
