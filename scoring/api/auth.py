"""Token authentication for the API, read in one plain query.

Every API call of a scorer's phone is authenticated by its token, so this is on the path of every move:
DRF's own class reads the token and its user through the ORM, which compiles the query anew each time
and costs more than the query itself. This reads the same rows (the token's user, refused if inactive)
with one statement written out, turned into the user by ``common.rows.instances``; what it answers is what
DRF's class answers.

A view that reads its match right after (``MatchApi.match_with_token``: a scorer's move, undo, queue)
has the match read in the same message as the token's user, one round trip and one statement's client
work fewer: the match with the token user's role in its club and whether he scores it, exactly as
``selectors.match_get`` reads it for that user, kept on the request for the view (``match_read``). The
view still checks its permissions on it as before; a token that names no user reads no match.

Both statements are prepared on the connection (``common.rows.execute_message``): the server parses
and plans them once per connection, not on every request.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpRequest
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from common.rows import instance_sets, instances
from scoring.models import Match
from scoring.selectors import MATCH_DEFER, match_with_viewer_sql

# Where the match read with the token is kept on Django's request: (match id, user id, match or None).
_MATCH_READ = "_segnapunti_match_read"


class QuickTokenAuthentication(TokenAuthentication):
    match_id: int | None = None

    def authenticate(self, request: Request) -> tuple[Any, Token] | None:
        context = getattr(request, "parser_context", None) or {}
        view, kwargs = context.get("view"), context.get("kwargs") or {}
        match_id = kwargs.get("match_id")
        if getattr(view, "match_with_token", False) and type(match_id) is int:
            self.match_id, self.request = match_id, request
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        model = get_user_model()
        users = model._meta.db_table
        tokens = Token._meta.db_table
        sql = f"SELECT u.* FROM {users} u JOIN {tokens} t ON t.user_id = u.id WHERE t.key = %s"
        if self.match_id is None:
            found = instances(model, sql, [key], prepare=True)
        else:
            match_sql = match_with_viewer_sql(f"(SELECT user_id FROM {tokens} WHERE key = %s)")
            found, matches = instance_sets(
                [(model, sql, [key]), (Match, match_sql, [key, key, self.match_id], MATCH_DEFER)],
                prepare=True,
            )
            if found:
                django_request: HttpRequest = self.request._request
                setattr(
                    django_request, _MATCH_READ, (self.match_id, found[0].pk, matches[0] if matches else None)
                )
        if not found:
            raise exceptions.AuthenticationFailed("Invalid token.")
        user = found[0]
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        token = Token(key=key, user_id=user.pk)
        token.user = user
        return user, token


def match_read(request: Request, match_id: int, user: Any) -> tuple[bool, Match | None]:
    """The match read with the token for this request, once: (True, the match or None when there is
    none) when it was read for that match and that user, else (False, None)."""
    django_request = request._request
    kept = django_request.__dict__.pop(_MATCH_READ, None)
    if kept is None or kept[0] != match_id or kept[1] != getattr(user, "pk", None):
        return False, None
    return True, kept[2]
