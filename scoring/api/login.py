"""The token endpoint: DRF's, with the project's JSON parser and the sign-in throttles.

Kept apart from :mod:`scoring.api.auth`, which the REST framework's settings import while its views
module is still loading.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, parsers, serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response

from common.safejson import SafeJSONParser
from common.throttles import LOGIN_THROTTLES


def refuse_unknown_keys(data: dict[str, Any], known: Any) -> None:
    """A body names only the fields the operation reads: a misspelt one is an error, not ignored (the
    schema says so too: ``additionalProperties: false``)."""
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise serializers.ValidationError(
            {name: [gettext("unknown field {name!r}").format(name=name)] for name in unknown},
            code="unknown_field",
        )


class TokenRequestSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()


class TokenApi(ObtainAuthToken):
    """A user's API token for his user name and password; 429 with ``Retry-After`` once a rate is
    spent; a body that cannot be read is a 400, never a 500."""

    parser_classes = (SafeJSONParser, parsers.FormParser, parsers.MultiPartParser)
    throttle_classes = LOGIN_THROTTLES

    @extend_schema(
        operation_id="token_create",
        request=TokenRequestSerializer,
        responses={200: TokenSerializer},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A well-formed request with a wrong user name or password is an authentication failure (401),
        not a malformed request: DRF's own view answers it 400."""
        if isinstance(request.data, dict):
            refuse_unknown_keys(request.data, TokenRequestSerializer().fields)
        try:
            response: Response = super().post(request, *args, **kwargs)
        except exceptions.ValidationError as exc:
            if exc.get_codes() == {"non_field_errors": ["authorization"]}:
                raise exceptions.AuthenticationFailed(gettext("wrong user name or password")) from exc
            raise
        return response
