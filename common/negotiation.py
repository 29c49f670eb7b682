"""DRF's content negotiation, with the common case answered at once.

The parser likewise, for a body sent as exactly ``application/json``.

A scorer's phone posts every move with no ``Accept`` header, or with ``*/*`` or ``application/json``, and
no ``?format=``: DRF's negotiation then parses the header, orders its media types by precedence and
matches them against each renderer, to pick the first renderer, JSON, every time (issue 29: it is on the
path of every move). Those exact headers are answered here as DRF answers them, when the view's first
renderer is JSON; anything else (a browser's ``text/html``, parameters, several types, a format asked
for) goes through DRF's own negotiation.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

JSON = "application/json"
# Accept headers (None: none sent) for which DRF picks the first renderer with its own media type when
# that renderer's media type is JSON, as tests/common/test_negotiation.py checks.
_PLAIN_ACCEPTS = frozenset({None, "*/*", JSON})


class QuickContentNegotiation(DefaultContentNegotiation):
    def select_parser(self, request: Request, parsers: Iterable[BaseParser]) -> BaseParser | None:
        # A body sent as exactly application/json, where the first parser reads it: that parser, as DRF
        # would match it (a media type without parameters matches itself, and the first match is taken).
        if (
            isinstance(parsers, list | tuple)
            and parsers
            and request.content_type == JSON == parsers[0].media_type
        ):
            return parsers[0]  # type: ignore[no-any-return]
        return super().select_parser(request, parsers)

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> Any:
        meta = request._request.META
        if (
            format_suffix is None
            and isinstance(renderers, list | tuple)
            and renderers
            and renderers[0].media_type == JSON
            and not meta.get("QUERY_STRING")
            and meta.get("HTTP_ACCEPT") in _PLAIN_ACCEPTS
        ):
            return renderers[0], JSON
        return super().select_renderer(request, renderers, format_suffix)
