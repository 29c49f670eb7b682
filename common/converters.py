"""The one path converter for ids and numbers in URLs.

Django's ``int`` matches any number of digits, so ``/matches/<25 digits>/`` reached the database, which
cannot hold such a number (a 500 on SQLite, a 400 elsewhere). ``id`` matches at most nine digits: every
id, hand number and replay step the service can store fits (the smallest columns are 32-bit), and a
longer one names nothing: 404, like any other id that is not there. The OpenAPI schema declares the same
bounds (``SPECTACULAR_SETTINGS["PATH_CONVERTER_OVERRIDES"]``).
"""

from __future__ import annotations

from django.urls import register_converter

ID_DIGITS = 9
ID_MAX = 10**ID_DIGITS - 1


class IdConverter:
    regex = f"[0-9]{{1,{ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
