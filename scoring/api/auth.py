"""Token authentication for the API, read in one plain query.

Every API call of a scorer's phone is authenticated by its token, so this is on the path of every move:
DRF's own class reads the token and its user through the ORM, which compiles the query anew each time
and costs more than the query itself. This reads the same rows (the token's user, refused if inactive)
with one statement written out, turned into the user by ``common.rows.instances``; what it answers is what
DRF's class answers.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from common.rows import instances


class QuickTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        model = get_user_model()
        users = model._meta.db_table
        tokens = Token._meta.db_table
        sql = f"SELECT u.* FROM {users} u JOIN {tokens} t ON t.user_id = u.id WHERE t.key = %s"
        found = instances(model, sql, [key])
        if not found:
            raise exceptions.AuthenticationFailed("Invalid token.")
        user = found[0]
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        token = Token(key=key, user_id=user.pk)
        token.user = user
        return user, token
