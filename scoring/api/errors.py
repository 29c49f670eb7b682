"""How the API answers an error: one place, one body shape.

Every error body names a stable ``code``, a plain ``message`` and the ``field`` concerned (or null):

* a malformed request, move, ruling or record (``MalformedMove``, ``InvalidOptions``, a malformed
  ``RecordError``, a serializer's ``ValidationError``): 400;
* a move, ruling or record that cannot stand (``ImpossibleMove``, ``IrregularMoveRefused`` at a strict
  table, an impossible ``RecordError``): 422, and nothing was written; so is a well-formed body whose
  only fault is to name a club, player or user that is not there (``request.unknown_reference``);
* a service's refusal (:class:`common.errors.ServiceError`, e.g. a tournament's): its own status;
* a stale ``expected_version`` (``ConcurrencyConflict``): 409, with ``expected_version`` and
  ``current_version`` so that the client can reload and retry;
* authentication, permission, not found, method not allowed: DRF's status, in the same shape;
* a number the database cannot hold (``DataError``, ``OverflowError``): 400;
* the database unreachable (a connection cut or refused): 503 with ``Retry-After``.

Registered as ``REST_FRAMEWORK["EXCEPTION_HANDLER"]``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db import DataError, InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from common.errors import ConcurrencyConflict, ServiceError
from scoring.hands.records import RecordError
from scoring.models import Match
from scoring.rules import ImpossibleMove, InvalidOptions, MalformedMove, RulesError
from scoring.voice import Voice, error_text

HTTP_422 = status.HTTP_422_UNPROCESSABLE_ENTITY
RETRY_AFTER_SECONDS = 5
log = logging.getLogger(__name__)


def rules_status(exc: RulesError) -> int:
    """400 for what is not well formed, 422 for what is well formed but cannot stand."""
    if isinstance(exc, RecordError):
        return status.HTTP_400_BAD_REQUEST if exc.malformed else HTTP_422
    if isinstance(exc, MalformedMove | InvalidOptions):
        return status.HTTP_400_BAD_REQUEST
    if isinstance(exc, ImpossibleMove):
        return HTTP_422
    return status.HTTP_400_BAD_REQUEST


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The API's error bodies (docs/api.md): a code, a message for people, the field at fault."""
    response = _answer(exc, context)
    if response is not None:
        # A message may quote what was sent (a choice that is not one): a NUL in it, which no text
        # shows and the schema rules out, is replaced by the replacement character.
        response.data = _without_nul(response.data)
    return response


def _without_nul(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd")
    if isinstance(value, dict):
        return {_without_nul(k): _without_nul(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_without_nul(v) for v in value]
    return value


def _answer(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RulesError):
        body = exc.as_dict()
        body["message"] = error_text(exc, _voice(context))  # the code, field and params stay
        return Response(body, status=rules_status(exc))
    if isinstance(exc, ServiceError):
        return Response(exc.as_dict(), status=exc.status_code)
    if isinstance(exc, ConcurrencyConflict):
        if exc.stream_id.startswith("tournament-"):
            text = gettext("the tournament is at version {actual}, not {expected}: reload and try again")
        else:
            text = gettext("the hand is at version {actual}, not {expected}: reload and try again")
        return Response(
            {
                "code": "version.conflict",
                "message": text.format(actual=exc.actual, expected=exc.expected),
                "field": "expected_version",
                "expected_version": exc.expected,
                "current_version": exc.actual,
            },
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, OperationalError | InterfaceError):
        # The database went away (restarted, connection cut): nothing was written (the request's
        # transaction rolled back), so the client may simply try again shortly.
        log.warning("database unavailable: %s", exc)
        return Response(
            {
                "code": "service.unavailable",
                "message": gettext("the database is not answering: try again in a few seconds"),
                "field": None,
            },
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, DataError | OverflowError):
        # A value beyond what the database holds (an id of 30 digits in the path or a filter): no row
        # can match it, and nothing was written.
        return Response(
            {
                "code": "request.out_of_range",
                "message": gettext(
                    "a value in the request is beyond what the service stores (too large or long)"
                ),
                "field": None,
            },
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, ObjectDoesNotExist):  # a row a write names that is not there (a hand number)
        exc = Http404(str(exc))
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a bug: let Django show it (500)
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_error(exc.detail)
        unknown = _codes(exc.get_codes()) <= UNKNOWN_REFERENCE
        response.data = {
            "code": "request.unknown_reference" if unknown else "request.invalid",
            "message": message,
            "field": field,
            "errors": exc.detail,
        }
        if unknown:
            # Well formed, but it names a club, player or user that is not there: the request cannot
            # stand as it is, as a move that breaks a rule cannot (the schema cannot foresee either).
            response.status_code = HTTP_422
    elif isinstance(exc, exceptions.APIException):
        response.data = {"code": _code(exc), "message": _text(exc.detail), "field": None}
    elif isinstance(exc, Http404 | PermissionDenied):
        response.data = {"code": _code(exc), "message": _text(response.data.get("detail")), "field": None}
    return response


def _voice(context: dict[str, Any]) -> Voice:
    """How an error about a match's hand is worded: its seats by the players' names and its cards by
    their names; outside a match, seats by number and cards by their codes."""
    view = context.get("view")
    match_id = getattr(view, "kwargs", {}).get("match_id") if view is not None else None
    if isinstance(match_id, int):
        match = Match.objects.filter(pk=match_id).only("game").first()
        if match is not None:
            seats = list(match.seats.values_list("name", flat=True))
            return Voice.of(match.game, seats)
    return Voice.plain()


# The validation codes of a reference to something that is not there (a club id, a username).
UNKNOWN_REFERENCE = frozenset({"does_not_exist"})


def _codes(codes: Any) -> set[str]:
    """Every leaf code of a ValidationError's codes (nested dicts and lists)."""
    if isinstance(codes, dict):
        return set().union(*(_codes(v) for v in codes.values())) if codes else set()
    if isinstance(codes, list):
        return set().union(*(_codes(v) for v in codes)) if codes else set()
    return {str(codes)}


def _code(exc: Exception) -> str:
    if isinstance(exc, Http404 | exceptions.NotFound):
        return "not_found"
    if isinstance(exc, PermissionDenied | exceptions.PermissionDenied):
        return "permission_denied"
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        return "not_authenticated"
    if isinstance(exc, exceptions.APIException):
        return str(exc.default_code)
    return "error"


def _text(detail: Any) -> str:
    if isinstance(detail, dict):
        detail = detail.get("detail", next(iter(detail.values()), ""))
    if isinstance(detail, list):
        detail = detail[0] if detail else ""
    return str(detail)


def _first_error(detail: Any, path: str = "") -> tuple[str | None, str]:
    """The first field with an error (a dotted path) and its message, for the body's ``field``."""
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        if key != "non_field_errors":
            path = f"{path}.{key}" if path else str(key)
        return _first_error(value, path)
    if isinstance(detail, list) and detail:
        return _first_error(detail[0], path)
    return (path or None, str(detail))
