"""The roles a user can have in a club, and the one question every permission of the service starts from:
what is this user's role in that club?

A club's director runs it (rules, tournaments, records anywhere), its scorers record at the tables they
are assigned to, its members read; an outsider reads only what is published. A superuser counts as a
director of every club. Each app applies these roles to its own objects: ``scoring.permissions`` to
matches, ``tournaments.permissions`` to tournaments.
"""

from __future__ import annotations

from typing import Any

from clubs.models import Club, Membership

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
