from django.db.models import QuerySet

from tournaments.models import Club


def club_list() -> QuerySet[Club]:
    """Every club with its players loaded, in name order."""
    return Club.objects.prefetch_related("players")


def club_roster(*, club_id: int) -> list[str]:
    """The names of a club's players, in order: the roster the club prints for its notice board."""
    club = Club.objects.get(pk=club_id)
    return [player.name for player in club.players.order_by("name")]
