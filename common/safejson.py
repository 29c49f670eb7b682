"""JSON from outside, read so that no input can crash a request.

What clients send is parsed once, here: by the API's parser (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``)
and by the forms of the pages that take a move as JSON. Refused, with a message that says why:

* nesting deeper than :data:`MAX_DEPTH` (the standard parser recurses: 50,000 levels would raise a
  ``RecursionError``, a server error);
* numbers that are not finite (``1e400`` reads as infinity, which PostgreSQL's ``jsonb`` cannot store),
  and the ``NaN``/``Infinity`` literals;
* the NUL character in any string or key (PostgreSQL's text cannot hold it).
"""

from __future__ import annotations

import json
import math
from typing import Any

from django.utils.translation import gettext
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32  # a move, a ruling or a match record is a few levels deep


class UnsafeJSON(ValueError):
    """JSON that is well formed or not, but that the service does not take."""


def _too_deep() -> str:
    return gettext("nested more than {n} levels deep").format(n=MAX_DEPTH)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UnsafeJSON(gettext("the number {number} is too large").format(number=text))
    return value


def _constant(name: str) -> Any:
    raise UnsafeJSON(gettext("{name} is not a number JSON allows").format(name=name))


def loads(text: str | bytes) -> Any:
    """Parse ``text``; :class:`UnsafeJSON` (a ``ValueError``) for anything malformed or refused above."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise UnsafeJSON(gettext("the body is not UTF-8 text")) from None
    try:
        value = json.loads(text, parse_float=_finite, parse_constant=_constant)
    except UnsafeJSON:
        raise
    except RecursionError:
        raise UnsafeJSON(_too_deep()) from None
    except ValueError as exc:
        raise UnsafeJSON(gettext("not valid JSON ({error})").format(error=exc)) from None
    _check(value)
    return value


def _check(value: Any) -> None:
    """Depth and NUL characters, walked without recursion."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise UnsafeJSON(gettext("a text contains the NUL character (\\u0000)"))
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise UnsafeJSON(_too_deep())
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)


class SafeJSONParser(JSONParser):
    """DRF's JSON parser on :func:`loads`: a refused body is a 400 naming why, never a 500."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return loads(stream.read())
        except UnsafeJSON as exc:
            raise ParseError(gettext("JSON parse error: {error}").format(error=exc)) from None
