"""The API's permission class: the policy of :mod:`scoring.permissions`, applied to each operation.

An operation names what it needs per HTTP method in ``access`` (``{"GET": "read", "POST": "record"}``);
the view then checks the match (or, to create a match or import a record, the club) it works on with
``check_object_permissions``. A match the user may not read answers 404, as if it did not exist; a match he
may read but not change answers 403; a write without credentials answers 401.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from clubs.models import Club, Membership
from clubs.permissions import club_role
from scoring import permissions
from scoring.models import Match

Check = Callable[[Any, Any], bool]


def can_import(user: Any, club: Club) -> bool:
    """A record may carry rulings: only a director imports."""
    return club_role(user, club) == Membership.Role.DIRECTOR


MATCH_CHECKS: dict[str, Check] = {
    "read": permissions.can_read,
    "record": permissions.can_record,
    "rule": permissions.can_rule,
    "manage": permissions.can_rule,  # the match itself: title, publication, scorers (directors)
}
CLUB_CHECKS: dict[str, Check] = {
    "create": permissions.can_create_match,
    "import": can_import,
}


def _need(request: Request, view: Any) -> str:
    access: dict[str, str] = getattr(view, "access", {})
    return access.get(request.method or "", "read")


class MatchAccess(BasePermission):
    """Reads are open (a match's own visibility is checked on the object); writes need a signed-in user."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return _need(request, view) == "read" or bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        need = _need(request, view)
        if isinstance(obj, Club):
            return CLUB_CHECKS[need](request.user, obj)
        assert isinstance(obj, Match), f"MatchAccess checks a match or a club, not {obj!r}"
        if not permissions.can_read(request.user, obj):
            raise NotFound(gettext("no such match"))
        return MATCH_CHECKS[need](request.user, obj)
