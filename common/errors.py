"""The error every service may raise for a request it refuses: a stable code, a plain message, the field
concerned and the HTTP status the API answers with (400: not well formed; 422: well formed but refused).

The rule engine keeps its own errors (``scoring.rules.errors``) so that it stays free of Django and of
this project; the API's exception handler maps both to the same body.
"""

from __future__ import annotations


class ServiceError(Exception):
    status_code = 422

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "message": self.message, "field": self.field}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class Invalid(ServiceError):
    """The request is not well formed: 400."""

    status_code = 400


class Refused(ServiceError):
    """The request is well formed but cannot be done now: 422, and nothing was written."""

    status_code = 422


class Forbidden(ServiceError):
    """The request is well formed but this user's role may not make it: 403, and nothing was written."""

    status_code = 403


class ConcurrencyConflict(Exception):
    """An event stream is not at the version the writer expected: somebody else appended first (raised by
    the store, ``scoring.log.store``; the API answers 409 with both versions)."""

    def __init__(self, stream_id: str, expected: int, actual: int) -> None:
        super().__init__(f"stream {stream_id!r} is at version {actual}, not the expected {expected}")
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual
