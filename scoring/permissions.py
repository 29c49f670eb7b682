"""Who may do what with a match: one policy for the pages and the API.

Roles are per club (``tournaments.Membership``): a director rules and records anywhere in the club, a
scorer records at the matches he is assigned to (``Match.scorers``), a member reads the club's matches.
Anyone, signed in or not, reads a published match. A superuser counts as a director of every club.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from scoring.models import Match
from tournaments.models import Club, Membership

Role = Membership.Role


def club_role(user: Any, club: Club | int) -> str | None:
    """The user's role in the club (``director``, ``scorer``, ``member``), or None for an outsider."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return str(Role.DIRECTOR)
    club_id = club if isinstance(club, int) else club.pk
    role = Membership.objects.filter(club_id=club_id, user=user).values_list("role", flat=True).first()
    return str(role) if role is not None else None


def can_read(user: Any, match: Match) -> bool:
    return match.published or club_role(user, match.club_id) is not None


def can_record(user: Any, match: Match) -> bool:
    role = club_role(user, match.club_id)
    if role == Role.DIRECTOR:
        return True
    return role == Role.SCORER and match.scorers.filter(pk=user.pk).exists()


def can_rule(user: Any, match: Match) -> bool:
    return club_role(user, match.club_id) == Role.DIRECTOR


def can_create_match(user: Any, club: Club) -> bool:
    return club_role(user, club) in (Role.DIRECTOR, Role.SCORER)


def readable_matches(user: Any, club: Club) -> QuerySet[Match]:
    """The club's matches this user may read: all of them for its members, the published ones otherwise."""
    matches = Match.objects.filter(club=club)
    if club_role(user, club) is not None:
        return matches
    return matches.filter(Q(published=True))
