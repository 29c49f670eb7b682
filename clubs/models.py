"""A club, the players who play there, and the users who have a role in it."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    """A card club: where players belong and tournaments are held."""

    name = models.CharField(max_length=120, unique=True)
    city = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A member of a club."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=120)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            # One player per name in a club, whatever the case: "Rossi" and "ROSSI" are one person, and two
            # walk-ins entered at once cannot both be created (the database decides, not a prior lookup).
            models.UniqueConstraint("club", Lower("name"), name="player_unique_name_in_club_any_case")
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's role in a club: director (rulings, tournaments), scorer (records moves at the tables he
    is assigned to) or member (reads)."""

    class Role(models.TextChoices):
        DIRECTOR = "director", _("director")
        SCORER = "scorer", _("scorer")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)

    class Meta:
        ordering = ["club", "user"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user_in_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) at {self.club}"
