"""factory_boy factories for the database models the scoring tests need (clubs, users, roles)."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth.models import User

from clubs.models import Club, Membership, Player


class ClubFactory(factory.django.DjangoModelFactory[Club]):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Circolo {n}")
    city = "Bologna"


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"user{n}")
    # An unusable password costs no hashing: the API tests authenticate with tokens or force_login.
    password = factory.django.Password(None)


class MembershipFactory(factory.django.DjangoModelFactory[Membership]):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.MEMBER


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Giocatore {n}")


def member(club: Club, role: str, **kwargs: Any) -> User:
    """A user with ``role`` at ``club``."""
    user: User = UserFactory(**kwargs)
    MembershipFactory(club=club, user=user, role=role)
    return user
