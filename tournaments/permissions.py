"""Who may do what with a tournament: the club roles of :mod:`clubs.permissions`, applied to it.

A director of the club runs its tournaments (creates, registers, seats, closes, publishes, rules); its
scorers record at the tables they are assigned to (a match permission); its members read everything;
anyone reads a published tournament's standings.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from clubs.models import Club, Membership
from clubs.permissions import club_role
from tournaments.models import Tournament


def can_read(user: Any, tournament: Tournament) -> bool:
    return tournament.published or club_role(user, tournament.club_id) is not None


def can_direct(user: Any, tournament: Tournament) -> bool:
    return club_role(user, tournament.club_id) == Membership.Role.DIRECTOR


def can_create(user: Any, club: Club) -> bool:
    return club_role(user, club) == Membership.Role.DIRECTOR


def readable(user: Any) -> QuerySet[Tournament]:
    """The tournaments ``user`` may read."""
    tournaments = Tournament.objects.select_related("club")
    if user is not None and user.is_authenticated and user.is_superuser:
        return tournaments
    visible = Q(published=True)
    if user is not None and user.is_authenticated:
        visible |= Q(club__memberships__user=user)
    return tournaments.filter(visible).distinct()


def clubs_directed(user: Any) -> QuerySet[Club]:
    """The clubs where ``user`` may set up tournaments (a superuser: all of them)."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(memberships__user=user, memberships__role=Membership.Role.DIRECTOR).distinct()
