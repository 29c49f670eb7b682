"""The token endpoint: DRF's, with the project's JSON parser and the sign-in throttles.

Kept apart from :mod:`scoring.api_auth`, which the REST framework's settings import while its views
module is still loading.
"""

from __future__ import annotations

import hashlib

from rest_framework import parsers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from segnapunti.safejson import SafeJSONParser


class LoginAddressThrottle(SimpleRateThrottle):
    """Sign-ins and token requests from one address (the ``login`` rate)."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginNameThrottle(SimpleRateThrottle):
    """Sign-ins and token requests for one user name, wherever they come from (the ``login_name``
    rate): a password guessed from many addresses is slowed down as much as from one."""

    scope = "login_name"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        name = request.data.get("username") if hasattr(request.data, "get") else None
        if not isinstance(name, str) or not name:
            return None
        digest = hashlib.sha256(name.strip().casefold().encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": digest}


class TokenApi(ObtainAuthToken):
    """A user's API token for his user name and password; 429 with ``Retry-After`` once a rate is
    spent; a body that cannot be read is a 400, never a 500."""

    parser_classes = (SafeJSONParser, parsers.FormParser, parsers.MultiPartParser)
    throttle_classes = (LoginAddressThrottle, LoginNameThrottle)
