from django.db import models


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

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="player_unique_name_in_club")]

    def __str__(self) -> str:
        return self.name
