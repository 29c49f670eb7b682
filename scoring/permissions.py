"""Who may do what with a match: one policy for the pages and the API.

Roles are per club (:mod:`clubs.permissions`): a director rules and records anywhere in the club, a
scorer records at the matches he is assigned to (``Match.scorers``), a member reads the club's matches.
Anyone, signed in or not, reads a published match. A superuser counts as a director of every club.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, Q, QuerySet

from clubs.models import Club, Membership
from clubs.permissions import Role, club_role
from scoring.models import Match


def match_role(user: Any, match: Match) -> tuple[str | None, bool]:
    """The user's role in the match's club and whether he is assigned to score it, in one query, kept on
    the user for the rest of the request (a request checks several permissions on one match)."""
    if user is None or not user.is_authenticated:
        return None, False
    if user.is_superuser:
        return str(Role.DIRECTOR), True
    known: dict[int, tuple[str | None, bool]] = user.__dict__.setdefault("_match_roles", {})
    if match.pk not in known and hasattr(match, "viewer_assigned"):  # read with the match (match_get)
        role, assigned = getattr(match, "viewer_role", None), getattr(match, "viewer_assigned", False)
        known[match.pk] = (str(role), bool(assigned)) if role is not None else (None, False)
    if match.pk not in known:
        assigned = Match.scorers.through.objects.filter(match_id=match.pk, user_id=user.pk)
        found = next(
            iter(
                Membership.objects.filter(club_id=match.club_id, user=user)
                .annotate(assigned=Exists(assigned))
                .order_by()
                .values_list("role", "assigned")[:1]
            ),
            None,
        )
        known[match.pk] = (str(found[0]), bool(found[1])) if found else (None, False)
    return known[match.pk]


def can_read(user: Any, match: Match) -> bool:
    return match.published or match_role(user, match)[0] is not None


def can_record(user: Any, match: Match) -> bool:
    role, assigned = match_role(user, match)
    return role == Role.DIRECTOR or (role == Role.SCORER and assigned)


def can_rule(user: Any, match: Match) -> bool:
    return match_role(user, match)[0] == Role.DIRECTOR


def can_create_match(user: Any, club: Club) -> bool:
    return club_role(user, club) in (Role.DIRECTOR, Role.SCORER)


def readable_matches(user: Any, club: Club) -> QuerySet[Match]:
    """The club's matches this user may read: all of them for its members, the published ones otherwise."""
    matches = Match.objects.filter(club=club)
    if club_role(user, club) is not None:
        return matches
    return matches.filter(Q(published=True))
