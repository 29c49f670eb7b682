"""The API's OpenAPI schema says every answer an operation can give, not only its successes.

drf-spectacular documents what a view declares. Every operation of this API can also answer the errors
of ``scoring/api/errors.py`` in the one error body (``{"code", "message", "field"}``), for reasons that
belong to the whole API rather than to a view: a bad token (401), a permission (403), an id that names
nothing (404), a malformed body or query (400), a body too large (413) or of another type (415), a rule
that refuses a well-formed write (422), a stale version (409), a throttle (429), the database out of
reach (503). This schema class adds those to each operation where they can happen, and marks an
operation that answers without credentials as such, so that a client (and the schemathesis suite in
``tests/segnapunti/test_openapi_fuzz.py``) can rely on the schema for every status.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular import openapi
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from common.api import NO_NUL, NOT_BLANK, ErrorSerializer

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


class AutoSchema(openapi.AutoSchema):
    def get_auth(self) -> list[dict[str, Any]]:
        auth = super().get_auth()
        if {} not in auth and self._anonymous_allowed():
            auth.append({})
        return auth

    def _anonymous_allowed(self) -> bool:
        """Whether the view's permissions let a request without credentials through (objects aside)."""
        request = Request(APIRequestFactory().generic(self.method, self.path))
        request.user = AnonymousUser()
        try:
            return all(p.has_permission(request, self.view) for p in self.view.get_permissions())
        except Exception:  # a permission that needs more of the request than this one has: not open
            return False

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        """A request body names only its fields (``scoring.api.views.validated`` refuses any other)."""
        mapped: dict[str, Any] = super()._map_basic_serializer(serializer, direction)  # type: ignore[no-untyped-call]
        if direction == "request":
            mapped["additionalProperties"] = False
        return mapped

    def _get_serializer_field_meta(self, field: Any, direction: Any) -> dict[str, Any]:
        """A text field that may not be blank after trimming says so with a pattern."""
        meta: dict[str, Any] = super()._get_serializer_field_meta(field, direction)  # type: ignore[no-untyped-call]
        text = isinstance(field, serializers.CharField) and not field.allow_blank and field.trim_whitespace
        if direction == "request" and text:
            meta["pattern"] = NOT_BLANK
        return meta

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        bodies: dict[str, Any] = super()._get_response_bodies(direction)
        if direction != "response" or not self.path.startswith("/api/") or "/schema" in self.path:
            return bodies
        for code in map(str, self._error_statuses()):
            if code not in bodies:
                bodies[code] = self._get_response_for_code(  # type: ignore[no-untyped-call]
                    ErrorSerializer, code, direction=direction
                )
        return bodies

    def _error_statuses(self) -> list[int]:
        codes = [401, 403, 503]
        has_body = self.method in WRITES and self.method != "DELETE"
        if "{" in self.path:
            codes.append(404)
        if has_body or self._get_parameters():
            codes.append(400)
        if has_body:
            codes += [413, 415]
        if self.method in WRITES:
            codes += [409, 422]
        if self.view.get_throttles():
            codes.append(429)
        return sorted(codes)


def forbid_nul(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A postprocessing hook: no text the API reads may hold the NUL character (``common/safejson.py``
    refuses it, PostgreSQL cannot store it), so every string without a pattern of its own says so."""
    stack: list[Any] = [result.get("components", {}), result.get("paths", {})]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("type") == "string" and not ({"enum", "pattern", "format"} & node.keys()):
                node["pattern"] = NO_NUL
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return result
